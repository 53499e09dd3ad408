#!/usr/bin/env bash
# Builds the Debian package dreamsforlittles-desktop.
#
#   packaging/build-deb.sh OUTDIR
#
# Copies the source tree (the files git knows of, tracked or not ignored;
# without git, the working tree minus build output) to a temporary
# directory, puts packaging/debian there as ./debian, runs
# "dpkg-buildpackage -us -uc -b" and leaves the .deb files, the .buildinfo
# and the .changes in OUTDIR. The checkout itself, and its .build, are left
# alone. Needs dpkg-dev, debhelper, the build dependencies of
# packaging/debian/control and the Swift toolchain (on PATH or in
# /opt/swift/usr/bin).
set -euo pipefail

if (($# != 1)) || [[ $1 == -* ]]; then
    echo "usage: $0 OUTDIR" >&2
    exit 64
fi
mkdir -p "$1"
outdir=$(cd "$1" && pwd)
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

export PATH=$PATH:/opt/swift/usr/bin
command -v swift >/dev/null || { echo "build-deb: no swift on PATH or in /opt/swift/usr/bin" >&2; exit 1; }
command -v dpkg-buildpackage >/dev/null || { echo "build-deb: dpkg-buildpackage is missing (apt-get install dpkg-dev debhelper)" >&2; exit 1; }

version=$(dpkg-parsechangelog -l "$repo/packaging/debian/changelog" -S Version)
upstream=${version%-*}
# The version's one source is AppIdentity.version; the changelog must agree.
identity=$(sed -n 's/^ *public static let version = "\(.*\)"$/\1/p' "$repo/Sources/SleepTimersAPI/AppIdentity.swift")
if [[ $upstream != "$identity" ]]; then
    echo "build-deb: packaging/debian/changelog is at $upstream, AppIdentity.version at $identity: add a changelog entry" >&2
    exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/dreamsforlittles-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
source_dir=$work/dreamsforlittles-desktop-$upstream
mkdir "$source_dir"

echo "build-deb: copying the source tree to $source_dir" >&2
# The tree is a checkout of its own only where git's top level is the tree
# itself (not a copy of it inside some other checkout).
if [[ $(git -C "$repo" rev-parse --show-toplevel 2>/dev/null) == "$repo" ]]; then
    # Tracked files and untracked ones that are not ignored; a tracked file
    # deleted in the working tree is skipped.
    git -C "$repo" ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' file; do
            if [[ -e $repo/$file || -L $repo/$file ]]; then printf '%s\0' "$file"; fi
        done |
        sort -zu |
        tar -C "$repo" --null --files-from=- -cf - |
        tar -C "$source_dir" -xf -
else
    tar -C "$repo" --exclude=./.build --exclude=./.swiftpm --exclude=./build --exclude=./.git -cf - . |
        tar -C "$source_dir" -xf -
fi
rm -rf "$source_dir/debian"
cp -a "$source_dir/packaging/debian" "$source_dir/debian"

echo "build-deb: dpkg-buildpackage -us -uc -b" >&2
(cd "$source_dir" && dpkg-buildpackage -us -uc -b)

shopt -s nullglob
artifacts=("$work"/*.deb "$work"/*.ddeb "$work"/*.buildinfo "$work"/*.changes)
if ((${#artifacts[@]} == 0)); then
    echo "build-deb: dpkg-buildpackage left no package" >&2
    exit 1
fi
mv -f "${artifacts[@]}" "$outdir"/
for artifact in "${artifacts[@]}"; do
    echo "$outdir/${artifact##*/}"
done
