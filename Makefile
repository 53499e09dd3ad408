# The two commands of the README: `make demo` (the main job) and
# `make check` (every test). Both install what they need first.

SHELL := /bin/bash
.DEFAULT_GOAL := check

# The Swift toolchain's usual place on these machines; a swift already on
# PATH comes first.
export PATH := $(PATH):/opt/swift/usr/bin

# The reference platform needs only the standard library of any python3;
# the integration tests use Debian's python3 for python3-dbus and python3-gi.
PYTHON ?= python3
SYSTEM_PYTHON ?= /usr/bin/python3

.PHONY: deps toolchain build check unit-tests contract-tests integration-tests js-tests bench-quick sanitizers \
	fuzz-short fuzz soak package package-test demo bench clean locale pot translation-tests

deps:
	@scripts/install-deps.sh

toolchain:
	@command -v swift >/dev/null || { echo "make: no swift on PATH or in /opt/swift/usr/bin; install the Swift 6 toolchain" >&2; exit 1; }

build: deps toolchain locale
	swift build

check: deps toolchain locale
	swift build --build-tests
	$(MAKE) --no-print-directory translation-tests unit-tests contract-tests integration-tests js-tests bench-quick \
		sanitizers fuzz-short package-test

# The translations: po/<lang>.po compiled to build/locale, where the
# programs find them when DFL_LOCALEDIR points there (the tests set it; the
# package installs them to /usr/share/locale).
LANGUAGES := $(basename $(notdir $(wildcard po/*.po)))
CATALOGS := $(foreach lang,$(LANGUAGES),build/locale/$(lang)/LC_MESSAGES/dreamsforlittles.mo)

locale: $(CATALOGS)

build/locale/%/LC_MESSAGES/dreamsforlittles.mo: po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check --output-file=$@ $<

# Regenerates the template po/dreamsforlittles.pot from the sources and
# merges it into every catalog, whose translators then fill in what is new.
pot:
	$(PYTHON) scripts/translations.py merge

# The catalogs compile, are complete and keep their placeholders; the
# template matches the sources.
translation-tests:
	$(PYTHON) -m unittest discover -s Tests/Translations

unit-tests:
	swift test --skip-build

contract-tests:
	$(PYTHON) -m unittest discover -s scripts/tests

integration-tests:
	$(SYSTEM_PYTHON) -m unittest discover -s Tests/Integration

js-tests:
	node --test Tests/WebViewBridgeJSTests/*.test.mjs

# The unit and integration tests again under AddressSanitizer and
# ThreadSanitizer, each in a build directory of its own.
sanitizers:
	Tests/Sanitizers/run.sh address
	Tests/Sanitizers/run.sh thread

# libFuzzer with AddressSanitizer on the JSON-RPC and Mirror inputs: a short
# run in the tests, a long one on its own (Tests/Fuzz/README.md).
fuzz-short: toolchain
	scripts/fuzz.sh short

fuzz: deps toolchain
	scripts/fuzz.sh long

# 14 simulated days of the agent under a sped-up clock (Tests/Soak/README.md).
soak: build
	$(SYSTEM_PYTHON) Tests/Soak/soak.py

# The Debian package, built from a copy of the tree into build/package.
package: deps toolchain
	packaging/build-deb.sh build/package

# Builds the package, lints it, installs it, starts the agent through the
# installed D-Bus activation file, through its XDG autostart entry in an
# XFCE-like login (dex) and under a real systemd --user, checks the unit's
# exposure score, the man pages and the completions, purges it and checks
# nothing is left. As root.
package-test: deps toolchain
	Tests/Packaging/test_package.sh

# The benchmark once with tiny counts, so that it cannot rot; its figures
# mean nothing and go to build/, not docs/.
bench-quick:
	mkdir -p build
	.build/debug/dfl-bench --quick --binaries .build/debug --output build/bench-quick.md > /dev/null

# The real measurement: release binaries, full counts, docs/BENCHMARKS.md.
bench: deps toolchain
	swift build -c release --static-swift-stdlib
	.build/release/dfl-bench --binaries .build/release

demo: build
	$(SYSTEM_PYTHON) scripts/demo.py

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz build
