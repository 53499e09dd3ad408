#!/usr/bin/env bash
# The stand-in for Flathub's runtime, made from Debian 13's packages, so
# that the Flatpak manifest is built and run on machines that cannot reach
# Flathub: org.gnome.Platform//51, org.gnome.Sdk//51 and
# org.freedesktop.Sdk.Extension.swift6//26.08, the branches Flathub has, so
# that the manifest is built as it is, in a Flatpak repository cached on
# this machine.
#
#   standin.sh path               the repository, made first if it is missing or stale
#   standin.sh branch             the runtime's branch (the manifest's runtime-version)
#   standin.sh extension-branch   the swift6 extension's branch
#   standin.sh drop               removes every cached stand-in
#
# The cache is $DFL_ROOT_CACHE (default /var/cache/dreamsforlittles-tests),
# beside the Debian 13 root. A stand-in is kept under a key made from the
# two package lists beside this script and the recipe's version below, so a
# change to either makes it again.
#
# Only the branch names are Flathub's: the files are Debian's (the suite below).
#
# How it is made: a debootstrapped Debian 13 root (minbase) with the
# packages of platform-packages.txt gives the Platform (its /usr as the
# runtime's files, its /etc as files/etc); a copy of it with those of
# sdk-packages.txt and Debian's swiftlang gives the SDK, whose metadata
# declares the org.freedesktop.Sdk.Extension point at lib/sdk as the GNOME
# SDK's does; swiftlang's toolchain (/usr/libexec/swift) is moved out of it
# into the extension, which Flatpak mounts at /usr/lib/sdk/swift6 with
# bin/swift as Flathub's. The three are exported with flatpak build-export
# from inside the Debian 13 root (Tests/Trixie/root.sh), whose flatpak this
# Debian 12 lacks, and the trees are then let go of: the repository stays.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${DFL_ROOT_CACHE:-/var/cache/dreamsforlittles-tests}
# The Debian suite the runtime's packages come from, the one place to change it.
suite=trixie
mirror=${DFL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DFL_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
# Flathub's branches: GNOME 51, and the swift6 extension's branch for its
# freedesktop 26.08 base, which the GNOME 51 SDK's extension point names.
branch=51
extension_branch=26.08
arch=x86_64
# Raise when the way the stand-in is made changes.
recipe=4

die() { echo "flatpak-standin: $*" >&2; exit 1; }

packages() { grep -v '^[[:space:]]*\(#\|$\)' "$here/$1"; }

key() {
    { cat "$here/platform-packages.txt" "$here/sdk-packages.txt"
      printf '%s\n' "$recipe" "$suite" "$mirror" "$security" "$branch" "$extension_branch" "$arch"; } | sha256sum | cut -c1-16
}

need_root() {
    [[ $(id -u) -eq 0 ]] || die "making the stand-in needs root (debootstrap, chroot and mounts)"
    command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
    command -v unshare >/dev/null || die "unshare is missing: apt-get install util-linux"
}

# Runs a command in a tree being made, in a mount and PID namespace of its
# own, with /proc, /sys, /dev and a fresh /tmp: nothing stays mounted or
# running when it ends.
in_tree() {
    local dir=$1; shift
    unshare --mount --pid --fork --kill-child --propagation private -- /bin/bash -c '
        set -e
        dir=$1; shift
        mount -t proc proc "$dir/proc"
        mount --rbind /sys "$dir/sys"; mount --make-rslave "$dir/sys"
        mount --rbind /dev "$dir/dev"; mount --make-rslave "$dir/dev"
        mount -t tmpfs -o mode=1777 tmp "$dir/tmp"
        exec chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
    ' in_tree "$dir" "$@"
}

# Runs flatpak (or another command) from the Debian 13 root, read-only,
# with DIR seen at /mnt: this Debian 12 has no flatpak of its own.
with_trixie() {
    local dir=$1; shift
    local root; root=$("$repo/Tests/Trixie/root.sh" path)
    unshare --mount --pid --fork --kill-child --propagation private -- /bin/bash -c '
        set -e
        root=$1 dir=$2; shift 2
        mount --bind "$root" "$root"
        mount -o remount,bind,ro "$root"
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"; mount --make-rslave "$root/dev"
        mount -t tmpfs -o mode=1777 tmp "$root/tmp"
        mount -t tmpfs -o mode=0755 run "$root/run"
        mount --bind "$dir" "$root/mnt"
        exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LANG=C.UTF-8 "$@"
    ' with_trixie "$root" "$dir" "$@"
}

# A Debian 13 root with the given package lists installed.
make_tree() {
    local dir=$1; shift
    echo "flatpak-standin: installing $# packages into $(basename "$dir")" >&2
    in_tree "$dir" apt-get install -y -q --no-install-recommends "$@" >&2 \
        || die "apt-get install failed (a package list names a package trixie lacks?)"
    in_tree "$dir" apt-get clean >&2
}

# A runtime's directory for build-export: metadata and files (the tree's
# /usr, with its /etc as files/etc).
runtime_dir() {
    local tree=$1 out=$2 metadata=$3
    mkdir -p "$out"
    mv "$tree/usr" "$out/files"
    rm -rf "$out/files/etc"
    mv "$tree/etc" "$out/files/etc"
    printf '%s' "$metadata" > "$out/metadata"
}

make_standin() {
    local target="$cache/flatpak-standin-$(key)"
    [[ -f "$target/.complete" ]] && { echo "$target/repo"; return; }
    need_root
    mkdir -p "$cache"
    exec 9>"$cache/.flatpak-standin.lock"
    flock -n 9 || { echo "flatpak-standin: another run is making the stand-in; waiting for it" >&2; flock 9; }
    [[ -f "$target/.complete" ]] && { exec 9>&-; echo "$target/repo"; return; }
    local started=$SECONDS stale
    for stale in "$cache"/flatpak-standin-*; do
        [[ -d $stale && $stale != "$target" ]] && rm -rf "$stale"
    done
    local work="$target.tmp"
    rm -rf "$work" "$target"
    mkdir -p "$work"

    echo "flatpak-standin: debootstrap $suite (minbase) from $mirror" >&2
    debootstrap --variant=minbase --include=ca-certificates "$suite" "$work/platform" "$mirror" >&2 \
        || { tail -n 30 "$work/platform/debootstrap/debootstrap.log" >&2 2>/dev/null || true; die "debootstrap failed"; }
    cat > "$work/platform/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
    # No manuals or package documentation in a runtime.
    cat > "$work/platform/etc/dpkg/dpkg.cfg.d/01-standin" <<'EOF'
path-exclude=/usr/share/doc/*
path-include=/usr/share/doc/*/copyright
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
EOF
    printf '#!/bin/sh\nexit 101\n' > "$work/platform/usr/sbin/policy-rc.d"
    chmod 755 "$work/platform/usr/sbin/policy-rc.d"
    in_tree "$work/platform" apt-get update -q >&2

    local -a platform_packages sdk_packages
    mapfile -t platform_packages < <(packages platform-packages.txt)
    mapfile -t sdk_packages < <(packages sdk-packages.txt)
    make_tree "$work/platform" "${platform_packages[@]}"
    # flatpak-spawn where the GNOME runtime has it and WebKit runs it from
    # PATH (Debian keeps it in /usr/libexec/flatpak-xdg-utils): without it
    # WebKit spawns its web processes in the app's own sandbox.
    [[ -x $work/platform/usr/libexec/flatpak-xdg-utils/flatpak-spawn ]] || die "flatpak-xdg-utils has no flatpak-spawn"
    ln -s ../libexec/flatpak-xdg-utils/flatpak-spawn "$work/platform/usr/bin/flatpak-spawn"
    cp -a "$work/platform" "$work/sdk"
    make_tree "$work/sdk" "${sdk_packages[@]}" swiftlang

    # The extension: swiftlang's toolchain, laid out as Flathub's (bin/swift,
    # lib/swift, lib/swift_static under /usr/lib/sdk/swift6); the libraries
    # it links (Python, libedit, libxml2...) stay in the SDK, as the
    # freedesktop SDK has them for Flathub's.
    [[ -x $work/sdk/usr/libexec/swift/bin/swift-frontend ]] || die "swiftlang has no /usr/libexec/swift/bin/swift-frontend"
    mkdir -p "$work/swift6"
    mv "$work/sdk/usr/libexec/swift" "$work/swift6/files"
    # Its commands' links in /usr/bin point into the toolchain, now gone.
    find "$work/sdk/usr/bin" -xtype l -lname '*libexec/swift/*' -delete
    in_tree "$work/sdk" dpkg --purge --force-depends swiftlang libswiftlang >&2 || true
    [[ -x $work/swift6/files/bin/swift ]] || die "the toolchain has no bin/swift"

    runtime_dir "$work/platform" "$work/export/platform" "[Runtime]
name=org.gnome.Platform
runtime=org.gnome.Platform/$arch/$branch
sdk=org.gnome.Sdk/$arch/$branch
"
    runtime_dir "$work/sdk" "$work/export/sdk" "[Runtime]
name=org.gnome.Sdk
runtime=org.gnome.Platform/$arch/$branch
sdk=org.gnome.Sdk/$arch/$branch

[Extension org.freedesktop.Sdk.Extension]
directory=lib/sdk
subdirectories=true
no-autodownload=true
autodelete=false
version=$extension_branch
"
    # The extension point's folder, which Flatpak mounts the extensions
    # under (the freedesktop SDK ships it empty).
    mkdir -p "$work/export/sdk/files/lib/sdk"
    mkdir -p "$work/export/swift6"
    mv "$work/swift6/files" "$work/export/swift6/files"
    printf '%s' "[Runtime]
name=org.freedesktop.Sdk.Extension.swift6
runtime=org.gnome.Sdk/$arch/$branch
sdk=org.gnome.Sdk/$arch/$branch

[ExtensionOf]
ref=runtime/org.gnome.Sdk/$arch/$branch
" > "$work/export/swift6/metadata"
    local size; size=$(du -sh "$work/export" | cut -f1)

    echo "flatpak-standin: exporting the Platform, the SDK and the swift6 extension" >&2
    local name
    for name in platform sdk; do
        with_trixie "$work" flatpak build-export --runtime --files=files --arch="$arch" \
            /mnt/repo "/mnt/export/$name" "$branch" >&2
    done
    with_trixie "$work" flatpak build-export --runtime --files=files --arch="$arch" \
        /mnt/repo /mnt/export/swift6 "$extension_branch" >&2
    with_trixie "$work" flatpak build-update-repo /mnt/repo >&2
    rm -rf "$work/platform" "$work/sdk" "$work/swift6" "$work/export"
    touch "$work/.complete"
    mv "$work" "$target"
    exec 9>&-
    echo "flatpak-standin: made in $((SECONDS - started)) s from $size of runtime files; the repository is $(du -sh "$target/repo" | cut -f1) at $target/repo" >&2
    echo "$target/repo"
}

case ${1:-} in
    path)
        make_standin
        ;;
    branch)
        echo "$branch"
        ;;
    extension-branch)
        echo "$extension_branch"
        ;;
    drop)
        rm -rf "$cache"/flatpak-standin-*
        echo "flatpak-standin: dropped the cached stand-ins in $cache" >&2
        ;;
    *)
        echo "usage: standin.sh path | branch | extension-branch | drop" >&2
        exit 2
        ;;
esac
