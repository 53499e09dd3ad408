#!/usr/bin/env bash
# Builds the Flatpak manifest with flatpak-builder on the stand-in runtime
# (Tests/Flatpak/standin.sh), inside the Debian 13 root, whose flatpak and
# flatpak-builder are newer than this Debian 12's (Tests/Trixie/root.sh).
#
#   build.sh
#
# Leaves in build/flatpak/:
#   com.dreamsforlittles.DreamsForLittles.flatpak   the app as a single-file bundle
#   repo/                              the stand-in runtime's repository
#   installation/, state/, build-dir/, app-repo/
#                                      flatpak-builder's SDK, cache and output,
#                                      kept for the next build
# The manifest is built as it is: the stand-in has Flathub's branch names.
# As root. The root's own files are seen through a throwaway overlay: what
# must last is written under build/ in the checkout.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$repo/build/flatpak
app_id=com.dreamsforlittles.DreamsForLittles
manifest=$repo/packaging/flatpak/$app_id.yml

die() { echo "flatpak-build: $*" >&2; exit 1; }

if [[ ${1:-} != --in-root ]]; then
    [[ $(id -u) -eq 0 ]] || die "the build enters the Debian 13 root: run it as root"
    cached=$("$here/standin.sh" path)
    branch=$("$here/standin.sh" branch)
    extension_branch=$("$here/standin.sh" extension-branch)
    key=$(basename "$(dirname "$cached")")
    mkdir -p "$out"
    # The stand-in's repository beside the bundle, as hard links into the
    # cache where both are on one file system (ostree never changes an
    # object in place), else as a copy. A new stand-in replaces it, and the
    # SDK installed from the old one.
    if [[ $(cat "$out/repo.key" 2>/dev/null) != "$key" ]]; then
        rm -rf "$out/repo" "$out/installation" "$out/repo.key"
        cp -al "$cached" "$out/repo" 2>/dev/null || { rm -rf "$out/repo"; cp -a "$cached" "$out/repo"; }
        echo "$key" > "$out/repo.key"
    fi
    python3 "$here/standin_manifest.py" "$manifest" "$branch"
    exec "$repo/Tests/Trixie/root.sh" run "$here/build.sh" --in-root "$branch" "$extension_branch"
fi

branch=$2 extension_branch=$3
command -v eu-strip >/dev/null || die "eu-strip is missing in the root: Tests/Trixie/packages.txt names elfutils"
export FLATPAK_USER_DIR=$out/installation FLATPAK_SYSTEM_HELPER_ON_SESSION=1
flatpak remote-add --user --if-not-exists --no-gpg-verify standin "file://$out/repo"
started=$SECONDS
flatpak install --user --or-update --noninteractive -y standin \
    "runtime/org.gnome.Sdk/x86_64/$branch" \
    "runtime/org.gnome.Platform/x86_64/$branch" \
    "runtime/org.freedesktop.Sdk.Extension.swift6/x86_64/$extension_branch" >&2
echo "flatpak-build: the stand-in SDK, Platform and swift6 extension installed for the build in $((SECONDS - started)) s" >&2

started=$SECONDS
# No FUSE here, so no rofiles-fuse; the state (downloads, the build cache)
# and the build directory stay in the checkout's build/.
flatpak-builder --user --disable-rofiles-fuse --state-dir="$out/state" --force-clean \
    --repo="$out/app-repo" "$out/build-dir" "$manifest" >&2
echo "flatpak-build: flatpak-builder took $((SECONDS - started)) s" >&2
flatpak build-bundle "$out/app-repo" "$out/$app_id.flatpak" "$app_id" >&2
echo "flatpak-build: $out/$app_id.flatpak ($(du -h "$out/$app_id.flatpak" | cut -f1)); the runtime: $out/repo, branch $branch" >&2
