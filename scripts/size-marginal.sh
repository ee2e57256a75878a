#!/usr/bin/env bash
# Marginal size of demos. The release site is built as `make build` builds it
# (Trunk, whose hook scripts/split-wasm.sh cuts the wasm into a main module and
# one module per demo) with every demo, then without each named demo's
# catalogue entry. Prints, raw and gzip -9, what each demo adds to the main
# module (what every page fetches) and to all modules together (the main one
# and its own, which only its page fetches). `section:ID` removes a whole
# section and also prints the average per demo of that section.
# Usage: scripts/size-marginal.sh SLUG|section:ID...   (run by `make size`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/target/size-work"
export CARGO_TARGET_DIR="$root/target/size-target"
export PATH="$root/tools/bin:$root/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
out="$work/dist"

copy_tree() {
  rm -rf "$work"
  mkdir -p "$work"
  (cd "$root" && tar cf - Cargo.toml Cargo.lock build.rs .cargo Trunk.toml scripts demos views src static index.html rust-toolchain.toml end2end/bench/counter/Cargo.toml end2end/bench/counter/src) | (cd "$work" && tar xf -)
}

# Builds the copy in $work exactly as `make build` does; prints
# "main_raw main_gzip all_raw all_gzip" of the wasm it ships.
measure() {
  (cd "$work" && trunk --offline=true build --release --dist "$out" >/dev/null 2>&1)
  local main all_raw=0 all_gz=0 f
  main=$(echo "$out"/*_bg.wasm)
  for f in "$out"/*.wasm; do
    all_raw=$((all_raw + $(stat -c %s "$f")))
    all_gz=$((all_gz + $(gzip -9 -c "$f" | wc -c)))
  done
  echo "$(stat -c %s "$main") $(gzip -9 -c "$main" | wc -c) $all_raw $all_gz"
}

kib() { echo "($1)/1024" | bc -l; }

copy_tree
read -r full_main_raw full_main_gz full_all_raw full_all_gz < <(measure)
printf '%-22s %24s %24s\n' "" "adds to the main module" "adds to all modules"
printf '%-22s %11s %12s %11s %12s\n' "demo" "raw" "gzip" "raw" "gzip"
for slug in "$@"; do
  copy_tree
  count=$(python3 - "$work/src/catalogue" "$slug" "$root/scripts" <<'PY2'
import sys
folder, what, scripts = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, scripts)
from catalogue import ENTRY, fields, sources
section, slug = (what[8:], None) if what.startswith("section:") else (None, what)
removed = 0
def drop(entry):
    global removed
    s, g, _ = fields(entry.group(0))
    if (section is not None and s == section) or (slug is not None and g == slug):
        removed += 1
        # A section's only entry takes its list's brackets with it.
        return "&[]" if entry.group(0).startswith("&[") else ""
    return entry.group(0)
for path in sources(folder):
    text = open(path).read()
    open(path, "w").write(ENTRY.sub(drop, text))
if removed == 0:
    sys.exit(f"no catalogue entry for {what}")
print(removed)
PY2
)
  read -r main_raw main_gz all_raw all_gz < <(measure)
  printf '%-22s %7.1f KiB %8.1f KiB %7.1f KiB %8.1f KiB' "$slug" \
    "$(kib "$full_main_raw - $main_raw")" "$(kib "$full_main_gz - $main_gz")" \
    "$(kib "$full_all_raw - $all_raw")" "$(kib "$full_all_gz - $all_gz")"
  if [ "$count" -gt 1 ]; then
    printf '   %d demos, each: %.1f KiB gzip to the main module, %.1f KiB gzip in all' "$count" \
      "$(kib "($full_main_gz - $main_gz)/$count")" "$(kib "($full_all_gz - $all_gz)/$count")"
  fi
  printf '\n'
done
printf '%-22s %7.1f KiB %8.1f KiB %7.1f KiB %8.1f KiB\n' "every demo (wasm)" \
  "$(kib "$full_main_raw")" "$(kib "$full_main_gz")" "$(kib "$full_all_raw")" "$(kib "$full_all_gz")"
