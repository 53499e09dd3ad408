#!/usr/bin/env bash
# Tests the Debian package dreamsforlittles-desktop end to end, as root, on
# a machine that may be changed (it installs and purges the package):
#
#   Tests/Packaging/test_package.sh [PACKAGE.deb]
#
# Without an argument (or $DFL_DEB) it builds the package first with
# packaging/build-deb.sh. Then: lintian (no error, no warning); install with
# apt-get; the files in place; the binaries depend on Debian's libraries
# only; the first call to com.dreamsforlittles.SleepTimers1 on a private
# session bus, whose only service directory is /usr/share/dbus-1/services,
# starts the agent through the installed activation file; the same through
# a real systemd user manager with the installed unit, sandbox included,
# where this machine allows one to run (DFL_TEST_SYSTEMD_USER=0 skips it);
# the unit's exposure (systemd-analyze security, 2.0 at most) and
# systemd-analyze verify; desktop-file-validate; the man pages render
# without warnings; the bash completion; and apt-get purge leaves nothing.
# Every process it starts is stopped. Exits non-zero on any failure.
#
# Needs: apt-get, lintian, desktop-file-utils, man-db, bash-completion,
# dbus-daemon, dbus-bin, systemd (for systemd-analyze), python3.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
package=dreamsforlittles-desktop
bus_name=com.dreamsforlittles.SleepTimers1
object_path=/com/dreamsforlittles/SleepTimers1
unit=dfl-sleep-agent.service
max_exposure=2.0

passed=0
failed=0
skipped=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP: $*"; }
note() { echo "      $*"; }
# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
    local description=$1
    shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}
finish() {
    echo
    echo "packaging: $passed passed, $failed failed, $skipped skipped"
    echo "$passed passed, $failed failed"
    ((failed == 0))
    exit
}

if [[ $(id -u) -ne 0 ]]; then
    echo "test_package: run as root (it installs and purges $package)" >&2
    exit 2
fi
missing=()
for tool in apt-get dpkg-query lintian desktop-file-validate man systemd-analyze dbus-daemon dbus-send python3 timeout; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
[[ -r /usr/share/bash-completion/bash_completion ]] || missing+=(bash-completion)
if ((${#missing[@]})); then
    echo "test_package: missing: ${missing[*]} (Debian packages: lintian desktop-file-utils man-db bash-completion dbus-daemon dbus-bin systemd python3)" >&2
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
    echo "== Building the package with packaging/build-deb.sh (release, static Swift runtime; a few minutes)"
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
echo "== Package: $deb"

echo "== lintian"
lintian --info "$deb" >"$work/lintian.txt" 2>&1
grep -v '^running with root privileges' "$work/lintian.txt" | sed 's/^/      /' | grep -E '^      [EWIX]:' || true
if grep -qE '^[EW]: ' "$work/lintian.txt"; then
    fail "lintian reports no error and no warning"
else
    pass "lintian reports no error and no warning"
fi

# --- Installation ------------------------------------------------------------

echo "== apt-get install"
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
    /usr/lib/systemd/user/$unit
    /usr/libexec/dreamsforlittles/xdg-open
    /usr/share/dbus-1/services/$bus_name.service
    /usr/share/dbus-1/interfaces/$bus_name.xml
    /usr/share/applications/com.dreamsforlittles.SleepAgent.desktop
    /usr/share/icons/hicolor/scalable/apps/com.dreamsforlittles.SleepAgent.svg
    /usr/share/icons/hicolor/scalable/apps/com.dreamsforlittles.App.svg
    /usr/share/icons/hicolor/symbolic/apps/com.dreamsforlittles.App-symbolic.svg
    /usr/share/bash-completion/completions/dfl-sleepctl
    /usr/share/man/man1/dfl-sleep-agent.1.gz
    /usr/share/man/man1/dfl-sleepctl.1.gz
    /usr/share/man/man1/dfl-webview-bridge.1.gz
    /etc/xdg/dreamsforlittles/sleep-agent.conf
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
check "the three executables are executable" test -x /usr/bin/dfl-sleep-agent -a -x /usr/bin/dfl-sleepctl -a -x /usr/bin/dfl-webview-bridge -a -x /usr/libexec/dreamsforlittles/xdg-open
check "/etc/xdg/dreamsforlittles/sleep-agent.conf is a conffile" \
    bash -c "dpkg-query -W -f='\${Conffiles}' $package | grep -q '/etc/xdg/dreamsforlittles/sleep-agent.conf '"
check "the default configuration sets nothing (every setting commented out)" \
    bash -c "! grep -Ev '^[[:space:]]*(#|\\[|$)' /etc/xdg/dreamsforlittles/sleep-agent.conf"

toolchain_free=1
for binary in /usr/bin/dfl-sleep-agent /usr/bin/dfl-sleepctl /usr/bin/dfl-webview-bridge; do
    if readelf -d "$binary" | grep -qE 'RPATH|RUNPATH'; then toolchain_free=0; note "$binary has a library search path"; fi
    if ldd "$binary" | grep -qE 'swift|not found'; then toolchain_free=0; note "$binary: $(ldd "$binary" | grep -E 'swift|not found')"; fi
    # Every library ldd finds belongs to a Debian package (under /usr on
    # merged-/usr systems, where ldd may name the /lib path).
    while read -r library; do
        dpkg -S "$library" >/dev/null 2>&1 || dpkg -S "/usr$library" >/dev/null 2>&1 ||
            dpkg -S "$(realpath "$library")" >/dev/null 2>&1 ||
            { toolchain_free=0; note "$binary needs $library, which no Debian package holds"; }
    done < <(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
done
check "the binaries need only libraries of Debian packages (no Swift toolchain, no RUNPATH)" test "$toolchain_free" -eq 1
# Only the agent notifies; GLib reaches the others through its own module.
check "dfl-sleepctl and dfl-webview-bridge do not link libnotify" \
    bash -c '! ldd /usr/bin/dfl-sleepctl /usr/bin/dfl-webview-bridge | grep -q libnotify'
check "dfl-sleep-agent --version prints 0.1.0" bash -c '[[ $(/usr/bin/dfl-sleep-agent --version) == "dfl-sleep-agent 0.1.0" ]]'
check "dfl-webview-bridge --help answers" bash -c '/usr/bin/dfl-webview-bridge --help | grep -q "JSON-RPC 2.0"'
# The installed catalogs, found where the package put them (no DFL_LOCALEDIR).
check "dfl-sleepctl --help speaks German from the installed catalog" \
    bash -c 'env -u DFL_LOCALEDIR LANG=de_DE.UTF-8 LANGUAGE=de /usr/bin/dfl-sleepctl --help | grep -q "^Aufruf: dfl-sleepctl"'
check "the desktop entry names the agent in every language of po/" \
    bash -c 'for lang in de es fr it pt_BR; do grep -q "^Name\[$lang\]=" /usr/share/applications/com.dreamsforlittles.SleepAgent.desktop || exit 1; done'

# --- D-Bus activation on a private session bus ----------------------------------

echo "== D-Bus activation on a private session bus"
bus_dir=$work/dbus
home=$bus_dir/home
mkdir -p "$home" "$bus_dir/run"
chmod 0700 "$bus_dir/run"
cat >"$bus_dir/session.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$bus_dir/bus</listen>
  <auth>EXTERNAL</auth>
  <servicedir>/usr/share/dbus-1/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
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
check "dfl-sleepctl status starts the agent through the bus and answers (exit 0, Version: 0.1.0)" \
    test "$status_rc" -eq 0 -a "$(echo "$status_output" | grep -c '^Version: 0.1.0$')" -eq 1
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
check "the agent read the shipped configuration and warned that allowed-origins is empty" \
    bash -c "grep -q 'Configuration from /etc/xdg/dreamsforlittles/sleep-agent.conf' '$bus_dir/daemon.log' && grep -q 'No allowed-origins are configured' '$bus_dir/daemon.log'"
check "the agent made its store in \$XDG_STATE_HOME/dreamsforlittles with mode 0700" \
    bash -c "[[ \$(stat -c %a '$home/.local/state/dreamsforlittles') == 700 && -f '$home/.local/state/dreamsforlittles/sleep-timers.sqlite3' ]]"
if [[ $agent_pid =~ ^[0-9]+$ ]]; then
    kill -TERM "$agent_pid"
    check "the agent exits on SIGTERM" wait_for 100 bash -c "! kill -0 $agent_pid"
fi
kill -TERM "$bus_pid"
wait "$bus_pid" 2>/dev/null

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
    echo "== The unit under a systemd user manager"
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
mkdir -p /run/systemd/unit-root
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

    user_command=(nsenter -t "$manager_pid" -m setpriv --reuid="$uid" --regid="$gid" --init-groups
        env -i HOME="$user_home" USER="$user" LOGNAME="$user" LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin
        XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus")
    as_user() { timeout 60 "${user_command[@]}" "$@"; }
    manager_up() { [[ $(as_user systemctl --user is-system-running 2>/dev/null) =~ ^(running|degraded)$ ]]; }
    if ! wait_for 300 manager_up; then
        skip "systemd user manager stage: the user manager did not come up here"
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
        nsenter -t "$manager_pid" -m mount -t tmpfs -o mode=0755 tmpfs /run/dbus; then
        nsenter -t "$manager_pid" -m dbus-daemon --system --nofork --nopidfile >"$work/system-bus.log" 2>&1 &
        track "$!"
        wait_for 100 nsenter -t "$manager_pid" -m test -S /run/dbus/system_bus_socket && system_bus=1
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
        test "$rc" -eq 0 -a "$(echo "$output" | grep -c '^Version: 0.1.0$')" -eq 1
    main_pid=$(show MainPID)
    check "$unit is active (Type=notify, so after READY=1) with the agent as its main process" \
        test "$(states ActiveState SubState Type)/$(readlink "/proc/$main_pid/exe")" = "active/running/notify//usr/bin/dfl-sleep-agent"
    if [[ $main_pid =~ ^[1-9][0-9]*$ ]]; then
        check "the agent runs with no new privileges and a system call filter" \
            grep -qzE 'NoNewPrivs:[[:space:]]*1.*Seccomp:[[:space:]]*2' "/proc/$main_pid/status"
        check "the agent runs in a user namespace that maps only its own user (PrivateUsers=)" \
            test "$(awk '{ print $1, $2, $3 }' "/proc/$main_pid/uid_map")" = "$uid $uid 1"
        nsenter -t "$main_pid" -m findmnt -rn -o TARGET,OPTIONS >"$work/agent-mounts.txt" 2>&1
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
            bash -c "nsenter -t $manager_pid -m busctl --system list --no-legend --no-pager 2>/dev/null | awk '{ print \$2 }' | grep -qx $main_pid"
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
    as_user systemctl --user restart "$unit"
    now=$(date +%s%3N)
    as_user busctl --user call "$bus_name" "$object_path" "$bus_name" Mirror 'a{sv}' 12 \
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
        notified() { grep -qF '"complete"' <<<"$notification" && grep -qF '"desktop_entry": "com.dreamsforlittles.SleepAgent"' <<<"$notification"; }
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
    as_user busctl --user call "$bus_name" "$object_path" "$bus_name" Purge sss "http://127.0.0.1:$port" \
        9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f "" >/dev/null 2>&1

    # Restart=on-failure after a crash; RestartPreventExitStatus= after a
    # configuration error; a clean stop.
    main_pid=$(show MainPID)
    kill -KILL "$main_pid" 2>/dev/null
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

    as_user systemctl --user exit >/dev/null 2>&1
    timeout 20 tail --pid="$manager_pid" -f /dev/null || kill -KILL "$manager_pid" 2>/dev/null
}
systemd_stage

# --- The unit, the desktop entry, the man pages, the completion -----------------------

echo "== systemd-analyze"
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

echo "== Desktop entry, man pages, bash completion"
check "desktop-file-validate passes" desktop-file-validate /usr/share/applications/com.dreamsforlittles.SleepAgent.desktop
for page in dfl-sleep-agent dfl-sleepctl dfl-webview-bridge; do
    warnings=$(for width in 60 80 120; do LC_ALL=C.UTF-8 MANWIDTH=$width man --warnings -E UTF-8 -l -Tutf8 -Z "/usr/share/man/man1/$page.1.gz" 2>&1 >/dev/null; done)
    [[ -n $warnings ]] && note "$warnings"
    check "man $page renders without warnings" test -z "$warnings" -a "$(man -l "/usr/share/man/man1/$page.1.gz" 2>/dev/null | grep -c .)" -gt 20
done
check "man finds the pages by name" bash -c 'man -w dfl-sleep-agent dfl-sleepctl dfl-webview-bridge >/dev/null'
check "the bash completion passes bash -n" bash -n /usr/share/bash-completion/completions/dfl-sleepctl

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

# --- Purge -----------------------------------------------------------------

echo "== apt-get purge"
if DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" purge -y "$package" >>"$work/apt.log" 2>&1; then
    pass "apt-get purge -y $package"
    installed_by_us=0
else
    tail -20 "$work/apt.log"
    fail "apt-get purge -y $package"
fi
check "dpkg knows no file of $package any more" bash -c "! dpkg-query -W -f='\${db:Status-Abbrev}' $package 2>/dev/null | grep -q '^.[icuhft]' && ! dpkg -L $package >/dev/null 2>&1"
left=()
for path in "${paths[@]}" /etc/xdg/dreamsforlittles /usr/libexec/dreamsforlittles \
    /etc/systemd/user/graphical-session.target.wants/$unit /usr/share/doc/$package; do
    [[ -e $path || -L $path ]] && left+=("$path")
done
if ((${#left[@]})); then
    fail "nothing of the package is left (left: ${left[*]})"
else
    pass "nothing of the package is left (${#paths[@]} files, /etc/xdg/dreamsforlittles, the enablement link)"
fi

finish
