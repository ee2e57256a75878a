# Stack Lab. Two commands on a fresh machine:
#   make serve   build and serve the lab at http://127.0.0.1:8080
#   make test    run every check and test
SHELL := /bin/bash
export PATH := $(CURDIR)/tools/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
# Trunk must never download anything.
TRUNK := trunk --offline=true

.PHONY: serve test tools test-tools build build-subpath build-counter scorm lint unit e2e size bench clean

serve: tools
	$(TRUNK) serve

test: tools test-tools lint unit build build-subpath scorm e2e

tools:
	@scripts/install-build-tools.sh

test-tools:
	@scripts/install-test-tools.sh

# No float is ever formatted into text: it drags Rust's float formatter
# (~20 KiB) into the wasm. Use demos::text::{fixed, decimal, tenths}.
lint:
	@if grep -rnE '\{[a-z_0-9.]*:[^}]*\.[0-9]+\}' --include=*.rs demos/src views/src src | grep -vE ':[0-9]+:\s*//'; then \
	  echo "a float is formatted into text (above): use demos::text::{fixed, decimal}"; false; fi
	@if grep -rnE '\.clamp\([^)]*[0-9]\.[0-9]' --include=*.rs demos/src views/src src | grep -vE ':[0-9]+:\s*//'; then \
	  echo "a float clamp (above): its panic message formats floats; use demos::float::clamped"; false; fi
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --workspace --target wasm32-unknown-unknown -- -D warnings

# Twice: in release, as the site is built, and with overflow checks and debug
# assertions on (the `checked` profile), where an integer overflow panics
# instead of wrapping into a silently wrong answer.
unit:
	cargo test --workspace --release
	cargo test --workspace --profile checked

# A release build in dist/; 404.html lets plain static hosts fall back to the app.
build: tools
	$(TRUNK) build --release
	cp dist/index.html dist/404.html

# The same site for hosting under a sub-path; the browser tests check it there.
# It is the tests' build: it also has their hooks (`?debug=panic`, feature
# test-hooks), which the public build in dist/ does not.
build-subpath: tools
	$(TRUNK) build --release --features test-hooks --public-url /labs/stack/ --dist dist-subpath

e2e: test-tools
	cd end2end && npx playwright test

# Bytes shipped, then what each demo adds to the wasm (built with and without
# its catalogue entry). Default: per section, with the average per demo;
# `make size DEMOS="mesi tlb"` measures single demos.
DEMOS ?= section:nic section:host section:memory section:cpu section:net section:fabric section:gpu
size: build
	@python3 scripts/size-report.py
	@scripts/size-marginal.sh $(DEMOS)

# The lab as a SCORM 1.2 package for a course's LMS (README, "In your LMS"):
# the site built to run from any folder (a relative public URL), zipped with
# its imsmanifest.xml by scripts/scorm.py, one SCO per section.
scorm: tools
	rm -rf dist-scorm
	$(TRUNK) build --release --public-url ./ --dist dist-scorm/site
	python3 scripts/scorm.py dist-scorm/site src/catalogue dist-scorm/stack-lab-scorm12.zip

# The yardstick for `make bench`: a bare Leptos counter, same lockfile and profile.
build-counter: tools
	$(TRUNK) --config Trunk.toml build --release=true --dist dist-counter end2end/bench/counter/index.html

bench: build build-counter test-tools
	cd end2end && node bench/bench.mjs
	cd end2end && node bench/soak.mjs

clean:
	cargo clean
	rm -rf dist dist-subpath dist-counter dist-scorm
