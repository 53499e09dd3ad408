# The two commands of the README: `make demo` (the main job) and
# `make check` (every test). Both install what they need first.

SHELL := /bin/bash
.DEFAULT_GOAL := check

# The Swift toolchain's usual place on these machines comes first where it
# is there, before any other swift on PATH (Debian 13's own swiftlang, say).
export PATH := $(if $(wildcard /opt/swift/usr/bin/swift),/opt/swift/usr/bin:)$(PATH)

# The reference platform needs only the standard library of any python3;
# the integration tests use Debian's python3 for python3-dbus and python3-gi.
PYTHON ?= python3
SYSTEM_PYTHON ?= /usr/bin/python3

.PHONY: deps toolchain test-toolchain build check unit-tests contract-tests integration-tests js-tests bench-quick sanitizers \
	fuzz-short fuzz load soak package package-test trixie-tests trixie-root-drop bench-gnome demo bench clean locale pot translation-tests \
	flatpak flatpak-test trixie-flatpak-test flatpak-standin-drop mutants desktop-tests forky-tests forky-flatpak-test forky-glib forky-build

deps:
	@scripts/install-deps.sh

toolchain:
	@command -v swift >/dev/null || { echo "make: no swift on PATH or in /opt/swift/usr/bin; install the Swift 6 toolchain (on Debian 13, scripts/install-deps.sh installs Debian's swiftlang)" >&2; exit 1; }

# The tests need a Swift newer than 6.0: Debian 13's swiftlang 6.0.3 builds
# the programs and the package, but its compiler and swift-testing cannot
# build one test suite (packaging/README.md).
test-toolchain: toolchain
	@version=$$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -1); \
	case $$version in 6.0|6.0.*|5.*) echo "make: make check needs a Swift newer than 6.0 (tested with 6.3); this is $$version. Debian 13's swiftlang 6.0.3 builds the programs and the package only: install the Swift 6.3 toolchain into /opt/swift" >&2; exit 1;; esac

build: deps toolchain locale
	swift build

# Every stage in turn, each timed; the first that fails stops the run. The
# package and the Flatpak are built once (the Flatpak on the stand-in
# runtime: Debian testing's GLib 2.90 and GTK 4.24, so every program is
# built against them there: forky-glib need not run too); the package's
# desktop tests of GNOME 48, Plasma 6 and XFCE 4.20 in the Debian 13 root
# run beside those of GNOME 50 and Plasma 6.7 in the Debian testing root
# followed by the package test on this Debian 12 and in the Debian 13 root
# (desktop-tests); the Flatpak's tests last, Debian 13's beside the
# testing root's.
CHECK_STAGES := translation-tests unit-tests contract-tests integration-tests js-tests bench-quick sanitizers \
	fuzz-short package desktop-tests flatpak flatpak-test

# What later stages need is made ahead, in the background at the lowest
# priority (scripts/ahead.sh, its logs build/ahead-*.log), and ended with
# the run: from the start the Debian 13 root, the Debian testing root and
# the Flatpak stand-in runtime, after the first build the sanitizers' builds, the fuzz targets,
# the package and the Flatpak. The stages that need them wait for them; the
# package and flatpak stages take what was made ahead (scripts/ahead.sh
# take) and make it themselves only where that failed. The desktop tests
# come before the Flatpak's stage: on a fresh machine the stand-in runtime
# the Flatpak's build needs is made last, and that build, at the lowest
# priority, may still run beside them.
#
# At the end, pass or fail, each stage's time again and the slowest ten
# tests of the integration runs this check made (the plain one and the
# sanitizers'), as Tests/Integration/parallel.py kept them.
TEST_RECORDS := build/integration-tests build/integration-tests-asan build/integration-tests-tsan

check: deps test-toolchain locale
	@started=$$(date +%s); times=""; \
	mkdir -p build; ahead() { setsid nice -n 19 ionice -c 3 -t scripts/ahead.sh "$$1" >"build/ahead-$$1.log" 2>&1 & \
		aheads+=" -$$!"; }; \
	trap 'kill -TERM -- $$aheads 2>/dev/null || true' EXIT; \
	ahead roots; \
	rm -f $(addsuffix /times.json,$(TEST_RECORDS)) build/ahead/*.status; \
	closing() { echo "== make check: the stages' times:"; printf "$$times"; \
		$(SYSTEM_PYTHON) Tests/Integration/parallel.py --slowest $(TEST_RECORDS); }; \
	stage() { local begun=$$(date +%s) all="$$*"; local name="$${all#$(MAKE) --no-print-directory }"; \
		name="$${name#scripts/ahead.sh take }"; \
		"$$@" || { times+="  FAILED after $$(( $$(date +%s) - begun )) s  $$name\n"; closing; \
			echo "== make check: $$* FAILED after $$(( $$(date +%s) - begun )) s"; exit 1; }; \
		times+="  $$(printf "%5d" $$(( $$(date +%s) - begun ))) s  $$name\n"; \
		echo "== make check: $$* passed in $$(( $$(date +%s) - begun )) s ($$(( $$(date +%s) - started )) s in all)"; }; \
	stage swift build --build-tests; \
	ahead builds; \
	for name in $(CHECK_STAGES); do case $$name in \
		package | flatpak) stage scripts/ahead.sh take $$name ;; \
		*) stage $(MAKE) --no-print-directory $$name ;; esac; done; \
	closing; \
	echo "== make check: every stage passed in $$(( $$(date +%s) - started )) s"

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

# The load test with 200 calls per client here (10,000 in all, the
# agent's memory measured the same way); `make load` runs its full 50,000.
integration-tests:
	DFL_LOAD_CALLS=200 $(SYSTEM_PYTHON) Tests/Integration/parallel.py

js-tests:
	node --test Tests/WebViewBridgeJSTests/*.test.mjs

# The unit and integration tests again under AddressSanitizer and
# ThreadSanitizer, each in a build directory of its own.
sanitizers:
	Tests/Sanitizers/run.sh address
	Tests/Sanitizers/run.sh thread

# Mutation testing of the decision targets (docs/TESTING.md): each mutant of
# their rules built into a copy of the package in build/mutants and the
# target's unit tests run against it; not part of `make check`. Pass
# MUTANTS_ARGS="--target PanelIndicator", "--file APIOrigin.swift" or "--list".
MUTANTS_ARGS ?=
mutants: deps test-toolchain locale
	$(PYTHON) scripts/mutants.py $(MUTANTS_ARGS)

# libFuzzer with AddressSanitizer on the JSON-RPC and Mirror inputs: a short
# run in the tests, a long one on its own (Tests/Fuzz/README.md).
fuzz-short: toolchain
	scripts/fuzz.sh short

fuzz: deps toolchain
	scripts/fuzz.sh long

# The load test at its full size: 50 clients making 1,000 calls each while
# completions run against a slow platform (Tests/Integration/test_load.py).
load: build
	$(SYSTEM_PYTHON) Tests/Integration/parallel.py --records build/load-tests test_load

# 14 simulated days of the agent under a sped-up clock (Tests/Soak/README.md).
soak: build
	$(SYSTEM_PYTHON) Tests/Soak/soak.py

# The Debian package, built from a copy of the tree into build/package.
PACKAGE_VERSION = $(shell dpkg-parsechangelog -l packaging/debian/changelog -S Version 2>/dev/null)
DEB = build/package/dreamsforlittles-desktop_$(PACKAGE_VERSION)_$(shell dpkg --print-architecture).deb

package: deps toolchain
	packaging/build-deb.sh build/package

# The package test on both releases (Tests/Packaging/test_releases.sh):
# with the package `make package` left (or one it builds), on this Debian
# 12 and then in the Debian 13 root, it lints it, installs it, starts the
# agent through the installed D-Bus activation file, through its XDG
# autostart entry in an XFCE-like login (dex) and under a real systemd
# --user, checks the unit's exposure score, the man pages and the
# completions, purges it and checks nothing is left. As root.
package-test: deps toolchain
	Tests/Packaging/test_releases.sh $(wildcard $(DEB))

# The desktop tests on Debian 13 in a root made with debootstrap and cached
# in /var/cache/dreamsforlittles-tests (Tests/Trixie/README.md): GNOME Shell
# 48 and KDE Plasma 6 on Wayland, XFCE 4.20, against the package (built
# first if build/package has none). As root.
trixie-tests: deps
	@test -f $(DEB) || $(MAKE) --no-print-directory package
	Tests/Trixie/run.sh --deb $(DEB)

# The desktops most parents run now, in the Debian testing root (the one
# the package is built in below): the whole story on GNOME Shell 50 and
# Plasma 6.7 on Wayland (and Plasma on X11), and the app's style on GTK
# 4.24, against the package. As root.
FORKY_TESTS := test_gnome_wayland test_plasma6 test_styles

forky-tests: deps
	@test -f $(DEB) || $(MAKE) --no-print-directory package
	DFL_ROOT_SUITE=forky Tests/Trixie/run.sh --deb $(DEB) $(FORKY_TESTS)

# GLib 2.88 and later (Flathub's GNOME 50 and 51, Ubuntu 26.04, Debian
# testing's 2.90): every module over GLib's, GTK's and libnotify's headers
# built in a root made from Debian testing with this machine's toolchain
# (Tests/Forky/build.sh; the root is made ahead). forky-build builds all
# of the package and its tests there and runs the unit tests. Neither is a
# stage of make check, whose Flatpak build compiles every program against
# the same GLib. As root.
forky-glib: deps toolchain
	Tests/Forky/build.sh glib

forky-build: deps toolchain
	Tests/Forky/build.sh all

# make check's stage of the package's tests in the roots: the desktop
# tests of Debian 13 (trixie-tests) beside those of Debian testing
# (forky-tests) and then the package test (package-test, on this machine
# and in a Debian 13 root of its own): Debian 13's half (450 to 530 s in
# the last runs) takes about as long as the other (about 300 s and 235 s).
# Each root runs in namespaces of its own, and these tests mostly wait on
# desktops, dpkg and services, so the halves run side by side
# (scripts/side-by-side.sh, each half's output in build/side-by-side/); the
# second half runs both its parts whatever the first one's outcome. The
# host-side check that a root's run leaves nothing behind comes first,
# alone. As root.
desktop-tests: deps
	@test -f $(DEB) || $(MAKE) --no-print-directory package
	Tests/Trixie/root.sh path >/dev/null
	DFL_ROOT_SUITE=forky Tests/Trixie/root.sh path >/dev/null
	$(SYSTEM_PYTHON) Tests/Trixie/root_harness_test.py
	scripts/side-by-side.sh trixie-tests "Tests/Trixie/run.sh --deb $(DEB) --harness-checked" \
		forky-and-package-tests "status=0; $(MAKE) --no-print-directory forky-tests || status=1; \
			$(MAKE) --no-print-directory package-test || status=1; exit \$$status"

# Drops the cached Debian 13 root; the next trixie-tests makes it again.
trixie-root-drop:
	Tests/Trixie/root.sh drop

# The Flatpak (packaging/flatpak/README.md): the manifest built with
# flatpak-builder in the Debian 13 root, on a stand-in runtime and SDK made
# from Debian testing's packages and a swift6 extension made from the Swift
# toolchain, cached beside the root (Tests/Flatpak/standin.sh); leaves build/flatpak/com.dreamsforlittles.DreamsForLittles.flatpak
# and the stand-in's repository build/flatpak/repo. As root.
flatpak: deps
	Tests/Flatpak/build.sh

# The bundle installed with flatpak install --user in the Debian 13 root
# (the host; the runtime inside is the stand-in made from testing): the
# whole story on GNOME Shell 48 and Plasma 6.3 through their portals, the
# .deb installed beside the Flatpak (the package `make package` leaves,
# built now when there is none) and the stand-in's own manifest checks. As
# root.
TRIXIE_FLATPAK_TESTS := test_gnome_flatpak test_plasma_flatpak test_deb_beside_flatpak test_standin_manifest

trixie-flatpak-test:
	@test -f build/flatpak/com.dreamsforlittles.DreamsForLittles.flatpak || $(MAKE) --no-print-directory flatpak
	@ls build/package/dreamsforlittles-desktop_*.deb >/dev/null 2>&1 || $(MAKE) --no-print-directory package
	Tests/Flatpak/run.sh $(TRIXIE_FLATPAK_TESTS)

# The Flatpak's whole story on the desktops most parents run now, in the
# Debian testing root (flatpak 1.18): GNOME Shell 50 (its banner with Open
# and Complete, the body's click raising the window on the Sleep, the panel
# item, the Background Apps line, the autostart entry) and Plasma 6.7 (its
# popup, tray and menu, a name written as markup); and the bundle itself:
# its programs run, its permissions are the manifest's finish-args, its
# desktop files are exported (test_bundle), a host program lists and
# completes over its name (test_host_flatpak), a second Flatpak queued on
# the agent's name gets nothing (test_impostor_flatpak). These last three
# run here rather than in Debian 13 so that the two halves of flatpak-test
# take about as long. As root.
FORKY_FLATPAK_TESTS := test_gnome_flatpak test_plasma_flatpak test_bundle test_host_flatpak test_impostor_flatpak

forky-flatpak-test:
	@test -f build/flatpak/com.dreamsforlittles.DreamsForLittles.flatpak || $(MAKE) --no-print-directory flatpak
	DFL_ROOT_SUITE=forky Tests/Flatpak/run.sh $(FORKY_FLATPAK_TESTS)

# make check's stage of the Flatpak's tests: Debian 13's (trixie-flatpak-test)
# beside the testing root's (forky-flatpak-test), each in its root's own
# namespaces, as desktop-tests runs its halves (scripts/side-by-side.sh).
# Every module of Tests/Flatpak is in one of the two lists. As root.
FLATPAK_TEST_MODULES := $(basename $(notdir $(wildcard Tests/Flatpak/test_*.py)))

flatpak-test:
	@for module in $(FLATPAK_TEST_MODULES); do case " $(TRIXIE_FLATPAK_TESTS) $(FORKY_FLATPAK_TESTS) " in \
		*" $$module "*) ;; *) echo "flatpak-test: Tests/Flatpak/$$module.py is in neither TRIXIE_FLATPAK_TESTS nor FORKY_FLATPAK_TESTS" >&2; exit 1 ;; esac; done
	@test -f build/flatpak/com.dreamsforlittles.DreamsForLittles.flatpak || $(MAKE) --no-print-directory flatpak
	@ls build/package/dreamsforlittles-desktop_*.deb >/dev/null 2>&1 || $(MAKE) --no-print-directory package
	Tests/Trixie/root.sh path >/dev/null
	DFL_ROOT_SUITE=forky Tests/Trixie/root.sh path >/dev/null
	scripts/side-by-side.sh trixie-flatpak-test "$(MAKE) --no-print-directory trixie-flatpak-test" \
		forky-flatpak-test "$(MAKE) --no-print-directory forky-flatpak-test"

# Drops the cached stand-in runtime; the next flatpak makes it again.
flatpak-standin-drop:
	Tests/Flatpak/standin.sh drop

# The agent's start, memory and idle wake-ups under GNOME Shell 43 on this
# Debian 12 and under GNOME Shell 48 in the Debian 13 root, measured once
# each by the same script against the package's programs
# (docs/BENCHMARKS.md, "Debian 13"); the tables go to build/bench-gnome/.
bench-gnome: deps
	@test -f $(DEB) || $(MAKE) --no-print-directory package
	rm -rf build/bench-gnome && mkdir -p build/bench-gnome && dpkg-deb -x $(DEB) build/bench-gnome/package
	DFL_BUILD_DIR=$(CURDIR)/build/bench-gnome/package/usr/bin PYTHONPATH=Tests/Integration \
		$(SYSTEM_PYTHON) Tests/Trixie/measure_agent.py --output build/bench-gnome/debian12.md
	Tests/Trixie/root.sh run /bin/bash -c 'dpkg -i $(DEB) >/dev/null && DFL_BUILD_DIR=/usr/bin \
		PYTHONPATH=Tests/Integration python3 Tests/Trixie/measure_agent.py --output build/bench-gnome/debian13.md'

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
