#!/usr/bin/env bash
# The package test on both releases, with one package built once:
#
#   Tests/Packaging/test_releases.sh [PACKAGE.deb]
#
# Without an argument (or $DFL_DEB) it builds the package into build/package
# with packaging/build-deb.sh: on Debian 12, release mode, the Swift runtime
# linked statically, so the same file serves Debian 13 (and Ubuntu 24.04):
# its Depends names libglib2.0-0t64 | libglib2.0-0 and libcurl4t64 |
# libcurl4 (packaging/debian/t64-renames). Then test_package.sh runs with
# that file here, and the same script runs inside the Debian 13 root
# (Tests/Trixie/root.sh run, a throwaway overlay, so the install and the
# purge leave the cached root as it was): trixie's lintian, the t64
# alternatives against trixie's archive, python3-apt's DebPackage.check(),
# apt-get install, D-Bus activation, XDG autostart, a real systemd --user,
# the unit's exposure, the man pages, the completions, the purge. As root.
# Prints the time of each part; exits non-zero if either release fails.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
package=dreamsforlittles-desktop

started=$SECONDS
times=()
# timed TITLE COMMAND...: runs the command and keeps its time for the end.
timed() {
    local title=$1 begun=$SECONDS rc
    shift
    echo "==== $title"
    "$@"
    rc=$?
    times+=("$(printf '%5d s  %s (exit %d)' $((SECONDS - begun)) "$title" "$rc")")
    return "$rc"
}
summary() {
    echo
    echo "==== the package test on both releases: the time of each part"
    printf '      %s\n' "${times[@]}"
    echo "      $((SECONDS - started)) s in all"
}

here=$(. /etc/os-release && echo "${NAME%% *} ${VERSION_ID:-?} (${VERSION_CODENAME:-unknown})")

deb=${1:-${DFL_DEB:-}}
if [[ -z $deb ]]; then
    build() {
        mkdir -p build/package
        rm -f build/package/${package}_*.deb build/package/${package}-dbgsym_*.deb
        packaging/build-deb.sh build/package >build/package-build.log 2>&1 ||
            { tail -40 build/package-build.log; echo "test_releases: the package did not build" >&2; return 1; }
    }
    timed "building the package on $here (packaging/build-deb.sh)" build || { summary; exit 1; }
    deb=$(ls build/package/${package}_*_*.deb | head -1)
fi
deb=$(realpath "$deb")
[[ -f $deb ]] || { echo "test_releases: no package file $deb" >&2; exit 2; }
# The root sees only the checkout.
case $deb in
    "$repo"/*) ;;
    *) mkdir -p build/trixie && cp -f "$deb" build/trixie/ && deb=$repo/build/trixie/$(basename "$deb") ;;
esac

status=0
timed "the package test on $here" Tests/Packaging/test_package.sh "$deb" || status=1

root_ready() { Tests/Trixie/root.sh path >/dev/null; }
timed "the Debian 13 root (made if missing or stale)" root_ready || { summary; exit 1; }
# root.sh starts the command with an empty environment: what the test reads
# from its own goes in by name.
inside=(env)
[[ -n ${DFL_TEST_SYSTEMD_USER:-} ]] && inside+=("DFL_TEST_SYSTEMD_USER=$DFL_TEST_SYSTEMD_USER")
timed "the package test in the Debian 13 root, same package" \
    Tests/Trixie/root.sh run "${inside[@]}" Tests/Packaging/test_package.sh "$deb" || status=1

summary
exit "$status"
