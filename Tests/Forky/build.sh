#!/usr/bin/env bash
# Builds the package, tests and all, in a root made from Debian testing
# (GLib 2.90, GTK 4.24, WebKitGTK 2.52): the headers and libraries of
# Flathub's GNOME 50 and 51 runtimes and of Ubuntu 26.04 and later. GLib
# 2.88 changed how Swift sees its flag enums, and this is where such a
# change shows.
#
# The root is made by Tests/Trixie/root.sh (DFL_ROOT_SUITE=forky, the
# packages of build-packages.txt) and cached beside the Debian 13 one.
# Testing has no Swift of its own: this machine's toolchain (/opt/swift)
# is bound in, with the few libraries of Debian 12 its package manager
# links that testing has under newer names (ICU 72, libxml2.so.2, OpenLDAP
# 2.5, libunistring 2) in build/forky-compat. The build folder is
# .build-forky.
#
#   build.sh          the whole package and its tests, then the unit tests
#   build.sh glib     only the modules that include GLib's, GIO's, GTK's or
#                     libnotify's headers, with what they need (make check)
set -euo pipefail
mode=${1:-all}
case $mode in all|glib) ;; *) echo "usage: build.sh [all|glib]" >&2; exit 64;; esac
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
toolchain=${DFL_SWIFT_TOOLCHAIN:-/opt/swift}
[[ -x $toolchain/usr/bin/swift ]] || { echo "forky-build: no Swift toolchain in $toolchain" >&2; exit 1; }
export DFL_ROOT_SUITE=forky
root=$(Tests/Trixie/root.sh path)

compat=$repo/build/forky-compat
rm -rf "$compat"; mkdir -p "$compat"
# Each library the toolchain's programs need that the root lacks, copied
# from this machine.
for program in swift-build swift-frontend swift-driver clang; do
    ldd "$toolchain/usr/bin/$program" | awk '/=> \//{print $1, $3}'
done | sort -u | while read -r name path; do
    if ! ls "$root/usr/lib/x86_64-linux-gnu/$name" "$root/lib/x86_64-linux-gnu/$name" >/dev/null 2>&1; then
        cp -L "$path" "$compat/$name"
    fi
done

glib=$(sed -n 's/^Version: //p' "$root/usr/lib/x86_64-linux-gnu/pkgconfig/glib-2.0.pc")
gtk=$(sed -n 's/^Version: //p' "$root/usr/lib/x86_64-linux-gnu/pkgconfig/gtk4.pc")
echo "forky-build: building against GLib $glib and GTK $gtk (Debian testing), with $(ls "$compat" | tr '\n' ' ')from Debian 12 for the toolchain"
inside() {
    DFL_ROOT_BIND=$toolchain Tests/Trixie/root.sh run /usr/bin/env \
        PATH="$toolchain/usr/bin:/usr/bin:/bin" LD_LIBRARY_PATH="$compat" "$@"
}
if [[ $mode == glib ]]; then
    # The targets that import a C module over GLib's headers (the rest
    # of the package is pure Swift or other C libraries).
    for target in SleepAgentDaemon DesktopApp SleepTimerCoreTests; do
        inside swift build --scratch-path .build-forky --target "$target"
    done
    echo "forky-build: every module over GLib's headers built against GLib $glib and GTK $gtk"
else
    inside swift build --scratch-path .build-forky --build-tests
    inside swift test --scratch-path .build-forky --skip-build
    echo "forky-build: the package built and its unit tests passed against GLib $glib and GTK $gtk"
fi
