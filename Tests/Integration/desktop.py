"""A headless desktop for the notification tests: Xvfb, and real
notification servers on the session's private bus (xfce4-notifyd, dunst),
plus a recording server for exact content and timing."""

import glob
import json
import os
import re
import subprocess
import time

import dbus

from harness import PATIENCE, eventually, stop

NOTIFICATIONS = "org.freedesktop.Notifications"


class Display:
    """An Xvfb server on a display number it chooses itself."""

    def __init__(self, session, size="1280x800x24"):
        read_end, write_end = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", size, "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=session.env)
        os.close(write_end)
        number = b""
        with os.fdopen(read_end, "rb") as reader:
            while not number.endswith(b"\n"):
                chunk = reader.read(1)
                if not chunk:
                    raise RuntimeError("Xvfb did not start")
                number += chunk
        self.name = ":" + number.decode().strip()
        session.processes.append(self.process)
        session.env["DISPLAY"] = self.name

    def screenshot(self, session, path):
        subprocess.run(["import", "-window", "root", path], env=session.env, check=True, timeout=PATIENCE)
        return path


def wait_for_name(session, name, present=True, timeout=PATIENCE):
    bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
    try:
        deadline = time.monotonic() + timeout
        while bus.name_has_owner(name) != present:
            if time.monotonic() > deadline:
                raise AssertionError("%s did not %s" % (name, "appear" if present else "go away"))
            time.sleep(0.05)
        return bus.get_name_owner(name) if present else None
    finally:
        bus.close()


NOTIFYD_CHANNEL = """<?xml version="1.0" encoding="UTF-8"?>
<channel name="xfce4-notifyd" version="1.0">
  <property name="notification-log" type="bool" value="true"/>
  <property name="log-level" type="uint" value="1"/>
  <property name="log-level-apps" type="uint" value="0"/>
  <property name="log-max-size" type="uint" value="100000"/>
</channel>
"""


KEY_FILE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "s": " ", "\\": "\\"}


class XfceNotifyd:
    """xfce4-notifyd: draws a button per action and broadcasts its signals,
    and the app's icon, installed into the session's icon theme first.
    With `log`, it keeps its notification log (summary, body and each
    button's label as it showed them) in $XDG_CACHE_HOME/xfce4/notifyd/log
    (0.9: log.sqlite there, which logs only what it did not show in full),
    its settings coming from xfconfd, which the private bus starts."""

    def __init__(self, session, log=False):
        self.session = session
        install_icons(session)
        if log:
            [xfconfd] = glob.glob("/usr/lib/*/xfce4/xfconf/xfconfd") or [None]
            if xfconfd is None:
                raise AssertionError("xfconfd is needed for xfce4-notifyd's log: apt-get install xfconf")
            with open(os.path.join(session.services, "org.xfce.Xfconf.service"), "w") as handle:
                handle.write("[D-BUS Service]\nName=org.xfce.Xfconf\nExec=%s\n" % xfconfd)
            channels = os.path.join(session.env["XDG_CONFIG_HOME"], "xfce4", "xfconf", "xfce-perchannel-xml")
            os.makedirs(channels, exist_ok=True)
            with open(os.path.join(channels, "xfce4-notifyd.xml"), "w") as handle:
                handle.write(NOTIFYD_CHANNEL)
        [binary] = glob.glob("/usr/lib/*/xfce4/notifyd/xfce4-notifyd")
        # The server writes to its own copy of the log descriptor.
        with open(os.path.join(session.root, "xfce4-notifyd.log"), "a") as log:
            self.process = subprocess.Popen([binary], env=session.env, stdout=log, stderr=log)
        session.processes.append(self.process)
        self.owner = wait_for_name(session, NOTIFICATIONS)

    def logged(self):
        """Every notification in the server's log, oldest first: dicts with
        summary, body and labels (the buttons' labels, in order)."""
        database = os.path.join(self.session.env["XDG_CACHE_HOME"], "xfce4", "notifyd", "log.sqlite")
        if os.path.exists(database):
            return _logged_in_database(database)
        path = os.path.join(self.session.env["XDG_CACHE_HOME"], "xfce4", "notifyd", "log")
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except FileNotFoundError:
            return []
        entries = []
        for line in text.splitlines():
            if line.startswith("["):
                entries.append({})
            elif "=" in line and entries:
                key, value = line.split("=", 1)
                entries[-1][key] = re.sub(r"\\(.)", lambda m: KEY_FILE_ESCAPES.get(m.group(1), m.group(0)), value)
        for entry in entries:
            entry["labels"] = [entry[key] for key in sorted(k for k in entry if k.startswith("action-label-"))]
        return entries

    def stop(self):
        stop(self.process)


def _logged_in_database(path):
    """xfce4-notifyd 0.9's log: its actions are a blob of NUL-ended key and
    label pairs."""
    import sqlite3
    database = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        rows = database.execute("SELECT summary, body, actions FROM notifications ORDER BY timestamp").fetchall()
    finally:
        database.close()
    entries = []
    for summary, body, actions in rows:
        parts = (actions or b"").split(b"\0")[:-1]
        entries.append({"summary": summary, "body": body, "actions": [p.decode() for p in parts[0::2]],
                        "labels": [p.decode() for p in parts[1::2]]})
    return entries


class Dunst:
    """dunst: no buttons; actions through `dunstctl context`, which hands
    the action lines to the configured dmenu, here a script that picks the
    line naming the wanted action."""

    def __init__(self, session):
        self.session = session
        config = os.path.join(session.env["XDG_CONFIG_HOME"], "dunst")
        os.makedirs(config, exist_ok=True)
        self.choice = os.path.join(session.root, "dunst-choice")
        self.menu = os.path.join(session.root, "dunst-dmenu")
        with open(self.menu, "w") as handle:
            handle.write('#!/bin/sh\n# Reads the action lines dunst offers; prints the one with the wanted action key.\n'
                         'lines=$(cat)\nprintf "%%s\\n" "$lines" >> "%s.offered"\n'
                         'printf "%%s\\n" "$lines" | grep -F ",$(cat "%s")]" | head -n 1\n' % (self.choice, self.choice))
        os.chmod(self.menu, 0o755)
        with open(os.path.join(config, "dunstrc"), "w") as handle:
            handle.write('[global]\n    dmenu = "%s"\n    markup = full\n    format = "<b>%%s</b>\\n%%b"\n' % self.menu)
        with open(os.path.join(session.root, "dunst.log"), "a") as log:
            self.process = subprocess.Popen(["dunst"], env=session.env, stdout=log, stderr=log)
        session.processes.append(self.process)
        self.owner = wait_for_name(session, NOTIFICATIONS)

    def invoke(self, action):
        """Invokes `action` of the notifications on screen, as a person picking it from dunst's menu."""
        with open(self.choice, "w") as handle:
            handle.write(action)
        self.wait_until_displayed()
        self.dunstctl("context")

    def close_all(self):
        """Closes the notifications on screen, as a person dismissing them."""
        self.wait_until_displayed()
        self.dunstctl("close-all")

    def history(self):
        """What dunst showed and closed, as `dunstctl history` reports it."""
        return [{k: v.get("data") for k, v in n.items()} for n in json.loads(self.dunstctl("history"))["data"][0]]

    def wait_until_displayed(self):
        """Until a notification is on screen: dunst answers Notify before it
        moves the notification from its queue to the screen, and
        `dunstctl close-all` and `context` act on the screen only."""
        eventually(lambda: int(self.dunstctl("count", "displayed").strip()) > 0,
                   what="a notification on dunst's screen")

    def dunstctl(self, *args):
        """Runs `dunstctl` against this dunst; its output."""
        return subprocess.run(["dunstctl", *args], env=self.session.env, capture_output=True, text=True, check=True,
                              timeout=PATIENCE).stdout

    def offered(self):
        try:
            with open(self.choice + ".offered") as handle:
                return handle.read()
        except FileNotFoundError:
            return ""

    def stop(self):
        stop(self.process)


class RecordingServer:
    """A notification server that records every call with its arrival time:
    Tests/Integration/recording_notifications.py in its own process."""

    def __init__(self, session, capabilities=("actions", "body", "body-markup", "persistence"), name="recorder",
                 refuse_repeats=False, version="1.0"):
        self.record = os.path.join(session.root, "notifications-%d.jsonl" % time.monotonic_ns())
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "recording_notifications.py")
        self.process = subprocess.Popen(
            ["/usr/bin/python3", script, "--record", self.record, "--capabilities", ",".join(capabilities),
             "--name", name, "--version", version, *(["--refuse-repeats"] if refuse_repeats else [])], env=session.env)
        session.processes.append(self.process)
        self.owner = wait_for_name(session, NOTIFICATIONS)

    def calls(self):
        try:
            with open(self.record) as handle:
                return [json.loads(line) for line in handle if line.strip()]
        except FileNotFoundError:
            return []

    def notifies(self):
        return [call for call in self.calls() if call["method"] == "Notify"]

    def wait_for(self, predicate, timeout=PATIENCE):
        deadline = time.monotonic() + timeout
        while not predicate(self.calls()):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def stop(self):
        stop(self.process)


def xdotool(session, *args):
    return subprocess.run(["xdotool", *args], env=session.env, capture_output=True, text=True, timeout=PATIENCE)


class BusMonitor:
    """dbus-monitor watching the whole session bus, its text kept in a file:
    evidence of exactly what crossed the bus."""

    def __init__(self, session):
        self.path = os.path.join(session.root, "dbus-monitor-%d.txt" % time.monotonic_ns())
        self.file = open(self.path, "w")
        self.process = subprocess.Popen(["dbus-monitor", "--session"], env=session.env, stdout=self.file,
                                        stderr=subprocess.DEVNULL)
        session.processes.append(self.process)
        # dbus-monitor prints the NameAcquired of its own connection first.
        deadline = time.monotonic() + PATIENCE
        while "NameAcquired" not in self.text() and "NameLost" not in self.text():
            if time.monotonic() > deadline:
                raise RuntimeError("dbus-monitor did not start")
            time.sleep(0.05)

    def text(self):
        self.file.flush()
        with open(self.path, errors="replace") as handle:
            return handle.read()

    def messages(self):
        """The capture split into messages: (header line, [argument lines])."""
        messages = []
        for line in self.text().splitlines():
            if line and not line[0].isspace():
                messages.append((line, []))
            elif messages:
                messages[-1][1].append(line.strip())
        return messages

    def notify_calls(self):
        """Every Notify call with the server's answer: a list of dicts with
        sender, time (the bus's clock), replaces_id, summary, body, actions
        (the flat list of keys and labels), and id
        once answered, or error and error_message where the server refused."""
        calls = {}
        order = []
        for header, args in self.messages():
            fields = dict(part.split("=", 1) for part in header.replace(";", "").split() if "=" in part)
            if header.startswith("method call") and fields.get("member") == "Notify" and len(args) >= 5:
                key = (fields.get("sender"), fields.get("serial"))
                calls[key] = {"sender": fields.get("sender"), "time": fields.get("time"),
                              "replaces_id": int(args[1].split()[1]), "summary": _string(args[3]),
                              "body": _string(args[4]), "actions": _strings_of_first_array(args)}
                order.append(key)
            elif header.startswith("method return") and args and args[0].startswith("uint32"):
                key = (fields.get("destination"), fields.get("reply_serial"))
                if key in calls:
                    calls[key]["id"] = int(args[0].split()[1])
            elif header.startswith("error"):
                key = (fields.get("destination"), fields.get("reply_serial"))
                if key in calls:
                    calls[key].update(error=fields.get("error_name"), error_message=" ".join(args))
        return [calls[key] for key in order]

    def stop(self):
        stop(self.process)
        self.file.close()


def _strings_of_first_array(args):
    """The strings of the first array in a dbus-monitor message's lines."""
    if "array [" not in args:
        return []
    start = args.index("array [") + 1
    return [_string(line) for line in args[start:args.index("]", start)]]


def _string(line):
    """The value of a dbus-monitor 'string "…"' line."""
    return line[len('string "'):-1] if line.startswith('string "') else line


STATUS_NOTIFIER_WATCHER = "org.kde.StatusNotifierWatcher"


class SpecPanel:
    """A StatusNotifierWatcher and host written from the specifications:
    Tests/Integration/sni_panel.py in its own process, recording what it
    sees, driven through its com.dreamsforlittles.Test.Panel interface."""

    def __init__(self, session, no_host=False, quiet=False):
        self.session = session
        self.record = os.path.join(session.root, "panel-%d.jsonl" % time.monotonic_ns())
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sni_panel.py")
        arguments = ["/usr/bin/python3", script, "--record", self.record]
        if no_host:
            arguments.append("--no-host")
        if quiet:
            arguments.append("--quiet")
        self.process = subprocess.Popen(arguments, env=session.env)
        session.processes.append(self.process)
        self.owner = wait_for_name(session, STATUS_NOTIFIER_WATCHER)
        self.bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.control = dbus.Interface(self.bus.get_object(STATUS_NOTIFIER_WATCHER, "/StatusNotifierWatcher",
                                                          introspect=False), "com.dreamsforlittles.Test.Panel")

    def events(self, kind=None):
        try:
            with open(self.record) as handle:
                entries = [json.loads(line) for line in handle if line.strip()]
        except FileNotFoundError:
            return []
        return [e for e in entries if kind is None or e["event"] == kind]

    def wait_for(self, predicate, what="the panel to see it", timeout=PATIENCE):
        """Waits until `predicate(events)` gives something true, and returns it."""
        deadline = time.monotonic() + timeout
        while True:
            found = predicate(self.events())
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for %s; the panel saw %r" % (what, self.events()[-8:]))
            time.sleep(0.05)

    def state(self):
        return json.loads(str(self.control.State()))

    def item(self):
        """The one item the panel shows, or None."""
        items = list(self.state().values())
        return items[0] if items else None

    def id_of(self, label):
        """The id of the menu entry `label`, once the panel has read a menu with it."""
        self.wait_for(lambda events: any(label in [c[1].get("label") for c in e["layout"][2]]
                                         for e in events if e["event"] == "layout"), "a menu with %r" % label)
        return int(self.control.IdOf(label))

    def click(self, label_or_id, method="EventGroup", event="clicked"):
        menu_id = label_or_id if isinstance(label_or_id, int) else self.id_of(label_or_id)
        return json.loads(str(self.control.Click(menu_id, method, event)))

    def call_menu(self, member, signature="", *values):
        return json.loads(str(self.control.CallMenu(member, json.dumps([signature, *values]))))

    def call_item(self, member, signature="", *values):
        return json.loads(str(self.control.CallItem(member, json.dumps([signature, *values]))))

    def stop(self):
        self.bus.close()
        stop(self.process)


PANEL_CHANNEL = """<?xml version="1.0" encoding="UTF-8"?>
<channel name="xfce4-panel" version="1.0">
  <property name="configver" type="int" value="2"/>
  <property name="panels" type="array">
    <value type="int" value="1"/>
    <property name="panel-1" type="empty">
      <property name="position" type="string" value="p=6;x=0;y=0"/>
      <property name="length" type="uint" value="100"/>
      <property name="position-locked" type="bool" value="true"/>
      <property name="size" type="uint" value="32"/>
      <property name="plugin-ids" type="array">
        <value type="int" value="1"/>
      </property>
    </property>
  </property>
  <property name="plugins" type="empty">
    <property name="plugin-1" type="string" value="systray"/>
  </property>
</channel>
"""


class XfcePanel:
    """xfce4-panel 4.18 with one panel holding only its systray, which owns
    org.kde.StatusNotifierWatcher and shows StatusNotifierItems with their
    dbusmenu menus (through libdbusmenu-gtk3). Its settings come from
    xfconfd, which the private bus starts on demand; the app's icons are
    installed into the session's own icon theme directory."""

    def __init__(self, session):
        [xfconfd] = glob.glob("/usr/lib/*/xfce4/xfconf/xfconfd") or [None]
        if xfconfd is None or not os.path.exists("/usr/bin/xfce4-panel"):
            raise AssertionError("xfce4-panel and xfconf are needed: apt-get install xfce4-panel xfconf")
        with open(os.path.join(session.services, "org.xfce.Xfconf.service"), "w") as handle:
            handle.write("[D-BUS Service]\nName=org.xfce.Xfconf\nExec=%s\n" % xfconfd)
        channels = os.path.join(session.env["XDG_CONFIG_HOME"], "xfce4", "xfconf", "xfce-perchannel-xml")
        os.makedirs(channels, exist_ok=True)
        with open(os.path.join(channels, "xfce4-panel.xml"), "w") as handle:
            handle.write(PANEL_CHANNEL)
        install_icons(session)
        with open(os.path.join(session.root, "xfce4-panel.log"), "a") as log:
            self.process = subprocess.Popen(["xfce4-panel", "--disable-wm-check"], env=session.env, stdout=log,
                                            stderr=log)
        session.processes.append(self.process)
        self.owner = wait_for_name(session, STATUS_NOTIFIER_WATCHER)

    def stop(self):
        stop(self.process)


# The navy of the app's icon (packaging/icons/com.dreamsforlittles.DreamsForLittles.svg),
# which no missing-icon picture has.
ICON_NAVY = (0x27, 0x32, 0x5E)


def icon_pixels(path, crop=None):
    """How many pixels of the picture at `path` (within `crop`, "WxH+X+Y")
    have the navy of the app's icon."""
    raw = subprocess.run(["convert", path, *(["-crop", crop] if crop else []), "-depth", "8", "rgb:-"],
                         capture_output=True, check=True, timeout=PATIENCE).stdout
    return sum(1 for i in range(0, len(raw) - 2, 3) if all(abs(raw[i + c] - ICON_NAVY[c]) <= 10 for c in range(3)))


def install_icons(session):
    """The app's icon and its symbolic variant, where the package puts them,
    under the session's XDG_DATA_HOME."""
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for name, directory in (("com.dreamsforlittles.DreamsForLittles.svg", "scalable"),
                            ("com.dreamsforlittles.DreamsForLittles-symbolic.svg", "symbolic")):
        target = os.path.join(session.env["XDG_DATA_HOME"], "icons", "hicolor", directory, "apps")
        os.makedirs(target, exist_ok=True)
        with open(os.path.join(repo, "packaging", "icons", name), "rb") as source, \
                open(os.path.join(target, name), "wb") as copy:
            copy.write(source.read())
