#!/usr/bin/env bash
# Trunk post_build hook (see Trunk.toml): cuts the app's wasm into a main
# module (the shell, the renderer, and all code more than one demo uses) and
# one module per demo, which the page fetches when that demo opens
# (`split_open!` in src/catalogue/mod.rs marks where to cut).
#
# Trunk has already run wasm-bindgen on the whole wasm (and no wasm-opt:
# index.html turns it off). This redoes wasm-bindgen and wasm-opt on the cut
# modules, from cargo's output (linked with --emit-relocs, see build.rs), and
# replaces Trunk's main module under its hashed name; every file it adds
# carries the same hash, so a browser never mixes two builds. split-loader.py
# adapts the loader and adds the head script to index.html; inline-app-js.py
# then puts the glue and the loader into index.html in place of Trunk's
# script, and Trunk's glue file goes; demo-pages.py writes each demo's own
# copy of index.html, <section>/<slug>.html.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/tools/bin:$root/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
staging=${TRUNK_STAGING_DIR:?"run by Trunk as a post_build hook"}

shopt -s nullglob
built=("$staging"/stack-lab-*_bg.wasm)
# Another app built with this Trunk.toml (the bench's counter): nothing to cut.
[ ${#built[@]} -eq 1 ] || exit 0
name=$(basename "${built[0]}" _bg.wasm)
raw="${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/$TRUNK_PROFILE/stack-lab.wasm"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A family is a section of the catalogue. Code that only demos of one
# section need goes to that section's chunks; code that demos of several
# sections need, to a chunk of just those demos, or, if it is little, to the
# main module (scripts/wasm-split-families.patch; ARCHITECTURE.md has the
# numbers). A page fetches its demo's module and the chunks it needs.
STACK_LAB_SPLIT_FAMILIES=$(python3 "$root/scripts/catalogue.py" families "$root/src/catalogue")
export STACK_LAB_SPLIT_FAMILIES
wasm-split-cli "$raw" "$work/split" --out-name "$name"
# --keep-lld-exports: the demo modules link against the main module's exports.
wasm-bindgen --target web --no-typescript --keep-lld-exports \
  --out-dir "$work/bindgen" --out-name "$name" "$work/split/$name.wasm"
# Short names for the imports the glue provides, in both (3 KiB gzip).
python3 "$root/scripts/minify-imports.py" "$work/bindgen/${name}_bg.wasm" "$work/bindgen/$name.js"
# Without the stream classes no script can use (1.4 KiB gzip).
python3 "$root/scripts/drop-unused-classes.py" "$work/bindgen/${name}_bg.wasm" "$work/bindgen/$name.js"

# The loader and the demo modules take the build's hashed name.
mv "$work/split/__wasm_split.js" "$work/loader.js"
demos=()
for module in "$work/split"/split_*.wasm; do
  demo=$(basename "$module" .wasm)
  demo=${demo#split_}
  # ui_*: a part of the page fetched when first used (the lesson panel),
  # not a demo.
  [[ $demo == ui_* ]] || demos+=("$demo")
  mv "$module" "$work/$name-$demo.wasm"
  sed -i "s#\"./split_$demo.wasm\"#\"./$name-$demo.wasm\"#" "$work/loader.js"
done
for module in "$work/split"/chunk_*.wasm; do
  chunk=$(basename "$module" .wasm)
  mv "$module" "$work/$name-$chunk.wasm"
  sed -i "s#\"./$chunk.wasm\"#\"./$name-$chunk.wasm\"#" "$work/loader.js"
done
mv "$work/loader.js" "$work/$name-split.js"
# modules.json: what each demo's page fetches besides the main module, for
# demo-pages.py (the loader holds the same).
python3 "$root/scripts/split-loader.py" "$work/$name-split.js" "$staging/index.html" "$work/modules.json"
mv "$work/bindgen/$name.js" "$work/bindgen/${name}_bg.wasm" "$work/"
if grep -qE '"\./(split|chunk)_' "$work/$name-split.js"; then
  echo "split-wasm.sh: a file name was left unrenamed" >&2
  exit 1
fi
# The glue and the loader go into index.html: the page fetches no script.
python3 "$root/scripts/inline-app-js.py" "$work/$name.js" "$work/$name-split.js" "$staging/index.html"
rm -f "$staging/$name.js"
# The service worker and its registration: the lab offline.
python3 "$root/scripts/offline.py" "$staging/index.html" "$staging" "$work" "$name"
python3 "$root/scripts/minify-inline.py" "$staging/index.html"

# What Trunk would do for a release build: wasm-opt -Oz, two at a time.
# --low-memory-unused: rustc links wasm with the stack first (the stack
# pointer starts at 1 MiB and data lies above it), so the lowest 1 KiB is
# touched only by a stack that has already overflowed; binaryen may then
# fold constant offsets into loads and stores (measured: 1.9 KiB gzip off
# the main module and the heaviest demo's together).
# --strip-producers --strip-target-features: every module carried two custom
# sections no browser reads (who processed it; the wasm features it was
# built with), about 200 bytes gzip each, so a page paid once per module it
# fetches (the journey, 25 modules: 3.9 KiB gzip).
if [ "$TRUNK_PROFILE" = release ]; then
  # wasm-split writes a name subsection binaryen does not know; it warns
  # once per module and drops the names anyway.
  printf '%s\0' "$work"/*.wasm | xargs -0 -P 2 -I{} wasm-opt -Oz --low-memory-unused \
    --strip-producers --strip-target-features {} -o {} \
    2> >(grep -v '^warning: unknown name subsection' >&2)
fi
# The main module's reservations of the split modules' table slots, once
# nothing else will rewrite the table (0.4 KiB gzip).
python3 "$root/scripts/drop-null-slots.py" "$work/${name}_bg.wasm"
cp "$work"/*.wasm "$staging/"
# Each demo's own entry document, which preloads its module too.
python3 "$root/scripts/demo-pages.py" "$staging/index.html" "$root/src/catalogue" "$work/modules.json" "${demos[@]}"
python3 "$root/scripts/csp.py" "$staging"  # last: it hashes the inline scripts the steps above wrote
