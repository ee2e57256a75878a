#!/usr/bin/env bash
# Size report of the release build in dist/: index.html (which holds the
# page's stylesheet and JavaScript) and every wasm file, raw and gzip -9, and
# the totals; then what a page fetches: every page index.html and the main module,
# and a demo page also its demo's own module.
# Run by `make size` after a release build.
set -euo pipefail
cd "$(dirname "$0")/../dist"
for f in index.html *.wasm *.js *.css; do
  [ -e "$f" ] || continue
  echo "$f $(stat -c %s "$f") $(gzip -9 -c "$f" | wc -c)"
done | awk '
  BEGIN { printf "%-52s %10s %10s\n", "file", "raw KiB", "gzip KiB" }
  { printf "%-52s %10.1f %10.1f\n", $1, $2/1024, $3/1024; raw += $2; gz += $3
    # A demo module is stack-lab-HASH-DEMO.wasm; the main one ends in _bg.wasm;
    # stack-lab-HASH-ui_*.wasm is a part of the page fetched when first used.
    if ($1 ~ /^stack-lab-[0-9a-f]+-ui_.+\.wasm$/) { later = later sprintf(" %s %.1f", $1, $3/1024) }
    else if ($1 ~ /^stack-lab-[0-9a-f]+-.+\.wasm$/) { n += 1; demo[n] = $3; name[n] = $1 }
    else { page_raw += $2; page_gz += $3 } }
  END {
    printf "%-52s %10.1f %10.1f\n", "TOTAL", raw/1024, gz/1024
    printf "\n%-52s %10.1f %10.1f\n", "every page fetches (index.html, main module)", page_raw/1024, page_gz/1024
    if (n > 0) {
      # sort the demo modules by gzip size
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (demo[j] < demo[i]) {
        t = demo[i]; demo[i] = demo[j]; demo[j] = t; t = name[i]; name[i] = name[j]; name[j] = t }
      printf "a demo page also fetches its own module (%d demos), gzip KiB: smallest %.1f, median %.1f, largest %.1f (%s)\n",
        n, demo[1]/1024, demo[int((n + 1) / 2)]/1024, demo[n]/1024, name[n]
      printf "heaviest page (every page fetches, and the largest demo module), gzip KiB: %.1f\n", (page_gz + demo[n])/1024
    }
    if (later != "") printf "fetched when first used, gzip KiB:%s\n", later
  }'
