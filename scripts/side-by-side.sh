#!/usr/bin/env bash
# Runs two test stages at once and waits for both: a stage of `make check`
# whose two halves run in roots of their own (the Debian 13 root and the
# Debian testing one: each in its own mount and PID namespace, with its
# own buses, displays and ports) and spend most of their time waiting on a
# desktop. Each half's output goes to build/side-by-side/NAME.log and is
# printed whole when both have ended, the first half's first; the status
# is the first failure's, and a failure names its half.
#
#   side-by-side.sh NAME1 'COMMAND1' NAME2 'COMMAND2'
set -uo pipefail
(($# == 4)) || { echo "usage: side-by-side.sh NAME1 'COMMAND1' NAME2 'COMMAND2'" >&2; exit 64; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
logs=$repo/build/side-by-side
mkdir -p "$logs"

names=("$1" "$3")
commands=("$2" "$4")
pids=()
for i in 0 1; do
    # Each half in a session of its own, so that all of it can be ended.
    setsid bash -c "${commands[$i]}" >"$logs/${names[$i]}.log" 2>&1 &
    pids+=($!)
done
# Both halves end with this script, whatever way it ends.
trap 'for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done' EXIT

status=0
statuses=()
for i in 0 1; do
    wait "${pids[$i]}"
    statuses+=($?)
done
trap - EXIT
for i in 0 1; do
    echo "== side by side: ${names[$i]} (status ${statuses[$i]}), its output:"
    cat "$logs/${names[$i]}.log"
done
for i in 0 1; do
    if ((statuses[i] != 0)); then
        echo "== side by side: ${names[$i]} failed (status ${statuses[$i]}); its output is $logs/${names[$i]}.log" >&2
        ((status == 0)) && status=${statuses[$i]}
    fi
done
exit $status
