#!/usr/bin/env bash
# Makes the Debian 13 root and the Flatpak stand-in runtime ahead of the
# stages that need them: `make check` starts this at its beginning, in the
# background at the lowest CPU and I/O priority, so that the download and
# the unpacking use what the build and the tests leave idle. The stages
# that need them (package-test, trixie-tests, flatpak) call root.sh and
# standin.sh as before: each waits on its cache's lock while this one is
# still making it, then finds it made, or makes it itself if this failed
# (its log is build/ahead.log). Cached roots make this a no-op.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
started=$SECONDS
"$here/root.sh" path >/dev/null
echo "ahead: the Debian 13 root is ready after $((SECONDS - started)) s"
"$repo/Tests/Flatpak/standin.sh" path >/dev/null
echo "ahead: the Flatpak stand-in runtime is ready after $((SECONDS - started)) s"
