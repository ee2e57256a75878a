#!/usr/bin/env bash
# Installs what the browser tests need: Debian's Chromium and ChromeDriver, and
# the npm packages pinned by end2end/package-lock.json (no browser download).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "==> installing Debian's chromium and chromium-driver"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi

if [ ! -d end2end/node_modules/@playwright/test ] || [ end2end/package-lock.json -nt end2end/node_modules/.package-lock.json ]; then
  echo "==> installing the browser-test packages"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix end2end --no-audit --no-fund
fi
