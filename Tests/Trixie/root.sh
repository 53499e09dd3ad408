#!/usr/bin/env bash
# The Debian 13 (trixie) root the desktop tests run in, made with debootstrap
# from Debian's archive and cached on this machine; with DFL_ROOT_SUITE=forky
# the same from Debian testing (the desktops of 2026: GLib 2.90, GTK 4.24),
# with the packages of DFL_ROOT_PACKAGES, ":"-separated files (default:
# packages.txt beside this, and for testing also Tests/Forky/build-packages.txt:
# one root there serves both the desktop tests and the build against its GLib).
#
#   root.sh path          the root, made first if it is missing or stale
#   root.sh run CMD...    runs CMD inside the root (made first if need be),
#                         in the checkout, with the root's own files seen
#                         through a throwaway overlay (and the folders of
#                         DFL_ROOT_BIND, ":"-separated, read-only)
#   root.sh drop          removes every cached root
#
# The cache is $DFL_ROOT_CACHE (default /var/cache/dreamsforlittles-tests).
# A root is kept under a key made from packages.txt and the recipe's
# version below, so a change to either makes it again; the bare debootstrap under a key of its
# own, so a change to the package list does not fetch the base again.
#
# Inside, a private mount namespace holds only what the tests need: /proc,
# /sys, /dev (with a fresh /dev/pts and /dev/shm), a fresh /tmp and /run, and
# the checkout at its own path. The root is bound onto itself, so that
# WebKit's bubblewrap sandbox can make its own namespaces inside it. The
# project's programs come from the checkout, built outside with the Swift
# runtime linked statically (Tests/Trixie/run.sh).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${DFL_ROOT_CACHE:-/var/cache/dreamsforlittles-tests}
suite=${DFL_ROOT_SUITE:-trixie}
case $suite in
    trixie) script= default_lists=$here/packages.txt;;
    # Debian 12's debootstrap has no script named for testing: sid's
    # makes it. Testing's Release files expire within days.
    forky) script=/usr/share/debootstrap/scripts/sid default_lists=$here/packages.txt:$repo/Tests/Forky/build-packages.txt;;
    *) echo "trixie-root: DFL_ROOT_SUITE is trixie or forky, not $suite" >&2; exit 2;;
esac
IFS=: read -r -a package_lists <<<"${DFL_ROOT_PACKAGES:-$default_lists}"
mirror=${DFL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${DFL_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}

die() { echo "trixie-root: $*" >&2; exit 1; }

packages() { cat "${package_lists[@]}" | grep -v '^[[:space:]]*\(#\|$\)' | sort -u; }

base_key() { printf '%s\n' "$suite" "$mirror" minbase ca-certificates | sha256sum | cut -c1-16; }
# Raise when the way the root is made changes (sources, dpkg settings).
recipe=2
root_key() { { cat "${package_lists[@]}"; printf '%s\n' "$recipe" "$mirror" "$security"; } | sha256sum | cut -c1-16; }

need_root() {
    [[ $(id -u) -eq 0 ]] || die "making and entering the root needs root (debootstrap, chroot and mounts)"
    command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
    command -v unshare >/dev/null || die "unshare is missing: apt-get install util-linux"
}

# Runs a command in the root with the mounts above, in a mount namespace
# and a PID namespace of its own: nothing stays mounted and no process of
# the command outlives it, whatever way it ends. The namespace's first
# process (a shell that reaps what is left to it) runs the command and
# waits for it; when that shell exits, the kernel ends every process still
# in the namespace, and when root.sh itself is killed, unshare's
# --kill-child ends that shell. With a LAYER directory the root is seen
# through an overlay whose upper layer is a tmpfs mounted there, so what
# the command changes (a package installed, a file written outside the
# checkout) is gone when it ends and the cached root stays as it was made.
enter() {
    local dir=$1; shift
    local inside='
        set -e
        dir=$1 repo=$2 layer=$3 binds=$4; shift 4
        if [[ -n $layer ]]; then
            mount -t tmpfs -o mode=0755 layer "$layer"
            mkdir "$layer/upper" "$layer/work" "$layer/root"
            mount -t overlay overlay -o "lowerdir=$dir,upperdir=$layer/upper,workdir=$layer/work" "$layer/root"
            dir=$layer/root
        else
            mount --bind "$dir" "$dir"
        fi
        mount -t proc proc "$dir/proc"
        mount --rbind /sys "$dir/sys"
        mount --make-rslave "$dir/sys"
        mount -t tmpfs -o mode=0755 dev "$dir/dev"
        for node in null zero full random urandom tty; do
            touch "$dir/dev/$node"
            mount --bind "/dev/$node" "$dir/dev/$node"
        done
        mkdir -p "$dir/dev/pts" "$dir/dev/shm"
        mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$dir/dev/pts"
        ln -sf pts/ptmx "$dir/dev/ptmx"
        ln -sf /proc/self/fd "$dir/dev/fd"
        mount -t tmpfs -o mode=1777 shm "$dir/dev/shm"
        mount -t tmpfs -o mode=1777 tmp "$dir/tmp"
        mount -t tmpfs -o mode=0755 run "$dir/run"
        mkdir -p "$dir/run/user" "$dir/run/dbus"
        mkdir -p "$dir$repo"
        mount --bind "$repo" "$dir$repo"
        # Folders of this machine the command needs at their own path
        # (DFL_ROOT_BIND, separated by ":"), read-only.
        IFS=: read -r -a extra <<< "$binds"
        for path in "${extra[@]}"; do
            [[ -n $path ]] || continue
            mkdir -p "$dir$path"
            mount --bind "$path" "$dir$path"
            mount -o remount,bind,ro "$dir$path"
        done
        # pivot_root, not chroot alone: the kernel refuses a user namespace
        # to a chrooted process, and the agent'"'"'s unit (PrivateUsers=) under
        # systemd --user needs one. The old root is then let go of.
        cd "$dir"
        pivot_root . .
        umount -l .
        cd /
        set +e
        chroot / /usr/bin/env -i \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
            ${CI:+CI=$CI} /bin/bash -c "cd \"\$0\" && exec \"\$@\"" "$repo" "$@" 0<&0 &
        command=$!
        # A signal to this shell (it is the namespace'"'"'s init, which the
        # kernel spares default actions) goes on to the command.
        trap "kill -TERM \$command 2>/dev/null" TERM INT HUP
        while :; do
            wait "$command"
            status=$?
            kill -0 "$command" 2>/dev/null || break
        done
        exit "$status"
    '
    unshare --mount --pid --fork --kill-child --propagation private -- \
        /bin/bash -c "$inside" enter "$dir" "$repo" "${LAYER:-}" "${DFL_ROOT_BIND:-}" "$@" 0<&0 &
    # Waited for in the background, so that a signal to root.sh reaches this
    # shell at once: it kills unshare, whose --kill-child then ends the
    # namespace and every process in it.
    local entered=$! status
    trap "kill -KILL $entered 2>/dev/null; exit 143" TERM INT HUP
    while :; do
        wait "$entered"
        status=$?
        kill -0 "$entered" 2>/dev/null || break
    done
    trap - TERM INT HUP
    return "$status"
}

make_base() {
    local target="$cache/base-$suite-$(base_key)"
    [[ -f "$target/.complete" ]] && { echo "$target"; return; }
    rm -rf "$target" "$target.tmp"
    mkdir -p "$cache"
    echo "trixie-root: debootstrap $suite (minbase) from $mirror" >&2
    debootstrap --variant=minbase --include=ca-certificates "$suite" "$target.tmp" "$mirror" $script >&2 \
        || { tail -n 30 "$target.tmp/debootstrap/debootstrap.log" >&2 2>/dev/null || true; die "debootstrap failed"; }
    touch "$target.tmp/.complete"
    mv "$target.tmp" "$target"
    echo "$target"
}

make_root() {
    local key; key=$(root_key)
    local target="$cache/$suite-$key"
    [[ -f "$target/.complete" ]] && { echo "$target"; return; }
    need_root
    # One maker at a time: a second run waits, then finds the root made.
    mkdir -p "$cache"
    exec 9>"$cache/.lock-$suite"
    flock -n 9 || { echo "trixie-root: another run is making the root; waiting for it" >&2; flock 9; }
    [[ -f "$target/.complete" ]] && { exec 9>&-; echo "$target"; return; }
    local started=$SECONDS base
    base=$(make_base)
    # Roots made from another package list are stale now: they go, so the
    # cache holds one root at a time, except one that a run still reads
    # (it holds its .in-use lock shared); a later make removes that one.
    local stale
    for stale in "$cache/$suite"-*; do
        [[ -d $stale && $stale != "$target" && $stale != "$target.tmp" ]] || continue
        if [[ ! -e $stale/.in-use ]] || flock -n -x "$stale/.in-use" true; then rm -rf "$stale"; fi
    done
    rm -rf "$target.tmp"
    cp -a "$base" "$target.tmp"
    rm -f "$target.tmp/.complete"
    cat > "$target.tmp/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
    [[ $suite == trixie ]] || echo 'Acquire::Check-Valid-Until "false";' > "$target.tmp/etc/apt/apt.conf.d/10-testing"
    # Documentation and other languages' manuals are not needed by a test.
    # No fsync for each file unpacked: a root cut short is made again
    # (it has no .complete), and the tests running beside the make (it
    # runs ahead, Tests/Trixie/ahead.sh) keep the disk's syncs to
    # themselves.
    cat > "$target.tmp/etc/dpkg/dpkg.cfg.d/01-tests" <<'EOF'
force-unsafe-io
path-exclude=/usr/share/doc/*
path-include=/usr/share/doc/*/copyright
path-exclude=/usr/share/man/??/*
path-exclude=/usr/share/man/??_*/*
EOF
    # Services must not start in the root while it is made.
    printf '#!/bin/sh\nexit 101\n' > "$target.tmp/usr/sbin/policy-rc.d"
    chmod 755 "$target.tmp/usr/sbin/policy-rc.d"
    mapfile -t wanted < <(packages)
    echo "trixie-root: installing ${#wanted[@]} packages into the root" >&2
    enter "$target.tmp" apt-get update -q >&2
    enter "$target.tmp" apt-get install -y -q --no-install-recommends "${wanted[@]}" >&2 \
        || die "apt-get install in the root failed (${package_lists[*]##*/} names a package $suite lacks?)"
    enter "$target.tmp" apt-get clean >&2
    printf '%s\n' "${wanted[@]}" > "$target.tmp/.packages"
    touch "$target.tmp/.complete"
    mv "$target.tmp" "$target"
    exec 9>&-
    echo "trixie-root: made in $((SECONDS - started)) s, $(du -sh "$target" | cut -f1) on disk, at $target" >&2
    echo "$target"
}

case ${1:-} in
    path)
        make_root
        ;;
    run)
        shift
        (($# > 0)) || die "usage: root.sh run CMD..."
        need_root
        dir=$(make_root)
        # Held shared for the run, so that a make of a newer root leaves
        # this one alone while it is read.
        touch "$dir/.in-use"
        exec 8<"$dir/.in-use"
        flock -s 8
        # The overlay's mount point lives in the cache, beside the roots,
        # and goes when the run does (the namespace, and with it the tmpfs,
        # is gone by then). Its name carries this run's process id, so that
        # the harness's test tells another run's, still going, from one left.
        layer=$(mktemp -d "$(dirname "$dir")/overlay.$$.XXXXXX")
        trap 'rmdir "$layer"' EXIT
        status=0
        LAYER=$layer enter "$dir" "$@" || status=$?
        exit "$status"
        ;;
    drop)
        rm -rf "$cache"/base-* "$cache"/"$suite"-* "$cache"/overlay.*
        echo "trixie-root: dropped the cached roots in $cache" >&2
        ;;
    *)
        echo "usage: root.sh path | run CMD... | drop" >&2
        exit 2
        ;;
esac
