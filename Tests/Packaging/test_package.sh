#!/usr/bin/env bash
# Tests the Debian package dreamsforlittles-desktop end to end, as root, on
# a machine that may be changed (it installs and purges the package):
#
#   Tests/Packaging/test_package.sh [PACKAGE.deb]
#
# Without an argument (or $DFL_DEB) it builds the package first with
# packaging/build-deb.sh. Then: lintian (no error, no warning); the
# Depends names each library renamed for the 64-bit time_t transition as
# "NAMEt64 (>= X) | NAME (>= X)" (packaging/debian/t64-renames), and that
# list misses no name this release renamed; python3-apt's
# DebPackage.check(), which Ubuntu's graphical installers build on, accepts
# the package; install with apt-get; the files in place; the binaries
# depend on Debian's libraries only; the first call to
# com.dreamsforlittles.DreamsForLittles.SleepTimers1 on a private session bus, whose only
# service directory is /usr/share/dbus-1/services,
# starts the agent through the installed activation file; the same through
# a real systemd user manager with the installed unit, sandbox included,
# where this machine allows one to run (DFL_TEST_SYSTEMD_USER=0 skips it);
# a login to an XFCE-like session without systemd's graphical target, whose
# XDG autostart runner (dex) starts the agent once through the installed
# autostart entry, and the entry skipped by systemd's runner
# (systemd-xdg-autostart-generator), there and, under the real user manager,
# in a session that reaches graphical-session.target, where only the unit
# starts the agent; the unit's exposure (systemd-analyze security, 2.0 at
# most) and systemd-analyze verify; desktop-file-validate; the man pages
# render without warnings, and sleep-agent.conf(5) names every setting and
# its examples parse; the bash, zsh and fish completions; the desktop app:
# its AppStream metainfo validates, xdg-mime names it the dreamsforlittles://
# handler, and org.freedesktop.Application.Open on a private bus starts it
# under Xvfb through the installed D-Bus service file; and apt-get purge
# leaves nothing. Every process it starts is stopped. Exits non-zero on any
# failure.
#
# The same checks serve Debian 12 and Debian 13: run inside the Debian 13
# root with the package built on Debian 12 (Tests/Packaging/test_releases.sh
# does both with one package). Every line names the release it ran on (from
# /etc/os-release), and the end lists the time each part took.
#
# Needs: apt-get, lintian, desktop-file-utils, man-db, bash-completion,
# dbus-daemon, dbus-bin, systemd (for systemd-analyze), python3, python3-apt
# (the t64 and installability checks), dex, zsh, fish, appstream,
# xdg-utils, xvfb, libglib2.0-bin (gdbus), binutils (readelf), locales-all
# (de_DE.UTF-8); for the user manager stage, dbus-user-session.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
package=dreamsforlittles-desktop
bus_name=com.dreamsforlittles.DreamsForLittles.SleepTimers1
interface=com.dreamsforlittles.SleepTimers1
object_path=/com/dreamsforlittles/SleepTimers1
unit=dfl-sleep-agent.service
max_exposure=2.0

# The release, as every line of the output says: "bookworm", "trixie".
release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}")
release_name=$(. /etc/os-release 2>/dev/null && echo "${NAME%% *} ${VERSION_ID:-?} (${VERSION_CODENAME:-unknown})")

passed=0
failed=0
skipped=0
pass() { passed=$((passed + 1)); echo "PASS [$release]: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL [$release]: $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP [$release]: $*"; }
note() { echo "      $*"; }
# section TITLE: the heading of the next part; the part before it ends, and
# its time is kept for the summary.
sections=()
section_title=
section_started=$SECONDS
test_started=$SECONDS
section_end() {
    [[ -n $section_title ]] && sections+=("$(printf '%5d s  %s' $((SECONDS - section_started)) "$section_title")")
    section_title=
}
section() {
    section_end
    section_title=$1
    section_started=$SECONDS
    echo "== [$release] $1"
}
# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
    local description=$1
    shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}
finish() {
    section_end
    echo
    echo "packaging on $release_name: the time of each part"
    printf '      %s\n' "${sections[@]}"
    echo "packaging on $release_name: $passed passed, $failed failed, $skipped skipped in $((SECONDS - test_started)) s"
    echo "$passed passed, $failed failed"
    ((failed == 0))
    exit
}

if [[ $(id -u) -ne 0 ]]; then
    echo "test_package: run as root (it installs and purges $package)" >&2
    exit 2
fi
missing=()
for tool in apt-get dpkg-query lintian desktop-file-validate man systemd-analyze dbus-daemon dbus-send python3 timeout dex zsh fish \
    appstreamcli xdg-mime Xvfb gdbus readelf; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[[ -r /usr/share/bash-completion/bash_completion ]] || missing+=(bash-completion)
# python3-apt, for Debian's own interpreter (another python3 may come first
# on PATH).
/usr/bin/python3 -c 'import apt, apt.debfile' 2>/dev/null || missing+=(python3-apt)
# The installed catalogs are read under de_DE.UTF-8. (grep reads the whole
# list: with -q it could end first, and locale -a would die of SIGPIPE.)
locale -a 2>/dev/null | grep -ix 'de_DE.utf-\?8' >/dev/null || missing+=("the de_DE.UTF-8 locale")
if ((${#missing[@]})); then
    echo "test_package: missing on $release: ${missing[*]} (Debian packages: lintian desktop-file-utils man-db bash-completion dbus-daemon dbus-bin systemd python3 python3-apt dex zsh fish appstream xdg-utils xvfb libglib2.0-bin binutils locales-all)" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dfl-package-test.XXXXXX")
# The test user of the systemd stage must reach files in here.
chmod 0755 "$work"
installed_by_us=0
# Another apt-get or dpkg on the machine holds the lock for a while at most.
apt_get=(apt-get -q -o DPkg::Lock::Timeout=600)
# The processes this test started, newest first, as "PID START-TIME", so
# that a PID the kernel has since given to another process is left alone.
started=()
start_time() { awk '{ print $22 }' "/proc/$1/stat" 2>/dev/null; }
track() { started=("$1 $(start_time "$1")" "${started[@]}"); }
cleanups=()
cleanup() {
    local entry pid
    for entry in "${started[@]}"; do
        pid=${entry%% *}
        [[ -n ${entry#* } && $(start_time "$pid") == "${entry#* }" ]] || continue
        kill -TERM "$pid" 2>/dev/null && { timeout 10 tail --pid="$pid" -f /dev/null || kill -KILL "$pid" 2>/dev/null; }
    done
    for ((i = ${#cleanups[@]} - 1; i >= 0; i--)); do eval "${cleanups[i]}" || true; done
    if ((installed_by_us)) && dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^.[ic]'; then
        echo "test_package: purging $package after an interrupted test" >&2
        DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" purge -y "$package" >/dev/null 2>&1
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits up to $1 tenths of a second for the command to succeed.
wait_for() {
    local tenths=$1
    shift
    for ((n = 0; n < tenths; n++)); do
        "$@" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# --- The package -------------------------------------------------------------

deb=${1:-${DFL_DEB:-}}
if [[ -z $deb ]]; then
    section "Building the package with packaging/build-deb.sh (release, static Swift runtime; a few minutes)"
    if ! "$repo/packaging/build-deb.sh" "$work/out" >"$work/build.log" 2>&1; then
        tail -40 "$work/build.log"
        fail "packaging/build-deb.sh builds the package"
        finish
    fi
    deb=$(ls "$work"/out/${package}_*.deb | head -1)
    pass "packaging/build-deb.sh builds $(basename "$deb")"
fi
deb=$(realpath "$deb")
[[ -f $deb ]] || { fail "package file $deb exists"; finish; }
echo "== [$release] Package: $deb"
# What every program reports: the package's version without its Debian
# revision, which is AppIdentity.version (AppIdentityTests holds the
# changelog to it, and build-deb.sh refuses one that differs).
program_version=$(dpkg-deb -f "$deb" Version)
program_version=${program_version%-*}

# This release's lintian, with this release's checks and profile.
section "lintian"
lintian_version=$(lintian --version 2>/dev/null | awk '{ print $NF }')
lintian --info "$deb" >"$work/lintian.txt" 2>&1
grep -v '^running with root privileges' "$work/lintian.txt" | sed 's/^/      /' | grep -E '^      [EWIX]:' || true
if grep -qE '^[EW]: ' "$work/lintian.txt"; then
    fail "lintian ${lintian_version:-?} reports no error and no warning"
else
    pass "lintian ${lintian_version:-?} reports no error and no warning"
fi

# --- The t64 names and the graphical installers ----------------------------

# Debian 13, Ubuntu 24.04 and Mint 22 renamed libglib2.0-0 and libcurl4 to
# NAMEt64 for the 64-bit time_t transition. Ubuntu's and Mint's graphical
# installers (python-apt's DebPackage) refuse "NAME (>= X)" that only the
# new package's Provides satisfies, so every such dependency must read
# "NAMEt64 (>= X) | NAME (>= X)". Debian 13's python3-apt accepts the bare
# old name, so the field itself is checked, and so is the rewrite that
# debian/rules makes of what each release's dpkg-shlibdeps writes.
section "t64 alternatives in Depends, and python3-apt's DebPackage.check()"
t64_depends=("$repo/Tests/Packaging/t64_depends.py")
renames=$repo/packaging/debian/t64-renames
depends=$(dpkg-deb -f "$deb" Depends)
note "Depends: $depends"
check "every name of packaging/debian/t64-renames is depended on as NAMEt64 (>= X) | NAME (>= X)" \
    "${t64_depends[@]}" alternatives "$renames" "$depends"
# The same check refuses what an unfixed build writes: the old names alone
# (dpkg-shlibdeps on Debian 12) or the new ones alone (on Debian 13).
old_only=$(sed -E 's/[a-z0-9.+-]+t64( \([^)]*\))? \| //g' <<<"$depends")
new_only=$(sed -E 's/([a-z0-9.+-]+t64)( \([^)]*\))? \| [a-z0-9.+-]+( \([^)]*\))?/\1\2/g' <<<"$depends")
check "the check refuses the Depends with the old names alone ($(grep -oE 'libglib2\.0-0[^,]*' <<<"$old_only"))" \
    bash -c '! "$@" >/dev/null' _ "${t64_depends[@]}" alternatives "$renames" "$old_only"
check "the check refuses the Depends with the t64 names alone ($(grep -oE 'libglib2\.0-0[^,]*' <<<"$new_only"))" \
    bash -c '! "$@" >/dev/null' _ "${t64_depends[@]}" alternatives "$renames" "$new_only"
# debian/rules' rewrite, given what dpkg-shlibdeps writes on either release,
# gives the same form of line.
rewrite() {
    printf 'misc:Depends=\nshlibs:Depends=%s\n' "$1" >"$work/substvars"
    perl "$repo/packaging/debian/t64-alternatives" "$renames" "$work/substvars" 2>/dev/null &&
        sed -n 's/^shlibs:Depends=//p' "$work/substvars"
}
for written in 'libc6 (>= 2.34), libcurl4 (>= 7.16.2), libglib2.0-0 (>= 2.74.0), libnotify4 (>= 0.7.3)' \
    'libc6 (>= 2.38), libcurl4t64 (>= 7.16.2), libglib2.0-0t64 (>= 2.80.0), libnotify4 (>= 0.7.3)'; do
    rewritten=$(rewrite "$written")
    note "$written -> $rewritten"
    check "debian/t64-alternatives rewrites dpkg-shlibdeps' $(grep -oE 'libglib2\.0-0[a-z0-9]* \([^)]*\)' <<<"$written")" \
        bash -c '"$@" >/dev/null && [[ $4 == *"libnotify4 (>= 0.7.3)"* ]]' _ "${t64_depends[@]}" alternatives "$renames" "$rewritten"
done
# The list is complete: against this release's archive, every name of
# Depends that has a NAMEt64 package providing NAME has its alternative (a
# release before the transition has no such package, and nothing to check).
"${t64_depends[@]}" complete "$depends" >"$work/t64-complete.txt"
complete_rc=$?
cat "$work/t64-complete.txt"
case $complete_rc in
    0) pass "every name of Depends renamed to NAMEt64 on $release has its alternative" ;;
    77) skip "no name of Depends has a NAMEt64 package on $release" ;;
    *) fail "every name of Depends renamed to NAMEt64 on $release has its alternative" ;;
esac
if ((complete_rc == 0)); then
    check "the completeness check refuses the Depends with the old names alone" \
        bash -c '! "$@" >/dev/null' _ "${t64_depends[@]}" complete "$old_only"
fi
# What gdebi and the graphical installers ask before they install, on a
# machine without the package (with fresh lists if the first try fails).
installable() { "${t64_depends[@]}" installable "$deb" >"$work/debfile.txt" 2>&1; }
if ! installable && ! { "${apt_get[@]}" update >>"$work/apt.log" 2>&1 && installable; }; then
    cat "$work/debfile.txt"
    fail "python3-apt's DebPackage.check() accepts $(basename "$deb")"
else
    cat "$work/debfile.txt"
    pass "python3-apt's DebPackage.check() accepts $(basename "$deb")"
fi

# --- Installation ------------------------------------------------------------

section "apt-get install"
if dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^.[ic]'; then
    note "$package was installed before the test; it is replaced, and purged at the end"
fi
install_package() { DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y --no-install-recommends "$deb" >>"$work/apt.log" 2>&1; }
installed_by_us=1
if ! install_package && ! { "${apt_get[@]}" update >>"$work/apt.log" 2>&1 && install_package; }; then
    tail -20 "$work/apt.log"
    fail "apt-get install $(basename "$deb")"
    finish
fi
pass "apt-get install $(basename "$deb")"

paths=(
    /usr/bin/dfl-sleep-agent
    /usr/bin/dfl-sleepctl
    /usr/bin/dfl-webview-bridge
    /usr/bin/dreamsforlittles
    /usr/lib/systemd/user/$unit
    /usr/libexec/dreamsforlittles/xdg-open
    /usr/share/dbus-1/services/$bus_name.service
    /usr/share/dbus-1/interfaces/$interface.xml
    /usr/share/applications/com.dreamsforlittles.DreamsForLittles.SleepAgent.desktop
    /usr/share/icons/hicolor/scalable/apps/com.dreamsforlittles.DreamsForLittles.SleepAgent.svg
    /usr/share/icons/hicolor/scalable/apps/com.dreamsforlittles.DreamsForLittles.svg
    /usr/share/icons/hicolor/symbolic/apps/com.dreamsforlittles.DreamsForLittles-symbolic.svg
    /usr/share/bash-completion/completions/dfl-sleepctl
    /usr/share/zsh/vendor-completions/_dfl-sleepctl
    /usr/share/fish/vendor_completions.d/dfl-sleepctl.fish
    /usr/share/man/man1/dfl-sleep-agent.1.gz
    /usr/share/man/man1/dfl-sleepctl.1.gz
    /usr/share/man/man1/dfl-webview-bridge.1.gz
    /usr/share/man/man5/sleep-agent.conf.5.gz
    /usr/share/man/man1/dreamsforlittles.1.gz
    /usr/share/applications/com.dreamsforlittles.DreamsForLittles.desktop
    /usr/share/dbus-1/services/com.dreamsforlittles.DreamsForLittles.service
    /usr/share/metainfo/com.dreamsforlittles.DreamsForLittles.metainfo.xml
    /usr/share/gnome-shell/search-providers/com.dreamsforlittles.DreamsForLittles.search-provider.ini
    /usr/share/krunner/dbusplugins/com.dreamsforlittles.DreamsForLittles.krunner.desktop
    /usr/share/dreamsforlittles/javascript/dfl-webview-bridge-client.mjs
    /usr/share/dreamsforlittles/javascript/dfl-webview-bridge-client.d.ts
    /usr/share/dreamsforlittles/javascript/dfl-webview-bridge-client.d.mts
    /etc/xdg/dreamsforlittles/sleep-agent.conf
    /etc/xdg/autostart/com.dreamsforlittles.DreamsForLittles.SleepAgent-autostart.desktop
    /usr/share/doc/$package/copyright
    /usr/share/locale/de/LC_MESSAGES/dreamsforlittles.mo
    /usr/share/locale/fr/LC_MESSAGES/dreamsforlittles.mo
    /usr/share/locale/es/LC_MESSAGES/dreamsforlittles.mo
    /usr/share/locale/pt_BR/LC_MESSAGES/dreamsforlittles.mo
    /usr/share/locale/it/LC_MESSAGES/dreamsforlittles.mo
)
dpkg -L "$package" >"$work/files.txt"
missing_paths=()
for path in "${paths[@]}"; do
    [[ -e $path ]] && grep -qxF "$path" "$work/files.txt" || missing_paths+=("$path")
done
if ((${#missing_paths[@]})); then
    fail "the package installs every file (missing: ${missing_paths[*]})"
else
    pass "the package installs all ${#paths[@]} files in place"
fi
check "the four executables are executable" test -x /usr/bin/dfl-sleep-agent -a -x /usr/bin/dfl-sleepctl -a -x /usr/bin/dfl-webview-bridge -a -x /usr/bin/dreamsforlittles -a -x /usr/libexec/dreamsforlittles/xdg-open
check "/etc/xdg/dreamsforlittles/sleep-agent.conf is a conffile" \
    bash -c "dpkg-query -W -f='\${Conffiles}' $package | grep -q '/etc/xdg/dreamsforlittles/sleep-agent.conf '"
check "the autostart entry is a conffile (an administrator may change or remove it)" \
    bash -c "dpkg-query -W -f='\${Conffiles}' $package | grep -q '/etc/xdg/autostart/com.dreamsforlittles.DreamsForLittles.SleepAgent-autostart.desktop '"
check "the default configuration sets nothing (every setting commented out)" \
    bash -c "! grep -Ev '^[[:space:]]*(#|\\[|$)' /etc/xdg/dreamsforlittles/sleep-agent.conf"
check "the copyright file gives the project's files as Apache-2.0, whose text Debian has in common-licenses" \
    bash -c "grep -qxF 'License: Apache-2.0' /usr/share/doc/$package/copyright && grep -qF /usr/share/common-licenses/Apache-2.0 /usr/share/doc/$package/copyright"

toolchain_free=1
declare -A owned=()
for binary in /usr/bin/dfl-sleep-agent /usr/bin/dfl-sleepctl /usr/bin/dfl-webview-bridge /usr/bin/dreamsforlittles; do
    if readelf -d "$binary" | grep -qE 'RPATH|RUNPATH'; then toolchain_free=0; note "$binary has a library search path"; fi
    if ldd "$binary" | grep -qE 'swift|not found'; then toolchain_free=0; note "$binary: $(ldd "$binary" | grep -E 'swift|not found')"; fi
    # Every library ldd finds belongs to a Debian package (under /usr on
    # merged-/usr systems, where ldd may name the /lib path). Each library
    # is looked up once: the app alone needs a hundred, and every dpkg -S
    # reads the whole database.
    while read -r library; do
        [[ -n ${owned[$library]:-} ]] && continue
        if dpkg -S "$library" >/dev/null 2>&1 || dpkg -S "/usr$library" >/dev/null 2>&1 ||
            dpkg -S "$(realpath "$library")" >/dev/null 2>&1; then
            owned[$library]=1
        else
            toolchain_free=0
            note "$binary needs $library, which no Debian package holds"
        fi
    done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
done
check "the binaries need only libraries of Debian packages (no Swift toolchain, no RUNPATH)" test "$toolchain_free" -eq 1
# Only the agent notifies; GLib reaches the others through its own module.
check "dfl-sleepctl and dfl-webview-bridge do not link libnotify" \
    bash -c '! ldd /usr/bin/dfl-sleepctl /usr/bin/dfl-webview-bridge | grep -q libnotify'
check "dfl-sleep-agent --version prints $program_version" \
    bash -c '[[ $(/usr/bin/dfl-sleep-agent --version) == "dfl-sleep-agent $1" ]]' _ "$program_version"
check "dfl-webview-bridge --help answers" bash -c '/usr/bin/dfl-webview-bridge --help | grep -q "JSON-RPC 2.0"'
check "dreamsforlittles --help answers without a display" bash -c 'env -u DISPLAY -u WAYLAND_DISPLAY /usr/bin/dreamsforlittles --help | grep -q "dreamsforlittles://families/"'
check "appstreamcli validates the app's metainfo" appstreamcli validate --no-net /usr/share/metainfo/com.dreamsforlittles.DreamsForLittles.metainfo.xml
# msgfmt --xml names Brazilian Portuguese pt_BR in gettext 0.21 (Debian 12)
# and pt-BR, as BCP 47 spells it, in 0.23 (a package built on Debian 13).
check "the app's metainfo carries its summary in every language of po/" \
    bash -c 'for lang in de es fr it pt_BR; do
                 grep -qE "<summary xml:lang=\"(${lang}|${lang/_/-})\">" /usr/share/metainfo/com.dreamsforlittles.DreamsForLittles.metainfo.xml || exit 1
             done'
mime_home=$work/mime-home
mkdir -p "$mime_home"
handler=$(env -i HOME="$mime_home" PATH=/usr/bin:/bin XDG_DATA_DIRS=/usr/local/share:/usr/share xdg-mime query default x-scheme-handler/dreamsforlittles 2>&1)
note "xdg-mime query default x-scheme-handler/dreamsforlittles: $handler"
check "after install, xdg-mime names the app the handler of dreamsforlittles:// links" test "$handler" = "com.dreamsforlittles.DreamsForLittles.desktop"
# The installed catalogs, found where the package put them (no DFL_LOCALEDIR).
check "dfl-sleepctl --help speaks German from the installed catalog" \
    bash -c 'env -u DFL_LOCALEDIR LANG=de_DE.UTF-8 LANGUAGE=de /usr/bin/dfl-sleepctl --help | grep -q "^Aufruf: dfl-sleepctl"'
check "dreamsforlittles --help speaks German from the installed catalog" \
    bash -c 'env -u DFL_LOCALEDIR LANG=de_DE.UTF-8 LANGUAGE=de /usr/bin/dreamsforlittles --help | grep -q "^Aufruf: dreamsforlittles"'
check "the desktop entries of the agent and the app are translated in every language of po/" \
    bash -c 'for entry in /usr/share/applications/com.dreamsforlittles.DreamsForLittles.SleepAgent.desktop \
                          /etc/xdg/autostart/com.dreamsforlittles.DreamsForLittles.SleepAgent-autostart.desktop \
                          /usr/share/applications/com.dreamsforlittles.DreamsForLittles.desktop; do
                 for lang in de es fr it pt_BR; do grep -q "^Name\[$lang\]=" "$entry" || exit 1; done
             done
             grep -qxF "Comment[de]=Schlaf, Mahlzeiten und den Tag deines Babys festhalten – mit Schlaf-Timern auf deinem Desktop" \
                 /usr/share/applications/com.dreamsforlittles.DreamsForLittles.desktop'

# --- D-Bus activation on a private session bus ----------------------------------

section "D-Bus activation on a private session bus"
bus_dir=$work/dbus
home=$bus_dir/home
mkdir -p "$home" "$bus_dir/run"
chmod 0700 "$bus_dir/run"
# bus_config SOCKET: a session bus without systemd whose only service
# directory is the installed one.
bus_config() {
    cat <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$1</listen>
  <auth>EXTERNAL</auth>
  <servicedir>/usr/share/dbus-1/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
}
bus_config "$bus_dir/bus" >"$bus_dir/session.conf"
address=unix:path=$bus_dir/bus
bus_env=(env -i "HOME=$home" "PATH=/usr/bin:/bin" "LANG=C.UTF-8"
    "XDG_CONFIG_HOME=$home/.config" "XDG_CONFIG_DIRS=/etc/xdg" "XDG_STATE_HOME=$home/.local/state"
    "XDG_DATA_HOME=$home/.local/share" "XDG_RUNTIME_DIR=$bus_dir/run" "DBUS_SESSION_BUS_ADDRESS=$address")
"${bus_env[@]}" dbus-daemon --config-file="$bus_dir/session.conf" --nofork --nopidfile >"$bus_dir/daemon.log" 2>&1 &
bus_pid=$!
track "$bus_pid"
if ! wait_for 100 test -S "$bus_dir/bus"; then
    fail "a private dbus-daemon starts"
    cat "$bus_dir/daemon.log"
    finish
fi
bus_call() { "${bus_env[@]}" dbus-send --session --print-reply=literal --reply-timeout=10000 --dest=org.freedesktop.DBus /org/freedesktop/DBus "$@"; }
owner_before=$(bus_call org.freedesktop.DBus.NameHasOwner "string:$bus_name" 2>&1)
check "no agent owns $bus_name before the first call" test "$(echo $owner_before)" = "boolean false"
status_output=$(timeout 60 "${bus_env[@]}" dfl-sleepctl status 2>"$bus_dir/sleepctl.err")
status_rc=$?
note "dfl-sleepctl status: exit $status_rc; $(echo "$status_output" | tr '\n' ' ')"
check "dfl-sleepctl status starts the agent through the bus and answers (exit 0, Version: $program_version)" \
    test "$status_rc" -eq 0 -a "$(echo "$status_output" | grep -cFx "Version: $program_version")" -eq 1
check "with the configuration as shipped, dfl-sleepctl status names the platform's API as the origin timers come from" \
    test "$(echo "$status_output" | grep -cFx "AllowedOrigins: https://api.dreamsforlittles.com")" -eq 1
agent_pid=$(bus_call org.freedesktop.DBus.GetConnectionUnixProcessID "string:$bus_name" 2>/dev/null | awk '{print $2}')
if [[ $agent_pid =~ ^[0-9]+$ ]]; then
    track "$agent_pid"
    # dbus-daemon sets DBUS_STARTER_BUS_TYPE for the services it starts.
    started_by_bus() {
        [[ $(readlink "/proc/$agent_pid/exe") == /usr/bin/dfl-sleep-agent ]] &&
            tr '\0' '\n' <"/proc/$agent_pid/environ" | grep -qx 'DBUS_STARTER_BUS_TYPE=session'
    }
    check "the bus ran /usr/bin/dfl-sleep-agent (the activation file's Exec=)" started_by_bus
else
    fail "the agent owns $bus_name after the call"
fi
names=$(bus_call org.freedesktop.DBus.ListNames 2>/dev/null | tr -s ' \n' '\n' | grep -E '^[A-Za-z]' | grep -vE '^(array|org\.freedesktop\.DBus)$' | sort -u | tr '\n' ' ')
note "well-known names on the bus: $names"
check "only $bus_name was activated (no notification server or other service started)" test "$names" = "$bus_name "
activations=$(grep -o "Activating service name='[^']*'" "$bus_dir/daemon.log" | sort -u | tr '\n' ' ')
[[ -n $activations ]] && note "dbus-daemon: $activations"
check "the agent read the shipped configuration and accepts timers from the platform's API (the default)" \
    bash -c "grep -q 'Configuration from /etc/xdg/dreamsforlittles/sleep-agent.conf' '$bus_dir/daemon.log' && grep -q 'Timers are accepted from https://api.dreamsforlittles.com.' '$bus_dir/daemon.log'"
check "the agent made its store in \$XDG_STATE_HOME/dreamsforlittles with mode 0700" \
    bash -c "[[ \$(stat -c %a '$home/.local/state/dreamsforlittles') == 700 && -f '$home/.local/state/dreamsforlittles/sleep-timers.sqlite3' ]]"
if [[ $agent_pid =~ ^[0-9]+$ ]]; then
    kill -TERM "$agent_pid"
    check "the agent exits on SIGTERM" wait_for 100 bash -c "! kill -0 $agent_pid"
fi

# The app through its installed D-Bus service file, as the portal or the
# agent's opener starts it: org.freedesktop.Application.Open, under Xvfb.
app_stage() {
    local display app_pid reply link=dreamsforlittles://families/a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10/babies/b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21/track/sleep?timer=3f2504e0-4f89-41d3-9a0c-0305e82c3301
    Xvfb -displayfd 1 -screen 0 1024x768x24 -nolisten tcp >"$work/xvfb-display" 2>/dev/null &
    track "$!"
    wait_for 100 test -s "$work/xvfb-display" || { fail "Xvfb starts for the app"; return; }
    display=:$(head -1 "$work/xvfb-display")
    "${bus_env[@]}" dbus-update-activation-environment "DISPLAY=$display" GTK_A11Y=none >/dev/null 2>&1
    reply=$(timeout 60 "${bus_env[@]}" gdbus call --session --dest com.dreamsforlittles.DreamsForLittles --object-path /com/dreamsforlittles/DreamsForLittles \
        --method org.freedesktop.Application.Open "['$link']" "{}" 2>&1)
    note "org.freedesktop.Application.Open: $reply"
    app_pid=$(bus_call org.freedesktop.DBus.GetConnectionUnixProcessID "string:com.dreamsforlittles.DreamsForLittles" 2>/dev/null | awk '{print $2}')
    if [[ $app_pid =~ ^[0-9]+$ ]]; then
        track "$app_pid"
        check "Open starts /usr/bin/dreamsforlittles through the bus (--gapplication-service) and it answers" \
            bash -c "[[ '$reply' == '()' && \$(readlink /proc/$app_pid/exe) == /usr/bin/dreamsforlittles ]] && tr '\\0' ' ' </proc/$app_pid/cmdline | grep -q -- --gapplication-service"
        check "the app loads the platform's web app (the shipped configuration sets nothing, so the default)" \
            wait_for 100 grep -q 'Loading https://app.dreamsforlittles.com/' "$bus_dir/daemon.log"
        kill -TERM "$app_pid"
        check "the app exits on SIGTERM" wait_for 100 bash -c "! kill -0 $app_pid"
    else
        fail "org.freedesktop.Application.Open starts the app through the bus ($reply)"
    fi
}
app_stage

kill -TERM "$bus_pid"
wait "$bus_pid" 2>/dev/null

# --- An XFCE-like session: XDG autostart without systemd ----------------------
#
# A login to XFCE or MATE where no systemd user manager starts
# graphical-session.target: a session bus of the session's own (no systemd,
# so the bus runs the activation file's Exec= itself), then the session's XDG
# autostart runner, here dex with the XFCE environment, which reads
# /etc/xdg/autostart through XDG_CONFIG_DIRS. The other entries this machine
# has there are switched off for the test user the XDG way (a Hidden=true
# copy in ~/.config/autostart), so that only the package's entry runs.

autostart_name=com.dreamsforlittles.DreamsForLittles.SleepAgent-autostart.desktop
autostart_entry=/etc/xdg/autostart/$autostart_name

# hide_other_autostart_entries DIR: a Hidden=true entry in DIR for every
# system autostart entry but the package's.
hide_other_autostart_entries() {
    local entry
    mkdir -p "$1"
    for entry in /etc/xdg/autostart/*.desktop; do
        [[ -f $entry && ${entry##*/} != "$autostart_name" ]] || continue
        printf '[Desktop Entry]\nType=Application\nName=%s\nExec=/bin/false\nHidden=true\n' "${entry##*/}" >"$1/${entry##*/}"
    done
}

# processes_on EXE BUS_SOCKET: the PIDs of the processes running EXE whose
# environment names the bus at BUS_SOCKET, as the session's programs' do
# (the bus adds its guid to the address of those it starts).
processes_on() {
    local proc variable
    for proc in /proc/[0-9]*; do
        [[ $(readlink "$proc/exe" 2>/dev/null) == "$1" ]] || continue
        while IFS= read -r -d '' variable; do
            case $variable in
                "DBUS_SESSION_BUS_ADDRESS=unix:path=$2" | "DBUS_SESSION_BUS_ADDRESS=unix:path=$2,"* | \
                    "DBUS_STARTER_ADDRESS=unix:path=$2" | "DBUS_STARTER_ADDRESS=unix:path=$2,"*)
                    echo "${proc#/proc/}"
                    break
                    ;;
            esac
        done <"$proc/environ" 2>/dev/null
    done
}

# user_processes EXE UID: the PIDs of the processes running EXE as UID.
user_processes() {
    local proc
    for proc in /proc/[0-9]*; do
        [[ $(readlink "$proc/exe" 2>/dev/null) == "$1" ]] || continue
        [[ $(awk '$1 == "Uid:" { print $2 }' "$proc/status" 2>/dev/null) == "$2" ]] && echo "${proc#/proc/}"
    done
}

xfce_stage() {
    section "An XFCE-like session without systemd's graphical target (dex --autostart)"
    local dir=$work/xfce home
    home=$dir/home
    mkdir -p "$home" "$dir/run"
    chmod 0700 "$dir/run"
    bus_config "$dir/bus" >"$dir/session.conf"
    local session_env=(env -i "HOME=$home" "PATH=/usr/bin:/bin" "LANG=C.UTF-8"
        "XDG_CONFIG_HOME=$home/.config" "XDG_CONFIG_DIRS=/etc/xdg" "XDG_STATE_HOME=$home/.local/state"
        "XDG_DATA_HOME=$home/.local/share" "XDG_RUNTIME_DIR=$dir/run" "XDG_CURRENT_DESKTOP=XFCE"
        "XDG_SESSION_DESKTOP=xfce" "DESKTOP_SESSION=xfce" "DBUS_SESSION_BUS_ADDRESS=unix:path=$dir/bus")
    "${session_env[@]}" dbus-daemon --config-file="$dir/session.conf" --nofork --nopidfile >"$dir/daemon.log" 2>&1 &
    local session_bus=$!
    track "$session_bus"
    if ! wait_for 100 test -S "$dir/bus"; then
        fail "the XFCE-like session's dbus-daemon starts"
        return
    fi
    hide_other_autostart_entries "$home/.config/autostart"
    local hidden
    hidden=$(ls "$home/.config/autostart" | wc -l)
    note "the machine's $hidden other autostart entries are hidden for this user (Hidden=true in ~/.config/autostart)"
    session_name_owner() {
        "${session_env[@]}" dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \
            org.freedesktop.DBus.GetConnectionUnixProcessID "string:$bus_name" 2>/dev/null | awk '{ print $2 }'
    }
    check "before the login no agent runs on the session's bus" test -z "$(session_name_owner)"

    # The login: the runner reads the autostart directories and runs each
    # entry's Exec= (dex does not wait for them).
    "${session_env[@]}" dex --autostart --environment XFCE --verbose >"$dir/dex.log" 2>&1
    local dex_rc=$?
    grep -E '^(Autostart file|Executing command): ' "$dir/dex.log" | sed 's/^/      dex: /'
    check "dex --autostart --environment XFCE runs the entry from /etc/xdg/autostart (and only it)" \
        bash -c "[[ $dex_rc == 0 ]] && grep -qxF 'Autostart file: $autostart_entry' '$dir/dex.log' &&
            [[ \$(grep -c '^Autostart file: ' '$dir/dex.log') == 1 ]]"
    local agent
    name_owned() { [[ -n $(session_name_owner) ]]; }
    if wait_for 300 name_owned; then
        agent=$(session_name_owner)
        track "$agent"
    fi
    if [[ ! $agent =~ ^[0-9]+$ ]]; then
        fail "after the login the agent owns $bus_name on the session's bus"
        sed 's/^/      /' "$dir/daemon.log"
        kill -TERM "$session_bus"
        return
    fi
    # dbus-daemon names itself in the environment of what it starts.
    started_by_the_bus() {
        [[ $(readlink "/proc/$agent/exe") == /usr/bin/dfl-sleep-agent ]] &&
            tr '\0' '\n' <"/proc/$agent/environ" | grep -q "^DBUS_STARTER_ADDRESS=unix:path=$dir/bus,"
    }
    check "after the login the agent runs, started by the session's bus (D-Bus activation)" started_by_the_bus
    pings_ended() { [[ -z $(processes_on /usr/bin/dbus-send "$dir/bus") ]]; }
    check "the entry's Exec= has ended: it only asked for the name" wait_for 100 pings_ended

    # Logged in again (a second runner), the entry run by hand, and the app
    # calling, all at once: the bus starts the name once.
    local exec_line argv=() output rc
    exec_line=$(sed -n 's/^Exec=//p' "$autostart_entry")
    read -ra argv <<<"$exec_line"
    local callers=()
    "${session_env[@]}" dex --autostart --environment XFCE >/dev/null 2>&1 &
    callers+=($!)
    "${session_env[@]}" dex --autostart --environment XFCE >/dev/null 2>&1 &
    callers+=($!)
    "${session_env[@]}" timeout 60 dfl-sleepctl status >/dev/null 2>&1 &
    callers+=($!)
    output=$("${session_env[@]}" timeout 60 "${argv[@]}" 2>&1)
    rc=$?
    wait "${callers[@]}"
    wait_for 100 pings_ended
    check "run again while the agent runs, the entry's Exec= succeeds and prints nothing (exit $rc)" test "$rc" -eq 0 -a -z "$output"
    local agents
    agents=$(processes_on /usr/bin/dfl-sleep-agent "$dir/bus" | tr '\n' ' ')
    note "dfl-sleep-agent processes on the session's bus: ${agents:-none}"
    check "after two more logins, the Exec= by hand and a call from a client, one agent runs: the same one" \
        test "$agents" = "$agent "
    check "nothing was refused: the agent logged no second instance" \
        bash -c "! grep -qE 'already owns|holds the timer store' '$dir/daemon.log'"

    # Logout: the session's bus ends, and the agent with it.
    kill -TERM "$session_bus"
    wait "$session_bus" 2>/dev/null
    check "at logout (the session's bus ends) the agent exits" wait_for 100 bash -c "! kill -0 $agent 2>/dev/null"
}
xfce_stage

# --- The XDG autostart runner of systemd sessions -------------------------------
#
# Desktops that start the unit with graphical-session.target run XDG
# autostart through systemd-xdg-autostart-generator (xdg-desktop-autostart.target)
# or through gnome-session, so the entry carries X-systemd-skip=true (which
# the generator honours) and X-GNOME-HiddenUnderSystemd=true (which
# gnome-session honours under systemd). The generator is run here as a user
# manager runs it, beside a user's own entry that it must turn into a unit.

section "systemd-xdg-autostart-generator skips the entry"
generator=
for candidate in /usr/lib/systemd/user-generators/systemd-xdg-autostart-generator /lib/systemd/user-generators/systemd-xdg-autostart-generator; do
    [[ -x $candidate ]] && { generator=$candidate; break; }
done
if [[ -z $generator ]]; then
    fail "systemd-xdg-autostart-generator is installed (Debian package systemd)"
else
    generated=$work/generator
    mkdir -p "$generated/home/.config/autostart" "$generated/normal" "$generated/early" "$generated/late"
    printf '[Desktop Entry]\nType=Application\nName=Control\nExec=/bin/true\n' >"$generated/home/.config/autostart/dfl-pkgtest-control.desktop"
    env -i HOME="$generated/home" XDG_CONFIG_HOME="$generated/home/.config" XDG_CONFIG_DIRS=/etc/xdg \
        SYSTEMD_LOG_LEVEL=debug SYSTEMD_LOG_TARGET=console \
        "$generator" "$generated/normal" "$generated/early" "$generated/late" >"$generated/log" 2>&1
    grep -F "$autostart_name" "$generated/log" | sed 's/^/      generator: /'
    check "the generator makes a unit of an ordinary entry (app-dfl\\x2dpkgtest\\x2dcontrol@autostart.service)" \
        test -f "$generated/late/app-dfl\\x2dpkgtest\\x2dcontrol@autostart.service"
    check "the generator makes no unit of the package's entry, and says it is marked as skipped (X-systemd-skip=true)" \
        bash -c "grep -qxF '$autostart_entry: not generating unit, marked as skipped by generator.' '$generated/log' &&
            ! ls '$generated/late' | grep -q dreamsforlittles"
fi

# --- A real systemd user manager ---------------------------------------------------
#
# systemd need not be PID 1 here: a user manager runs in a mount namespace of
# its own, with /run/systemd/system (so that it believes systemd booted), a
# tmpfs as the test user's $XDG_RUNTIME_DIR, and a control group delegated
# to the test user in each hierarchy this process is in.

systemd_stage() {
    local user=dfl-pkgtest uid gid user_home manager_pid created_user=0 created_run=0
    local reason=
    if [[ ${DFL_TEST_SYSTEMD_USER:-1} == 0 ]]; then
        skip "systemd user manager stage (DFL_TEST_SYSTEMD_USER=0)"
        return
    fi
    for tool in /lib/systemd/systemd systemctl busctl unshare nsenter setpriv findmnt mountpoint useradd; do
        [[ -x $tool ]] || command -v "$tool" >/dev/null || reason="no $tool"
    done
    [[ -f /usr/lib/systemd/user/dbus.socket ]] || reason="no dbus.socket user unit (dbus-user-session)"
    if [[ -n $reason ]]; then
        skip "systemd user manager stage: $reason"
        return
    fi
    section "The unit under a systemd user manager"
    # The unit's PrivateUsers= needs a user namespace, which the kernel
    # refuses to any process in a chroot (unshare(2): EPERM), so a root has
    # to be entered with pivot_root.
    if ! unshare --user true 2>/dev/null; then
        fail "a user namespace can be made here, as the unit's PrivateUsers= needs (none inside a chroot: enter a root with pivot_root)"
        return
    fi
    if ! id "$user" >/dev/null 2>&1; then
        useradd --create-home --user-group --shell /usr/sbin/nologin --comment "dreamsforlittles package test" "$user" || { skip "systemd user manager stage: useradd failed"; return; }
        created_user=1
        cleanups+=("userdel --remove $user 2>/dev/null")
    fi
    uid=$(id -u "$user")
    gid=$(id -g "$user")
    user_home=$(getent passwd "$user" | cut -d: -f6)
    [[ -d /run/user/$uid ]] || { mkdir -p "/run/user/$uid"; created_run=1; }
    ((created_run)) && cleanups+=("rmdir /run/user/$uid 2>/dev/null")

    # A control group for the manager in every hierarchy that tracks this
    # process (the cgroup v2 one, and name=systemd on hybrid machines).
    local cgroups=() mount_point relative group
    while IFS=: read -r _ controllers relative; do
        mount_point=
        if [[ -z $controllers ]]; then
            mount_point=$(findmnt -rn -t cgroup2 -o TARGET | head -1)
        elif [[ $controllers == name=systemd ]]; then
            mount_point=$(findmnt -rn -t cgroup -o TARGET,OPTIONS | awk '$2 ~ /name=systemd/ { print $1; exit }')
        fi
        [[ -n $mount_point ]] || continue
        group=$mount_point${relative%/}/dfl-pkgtest-$$
        if mkdir "$group" 2>/dev/null && chown -R "$uid:$gid" "$group"; then
            cgroups+=("$group")
            cleanups+=("find '$group' -depth -type d -exec rmdir {} + 2>/dev/null")
        fi
    done </proc/self/cgroup
    if ((${#cgroups[@]} == 0)); then
        skip "systemd user manager stage: no control group can be delegated here"
        return
    fi

    local fakebin=$work/fakebin opened=$user_home/opened.txt
    mkdir -p "$fakebin"
    # Stands in for the real xdg-open: records the link and whether it runs
    # inside the agent's sandbox.
    cat >"$fakebin/xdg-open" <<'EOF'
#!/bin/sh
{
    echo "url=$1"
    grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status
    echo "cgroup=$(tail -1 /proc/self/cgroup)"
} >"$HOME/opened.txt.new" && mv "$HOME/opened.txt.new" "$HOME/opened.txt"
EOF
    chmod 0755 "$fakebin" "$fakebin/xdg-open"

    cat >"$work/start-manager.sh" <<'EOF'
#!/bin/bash
# start-manager.sh UID GID HOME USER FAKEBIN CGROUP...
set -e
uid=$1 gid=$2 home=$3 user=$4 fakebin=$5
shift 5
for group in "$@"; do echo $$ >"$group/cgroup.procs"; done
exec unshare --mount --propagation private /bin/bash -c '
set -e
uid=$1 gid=$2 home=$3 user=$4 fakebin=$5
mountpoint -q /run || mount --bind /run /run
if [ ! -d /run/systemd/system ]; then
    mkdir -p /run/systemd
    mount -t tmpfs -o mode=0755 tmpfs /run/systemd
    mkdir /run/systemd/system
fi
# Where the manager builds the mount namespace of a unit (PID 1 makes it at
# boot): unit-root for systemd 252 (Debian 12), mount-rootfs for 257 (13).
mkdir -p /run/systemd/unit-root /run/systemd/mount-rootfs
mount -t tmpfs -o mode=0700,uid=$uid,gid=$gid tmpfs /run/user/$uid
mount --bind "$fakebin" /usr/local/bin
exec setpriv --reuid=$uid --regid=$gid --init-groups env -i HOME=$home USER=$user LOGNAME=$user \
    XDG_RUNTIME_DIR=/run/user/$uid PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 /lib/systemd/systemd --user
' bash "$uid" "$gid" "$home" "$user" "$fakebin"
EOF
    chmod 0755 "$work/start-manager.sh"
    "$work/start-manager.sh" "$uid" "$gid" "$user_home" "$user" "$fakebin" "${cgroups[@]}" >"$work/manager.log" 2>&1 &
    manager_pid=$!
    track "$manager_pid"

    # nsenter -r -w: the target's root and working directory too, so that
    # inside a chroot (the Debian 13 root) a path means what it means to the
    # manager; entering only its mount namespace would leave the chroot.
    user_command=(nsenter -t "$manager_pid" -m -r -w setpriv --reuid="$uid" --regid="$gid" --init-groups
        env -i HOME="$user_home" USER="$user" LOGNAME="$user" LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin
        XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus")
    as_user() { timeout 60 "${user_command[@]}" "$@"; }
    manager_up() { [[ $(as_user systemctl --user is-system-running 2>/dev/null) =~ ^(running|degraded)$ ]]; }
    if ! wait_for 300 manager_up; then
        skip "systemd user manager stage: the user manager did not come up here"
        note "systemctl --user is-system-running: $(as_user systemctl --user is-system-running 2>&1 | tr '\n' ' ')"
        note "the manager: $(ps -o pid=,stat=,args= -p "$manager_pid" 2>&1 || echo "$manager_pid has ended")"
        sed 's/^/      /' "$work/manager.log" | tail -5
        return
    fi
    pass "a systemd user manager runs for $user (systemd $(as_user systemctl --user show -p Version --value))"
    show() { as_user systemctl --user show -p "$1" --value "$unit"; }
    states() {
        local property values=()
        for property; do values+=("$(show "$property")"); done
        local IFS=/
        echo "${values[*]}"
    }

    # A system bus (where this machine has none) for the agent's
    # NetworkManager watch, and a notification server on the session bus
    # that records what it is asked to show.
    local system_bus=0 notification_server=0 recorded=$user_home/notifications.jsonl
    if [[ ! -S /run/dbus/system_bus_socket && -f /usr/share/dbus-1/system.conf ]] && getent passwd messagebus >/dev/null &&
        nsenter -t "$manager_pid" -m -r -w mount -t tmpfs -o mode=0755 tmpfs /run/dbus; then
        nsenter -t "$manager_pid" -m -r -w dbus-daemon --system --nofork --nopidfile >"$work/system-bus.log" 2>&1 &
        track "$!"
        wait_for 100 nsenter -t "$manager_pid" -m -r -w test -S /run/dbus/system_bus_socket && system_bus=1
    elif [[ -S /run/dbus/system_bus_socket ]]; then
        system_bus=1
    fi
    if /usr/bin/python3 -c 'import dbus, gi' 2>/dev/null; then
        cat >"$work/notifications.py" <<'PY'
import json, sys
import dbus, dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
record = open(sys.argv[1], "a", buffering=1)

class Server(dbus.service.Object):
    last = 0

    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body", "persistence"]

    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("package-test", "dreamsforlittles", "1", "1.2")

    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        Server.last += 1
        record.write(json.dumps({"summary": str(summary), "body": str(body), "actions": [str(a) for a in actions],
                                 "desktop_entry": str(hints.get("desktop-entry", ""))}) + "\n")
        return dbus.UInt32(replaces or Server.last)

    @dbus.service.method("org.freedesktop.Notifications", in_signature="u", out_signature="")
    def CloseNotification(self, id):
        self.NotificationClosed(id, 3)

    @dbus.service.signal("org.freedesktop.Notifications", signature="uu")
    def NotificationClosed(self, id, reason):
        pass

    @dbus.service.signal("org.freedesktop.Notifications", signature="us")
    def ActionInvoked(self, id, action):
        pass

name = dbus.service.BusName("org.freedesktop.Notifications", bus)
Server(bus, "/org/freedesktop/Notifications")
GLib.MainLoop().run()
PY
        "${user_command[@]}" /usr/bin/python3 "$work/notifications.py" "$recorded" >"$work/notifications.log" 2>&1 &
        track "$!"
        server_up() { as_user busctl --user status org.freedesktop.Notifications >/dev/null 2>&1; }
        wait_for 100 server_up && notification_server=1
    fi
    ((system_bus)) || note "no system bus here: the agent's NetworkManager watch is not checked"
    ((notification_server)) || note "no notification server here (python3-dbus, python3-gi): notifications are not checked"

    check "$unit is enabled for every user (graphical-session.target wants it)" \
        test "$(readlink "/etc/systemd/user/graphical-session.target.wants/$unit")" = "/usr/lib/systemd/user/$unit"
    check "the manager loads $unit from /usr/lib/systemd/user; it is not running yet" \
        test "$(states FragmentPath ActiveState)" = "/usr/lib/systemd/user/$unit/inactive"

    local output rc main_pid
    output=$(as_user dfl-sleepctl status 2>&1)
    rc=$?
    note "dfl-sleepctl status: exit $rc; $(echo "$output" | tr '\n' ' ')"
    check "dfl-sleepctl status starts the agent through D-Bus and systemd (SystemdService=) and answers" \
        test "$rc" -eq 0 -a "$(echo "$output" | grep -cFx "Version: $program_version")" -eq 1
    # Without a journal here, the unit's status is what says why it failed.
    ((rc == 0)) || as_user systemctl --user status --no-pager --lines=0 "$unit" 2>&1 |
        grep -E 'Active:|Process:|Main PID:' | sed 's/^ */      /'
    main_pid=$(show MainPID)
    check "$unit is active (Type=notify, so after READY=1) with the agent as its main process" \
        test "$(states ActiveState SubState Type)/$(readlink "/proc/$main_pid/exe")" = "active/running/notify//usr/bin/dfl-sleep-agent"
    if [[ $main_pid =~ ^[1-9][0-9]*$ ]]; then
        check "the agent runs with no new privileges and a system call filter" \
            grep -qzE 'NoNewPrivs:[[:space:]]*1.*Seccomp:[[:space:]]*2' "/proc/$main_pid/status"
        check "the agent runs in a user namespace that maps only its own user (PrivateUsers=)" \
            test "$(awk '{ print $1, $2, $3 }' "/proc/$main_pid/uid_map")" = "$uid $uid 1"
        nsenter -t "$main_pid" -m -r -w findmnt -rn -o TARGET,OPTIONS >"$work/agent-mounts.txt" 2>&1
        # mounted PATH OPTION: the mount that PATH is on (the last one over
        # the longest matching target) has OPTION.
        mounted() {
            awk -v path="$1" '
                { target = $1; if (target == "/" || path == target || index(path, target "/") == 1) {
                      if (length(target) >= best) { best = length(target); options = $2 } } }
                END { print options }' "$work/agent-mounts.txt" | tr ',' '\n' | grep -qx "$2"
        }
        sandboxed_mounts() {
            mounted /usr ro && mounted /etc ro && mounted "$user_home" ro && mounted "$user_home/.config" ro &&
                mounted "/run/user/$uid" ro && mounted "$user_home/.local/state/dreamsforlittles" rw &&
                mounted /tmp rw && mounted /dev ro && grep -q '^/tmp ' "$work/agent-mounts.txt"
        }
        if sandboxed_mounts; then
            pass "in the agent's sandbox the system, the homes and \$XDG_RUNTIME_DIR are read-only, the store writable, /tmp and /dev private"
        else
            fail "in the agent's sandbox the system, the homes and \$XDG_RUNTIME_DIR are read-only, the store writable, /tmp and /dev private"
            sed 's/^/      /' "$work/agent-mounts.txt"
        fi
        check "the store is in ~/.local/state/dreamsforlittles (mode 0700)" \
            test "$(stat -c %a "$user_home/.local/state/dreamsforlittles")" = 700 -a -f "$user_home/.local/state/dreamsforlittles/sleep-timers.sqlite3"
    fi

    if ((system_bus)) && [[ $main_pid =~ ^[1-9][0-9]*$ ]]; then
        check "the sandboxed agent is connected to the system bus (for NetworkManager's signals)" \
            bash -c "nsenter -t $manager_pid -m -r -w busctl --system list --no-legend --no-pager 2>/dev/null | awk '{ print \$2 }' | grep -qx $main_pid"
    fi

    # A platform on loopback, a mirrored timer, a link and a completion.
    local port listener_pid timer=3f2504e0-4f89-41d3-9a0c-0305e82c3301 now list deep_link notification
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat >"$work/platform.py" <<'PY'
import socket, sys
server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(sys.argv[1])))
server.listen(4)
server.settimeout(120)
connection, _ = server.accept()
connection.settimeout(10)
first_line = connection.recv(65536).split(b"\r\n")[0]
with open(sys.argv[2], "wb") as out:
    out.write(first_line + b"\n")
connection.sendall(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3600\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
connection.close()
PY
    python3 "$work/platform.py" "$port" "$work/request.txt" &
    listener_pid=$!
    track "$listener_pid"
    as_user mkdir -p "$user_home/.config/dreamsforlittles"
    printf '[platform]\nallowed-origins=http://127.0.0.1:%s;\n' "$port" |
        as_user tee "$user_home/.config/dreamsforlittles/sleep-agent.conf" >/dev/null
    # Any program of the user can put a proxy and a TLS key log into the
    # manager's environment: the unit does not hand them to the agent, and
    # the completion below still goes straight to the platform.
    as_user systemctl --user set-environment http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
        ALL_PROXY=http://127.0.0.1:9 SSLKEYLOGFILE=/tmp/package-test-keys.log
    as_user systemctl --user restart "$unit"
    main_pid=$(show MainPID)
    check "the unit hands the agent none of the manager's proxy or key-log variables (UnsetEnvironment=)" \
        bash -c "[[ -r /proc/$main_pid/environ ]] && ! tr '\\0' '\\n' </proc/$main_pid/environ | grep -qE '^(http_proxy|https_proxy|ALL_PROXY|SSLKEYLOGFILE)='"
    now=$(date +%s%3N)
    as_user busctl --user call "$bus_name" "$object_path" "$interface" Mirror 'a{sv}' 12 \
        timer_id s "$timer" api_origin s "http://127.0.0.1:$port" \
        user_id s 9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f family_subject_id s c56a4180-65aa-42ec-a945-5fd21dec0538 \
        baby_id s 7d444840-9dc0-11d1-b245-5ffdce74fad2 baby_name s Maya activity_type s sleep actor_mode s self \
        started_at_ms x $((now - 600000)) timezone s Europe/Berlin action_token s package-test-opaque-token \
        token_expires_at_ms x $((now + 3600000)) >/dev/null 2>"$work/mirror.err"
    list=$(as_user dfl-sleepctl list --json 2>&1)
    check "a timer can be mirrored into the sandboxed agent (it reads ~/.config through the read-only home)" \
        grep -q "\"timer_id\":\"$timer\"" <<<"$list"
    deep_link=$(grep -o '"deep_link":"[^"]*"' <<<"$list" | cut -d'"' -f4)
    if ((notification_server)); then
        shown() { grep -q '"summary": "[^"]*Maya' "$recorded"; }
        wait_for 100 shown
        notification=$(grep '"summary": "[^"]*Maya' "$recorded" | tail -1)
        note "notification: $notification"
        notified() { grep -qF '"complete"' <<<"$notification" && grep -qF '"desktop_entry": "com.dreamsforlittles.DreamsForLittles.SleepAgent"' <<<"$notification"; }
        check "the sandboxed agent shows the timer through libnotify, with Complete and the desktop-entry hint" notified
        output=$(as_user dfl-sleepctl status 2>&1)
        check "dfl-sleepctl status names the notification server" grep -qx 'NotificationServer: package-test 1' <<<"$output"
    fi
    rm -f "$opened"
    as_user dfl-sleepctl open "$timer" >/dev/null 2>&1
    if wait_for 150 test -f "$opened"; then
        note "$(tr '\n' ' ' <"$opened")"
        opened_outside() {
            grep -qxF "url=$deep_link" "$opened" && grep -q '^Seccomp:[[:space:]]*0' "$opened" &&
                grep -q '^cgroup=.*/run-[^/]*\.service$' "$opened"
        }
        check "a link opened without a portal runs through systemd-run, outside the sandbox (no filter, a run-*.service)" opened_outside
    else
        fail "dfl-sleepctl open runs xdg-open (nothing opened within 15 s)"
    fi
    as_user dfl-sleepctl complete "$timer" >/dev/null 2>&1
    if wait_for 300 test -s "$work/request.txt"; then
        check "the sandboxed agent sends the completion over TCP (POST /native/sleep-timers/ID/complete)" \
            grep -q "^POST /native/sleep-timers/$timer/complete HTTP/1.1" "$work/request.txt"
    else
        fail "the sandboxed agent sends the completion to the platform on loopback (nothing arrived within 30 s)"
    fi
    as_user busctl --user call "$bus_name" "$object_path" "$interface" Purge sss "http://127.0.0.1:$port" \
        9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f "" >/dev/null 2>&1
    as_user systemctl --user unset-environment http_proxy https_proxy ALL_PROXY SSLKEYLOGFILE

    # Restart=on-failure after a crash; RestartPreventExitStatus= after a
    # configuration error; a clean stop.
    # MainPID is 0 when the unit is not running: kill 0 would end this test's
    # own process group.
    main_pid=$(show MainPID)
    [[ $main_pid =~ ^[1-9][0-9]*$ ]] && kill -KILL "$main_pid" 2>/dev/null
    restarted() {
        local pid
        pid=$(show MainPID)
        [[ $(show ActiveState) == active && $pid != 0 && $pid != "$main_pid" ]]
    }
    check "a killed agent is restarted (Restart=on-failure)" wait_for 150 restarted
    printf '[platform]\nno-such-key=1\n' | as_user tee "$user_home/.config/dreamsforlittles/sleep-agent.conf" >/dev/null
    as_user systemctl --user restart "$unit" >/dev/null 2>&1
    sleep 4
    check "a configuration error (exit 78) leaves the agent stopped, not restarted (RestartPreventExitStatus=)" \
        test "$(states ActiveState ExecMainStatus NRestarts)" = "failed/78/0"
    as_user rm -f "$user_home/.config/dreamsforlittles/sleep-agent.conf"
    as_user systemctl --user reset-failed "$unit"
    as_user systemctl --user start "$unit"
    as_user systemctl --user stop "$unit"
    check "systemctl --user stop ends the agent cleanly (SIGTERM, exit 0)" \
        test "$(states ActiveState Result ExecMainStatus)" = "inactive/success/0"

    # A login to a desktop whose session reaches graphical-session.target (a
    # session target that BindsTo= it, as GNOME's, KDE Plasma's and sway's
    # do) and runs XDG autostart through systemd (xdg-desktop-autostart.target,
    # whose units systemd-xdg-autostart-generator makes from the entries).
    # The unit starts the agent; the generator skips the entry. A user's own
    # entry shows that autostart ran; the machine's other entries are hidden
    # for the test user.
    section "A systemd session: graphical-session.target and XDG autostart through systemd"
    local session_target=dfl-pkgtest-session.target control_ran=$user_home/autostart-control-ran generated
    as_user mkdir -p "$user_home/.config/systemd/user" "$user_home/.config/autostart"
    printf '[Unit]\nDescription=A desktop session (package test)\nBindsTo=graphical-session.target\nWants=graphical-session-pre.target xdg-desktop-autostart.target\nAfter=graphical-session-pre.target\n' |
        as_user tee "$user_home/.config/systemd/user/$session_target" >/dev/null
    hide_other_autostart_entries "$work/hidden-autostart"
    as_user cp "$work/hidden-autostart/." "$user_home/.config/autostart/" -R
    printf '[Desktop Entry]\nType=Application\nName=Control\nExec=/usr/bin/touch %s\n' "$control_ran" |
        as_user tee "$user_home/.config/autostart/dfl-pkgtest-control.desktop" >/dev/null
    as_user systemctl --user daemon-reload
    generated=$(as_user ls "/run/user/$uid/systemd/generator.late" 2>&1 | tr '\n' ' ')
    note "generated by the user manager's generators: $generated"
    skipped_by_the_manager() {
        [[ $generated == *'app-dfl\x2dpkgtest\x2dcontrol@autostart.service'* && $generated != *dreamsforlittles* ]]
    }
    check "the user manager's generator made a unit of the user's own entry, and none of the package's" skipped_by_the_manager
    as_user systemctl --user start "$session_target"
    local session_main_pid agents
    session_up() { [[ $(show ActiveState) == active && -e $control_ran ]]; }
    wait_for 300 session_up
    session_reached() { [[ $(as_user systemctl --user is-active graphical-session.target) == active && -e $control_ran ]]; }
    check "the session reached graphical-session.target and ran XDG autostart (the user's entry ran)" session_reached
    session_main_pid=$(show MainPID)
    agents=$(user_processes /usr/bin/dfl-sleep-agent "$uid" | tr '\n' ' ')
    note "dfl-sleep-agent processes of $user: ${agents:-none}; $unit MainPID $session_main_pid"
    check "with the session, the unit started the agent, and only it: one agent, the unit's main process" \
        test "$(show ActiveState)/$agents" = "active/$session_main_pid "

    # A runner that honours neither mark (dex, xfce4-session) in this
    # session runs the entry's Exec=: it reaches the agent the unit runs.
    as_user env XDG_CONFIG_HOME="$user_home/.config" XDG_CONFIG_DIRS=/etc/xdg XDG_CURRENT_DESKTOP=XFCE \
        dex --autostart --environment XFCE --verbose >"$work/dex-systemd.log" 2>&1
    grep -E '^(Autostart file|Executing command): ' "$work/dex-systemd.log" | sed 's/^/      dex: /'
    user_pings_ended() { [[ -z $(user_processes /usr/bin/dbus-send "$uid") ]]; }
    wait_for 300 user_pings_ended
    agents=$(user_processes /usr/bin/dfl-sleep-agent "$uid" | tr '\n' ' ')
    note "dfl-sleep-agent processes of $user: ${agents:-none}; $unit: $(states MainPID NRestarts)"
    still_the_unit() {
        grep -qxF "Autostart file: $autostart_entry" "$work/dex-systemd.log" &&
            [[ $agents == "$session_main_pid " && $(states MainPID NRestarts) == "$session_main_pid/0" ]]
    }
    check "an autostart runner that ignores the marks (dex) runs the entry, and still one agent runs: the unit's, not restarted" \
        still_the_unit

    # Logout: the session target stops, graphical-session.target with it,
    # and the unit with that (PartOf=).
    as_user systemctl --user stop "$session_target"
    stopped_with_session() { [[ $(show ActiveState) == inactive ]]; }
    check "at logout (graphical-session.target stops) the agent stops (PartOf=)" wait_for 300 stopped_with_session

    as_user systemctl --user exit >/dev/null 2>&1
    timeout 20 tail --pid="$manager_pid" -f /dev/null || kill -KILL "$manager_pid" 2>/dev/null
}
systemd_stage

# --- The unit, the desktop entry, the man pages, the completion -----------------------

section "systemd-analyze"
analyze_runtime=$work/analyze-runtime
mkdir -m 0700 "$analyze_runtime"
XDG_RUNTIME_DIR=$analyze_runtime systemd-analyze security --offline=yes --user "/usr/lib/systemd/user/$unit" >"$work/security.txt" 2>&1
exposure=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$work/security.txt")
note "$(grep 'Overall exposure level' "$work/security.txt")"
check "systemd-analyze security rates the unit's exposure ${exposure:-?} (at most $max_exposure)" \
    awk -v e="${exposure:-99}" -v max="$max_exposure" 'BEGIN { exit !(e + 0 <= max + 0) }'
XDG_RUNTIME_DIR=$analyze_runtime systemd-analyze verify --user "/usr/lib/systemd/user/$unit" >"$work/verify.txt" 2>&1
verify_rc=$?
[[ -s $work/verify.txt ]] && sed 's/^/      /' "$work/verify.txt"
check "systemd-analyze verify --user passes without a message" test "$verify_rc" -eq 0 -a ! -s "$work/verify.txt"

section "Desktop entries, man pages, completions"
check "desktop-file-validate passes" desktop-file-validate /usr/share/applications/com.dreamsforlittles.DreamsForLittles.SleepAgent.desktop \
    /usr/share/applications/com.dreamsforlittles.DreamsForLittles.desktop
check "desktop-file-validate passes for the autostart entry" desktop-file-validate "$autostart_entry"
for page in man1/dfl-sleep-agent.1 man1/dfl-sleepctl.1 man1/dfl-webview-bridge.1 man1/dreamsforlittles.1 man5/sleep-agent.conf.5; do
    warnings=$(for width in 60 80 120; do LC_ALL=C.UTF-8 MANWIDTH=$width man --warnings -E UTF-8 -l -Tutf8 -Z "/usr/share/man/$page.gz" 2>&1 >/dev/null; done)
    [[ -n $warnings ]] && note "$warnings"
    check "man ${page#*/} renders without warnings" test -z "$warnings" -a "$(man -l "/usr/share/man/$page.gz" 2>/dev/null | grep -c .)" -gt 20
done
check "man finds the pages by name" bash -c 'man -w dfl-sleep-agent dfl-sleepctl dfl-webview-bridge dreamsforlittles >/dev/null && [[ $(man -w 5 sleep-agent.conf) == /usr/share/man/man5/sleep-agent.conf.5.gz ]]'
check "dfl-sleep-agent(1), dfl-sleepctl(1) and dfl-webview-bridge(1) name sleep-agent.conf(5) in SEE ALSO" \
    bash -c 'for page in dfl-sleep-agent dfl-sleepctl dfl-webview-bridge; do
        man -l /usr/share/man/man1/$page.1.gz 2>/dev/null | sed -n "/^SEE ALSO/,\$p" | grep -q "sleep-agent.conf(5)" || exit 1; done'

# sleep-agent.conf(5) against the parser: every group and key the
# configuration knows (Configuration.swift) has its entry under its group,
# and every example file in the page is one the programs accept (read by
# dfl-webview-bridge, which exits 78 on a file it refuses).
mkdir -p "$work/examples"
cat >"$work/conf_page.py" <<'PY'
import gzip, re, sys
page = gzip.open(sys.argv[1], "rt").read()
source = open(sys.argv[2]).read()
table = source[source.index("knownKeys: [String: [String]] = ["):]
table = table[:table.index("\n    ]\n")]
known = {group: re.findall(r'"([a-z-]+)"', keys) for group, keys in re.findall(r'"([a-z]+)": \[([^\]]*)\]', table)}
print("      the configuration knows: " + "; ".join("[%s] %s" % (g, ", ".join(k)) for g, k in known.items()))
sections = {s.split("\n", 1)[0]: s for s in re.split(r"^\.SH ", page, flags=re.M)}
missing = [("[%s]" % g) for g in known if "[%s]" % g not in sections]
missing += ["[%s] %s" % (g, k) for g, keys in known.items() for k in keys
            if not re.search(r"^\.BR %s " % re.escape(k.replace("-", "\\-")), sections.get("[%s]" % g, ""), re.M)]
for n, example in enumerate(re.findall(r"^\.nf\n(\[.*?)^\.fi$", page, re.M | re.S)):
    with open("%s/example-%d.conf" % (sys.argv[3], n), "w") as out:
        out.write(example.replace("\\-", "-").replace("\\e", "\\"))
if not known or missing:
    print("      missing from the page: " + ", ".join(missing))
    sys.exit(1)
PY
check "sleep-agent.conf(5) describes every group and key that Configuration.swift knows" \
    python3 "$work/conf_page.py" /usr/share/man/man5/sleep-agent.conf.5.gz \
    "$repo/Sources/SleepTimerCore/Configuration/Configuration.swift" "$work/examples"
# bridge_reads FILE: dfl-webview-bridge started with FILE as the user's
# configuration and no input; prints its exit status and messages.
bridge_reads() {
    local home=$work/examples/home
    rm -rf "$home" && mkdir -p "$home/dreamsforlittles" && cp "$1" "$home/dreamsforlittles/sleep-agent.conf"
    env -i HOME="$home" XDG_CONFIG_HOME="$home" XDG_CONFIG_DIRS=/nonexistent PATH=/usr/bin:/bin LANG=C.UTF-8 \
        DBUS_SESSION_BUS_ADDRESS="unix:path=$work/examples/no-bus" timeout 30 dfl-webview-bridge </dev/null 2>&1
    echo "exit $?"
}
examples=0
for example in "$work"/examples/example-*.conf; do
    [[ -f $example ]] || continue
    examples=$((examples + 1))
    output=$(bridge_reads "$example")
    [[ $output == *"exit 0" ]] || { note "$(tr '\n' ' ' <"$example")"; note "$output"; }
    check "example file $examples of sleep-agent.conf(5) is accepted ($(grep -o '^\[[a-z]*\]' "$example" | tr '\n' ' ')with $(grep -c '=' "$example") key(s))" \
        test "${output##*$'\n'}" = "exit 0"
done
check "sleep-agent.conf(5) has example files (found $examples)" test "$examples" -ge 3
printf '[notifications]\n# how the elapsed time is shown\nlive-elapsed=sometimes\n' >"$work/examples/bad.conf"
output=$(bridge_reads "$work/examples/bad.conf")
note "$(tr '\n' ' ' <<<"$output")"
check "a bad value is refused as sleep-agent.conf(5) says: exit 78, the file, line, group and key" \
    bash -c '[[ $1 == *"/sleep-agent.conf:3: [notifications] live-elapsed: must be auto, on or off, not sometimes"* && $1 == *"exit 78" ]]' _ "$output"

check "the bash completion passes bash -n" bash -n /usr/share/bash-completion/completions/dfl-sleepctl
check "the zsh completion passes zsh -n" zsh -n /usr/share/zsh/vendor-completions/_dfl-sleepctl
check "the fish completion passes fish --no-execute" fish --no-execute /usr/share/fish/vendor_completions.d/dfl-sleepctl.fish

# The completion, with a stand-in dfl-sleepctl that lists two timers.
mkdir -p "$work/complete-bin"
cat >"$work/complete-bin/dfl-sleepctl" <<'EOF'
#!/bin/sh
[ "$1 $2" = "list --json" ] || exit 64
echo '[{"timer_id":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","baby_name":"Maya"},{"timer_id":"7d444840-9dc0-11d1-b245-5ffdce74fad2","baby_name":"Noa"}]'
EOF
chmod 0755 "$work/complete-bin/dfl-sleepctl"
complete_line() {
    PATH=$work/complete-bin:$PATH bash -c '
        source /usr/share/bash-completion/bash_completion
        source /usr/share/bash-completion/completions/dfl-sleepctl
        COMP_LINE=$1; COMP_POINT=${#COMP_LINE}
        read -ra COMP_WORDS <<<"$COMP_LINE"
        [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _dfl_sleepctl dfl-sleepctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' bash "$1"
}
check "completion of commands" test "$(complete_line 'dfl-sleepctl ')" = "--help -h complete help list open status watch "
check "completion of list options" test "$(complete_line 'dfl-sleepctl list --')" = "--help --json "
check "completion of timer ids from dfl-sleepctl list --json" \
    test "$(complete_line 'dfl-sleepctl complete ')" = "3f2504e0-4f89-41d3-9a0c-0305e82c3301 7d444840-9dc0-11d1-b245-5ffdce74fad2 "
check "completion of --at after a timer id" test "$(complete_line 'dfl-sleepctl complete 3f2504e0-4f89-41d3-9a0c-0305e82c3301 --')" = "--at --help "

# zsh and fish find their completions where the package puts them: zsh's
# compinit in its default fpath, fish in its vendor directory (autoloaded,
# not sourced by hand), with the same stand-in.
zsh_registered() {
    [[ $(env -i HOME="$work/zsh-home" PATH=/usr/bin:/bin zsh -fc 'autoload -Uz compinit; compinit -u -D; print -r -- $_comps[dfl-sleepctl]') == _dfl-sleepctl ]]
}
mkdir -p "$work/zsh-home" "$work/fish-home"
check "zsh's compinit finds _dfl-sleepctl in its default fpath (/usr/share/zsh/vendor-completions)" zsh_registered
zsh_offers() {
    env -i HOME="$work/zsh-home" PATH="$work/complete-bin:/usr/bin:/bin" TERM=dumb \
        timeout 60 zsh -f "$repo/Tests/Integration/zsh_complete.zsh" /usr/share/zsh/vendor-completions "$1" | sort | tr '\n' '|'
}
check "zsh completes the commands" test "$(zsh_offers 'dfl-sleepctl ' | tr '|' '\n' | grep -v '^shown' | tr '\n' ' ')" = "complete help list open status watch "
check "zsh completes the timer ids, with the baby's name" \
    test "$(zsh_offers 'dfl-sleepctl open ')" = "3f2504e0-4f89-41d3-9a0c-0305e82c3301|7d444840-9dc0-11d1-b245-5ffdce74fad2|shown: 3f2504e0-4f89-41d3-9a0c-0305e82c3301  -- Maya|shown: 7d444840-9dc0-11d1-b245-5ffdce74fad2  -- Noa|"
# fish_offers LINE: "WORD:DESCRIPTION" for each offer; fish_words: the words.
fish_complete() {
    env -i HOME="$work/fish-home" PATH="$work/complete-bin:/usr/bin:/bin" timeout 60 fish -c "complete -C'$1'" | sort
}
fish_offers() { fish_complete "$1" | tr '\t\n' ': '; }
fish_words() { fish_complete "$1" | cut -f1 | tr '\n' ' '; }
check "fish completes the commands from its vendor directory" \
    test "$(fish_words 'dfl-sleepctl ')" = "complete help list open status watch "
check "fish completes the timer ids, with the baby's name" \
    test "$(fish_offers 'dfl-sleepctl complete ')" = "3f2504e0-4f89-41d3-9a0c-0305e82c3301:Maya 7d444840-9dc0-11d1-b245-5ffdce74fad2:Noa "

# --- Purge -----------------------------------------------------------------

section "apt-get purge"
if DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" purge -y "$package" >>"$work/apt.log" 2>&1; then
    pass "apt-get purge -y $package"
    installed_by_us=0
else
    tail -20 "$work/apt.log"
    fail "apt-get purge -y $package"
fi
check "dpkg knows no file of $package any more" bash -c "! dpkg-query -W -f='\${db:Status-Abbrev}' $package 2>/dev/null | grep -q '^.[icuhft]' && ! dpkg -L $package >/dev/null 2>&1"
left=()
for path in "${paths[@]}" /etc/xdg/dreamsforlittles /usr/libexec/dreamsforlittles /usr/share/dreamsforlittles \
    /etc/systemd/user/graphical-session.target.wants/$unit /usr/share/doc/$package; do
    [[ -e $path || -L $path ]] && left+=("$path")
done
if ((${#left[@]})); then
    fail "nothing of the package is left (left: ${left[*]})"
else
    pass "nothing of the package is left (${#paths[@]} files, /etc/xdg/dreamsforlittles, the enablement link)"
fi

finish
