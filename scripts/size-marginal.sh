#!/usr/bin/env bash
# Marginal size of demos: the release wasm (wasm-bindgen + wasm-opt -Oz, as
# Trunk builds it) with every demo, then without each named demo's catalogue
# entry; prints what each demo adds, raw and gzip -9.
# Usage: scripts/size-marginal.sh SLUG...   (run by `make size`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/target/size-work"
export CARGO_TARGET_DIR="$root/target/size-target"
export PATH="$root/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
bindgen_out="$work/out"

copy_tree() {
  rm -rf "$work"
  mkdir -p "$work"
  (cd "$root" && tar cf - Cargo.toml Cargo.lock .cargo demos views src static index.html rust-toolchain.toml) | (cd "$work" && tar xf -)
}

# Builds the copy in $work; prints "raw gzip" of the optimised wasm.
measure() {
  cargo build -q --release --target wasm32-unknown-unknown --manifest-path "$work/Cargo.toml" --bin stack-lab 2>/dev/null
  rm -rf "$bindgen_out"
  wasm-bindgen --target web --no-typescript --out-dir "$bindgen_out" "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/stack-lab.wasm"
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    -o "$bindgen_out/opt.wasm" "$bindgen_out/stack-lab_bg.wasm"
  echo "$(stat -c %s "$bindgen_out/opt.wasm") $(gzip -9 -c "$bindgen_out/opt.wasm" | wc -c)"
}

copy_tree
read -r full_raw full_gz < <(measure)
printf '%-24s %10s %10s\n' "demo" "adds raw" "adds gzip"
for slug in "$@"; do
  copy_tree
  python3 - "$work/src/catalogue" "$slug" <<'PY'
import glob, re, sys
folder, slug = sys.argv[1], sys.argv[2]
entry = re.compile(r'\n    Demo \{\n(?:(?!\n    \},).)*?slug: "%s",.*?\n    \},' % re.escape(slug), re.S)
found = 0
for path in glob.glob(folder + '/*.rs'):
    text = open(path).read()
    new, n = entry.subn('', text)
    if n:
        found += n
        open(path, 'w').write(new)
if found != 1:
    sys.exit(f"no catalogue entry for {slug}")
PY
  read -r raw gz < <(measure)
  printf '%-24s %8.1f KiB %8.1f KiB\n' "$slug" "$(echo "($full_raw - $raw)/1024" | bc -l)" "$(echo "($full_gz - $gz)/1024" | bc -l)"
done
printf '%-24s %8.1f KiB %8.1f KiB\n' "all demos (wasm)" "$(echo "$full_raw/1024" | bc -l)" "$(echo "$full_gz/1024" | bc -l)"
