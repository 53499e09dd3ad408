"""The app driven by the keyboard alone, and heard as a screen reader hears
it: real key events through the X server's XTest extension (xdotool key,
to the window that has the X focus, as a keyboard's would go), the
focused control read from the accessibility bus (at-spi2-core, libatspi's
client in atspi_focus.py), and the pointer's place read so that a test
can show it never moved. Used by test_keyboard.py here and test_keyboard_trixie.py on Debian 13."""

import json
import os
import queue
import subprocess
import sys
import threading
import time

from desktop import xdotool
from harness import PATIENCE

BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
HERE = os.path.dirname(os.path.abspath(__file__))
FOCUS = os.path.join(HERE, "atspi_focus.py")
STATES = os.path.join(HERE, "atspi_states.py")
FOCUSED = os.path.join(HERE, "atspi_focused.py")

# How long a key that moves the focus within the page only (which Debian
# 12 does not tell the accessibility bus of: the web view keeps the focus
# there) is given to take effect before the next key: a pause as a person
# makes, not a bound on anything.
SETTLE = 0.6


def start_accessibility_bus(session):
    """The session's accessibility bus, which the app then joins (the
    harness keeps GTK off it otherwise)."""
    if not os.path.exists(BUS_LAUNCHER):
        raise AssertionError("%s is missing: install the Debian package at-spi2-core" % BUS_LAUNCHER)
    check = subprocess.run([sys.executable, "-c", "import gi; gi.require_version('Atspi', '2.0')"],
                           capture_output=True, text=True, timeout=PATIENCE)
    if check.returncode != 0:
        raise AssertionError("libatspi's introspection data is missing: install the Debian package gir1.2-atspi-2.0")
    for name in ("GTK_A11Y", "NO_AT_BRIDGE"):
        session.env.pop(name, None)
    launcher = subprocess.Popen([BUS_LAUNCHER, "--launch-immediately"], env=session.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    session.processes.append(launcher)


class FocusWatch:
    """Every accessible that takes the focus, as dicts (atspi_focus.py says
    which keys), in the order the bus told them."""

    def __init__(self, session):
        self.process = subprocess.Popen([sys.executable, FOCUS], env=session.env, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        session.processes.append(self.process)
        if self.process.stdout.readline().strip() != "ready":
            raise AssertionError("the AT-SPI focus listener did not start")
        self.events = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.events.put(json.loads(line))

    def next(self, what, timeout=PATIENCE):
        """The next focus event; fails after `timeout`."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no control took the focus: expected %s" % what) from None

    def pending(self):
        """The events told so far and not yet taken."""
        found = []
        while True:
            try:
                found.append(self.events.get_nowait())
            except queue.Empty:
                return found


class Keyboard:
    """Key presses to the app's window, through XTest: the window is given
    the X focus once, as a click on it or the window manager would."""

    def __init__(self, session, window):
        self.session = session
        self.window = window
        result = xdotool(session, "windowfocus", "--sync", window)
        if result.returncode != 0:
            raise AssertionError("xdotool windowfocus: %s" % result.stderr)

    def press(self, *keys):
        for key in keys:
            result = xdotool(self.session, "key", "--clearmodifiers", key)
            if result.returncode != 0:
                raise AssertionError("xdotool key %s: %s" % (key, result.stderr))


def pointer(session):
    """Where the X server's pointer is on the screen (x and y)."""
    return xdotool(session, "getmouselocation").stdout.split()[:2]


def button_states(session, pid, name):
    """The AT-SPI states of each button named `name` in the app."""
    shown = subprocess.run([sys.executable, STATES, str(pid), name], env=session.env, capture_output=True,
                           text=True, timeout=PATIENCE)
    return json.loads(shown.stdout or "[]")


def focused_accessibles(session):
    """Every accessible whose state says it has the focus, outermost first
    (the web view, the page's document, its control)."""
    shown = subprocess.run([sys.executable, FOCUSED], env=session.env, capture_output=True, text=True,
                           timeout=PATIENCE)
    return json.loads(shown.stdout or "[]")


def settle():
    time.sleep(SETTLE)
