#!/usr/bin/env bash
# Compiles every target of the package against the C headers of Debian
# testing (GLib 2.90, GTK 4.24, WebKitGTK 2.52), the headers of Flathub's
# GNOME 50 and 51 runtimes and of Ubuntu 26.04 or newer: GLib 2.88 changed
# how Swift sees its flag enums, and this is where such a change shows.
#
# The headers come from a root made from testing by Tests/Trixie/root.sh
# (DFL_ROOT_SUITE=forky, the packages of build-packages.txt), cached beside
# the Debian 13 root. This machine's Swift compiles with pkg-config pointed
# into that root, in a build folder of its own (.build-forky). Each target
# is compiled, not linked: testing's libraries need a newer C library than
# the one here, and linking is not what changes between GLib versions.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

root=$(DFL_ROOT_SUITE=forky DFL_ROOT_PACKAGES="$here/build-packages.txt" Tests/Trixie/root.sh path)
glib=$(sed -n 's/^Version: //p' "$root/usr/lib/x86_64-linux-gnu/pkgconfig/glib-2.0.pc")
gtk=$(sed -n 's/^Version: //p' "$root/usr/lib/x86_64-linux-gnu/pkgconfig/gtk4.pc")
echo "forky-build: compiling against GLib $glib and GTK $gtk from $root"
export PKG_CONFIG_SYSROOT_DIR=$root
export PKG_CONFIG_LIBDIR=$root/usr/lib/x86_64-linux-gnu/pkgconfig:$root/usr/share/pkgconfig
# Every target but the executables (their link is left out, as said
# above): those no other such target depends on, each with what it needs.
mapfile -t targets < <(swift package describe --type json | python3 -c '
import json, sys
targets = [t for t in json.load(sys.stdin)["targets"] if t["type"] in ("library", "test")]
needed = {d for t in targets for d in t.get("target_dependencies", [])}
for target in targets:
    if target["name"] not in needed:
        print(target["name"])')
for target in "${targets[@]}"; do
    swift build --scratch-path .build-forky --target "$target"
done
echo "forky-build: every target compiled against GLib $glib (by way of ${#targets[@]} of them)"
