"""GNOME Shell, headless, as the notification server of a private session:
Wayland with a virtual monitor, its notification service (a gjs program the
Shell starts through D-Bus activation, which owns
org.freedesktop.Notifications and passes calls on to the Shell), and
--unsafe-mode, which opens org.gnome.Shell.Eval: the tests read what the
Shell's message tray holds, and press a notification's buttons, through it.

The same helper drives GNOME Shell 43 (Debian 12) and 48 (Debian 13). The
Shell's internals differ between them: 43 keeps a notification's body in
`bannerBodyText` and presses a button with its `callback()`; 46 and later
keep it in `body` and press with `activate()`. The version comes from the
notification service's GetServerInformation, and each Shell says which one
it is when it is ready, so a run shows which GNOME it proved.

The Shell needs a system bus; without one in the session, it gets a private
one of its own, where no service answers (so none keeps it waiting).

GNOME Shell 43 starts ibus-daemon with GLib.spawn_async and a JavaScript
child-setup function, which runs in the forked child and now and then
deadlocks there on a lock another thread held at the fork (seen here: the
child stuck in g_type_get_qdata, before its exec); the Shell waits for that
child's exec and stops answering for good. A watch of the Shell's own
children kills such a fork that has not become another program within two
seconds; the Shell then reads that the spawn failed (as it does anyway:
ibus-daemon is not installed) and goes on."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import dbus

from desktop import NOTIFICATIONS, wait_for_name
from harness import PATIENCE, SystemBus, stop
from proc_accounting import children_of, command_line

SHELL = "org.gnome.Shell"
SHELL_PATH = "/org/gnome/Shell"
SERVICE = "org.gnome.Shell.Notifications"
SERVICE_FILE = "/usr/share/dbus-1/services/%s.service" % SERVICE
PACKAGES = "apt-get install --no-install-recommends gnome-shell gjs"
# The notification service's object.
NOTIFICATIONS_PATH = "/org/freedesktop/Notifications"
# How long the Shell may take to start on a busy machine: a bound for a hung
# Shell, not a measurement.
STARTUP = 90

# Every notification in the message tray, with the title of its source.
LIST_NOTIFICATIONS = """
Main.messageTray.getSources().flatMap(source => source.notifications.map(n => ({
    source: source.title, title: n.title, body: n.%(body)s, urgency: n.urgency,
    actions: (n.actions || []).map(a => a.label)})))
"""

# Presses the button `label` of the notification titled `title`, as a click
# on it does; true when there was one.
INVOKE = """
(() => {
    for (const source of Main.messageTray.getSources())
        for (const n of source.notifications)
            if (n.title === %(title)s) {
                const action = (n.actions || []).find(a => a.label === %(label)s);
                if (action) { action.%(press)s(); return true; }
            }
    return false;
})()
"""


class Internals:
    """Where a Shell of one major version keeps what the tests read."""

    def __init__(self, major):
        self.major = major
        self.body = "bannerBodyText" if major < 46 else "body"
        self.press = "callback" if major < 46 else "activate"


def check_installed():
    for path in ("/usr/bin/gnome-shell", "/usr/bin/gjs", SERVICE_FILE):
        if not os.path.exists(path):
            raise AssertionError("GNOME Shell and its notification service are needed (%s is missing): %s"
                                 % (path, PACKAGES))


class GnomeShell:
    """gnome-shell --headless on the session's bus, its notification service
    started by the Shell itself (as at login), through the service file the
    package installs, copied into the session's only service directory."""

    def __init__(self, session, wait=True, early_service=False):
        """With `early_service`, the notification service is started the
        moment the Shell appears on the bus, as an early client at login
        may start it: for most of a second it then owns
        org.freedesktop.Notifications and answers every call with an error,
        since the Shell behind it is not ready."""
        check_installed()
        self.session = session
        shutil.copy(SERVICE_FILE, session.services)
        self.system_bus = None
        if "DBUS_SYSTEM_BUS_ADDRESS" not in session.env:
            self.system_bus = SystemBus(session, network_manager=False)
        self.log_path = os.path.join(session.root, "gnome-shell-%d.log" % time.monotonic_ns())
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                ["gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800", "--unsafe-mode"],
                env=session.env, stdout=log, stderr=log)
        session.processes.append(self.process)
        self.stuck_forks = []
        self.watching = True
        threading.Thread(target=self._watch_forks, daemon=True).start()
        self.bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
        if early_service:
            self.wait_until(lambda: self.bus.name_has_owner(SHELL), "gnome-shell to take its name", pause=0.005)
            self.bus.start_service_by_name(SERVICE)
        if wait:
            self.wait_ready()

    def wait_until(self, predicate, what, pause=0.1, timeout=STARTUP):
        deadline = time.monotonic() + timeout
        while not predicate():
            if self.process.poll() is not None:
                raise AssertionError("gnome-shell exited (%s):\n%s" % (self.process.returncode, self.log()[-3000:]))
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for %s; gnome-shell's log:\n%s" % (what, self.log()[-3000:]))
            time.sleep(pause)

    def wait_ready(self):
        """Until Eval answers and the notification service owns its name."""
        def answers():
            try:
                self.eval("1", timeout=5)
                return True
            except dbus.exceptions.DBusException:
                return False

        self.wait_until(answers, "gnome-shell to answer Eval")
        self.notifications_owner = wait_for_name(self.session, NOTIFICATIONS)
        self.version = self._server_version()
        self.major = int(self.version.split(".")[0])
        self.internals = Internals(self.major)
        sys.stderr.write("\n  [GNOME Shell %s, headless on Wayland] " % self.version)

    def _server_version(self):
        """The version GetServerInformation gives (the Shell's own), asked
        until the service behind the name can answer."""
        found = []

        def answered():
            try:
                _, _, version, _ = self.bus.call_blocking(
                    NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS, "GetServerInformation", "", (),
                    timeout=5)
            except dbus.exceptions.DBusException:
                return False
            found.append(str(version))
            return True

        self.wait_until(answered, "the notification service to answer GetServerInformation")
        return found[0]

    def eval(self, script, timeout=PATIENCE):
        """Runs JavaScript in the Shell; its value, through JSON."""
        success, result = self.bus.call_blocking(SHELL, SHELL_PATH, SHELL, "Eval", "s", (script,), timeout=timeout)
        if not success:
            raise AssertionError("the Shell could not run %r: %s" % (script, result))
        return json.loads(str(result)) if str(result) else None

    def notifications(self, source=None):
        """What the message tray holds: dicts with source, title, body,
        urgency (0 low, 1 normal, 2 critical) and the labels of the buttons
        (GNOME draws none for "default")."""
        script = LIST_NOTIFICATIONS % {"body": self.internals.body}
        return [n for n in self.ask(script) if source is None or n["source"] == source]

    def invoke(self, title, label):
        """Presses a notification's button; false when there was none."""
        return bool(self.ask(INVOKE % {"title": json.dumps(title), "label": json.dumps(label),
                                       "press": self.internals.press}))

    def ask(self, script):
        """eval, with the Shell's log when it does not answer."""
        try:
            return self.eval(script)
        except dbus.exceptions.DBusException as error:
            raise AssertionError("gnome-shell did not answer Eval (%s); forks killed: %r; its log:\n%s"
                                 % (error.get_dbus_name(), self.stuck_forks, self.log()[-4000:])) from None

    def _forks(self):
        """The Shell's children that are still the Shell (forked, not yet
        another program)."""
        command = command_line(self.process.pid)
        if command is None:
            return []
        return [child for child in children_of(self.process.pid) if command_line(child) == command]

    def _watch_forks(self):
        """Kills a fork of the Shell that has not become another program
        within two seconds (see the module's note)."""
        first_seen = {}
        while self.watching and self.process.poll() is None:
            try:
                forks = self._forks()
            except OSError:
                break
            now = time.monotonic()
            for pid in forks:
                first_seen.setdefault(pid, now)
                if now - first_seen[pid] > 2.0:
                    self.stuck_forks.append(pid)
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    del first_seen[pid]
            time.sleep(0.25)

    def log(self):
        with open(self.log_path, errors="replace") as handle:
            return handle.read()

    def stop(self):
        self.watching = False
        self.bus.close()
        # A stuck fork outlives the Shell (its parent then is init): it goes first.
        try:
            forks = self._forks()
        except OSError:
            forks = []
        for pid in forks:
            os.kill(pid, signal.SIGKILL)
        stop(self.process)
        if self.system_bus:
            self.system_bus.close()
