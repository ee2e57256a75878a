#!/usr/bin/env bash
# Installs what building the site needs, and nothing already present:
# the wasm32 target, Trunk 0.21.14, wasm-bindgen-cli at exactly the version in
# Cargo.lock, wasm-opt (binaryen 132) and esbuild (which minifies what
# index.html holds inline), both from npm, and wasm-split-cli (patched,
# into tools/bin). Trunk then runs --offline.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "==> adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  echo "==> installing Trunk $TRUNK_VERSION (takes about 5 minutes, once)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  echo "==> installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: its lockfile names a crate the registry lacks.
  cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ ! -x tools/node_modules/.bin/wasm-opt ] || [ ! -x tools/node_modules/.bin/esbuild ]; then
  echo "==> installing wasm-opt (binaryen) and esbuild from npm"
  npm ci --prefix tools --no-audit --no-fund
fi

# wasm-split-cli cuts the wasm into one module per demo (scripts/split-wasm.sh).
# Built from the crate's source with a small patch, so it is fetched from
# crates.io by hand and checked against the registry's checksum.
SPLIT_VERSION=0.2.4
SPLIT_SHA256=f6c1f994b196e31969f4cdbe37d051362659567efc0f5c90cb931a8a5cdc530f
SPLIT_STAMP="$SPLIT_VERSION $(sha256sum scripts/wasm-split-families.patch | cut -d' ' -f1)"
if [ ! -x tools/bin/wasm-split-cli ] || [ "$(cat tools/bin/wasm-split-cli.stamp 2>/dev/null)" != "$SPLIT_STAMP" ]; then
  echo "==> installing wasm-split-cli $SPLIT_VERSION, patched (about 1 minute, once)"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  crate="$work/wasm_split_cli_support.crate"
  curl -sSfL -o "$crate" "https://static.crates.io/crates/wasm_split_cli_support/wasm_split_cli_support-$SPLIT_VERSION.crate"
  echo "$SPLIT_SHA256  $crate" | sha256sum -c --quiet
  tar xzf "$crate" -C "$work"
  patch_file="$PWD/scripts/wasm-split-families.patch"
  (cd "$work/wasm_split_cli_support-$SPLIT_VERSION" && git apply -p1 "$patch_file")
  cargo install --locked --features build-binary --root tools --path "$work/wasm_split_cli_support-$SPLIT_VERSION"
  echo "$SPLIT_STAMP" > tools/bin/wasm-split-cli.stamp
fi
