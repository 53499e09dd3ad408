#!/usr/bin/env bash
# The desktop tests on Debian 13 (trixie): GNOME Shell 48 and KDE Plasma 6
# on Wayland, XFCE 4.20, and the package, in the root that root.sh makes.
#
#   Tests/Trixie/run.sh [--deb FILE] [--harness-checked] [TEST...]
#
# The package under test is FILE, else the newest build/package/*.deb, else
# one built now with packaging/build-deb.sh: its programs are built outside
# the root with the Swift runtime linked statically, so the root needs only
# Debian's libraries. Inside the root, the package is installed (into the
# throwaway overlay; the cached root is not changed), and the tests in
# Tests/Trixie run against the installed programs, with the harness of
# Tests/Integration. TEST names a module, class or test as unittest takes
# them (test_gnome_wayland, test_plasma6.PopupTests, ...); without one, every
# module runs, after root_harness_test.py has checked on the host that a
# run of root.sh leaves no process, mount or file behind (unless
# --harness-checked says the caller has just checked that itself, as make
# check does before it runs this beside the testing root's tests). The
# time of each part is printed.
#
# With DFL_ROOT_SUITE=forky the same runs in the Debian testing root
# instead (GNOME Shell 50, Plasma 6.7: the desktops most parents run now),
# and the tests know it by DFL_RELEASE=forky.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

deb=
harness_checked=
while [[ ${1:-} == --* ]]; do
    case $1 in
        --deb) deb=$2; shift 2;;
        # The caller has just run root_harness_test.py (make check's
        # desktop-tests, before it runs this beside another root's tests).
        --harness-checked) harness_checked=1; shift;;
        *) echo "trixie: unknown option $1" >&2; exit 64;;
    esac
done

clock() { date +%s; }
started=$(clock)
part() { echo "== trixie: $1 ($(( $(clock) - started )) s so far)"; }

if [[ -z $deb ]]; then
    deb=$(ls -t build/package/dreamsforlittles-desktop_*.deb 2>/dev/null | head -1 || true)
fi
if [[ -z $deb ]]; then
    part "building the package"
    packaging/build-deb.sh build/package >build/package-build.log 2>&1 \
        || { tail -40 build/package-build.log; echo "trixie: the package did not build" >&2; exit 1; }
    deb=$(ls -t build/package/dreamsforlittles-desktop_*.deb | head -1)
fi
deb=$(realpath "$deb")
case $deb in
    "$repo"/*) ;;
    *) mkdir -p build/trixie && cp -f "$deb" build/trixie/ && deb=$repo/build/trixie/$(basename "$deb") ;;
esac

part "the root"
root_started=$(clock)
"$here/root.sh" path >/dev/null
echo "   the root is ready after $(( $(clock) - root_started )) s"

if (($# == 0)) && [[ -z $harness_checked ]]; then
    part "the harness leaves nothing on the host"
    /usr/bin/python3 "$here/root_harness_test.py" || { echo "trixie: root.sh run left something behind" >&2; exit 1; }
fi

part "the tests in the root, against $(basename "$deb")"
tests_started=$(clock)
status=0
"$here/root.sh" run /bin/bash -c '
    set -e
    deb=$1 release=$2; shift 2
    dpkg -i "$deb" >/tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; echo "trixie: the package did not install in the root" >&2; exit 1; }
    export DFL_BUILD_DIR=/usr/bin DFL_RELEASE=$release
    export PYTHONPATH=$PWD/Tests/Integration:$PWD/Tests/Trixie
    # Screenshots of another root than Debian 13 go apart: make check runs two at once.
    [[ $release == trixie ]] || export DFL_ARTIFACTS=$PWD/build/test-artifacts/$release
    if (($# == 0)); then
        exec python3 -m unittest discover -s Tests/Trixie -t Tests/Trixie -v
    fi
    exec python3 -m unittest -v "$@"
' trixie "$deb" "${DFL_ROOT_SUITE:-trixie}" "$@" || status=$?
echo "   the tests in the root took $(( $(clock) - tests_started )) s"
part "done, status $status"
exit $status
