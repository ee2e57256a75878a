#!/usr/bin/env bash
# Size report of the release build in dist/: every wasm, JS and CSS file,
# raw and gzip -9, and the totals. Run by `make size` after a release build.
set -euo pipefail
cd "$(dirname "$0")/../dist"
for f in *.wasm *.js *.css; do
  [ -e "$f" ] || continue
  echo "$f $(stat -c %s "$f") $(gzip -9 -c "$f" | wc -c)"
done | awk '
  BEGIN { printf "%-44s %10s %10s\n", "file", "raw KiB", "gzip KiB" }
  { printf "%-44s %10.1f %10.1f\n", $1, $2/1024, $3/1024; raw += $2; gz += $3 }
  END { printf "%-44s %10.1f %10.1f\n", "TOTAL", raw/1024, gz/1024 }'
