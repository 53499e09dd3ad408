#!/usr/bin/env bash
# The Flatpak's smoke test (test_bundle.py) in the Debian 13 root, against
# the bundle and the stand-in runtime that `make flatpak` left in
# build/flatpak (Tests/Flatpak/build.sh). As root.
#
#   run.sh [unittest arguments...]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
for needed in build/flatpak/com.dreamsforlittles.App.flatpak build/flatpak/repo; do
    [[ -e $repo/$needed ]] || { echo "flatpak-test: $needed is missing: run make flatpak first" >&2; exit 1; }
done
exec "$repo/Tests/Trixie/root.sh" run python3 -m unittest discover -s Tests/Flatpak -p 'test_*.py' "$@"
