"""A headless desktop for the notification tests: Xvfb, and real
notification servers on the session's private bus (xfce4-notifyd, dunst),
plus a recording server for exact content and timing."""

import glob
import json
import os
import subprocess
import time

import dbus

from harness import PATIENCE, stop

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


class XfceNotifyd:
    """xfce4-notifyd: draws a button per action and broadcasts its signals."""

    def __init__(self, session):
        [binary] = glob.glob("/usr/lib/*/xfce4/notifyd/xfce4-notifyd")
        # The server writes to its own copy of the log descriptor.
        with open(os.path.join(session.root, "xfce4-notifyd.log"), "a") as log:
            self.process = subprocess.Popen([binary], env=session.env, stdout=log, stderr=log)
        session.processes.append(self.process)
        self.owner = wait_for_name(session, NOTIFICATIONS)

    def stop(self):
        stop(self.process)


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
        subprocess.run(["dunstctl", "context"], env=self.session.env, check=True, timeout=PATIENCE)

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

    def __init__(self, session, capabilities=("actions", "body", "body-markup", "persistence"), name="recorder"):
        self.record = os.path.join(session.root, "notifications-%d.jsonl" % time.monotonic_ns())
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "recording_notifications.py")
        self.process = subprocess.Popen(
            ["/usr/bin/python3", script, "--record", self.record, "--capabilities", ",".join(capabilities),
             "--name", name], env=session.env)
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
        """Every Notify call with the id the server answered: a list of dicts
        with replaces_id, summary, body and id."""
        calls = {}
        order = []
        for header, args in self.messages():
            fields = dict(part.split("=", 1) for part in header.replace(";", "").split() if "=" in part)
            if header.startswith("method call") and fields.get("member") == "Notify" and len(args) >= 5:
                key = (fields.get("sender"), fields.get("serial"))
                calls[key] = {"replaces_id": int(args[1].split()[1]), "summary": _string(args[3]), "body": _string(args[4])}
                order.append(key)
            elif header.startswith("method return") and args and args[0].startswith("uint32"):
                key = (fields.get("destination"), fields.get("reply_serial"))
                if key in calls:
                    calls[key]["id"] = int(args[0].split()[1])
        return [calls[key] for key in order]

    def stop(self):
        stop(self.process)
        self.file.close()


def _string(line):
    """The value of a dbus-monitor 'string "…"' line."""
    return line[len('string "'):-1] if line.startswith('string "') else line
