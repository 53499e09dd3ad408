"""KDE Plasma 6 on a private session bus, as a login would start it, on
Wayland (kwin_wayland --virtual) or on X11 (kwin_x11 under Xvfb):

- kbuildsycoca6 first, with the session's XDG_MENU_PREFIX (plasma-): KWin
  finds a client's desktop file (and so the privileged Wayland interfaces
  it may use) through KDE's service cache. A login has one from the last
  session; without it plasmashell is not known as the shell, and KWin
  refuses it the activation tokens it asks for on a click
  ("not-granted-666").
- kactivitymanagerd started by hand with the display: activated from the
  bus it has none and dies, and plasmashell aborts without it.
- kded6, which owns org.kde.StatusNotifierWatcher from its start but loads
  the watcher module only when asked; the harness asks, as a session's
  start-up does.
- plasmashell --no-respawn: the notification server and the system tray
  (a StatusNotifierHost).

What KWin holds (its windows, which one is active, where a popup is) is read
through KWin's scripting over D-Bus: a script's print() goes to KWin's log,
where the harness finds its lines by a marker of the call's own."""

import glob
import json
import os
import subprocess
import time
import uuid

import dbus

from desktop import NOTIFICATIONS, STATUS_NOTIFIER_WATCHER, Display
from harness import PATIENCE, SystemBus, stop

KWIN = "org.kde.KWin"
WATCHER_PATH = "/StatusNotifierWatcher"
# How long Plasma may take to start on a busy machine: a bound for a hung
# shell, not a measurement.
STARTUP = 120
WIDTH, HEIGHT = 1280, 800
# KWin's own words on what it grants and refuses (activation tokens among
# them) are debug messages: kept in its log for a failure's message.
KWIN_ENV = {"QT_LOGGING_RULES": "kwin_core.debug=true"}

# Lines of the parts' logs that every headless run has.
LOG_NOISE = ("UDisks2", "PipeWire", "org.kde.plasma.kicker", "js: dfl-", "not in X-KDE-Wayland-Interfaces",
             "Could not find the desktop file")

# What each part is, and the Debian package it comes in.
PARTS = {
    "kbuildsycoca6": ("/usr/bin/kbuildsycoca6", "libkf6service-bin"),
    "kwin_wayland": ("/usr/bin/kwin_wayland", "kwin-wayland"),
    "kwin_x11": ("/usr/bin/kwin_x11", "kwin-x11"),
    "kactivitymanagerd": ("/usr/lib/*/libexec/kactivitymanagerd", "kactivitymanagerd"),
    "kded6": ("/usr/bin/kded6", "kded6"),
    "statusnotifierwatcher": ("/usr/lib/*/qt6/plugins/kf6/kded/statusnotifierwatcher.so", "plasma-workspace"),
    "plasmashell": ("/usr/bin/plasmashell", "plasma-workspace"),
    "the desktop shell": ("/usr/share/plasma/shells/org.kde.plasma.desktop", "plasma-desktop"),
    # libqwayland-generic.so up to Qt 6.8 (Debian 13), libqwayland.so since.
    "Qt's Wayland platform": ("/usr/lib/*/qt6/plugins/platforms/libqwayland*.so", "qt6-wayland"),
    "Qt's X11 platform": ("/usr/lib/*/qt6/plugins/platforms/libqxcb.so", "libqt6gui6"),
    "Xvfb": ("/usr/bin/Xvfb", "xvfb"),
}


def find_part(name):
    """The path of a Plasma part; a failure naming its package when it is missing."""
    pattern, package = PARTS[name]
    found = glob.glob(pattern)
    if not found:
        raise AssertionError("%s is missing (%s): install the Debian package %s" % (name, pattern, package))
    return found[0]


class Plasma:
    """Plasma on the session's bus: `x11` False for Wayland (KWin's virtual
    output, 1280x800), True for X11 (an Xvfb of that size, kwin_x11, and
    every Qt program on xcb)."""

    def __init__(self, session, x11=False):
        self.session = session
        self.x11 = x11
        self.processes = []
        self.logs = {}
        self.script_count = 0
        parts = ["kbuildsycoca6", "kactivitymanagerd", "kded6", "statusnotifierwatcher", "plasmashell",
                 "the desktop shell"]
        parts += ["kwin_x11", "Qt's X11 platform", "Xvfb"] if x11 else ["kwin_wayland", "Qt's Wayland platform"]
        paths = {name: find_part(name) for name in parts}
        env = session.env
        if "DBUS_SYSTEM_BUS_ADDRESS" not in env:
            self.system_bus = SystemBus(session, network_manager=False)
        else:
            self.system_bus = None
        # The desktop's own files (applications, the shell, themes) and
        # defaults, beside the session's own.
        env["XDG_DATA_DIRS"] = ":".join(d for d in (env.get("XDG_DATA_DIRS"), "/usr/local/share", "/usr/share") if d)
        env["XDG_CONFIG_DIRS"] = ":".join(d for d in (env.get("XDG_CONFIG_DIRS"), "/etc/xdg") if d)
        # As startplasma sets them; without XDG_MENU_PREFIX KDE's service
        # cache finds no applications menu and so no application at all.
        env.update(XDG_CURRENT_DESKTOP="KDE", XDG_SESSION_DESKTOP="KDE", XDG_MENU_PREFIX="plasma-",
                   KDE_FULL_SESSION="true", KDE_SESSION_VERSION="6", QT_QPA_PLATFORM="xcb" if x11 else "wayland")
        self.run("kbuildsycoca6", [paths["kbuildsycoca6"], "--noincremental"])
        if x11:
            self.display = Display(session, size="%dx%dx24" % (WIDTH, HEIGHT))
            env["XDG_SESSION_TYPE"] = "x11"
            self.kwin = self.start("kwin", [paths["kwin_x11"]], extra_env=KWIN_ENV)
        else:
            self.display = None
            socket = "wayland-dfl-%s" % uuid.uuid4().hex[:6]
            env.pop("DISPLAY", None)
            env["XDG_SESSION_TYPE"] = "wayland"
            self.kwin = self.start("kwin", [paths["kwin_wayland"], "--virtual", "--width", str(WIDTH), "--height",
                                            str(HEIGHT), "--socket", socket, "--no-lockscreen",
                                            "--no-global-shortcuts"],
                                   extra_env=KWIN_ENV)
            self.wait_until(lambda: os.path.exists(os.path.join(env["XDG_RUNTIME_DIR"], socket)),
                            "kwin_wayland's socket")
            env["WAYLAND_DISPLAY"] = socket
        self.bus = dbus.bus.BusConnection(env["DBUS_SESSION_BUS_ADDRESS"])
        self.wait_until(lambda: self.bus.name_has_owner(KWIN), "KWin on the bus")
        self.start("kactivitymanagerd", [paths["kactivitymanagerd"]])
        self.wait_until(lambda: self.bus.name_has_owner("org.kde.ActivityManager"), "kactivitymanagerd on the bus")
        self.kded = self.start("kded6", [paths["kded6"]])
        self.wait_until(lambda: self.bus.name_has_owner("org.kde.kded6"), "kded6 on the bus")
        loaded = self.bus.call_blocking("org.kde.kded6", "/kded", "org.kde.kded6", "loadModule", "s",
                                        ("statusnotifierwatcher",), timeout=PATIENCE)
        if not loaded:
            raise AssertionError("kded6 could not load its statusnotifierwatcher module:\n" + self.log("kded6"))
        self.shell = self.start("plasmashell", [paths["plasmashell"], "--no-respawn"])
        self.wait_until(lambda: self.owner_pid(NOTIFICATIONS) == self.shell.pid,
                        "plasmashell to own %s" % NOTIFICATIONS)
        self.wait_until(self.host_registered, "plasmashell's system tray to register as a StatusNotifierHost")

    # ---- processes

    def run(self, name, argv):
        result = subprocess.run(argv, env=self.session.env, capture_output=True, text=True, timeout=STARTUP)
        if result.returncode != 0:
            raise AssertionError("%s failed (%d):\n%s" % (name, result.returncode, result.stderr[-3000:]))

    def start(self, name, argv, extra_env=None):
        path = os.path.join(self.session.root, "%s.log" % name)
        self.logs[name] = path
        with open(path, "w") as log:
            process = subprocess.Popen(argv, env=dict(self.session.env, **(extra_env or {})), stdout=log, stderr=log)
        self.processes.append(process)
        self.session.processes.append(process)
        return process

    def log(self, name):
        try:
            with open(self.logs[name], errors="replace") as handle:
                return handle.read()
        except (KeyError, FileNotFoundError):
            return ""

    def log_tails(self, lines=25):
        """The end of each part's log, for a failure's message, without the
        lines every run has (no UDisks2, no PipeWire, the scripts' output)."""
        tails = [self.shell_state()]
        for name in self.logs:
            kept = [line for line in self.log(name).splitlines() if not any(noise in line for noise in LOG_NOISE)]
            tails.append("--- %s's log:\n%s" % (name, "\n".join(kept[-lines:])))
        return "\n".join(tails)

    def shell_state(self):
        """Whether plasmashell answers on the bus, and what its main thread
        is doing (its state and the kernel function it waits in): a popup
        that never gets its words may be a shell that no longer runs its
        event loop, or one that runs and did not lay the popup out."""
        shell = getattr(self, "shell", None)
        if shell is None or shell.poll() is not None:
            return "plasmashell is not running"
        try:
            self.bus.call_blocking(NOTIFICATIONS, "/", "org.freedesktop.DBus.Peer", "Ping", "", (), timeout=5)
            answers = "answers"
        except dbus.exceptions.DBusException as error:
            answers = "does not answer (%s)" % error.get_dbus_name()
        try:
            with open("/proc/%d/stat" % shell.pid) as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
            with open("/proc/%d/wchan" % shell.pid) as handle:
                wchan = handle.read().strip() or "-"
        except OSError as error:
            state, wchan = "?", str(error)
        return "plasmashell %s on the bus; its main thread is in state %s, waiting in %s" % (answers, state, wchan)

    def wait_until(self, predicate, what, timeout=STARTUP):
        deadline = time.monotonic() + timeout
        while not predicate():
            for process in self.processes:
                if process.poll() is not None:
                    raise AssertionError("%s exited (%s) while waiting for %s:\n%s"
                                         % (process.args[0], process.returncode, what, self.log_tails()))
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for %s:\n%s" % (what, self.log_tails()))
            time.sleep(0.1)

    def stop(self):
        for process in reversed(self.processes):
            stop(process)
        self.bus.close()
        if self.system_bus:
            self.system_bus.close()

    # ---- the bus

    def owner_pid(self, name):
        try:
            return int(self.bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                              "GetConnectionUnixProcessID", "s", (name,)))
        except dbus.exceptions.DBusException:
            return None

    def watcher(self, prop):
        return self.bus.call_blocking(STATUS_NOTIFIER_WATCHER, WATCHER_PATH, "org.freedesktop.DBus.Properties", "Get",
                                      "ss", (STATUS_NOTIFIER_WATCHER, prop))

    def host_registered(self):
        try:
            return bool(self.watcher("IsStatusNotifierHostRegistered")) and \
                self.owner_pid("org.kde.StatusNotifierHost-%d" % self.shell.pid) == self.shell.pid
        except dbus.exceptions.DBusException:
            return False

    def registered_items(self):
        return [str(item) for item in self.watcher("RegisteredStatusNotifierItems")]

    def server_information(self):
        return tuple(str(v) for v in self.bus.call_blocking(NOTIFICATIONS, "/org/freedesktop/Notifications",
                                                            NOTIFICATIONS, "GetServerInformation", "", ()))

    # ---- KWin's view, through its scripting

    def script(self, source):
        """Runs JavaScript in KWin; what it gave to report(value), each a
        JSON value, in order."""
        self.script_count += 1
        marker = "dfl-%s-%d" % (uuid.uuid4().hex[:6], self.script_count)
        path = os.path.join(self.session.root, "%s.js" % marker)
        with open(path, "w") as handle:
            handle.write("function report(value) { print(%s + ' ' + JSON.stringify(value)); }\n%s\nprint(%s);\n"
                         % (json.dumps(marker), source, json.dumps(marker + " end")))
        scripting = ("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting")
        number = self.bus.call_blocking(*scripting, "loadScript", "ss", (path, marker), timeout=PATIENCE)
        try:
            self.bus.call_blocking(KWIN, "/Scripting/Script%d" % number, "org.kde.kwin.Script", "run", "", (),
                                   timeout=PATIENCE)
            lines = []

            def printed():
                lines[:] = [line.split(marker, 1)[1].strip() for line in self.log("kwin").splitlines()
                            if marker in line]
                return "end" in lines

            self.wait_until(printed, "KWin to run a script", timeout=PATIENCE)
            return [json.loads(line) for line in lines if line != "end"]
        finally:
            self.bus.call_blocking(*scripting, "unloadScript", "s", (marker,), timeout=PATIENCE)
            os.remove(path)

    def windows(self):
        """KWin's windows, bottom to top: dicts with id (KWin's own),
        resourceClass, resourceName, caption, desktopFileName, pid,
        notification, active, and the frame's x, y, width and height."""
        return self.script("""
            for (const w of workspace.stackingOrder) {
                const g = w.frameGeometry;
                report({id: w.internalId.toString(), resourceClass: w.resourceClass,
                        resourceName: w.resourceName, caption: w.caption, desktopFileName: w.desktopFileName,
                        pid: w.pid, notification: w.notification,
                        active: workspace.activeWindow === w, minimized: w.minimized,
                        x: g.x, y: g.y, width: g.width, height: g.height});
            }""")

    def popups(self):
        """The notification popups on screen."""
        return [w for w in self.windows() if w["notification"]]

    def closed_all(self, notify_calls):
        """Closes each notification of `notify_calls` (a BusMonitor's) that
        has its id and says whether no popup is left. Tests call it again
        until none is: the monitor may print a Notify's reply, with its id,
        only after a first round, and Plasma 6.7 keeps a persistent popup
        until it is closed."""
        for call in notify_calls:
            if "id" in call:
                try:
                    self.bus.call_blocking(NOTIFICATIONS, "/org/freedesktop/Notifications",
                                           "org.freedesktop.Notifications", "CloseNotification", "u", (call["id"],))
                except dbus.exceptions.DBusException:
                    pass  # gone already
        return not self.popups()

    def active_window(self):
        return next((w for w in self.windows() if w["active"]), None)

    def screenshot(self, path):
        """The screen as a PNG: Xvfb's root window. On Wayland there is
        none: KWin's ScreenShot2 comes with OpenGL compositing only, and a
        virtual output without a GPU is composited with QPainter."""
        if not self.display:
            raise AssertionError("no screenshot of KWin's Wayland session without OpenGL compositing")
        return self.display.screenshot(self.session, path)
