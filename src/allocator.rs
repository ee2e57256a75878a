//! The heap of the wasm build: Talc instead of Rust's default dlmalloc.
//!
//! Why: a demo page's first frame makes thousands of small allocations
//! (element trees, strings), and dlmalloc's `malloc`, a 4.6 KB function,
//! ran hot enough in them that V8 compiled it with TurboFan during start-up
//! (5–27 ms on the page's second core, seen with
//! `--js-flags=--trace-wasm-compilation-times`), on a machine with two.
//! Talc is smaller and faster per call on wasm (its benchmarks:
//! github.com/SFBdragon/talc, BENCHMARKS_WASM.md). The page is
//! single-threaded (no `atomics`), which Talc's wasm cell requires.

#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static HEAP: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
