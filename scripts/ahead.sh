#!/usr/bin/env bash
# What make check needs later, made ahead: `make check` starts both parts
# at its beginning (roots) and after its first build (builds), in the
# background at the lowest CPU and I/O priority, so that they use what the
# build and the tests leave idle. Each stage that needs their results runs
# its usual command and waits where one of these is still at it: root.sh
# and standin.sh on their cache's lock (and say so), swift build on its
# build directory's lock. Whatever failed here the stage makes itself, and
# says why. Made already, each part is a quick no-op.
#
#   ahead.sh roots    the Debian 13 root (Tests/Trixie/root.sh), then the
#                     Debian testing root (GNOME 50 and Plasma 6.7 for the
#                     desktop tests, and the build against GLib 2.90:
#                     Tests/Forky/build.sh), then the Flatpak stand-in
#                     runtime (Tests/Flatpak/standin.sh)
#   ahead.sh builds   the AddressSanitizer and ThreadSanitizer builds
#                     (Tests/Sanitizers/run.sh), the fuzz targets
#                     (scripts/fuzz.sh), then the Debian package (make
#                     package) and the Flatpak (make flatpak)
#   ahead.sh take package|flatpak
#                     the package or the Flatpak for make check's stage of
#                     that name: waits while `builds` is at it, takes what
#                     it made when it passed, else makes it here (make
#                     package or make flatpak), as the stage did before
#
# The package and the Flatpak build from the tree as it is: `builds` holds
# a lock on each (build/ahead/NAME.lock) from its start until that one is
# made, and leaves its exit status in build/ahead/NAME.status, which make
# check removes when it starts.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
started=$SECONDS
done_after() { echo "ahead: $1 after $((SECONDS - started)) s"; }
# Makes the package or the Flatpak as its make target does, leaves the
# exit status for `take` and lets go of its lock.
made() {
    local name=$1 lock=$2 status=0
    make --no-print-directory "$name" || status=$?
    echo "$status" >"build/ahead/$name.status"
    flock -u "$lock"
    done_after "the $name is made (exit $status)"
}
case ${1:-} in
    roots)
        # The desktop tests need both roots before the Flatpak's build
        # needs the stand-in (make check's order of stages); that build,
        # if it comes first, makes the stand-in itself.
        Tests/Trixie/root.sh path >/dev/null
        done_after "the Debian 13 root is ready"
        DFL_ROOT_SUITE=forky Tests/Trixie/root.sh path >/dev/null
        done_after "the Debian testing root is ready"
        Tests/Flatpak/standin.sh path >/dev/null
        done_after "the Flatpak stand-in runtime is ready"
        ;;
    builds)
        # The locks first, before anything else: a stage that reaches
        # `take` while the sanitizers' builds are still running waits for
        # the package rather than making it beside this.
        mkdir -p build/ahead
        exec {package_lock}>build/ahead/package.lock {flatpak_lock}>build/ahead/flatpak.lock
        flock "$package_lock"
        flock "$flatpak_lock"
        Tests/Sanitizers/run.sh address --build-only
        done_after "the AddressSanitizer build is done"
        Tests/Sanitizers/run.sh thread --build-only
        done_after "the ThreadSanitizer build is done"
        scripts/fuzz.sh build
        done_after "the fuzz targets are built"
        made package "$package_lock"
        made flatpak "$flatpak_lock"
        ;;
    take)
        name=${2:-}
        [[ $name == package || $name == flatpak ]] || { echo "usage: scripts/ahead.sh take package|flatpak" >&2; exit 64; }
        mkdir -p build/ahead
        exec {lock}>"build/ahead/$name.lock"
        flock -n "$lock" || { echo "ahead: waiting for the $name made ahead (build/ahead-builds.log)"; flock "$lock"; }
        if [[ $(cat "build/ahead/$name.status" 2>/dev/null) == 0 ]]; then
            echo "ahead: the $name was made ahead (build/ahead-builds.log)"
            exit 0
        fi
        [[ -f build/ahead/$name.status ]] &&
            echo "ahead: making the $name ahead failed (exit $(cat "build/ahead/$name.status"), build/ahead-builds.log); making it here"
        exec make --no-print-directory "$name"
        ;;
    *)
        echo "usage: scripts/ahead.sh roots|builds|take package|flatpak" >&2
        exit 64
        ;;
esac
