#!/usr/bin/env bash
# Fuzzes the three places where another process's bytes come in, with libFuzzer
# and AddressSanitizer:
#
#   fuzz-jsonrpc  one JSON-RPC message from the WebView, through the bridge's
#                 real JSONRPCServer and SleepTimerBridge (no bus, no network)
#   fuzz-mirror   one serialized D-Bus message, parsed by libdbus, through the
#                 agent's MirrorArguments.decode and MirrorRule.mirroredTimer(for:now:)
#   fuzz-applink  one link given to the desktop app and one message of its
#                 page, through AppDeepLink, NavigationRule and BridgeRelayRule
#
# Usage: scripts/fuzz.sh [short|long|build]
#
#   short  (default) the three targets at once, 45 seconds each (on two
#          cores, about 30 seconds of a core each); for the test command
#   long   10 minutes per target (`make fuzz`); new interesting inputs are
#          kept in build/fuzz-corpus/<target>/ for inspection, and later long
#          runs start from them
#   build  builds the three targets and runs none (make check builds them
#          ahead, in the background: scripts/ahead.sh)
#
# Each target starts from a copy of its committed seed corpus
# (Tests/Fuzz/corpus/<name>/) in a temporary directory; the committed corpus
# is never written. A crash, timeout, leak or out-of-memory makes the script
# exit non-zero, naming the input that caused it (kept in
# build/fuzz-artifacts/<target>/) and the command that replays it.
#
# The targets exist only when DFL_FUZZ is set (see Package.swift) and build
# in their own scratch directory, .build-fuzz, never in .build.
set -euo pipefail

mode=${1:-short}
case $mode in
    short) seconds=45 ;;
    long) seconds=600 ;;
    build) seconds=0 ;;
    -h | --help | help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        echo "usage: scripts/fuzz.sh [short|long|build]" >&2
        exit 64
        ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The Swift toolchain's usual place; a swift already on PATH comes first.
export PATH="$PATH:/opt/swift/usr/bin"
command -v swift >/dev/null || { echo "fuzz: no swift on PATH or in /opt/swift/usr/bin" >&2; exit 1; }

export DFL_FUZZ=1
# swiftc keeps only the last -sanitize= it is given, so SwiftPM's
# `--sanitize=fuzzer --sanitize=address` alone compiles Swift code with
# AddressSanitizer but without libFuzzer's coverage instrumentation; the
# combined -Xswiftc flag, which comes after them, gives both.
build_flags=(--scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address)

logs=build/fuzz
mkdir -p "$logs"

for target in fuzz-jsonrpc fuzz-mirror fuzz-applink; do
    echo "fuzz: building $target" >&2
    # The gold linker warns once per AddressSanitizer helper it cannot
    # export; those lines are noise.
    if ! swift build "${build_flags[@]}" --product "$target" >"$logs/build-$target.log" 2>&1; then
        grep -v 'Cannot export local symbol' "$logs/build-$target.log" | tail -n 60 >&2
        echo "fuzz: building $target failed (full log: $logs/build-$target.log)" >&2
        exit 1
    fi
done
[[ $mode == build ]] && exit 0
bin=$(swift build "${build_flags[@]}" --show-bin-path)

work=$(mktemp -d -t dfl-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT

# A fatal error in Swift code must reach libFuzzer as the signal it is, not
# go through Swift's own backtracer first (which AddressSanitizer would
# report instead of the real failure).
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:symbolize=1"

failed=0

# run TARGET NAME MAX_LEN
run() {
    local target=$1 name=$2 max_len=$3
    local seeds="$work/$name-seeds" corpus artifacts="$root/build/fuzz-artifacts/$target/" log="$logs/$target.log"
    mkdir -p "$seeds" "$artifacts"
    cp -R "Tests/Fuzz/corpus/$name/." "$seeds/"
    if [[ $mode == long ]]; then
        corpus="build/fuzz-corpus/$target"
    else
        corpus="$work/$name-corpus"
    fi
    mkdir -p "$corpus"

    echo "fuzz: running $target for ${seconds}s (log: $log)" >&2
    local status=0
    # New inputs go to the first directory; the seeds are only read.
    "$bin/$target" "$corpus" "$seeds" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
        -dict="Tests/Fuzz/$name.dict" -artifact_prefix="$artifacts" -print_final_stats=1 \
        >"$log" 2>&1 || status=$?

    if ((status == 0)); then
        local done_line executed speed
        done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
        executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        echo "fuzz: $target: no failure in ${executed:-?} inputs (${speed:-?}/s); ${done_line#*DONE   }" >&2
        [[ $mode == long ]] && echo "fuzz: $target: corpus kept in $corpus ($(find "$corpus" -type f | wc -l) files)" >&2
        return 0
    fi

    echo "fuzz: $target FAILED (libFuzzer exit status $status)" >&2
    # The failure itself: from the first sanitizer or Swift report to the
    # input libFuzzer saved.
    sed -n '/Fatal error\|==ERROR\|ERROR: libFuzzer\|runtime failure\|==WARNING/,/Test unit written/p' "$log" \
        | grep -v 'NEW_FUNC\|Cannot export' | head -n 80 >&2
    local unit
    unit=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    if [[ -n $unit ]]; then
        echo "fuzz: the input is $unit" >&2
        echo "fuzz: replay it with: SWIFT_BACKTRACE=enable=no $bin/$target $unit" >&2
    else
        tail -n 40 "$log" >&2
    fi
    echo "fuzz: full log: $log" >&2
    return 1
}

if [[ $mode == short ]]; then
    # Side by side, each in a subshell of its own with its verdict in its
    # exit status.
    pids=()
    run fuzz-jsonrpc jsonrpc 65536 & pids+=($!)
    run fuzz-mirror mirror 16384 & pids+=($!)
    run fuzz-applink applink 4096 & pids+=($!)
    for pid in "${pids[@]}"; do
        wait "$pid" || failed=1
    done
else
    run fuzz-jsonrpc jsonrpc 65536 || failed=1
    run fuzz-mirror mirror 16384 || failed=1
    run fuzz-applink applink 4096 || failed=1
fi

if ((failed)); then
    echo "fuzz: failures found; see above" >&2
    exit 1
fi
echo "fuzz: $mode run clean" >&2
