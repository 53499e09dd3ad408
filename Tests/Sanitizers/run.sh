#!/usr/bin/env bash
# Builds everything with a sanitizer (address or thread) in a build directory
# of its own, and runs the unit tests and the integration tests against the
# sanitized binaries. A sanitizer report anywhere fails the run: the test
# process exits non-zero, and the integration harness fails a test whose
# agent logged one. With --build-only it builds and stops (make check
# builds both ahead, in the background: scripts/ahead.sh).
set -euo pipefail
sanitizer=${1:?usage: run.sh address|thread [--build-only]}
case $sanitizer in address | thread) ;; *) echo "usage: run.sh address|thread [--build-only]" >&2; exit 64 ;; esac
cd "$(dirname "$0")/../.."
scratch=".build-${sanitizer:0:1}san"
here=$PWD

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$here/Tests/Sanitizers/lsan.supp:print_suppressions=0"
# curl's resolver threads and GLib's GDBus worker are detached, never joined,
# by design: ThreadSanitizer's thread-leak reports about them are not races.
export TSAN_OPTIONS="halt_on_error=0:report_thread_leaks=0"

swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
[[ ${2:-} == --build-only ]] && exit 0
swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch"

# The integration tests, shortened where they repeat: the sanitizers look
# for memory and thread errors, which a few runs find as well as many.
# Under ThreadSanitizer, the agent's integration tests (its calls, its
# completions through libcurl, the store's crash and fault paths); the
# tests of dfl-sleepctl and dfl-webview-bridge, whose own code runs on one
# thread (libcurl's resolver threads aside), run under AddressSanitizer and
# the bridge's input under the fuzzers, which keeps the test command within
# its time.
modules=(test_agent_dbus test_completion test_storage_faults)
if [[ $sanitizer == address ]]; then
    modules+=(test_sleepctl test_webview_bridge test_notifications
              test_indicator.PublishingTests test_indicator.SignalTests test_indicator.MenuActionTests)
fi
# They run in the integration tests' parallel workers (Tests/Integration/
# parallel.py, DFL_TEST_WORKERS of them), each class in a process of its
# own; their times and logs are kept apart from the plain run's, in
# build/integration-tests-asan or -tsan.
DFL_BUILD_DIR="$here/$scratch/debug" DFL_CRASH_RUNS=3 DFL_OUTAGE_SECONDS=5 \
    /usr/bin/python3 Tests/Integration/parallel.py --records "build/integration-tests-${sanitizer:0:1}san" "${modules[@]}"
