# aasa-server: the two commands a new machine needs are `make run` and `make test`.
SWIFT ?= swift
# bash for `set -o pipefail` in the test recipe.
SHELL := /bin/bash
BIN_DEBUG := .build/debug/aasa-server
BIN_RELEASE := .build/release/aasa-server

.PHONY: all build release lint test run certs validate-examples codes settings-reference bench bench-http bench-click bench-hostile bench-idle bench-scale bench-certs bench-acme fuzz sanitize clean screenshots \
  deb install system-test image image-test

all: build

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

# The style gate: .swift-format at the root (4 spaces, 120 columns, no force unwraps or
# force try, documentation comments checked); swift-format ships with the toolchain.
# Then the citations: comments and docs cite only docs/ of this repository (which must have the
# file and the section named), the README, RFCs, man pages and public sources by name
# (scripts/check-citations.py); its own check runs first, on a fixture that must pass and one
# whose every bad citation must be reported. Last, the layers of docs/ARCHITECTURE.md on the
# package graph and the portable targets' imports (scripts/check-layers.py, which first checks
# that a graph broken on purpose is caught).
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift
	python3 scripts/check-citations.py scripts/citation-fixtures/good
	@found=$$(python3 scripts/check-citations.py scripts/citation-fixtures/bad 2>/dev/null); status=$$?; \
	  if [ $$status -ne 1 ] || [ "$$found" != "$$(cat scripts/citation-fixtures/bad/expected.txt)" ]; then \
	    echo "scripts/check-citations.py missed bad citations of scripts/citation-fixtures/bad (exit $$status):"; \
	    echo "$$found" | diff scripts/citation-fixtures/bad/expected.txt - ; exit 1; fi
	python3 scripts/check-citations.py
	python3 scripts/check-layers.py --self-test

# Every test: the style gate, the deployment files (hadolint, systemd-analyze, kubernetes-validate), then unit
# tables for the pure library and the real binary over real files and sockets.
test: lint
	bash docker/check.sh
	$(SWIFT) build --build-tests
	@# The tests run in parallel, so a failure can scroll far up a long log: the run's output is
	@# kept in .build/test-output.txt and its failures are repeated at the end.
	@set -o pipefail; $(SWIFT) test --skip-build 2>&1 | tee .build/test-output.txt || { \
	  echo "--- what failed (all of it in .build/test-output.txt):"; \
	  grep -a -e '✘' -e 'error: ' -e '^[^◇✔✘]' .build/test-output.txt | grep -a -v '^Test Suite\|^Test Case\|^\[' \
	    | grep -a -A3 -e '✘' -e 'error: ' | cut -c1-400; \
	  exit 1; }

# Serves the example sites in Config/ on http://127.0.0.1:8080 and https://127.0.0.1:8443
# (settings: Config/aasa-server.json plus --https; local certificates from `make certs`).
run: release certs
	$(BIN_RELEASE) serve --https 127.0.0.1:8443

# The README's images (docs/images/): the landing page on a phone and the status page, taken with
# headless Chromium from the server on the example sites (scripts/screenshots.py).
screenshots:
	python3 scripts/screenshots.py

# A local development CA and certificates for the example sites (keys stay out of git).
certs:
	bash certs/make-dev-certs.sh certs

validate-examples: build
	$(BIN_DEBUG) validate Config/sites

# The diagnostic-code table of docs/codes.md.
codes: build
	@$(BIN_DEBUG) validate --list-codes | awk -F'\t' '{printf "| `%s` | %s | %s |\n", $$1, $$2, $$3}'

# docs/settings.md's settings reference, made from SettingGroup's rows (ServeSettingsTests fails
# while the docs differ from them).
settings-reference: build
	python3 scripts/update-settings-reference.py $(BIN_DEBUG)

# Release-build figures for the validator and the matcher.
bench:
	cd bench && $(SWIFT) run -c release aasa-bench

# aasa-server against nginx, h2o and a canned-response floor on the same file: requests per
# server CPU-second and requests/s, with ratios (installs nginx, h2o and wrk when missing).
bench-http:
	python3 bench/http-bench.py

# The cost of a click: new TLS connections with one request each (the file and the fallback
# redirect), aasa-server against nginx on one ECDSA certificate: server CPU per connection
# under wrk and instructions per connection under callgrind (bench/click-bench.py).
bench-click: release
	python3 bench/click-bench.py

# The hostile-client attacks of docs/security.md against aasa-server and nginx (memory, delay).
bench-hostile: release
	python3 bench/hostile-clients.py

# Resident memory with 10,000 idle keep-alive connections.
bench-idle: release
	python3 bench/idle-connections.py 10000

# Start-up, memory and reload costs with SITES site folders (default 100,000).
SITES ?= 100000
bench-scale: release
	python3 bench/scale-bench.py $(SITES)

# A certificate per site: start-up, memory, first handshakes of names not yet loaded and
# loaded, a changed certificate, /metrics, for CERTS counts; nginx at 10,000 in the same run.
CERTS ?= 10000 100000
bench-certs: release
	python3 bench/cert-bench.py $(CERTS)

# --acme on with 10,000 sites against Pebble and its DNS on loopback: server CPU after start
# until idle and per SIGHUP reload, names waiting for their DNS and names holding certificates
# (bench/acme-bench.py; ACME_SITES).
ACME_SITES ?= 10000
bench-acme: release
	python3 bench/acme-bench.py $(ACME_SITES)

# Fuzz targets (Fuzz/, libFuzzer with AddressSanitizer), FUZZ_SECONDS each; FUZZ_TARGETS
# picks some of apple android matcher http probe config loop.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz:
	bash Fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The whole suite under AddressSanitizer, then ThreadSanitizer: the tests start the server
# binary built beside them, so the real server runs instrumented too. Reports go to files
# (the server's stderr is read by the tests, not shown), and any report fails the target.
REPORTS := $(CURDIR)/.build-sanitizer-reports
sanitize:
	rm -rf $(REPORTS) && mkdir -p $(REPORTS)
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	-SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:log_path=$(REPORTS)/asan \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	-SWIFT_BACKTRACE=enable=no TSAN_OPTIONS=log_path=$(REPORTS)/tsan \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan
	@if [ -n "$$(ls -A $(REPORTS))" ]; then head -n 60 $(REPORTS)/*; echo "sanitizer reports in $(REPORTS)"; exit 1; fi
	@echo "no sanitizer reports"

# The Debian package in .build/deb (docker/build-deb.sh; docs/deployment.md, "Install").
deb: build
	bash docker/build-deb.sh .build/deb

# From source: the release binary, man pages and completions under PREFIX (DESTDIR for staging).
PREFIX ?= /usr/local
install: build
	$(SWIFT) build -c release --static-swift-stdlib --product aasa-server
	install -D -m 755 "$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/aasa-server" \
	  "$(DESTDIR)$(PREFIX)/bin/aasa-server"
	bash docker/install-docs.sh "$(DESTDIR)$(PREFIX)/bin/aasa-server" "$(DESTDIR)$(PREFIX)/share"

# The package installed in a container running systemd: start, curl, reload, restart and
# upgrade under a client loop (no request lost), ACME's storage, stop, the journal (podman;
# docker/system-test.sh).
system-test: deb
	bash docker/system-test.sh .build/deb

# The image from docker/Dockerfile (podman, from local stand-ins of its base images when
# they cannot be pulled), then run: read-only, uid 10001, HTTP and HTTPS, healthcheck, SIGTERM.
image:
	bash docker/stand-in-images.sh
	bash docker/image-test.sh build

image-test: image certs
	bash docker/image-test.sh run

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan .build-sanitizer-reports bench/.build Fuzz/.build
