#!/usr/bin/env bash
# The Flatpak's tests (every test_*.py here) in the Debian 13 root, against
# the bundle and the stand-in runtime that `make flatpak` left in
# build/flatpak (Tests/Flatpak/build.sh), with the harness of
# Tests/Integration and the desktops' helpers of Tests/Trixie; the .deb
# beside the Flatpak (test_deb_beside_flatpak) also needs the package that
# `make package` left in build/package. As root.
#
#   run.sh [TEST...]     a module, class or test as unittest names them
#                        (test_gnome_flatpak, test_bundle.BundleTest...);
#                        without one, every module runs
#
# With DFL_ROOT_SUITE=forky the same runs in the Debian testing root
# (GNOME Shell 50, Plasma 6.7), the tests told so by DFL_RELEASE=forky.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
for needed in build/flatpak/com.dreamsforlittles.DreamsForLittles.flatpak build/flatpak/repo; do
    [[ -e $repo/$needed ]] || { echo "flatpak-test: $needed is missing: run make flatpak first" >&2; exit 1; }
done
exec "$repo/Tests/Trixie/root.sh" run /bin/bash -c '
    release=$1; shift
    export PYTHONPATH=$PWD/Tests/Flatpak:$PWD/Tests/Integration:$PWD/Tests/Trixie DFL_RELEASE=$release
    # Screenshots of another root than Debian 13 go apart: make check runs two at once.
    [[ $release == trixie ]] || export DFL_ARTIFACTS=$PWD/build/test-artifacts/$release
    if (($# == 0)); then
        exec python3 -m unittest discover -s Tests/Flatpak -t Tests/Flatpak -p "test_*.py" -v
    fi
    exec python3 -m unittest -v "$@"
' flatpak-test "${DFL_ROOT_SUITE:-trixie}" "$@"
