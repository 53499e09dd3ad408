#!/usr/bin/env bash
# The stand-in for Flathub's runtime, made from Debian testing's packages
# (GLib, GTK and WebKitGTK as new as GNOME 50's or newer) and this
# machine's Swift toolchain, so that the Flatpak manifest is built and run
# on machines that cannot reach Flathub: org.gnome.Platform//51,
# org.gnome.Sdk//51 and org.freedesktop.Sdk.Extension.swift6//26.08, the
# branches Flathub has, so that the manifest is built as it is, in a
# Flatpak repository cached on this machine.
#
#   standin.sh path               the repository, made first if it is missing or stale
#   standin.sh branch             the runtime's branch (the manifest's runtime-version)
#   standin.sh extension-branch   the swift6 extension's branch
#   standin.sh drop               removes every cached stand-in
#
# The cache is $DFL_ROOT_CACHE (default /var/cache/dreamsforlittles-tests),
# beside the Debian 13 root. A stand-in is kept under a key made from the
# two package lists beside this script, the recipe's version below and the
# toolchain's version, so a change to any of them makes it again.
#
# Only the branch names are Flathub's: the files are Debian's (the suite
# below) and the toolchain's. The toolchain is $DFL_SWIFT_TOOLCHAIN
# (default /opt/swift), the one the rest of the tests use; Flathub's
# swift6 extension carries the same Swift minor version.
#
# How it is made: a debootstrapped Debian testing root (minbase) with the
# packages of platform-packages.txt gives the Platform (its /usr as the
# runtime's files, its /etc as files/etc); a copy of it with those of
# sdk-packages.txt gives the SDK, whose metadata declares the
# org.freedesktop.Sdk.Extension point at lib/sdk as the GNOME SDK's does.
# The toolchain's usr, without what a build does not run (the debugger,
# the language servers, documentation, Embedded Swift), is the extension,
# which Flatpak mounts at /usr/lib/sdk/swift6: bin/swift and lib/ as
# Flathub's, which the manifest puts on PATH and LD_LIBRARY_PATH. The
# toolchain was built for Debian 12: the few Debian 12 libraries its
# programs link that testing has only under newer names (ICU 72,
# libxml2.so.2, OpenLDAP 2.5, libunistring 2) are carried in its lib/,
# copied from this machine, where the toolchain runs. The three are
# exported with flatpak build-export from inside the Debian 13 root
# (Tests/Trixie/root.sh), whose flatpak this Debian 12 lacks, and the
# trees are then let go of: the repository stays.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${DFL_ROOT_CACHE:-/var/cache/dreamsforlittles-tests}
# The Debian suite the runtime's packages come from, the one place to change
# it. Debian 12's debootstrap has no script named for testing: sid's makes
# it.
suite=forky
debootstrap_script=/usr/share/debootstrap/scripts/sid
mirror=${DFL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DFL_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
# Flathub's branches: GNOME 51, and the swift6 extension's branch for its
# freedesktop 26.08 base, which the GNOME 51 SDK's extension point names.
branch=51
extension_branch=26.08
arch=x86_64
toolchain=${DFL_SWIFT_TOOLCHAIN:-/opt/swift}
# Raise when the way the stand-in is made changes.
recipe=5

die() { echo "flatpak-standin: $*" >&2; exit 1; }

packages() { grep -v '^[[:space:]]*\(#\|$\)' "$here/$1"; }

need_toolchain() {
    [[ -x $toolchain/usr/bin/swift-frontend ]] \
        || die "no Swift toolchain in $toolchain (usr/bin/swift-frontend): install one there or set DFL_SWIFT_TOOLCHAIN"
}

key() {
    need_toolchain
    local version
    version=$("$toolchain/usr/bin/swift-frontend" --version 2>&1) \
        || die "the toolchain in $toolchain does not run: $version"
    version=${version%%$'\n'*}
    { cat "$here/platform-packages.txt" "$here/sdk-packages.txt"
      printf '%s\n' "$recipe" "$suite" "$mirror" "$security" "$branch" "$extension_branch" "$arch" "$version"; } | sha256sum | cut -c1-16
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

# A Debian testing tree with the given packages installed.
make_tree() {
    local dir=$1; shift
    echo "flatpak-standin: installing $# packages into $(basename "$dir")" >&2
    in_tree "$dir" apt-get install -y -q --no-install-recommends "$@" >&2 \
        || die "apt-get install failed (a package list names a package $suite lacks?)"
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

# The toolchain's files the extension leaves out: a build never runs them,
# and they are half the toolchain's size (the debugger and its server, the
# language servers and their libraries, DocC, swift-format, Embedded Swift's
# libraries, the API checker's baselines, the manuals).
toolchain_excludes=(
    ./bin/lldb ./bin/lldb-argdumper ./bin/lldb-dap ./bin/lldb-server ./bin/repl_swift
    ./bin/sourcekit-lsp ./bin/clangd ./bin/docc ./bin/swift-format ./bin/wasmkit
    ./bin/swift-build-sdk-interfaces ./bin/llvm-cov ./bin/llvm-profdata ./bin/llvm-objdump
    './lib/liblldb.so*' ./lib/libsourcekitdInProc.so './lib/libSwiftSourceKit*'
    './lib/libclang.so*' './lib/libLTO.so*'
    ./lib/swift/embedded ./lib/swift_static/embedded ./lib/swift/FrameworkABIBaseline
    ./share/doc ./share/docc ./share/man
)

# The swift6 extension's files in OUT, made from the toolchain and checked
# against the SDK tree: every program of it must find all it links there.
make_extension() {
    local sdk=$1 out=$2
    need_toolchain
    echo "flatpak-standin: the swift6 extension from $("$toolchain/usr/bin/swift-frontend" --version 2>&1 | head -n 1)" >&2
    mkdir -p "$out"
    tar -C "$toolchain/usr" "${toolchain_excludes[@]/#/--exclude=}" -cf - . | tar -C "$out" -xf -
    [[ -x $out/bin/swift && -x $out/bin/swift-build && -d $out/lib/swift_static/linux ]] \
        || die "the toolchain in $toolchain has no bin/swift, bin/swift-build or lib/swift_static/linux"
    # The libraries its programs link from outside the toolchain that the
    # SDK lacks (the toolchain was built for Debian 12; testing has newer
    # ICU, libxml2, OpenLDAP and libunistring), taken from where this
    # machine finds them, since the toolchain runs here.
    local program name path carried=()
    while read -r name path; do
        [[ -e $sdk/usr/lib/x86_64-linux-gnu/$name || -e $sdk/usr/lib/$name ]] && continue
        cp -L "$path" "$out/lib/$name"
        carried+=("$name")
    done < <(for program in "$out"/bin/*; do
                 [[ -f $program && ! -L $program ]] && head -c 4 "$program" | grep -q ELF || continue
                 ldd "$toolchain/usr/bin/${program##*/}" | awk -v own="$toolchain/" '$3 ~ /^\// && index($3, own) != 1 {print $1, $3}'
             done | sort -u)
    echo "flatpak-standin: carried in the extension's lib/ for the toolchain: ${carried[*]:-nothing}" >&2
    # Checked in the SDK tree with the extension where Flatpak mounts it
    # and its lib/ on the library path, as the manifest's build-options
    # put it: each program finds what it links, and swift-build runs.
    local missing
    missing=$(unshare --mount --pid --fork --kill-child --propagation private -- /bin/bash -c '
        set -e
        mkdir -p "$1/usr/lib/sdk/swift6"
        mount --bind "$2" "$1/usr/lib/sdk/swift6"
        mount -t proc proc "$1/proc"
        mount -t tmpfs -o mode=1777 tmp "$1/tmp"
        chroot "$1" /usr/bin/env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH=/usr/lib/sdk/swift6/lib /bin/sh -c "
            for program in /usr/lib/sdk/swift6/bin/*; do
                [ -L \"\$program\" ] && continue
                ldd \"\$program\" 2>/dev/null | sed -n \"s|^[[:space:]]*\(.*\) => not found|\${program##*/}: \1|p\"
            done
            /usr/lib/sdk/swift6/bin/swift-build --version >/dev/null 2>&1 || echo \"swift-build --version failed\"
        "
    ' check "$sdk" "$out" 2>&1) || missing+=${missing:+$'\n'}"the check itself failed"
    rmdir "$sdk/usr/lib/sdk/swift6" "$sdk/usr/lib/sdk" 2>/dev/null || true
    [[ -z $missing ]] || die "the toolchain does not run in the SDK made from $suite:
$missing"
}

make_standin() {
    # Apart, so that a key that cannot be made stops here.
    local target
    target="$cache/flatpak-standin-$(key)"
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
    debootstrap --variant=minbase --include=ca-certificates "$suite" "$work/platform" "$mirror" "$debootstrap_script" >&2 \
        || { tail -n 30 "$work/platform/debootstrap/debootstrap.log" >&2 2>/dev/null || true; die "debootstrap failed"; }
    cat > "$work/platform/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
    # Testing's Release files expire within days.
    echo 'Acquire::Check-Valid-Until "false";' > "$work/platform/etc/apt/apt.conf.d/10-testing"
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
    make_tree "$work/sdk" "${sdk_packages[@]}"
    make_extension "$work/sdk" "$work/swift6"

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
    mv "$work/swift6" "$work/export/swift6/files"
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
