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
#                     Flatpak stand-in runtime (Tests/Flatpak/standin.sh),
#                     then the Debian testing root: GNOME 50 and Plasma
#                     6.7 for the desktop tests, and the build against
#                     GLib 2.90 (Tests/Forky/build.sh)
#   ahead.sh builds   the AddressSanitizer and ThreadSanitizer builds
#                     (Tests/Sanitizers/run.sh), then the fuzz targets
#                     (scripts/fuzz.sh)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
started=$SECONDS
done_after() { echo "ahead: $1 after $((SECONDS - started)) s"; }
case ${1:-} in
    roots)
        Tests/Trixie/root.sh path >/dev/null
        done_after "the Debian 13 root is ready"
        Tests/Flatpak/standin.sh path >/dev/null
        done_after "the Flatpak stand-in runtime is ready"
        DFL_ROOT_SUITE=forky Tests/Trixie/root.sh path >/dev/null
        done_after "the Debian testing root is ready"
        ;;
    builds)
        Tests/Sanitizers/run.sh address --build-only
        done_after "the AddressSanitizer build is done"
        Tests/Sanitizers/run.sh thread --build-only
        done_after "the ThreadSanitizer build is done"
        scripts/fuzz.sh build
        done_after "the fuzz targets are built"
        ;;
    *)
        echo "usage: scripts/ahead.sh roots|builds" >&2
        exit 64
        ;;
esac
