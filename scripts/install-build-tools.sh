#!/usr/bin/env bash
# Installs what building the site needs, and nothing already present:
# the wasm32 target, Trunk 0.21.14, wasm-bindgen-cli at exactly the version in
# Cargo.lock, and wasm-opt (binaryen 132, from npm). Trunk then runs --offline.
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

if [ ! -x tools/node_modules/.bin/wasm-opt ]; then
  echo "==> installing wasm-opt (binaryen from npm)"
  npm ci --prefix tools --no-audit --no-fund
fi
