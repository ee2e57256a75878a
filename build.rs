//! Keeps the linker's relocations in the app's wasm: `scripts/split-wasm.sh`
//! cuts the wasm into one module per demo along them. Only this crate's
//! binary: the bench's counter must stay a plain Leptos build.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}
