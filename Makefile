# Stack Lab. Two commands on a fresh machine:
#   make serve   build and serve the lab at http://127.0.0.1:8080
#   make test    run every check and test
SHELL := /bin/bash
export PATH := $(CURDIR)/tools/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
# Trunk must never download anything.
TRUNK := trunk --offline=true

.PHONY: serve test tools test-tools build build-subpath lint unit e2e size bench clean

serve: tools
	$(TRUNK) serve

test: tools test-tools lint unit build build-subpath e2e

tools:
	@scripts/install-build-tools.sh

test-tools:
	@scripts/install-test-tools.sh

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --workspace --target wasm32-unknown-unknown -- -D warnings

unit:
	cargo test --workspace --release

# A release build in dist/; 404.html lets plain static hosts fall back to the app.
build: tools
	$(TRUNK) build --release
	cp dist/index.html dist/404.html

# The same site for hosting under a sub-path; the browser tests check it there.
build-subpath: tools
	$(TRUNK) build --release --public-url /labs/stack/ --dist dist-subpath

e2e: test-tools
	cd end2end && npx playwright test

size: build
	@scripts/size-report.sh

bench: build test-tools
	cd end2end && node bench/bench.mjs

clean:
	cargo clean
	rm -rf dist dist-subpath
