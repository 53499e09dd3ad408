"""The accessibility bus of a test session, and a screen reader's view of
the app through it: at-spi2-core's bus launched in the session's
environment, the app's tree read by atspi_tree.py and its announcements
heard by atspi_events.py, each in a process of its own (libatspi binds to
one bus for its whole life)."""

import json
import os
import queue
import subprocess
import sys
import threading

from harness import PATIENCE, eventually

BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.join(HERE, "atspi_tree.py")
EVENTS = os.path.join(HERE, "atspi_events.py")


class AccessibilityBus:
    """For an AppTestCase: call start_accessibility_bus() in setUp, after the
    session exists and before the app starts."""

    def start_accessibility_bus(self):
        if not os.path.exists(BUS_LAUNCHER):
            raise AssertionError("%s is missing: install the Debian package at-spi2-core" % BUS_LAUNCHER)
        for name in ("GTK_A11Y", "NO_AT_BRIDGE"):
            self.session.env.pop(name, None)
        launcher = subprocess.Popen([BUS_LAUNCHER, "--launch-immediately"], env=self.session.env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.session.processes.append(launcher)

    def read(self, *arguments, empty="[]"):
        shown = subprocess.run([sys.executable, TREE, *arguments], env=self.session.env, capture_output=True,
                               text=True, timeout=PATIENCE)
        return json.loads(shown.stdout or empty)

    def tree(self, pid):
        """The frames and buttons: [role, name, description]."""
        return self.read(str(pid))

    def labels(self, pid):
        """The text of the labels of process `pid`: see atspi_tree.labels."""
        return self.read("--labels", str(pid))

    def page(self, pid):
        """What can be read of the page: see atspi_tree.page."""
        return self.read("--page", str(pid), empty='{"documents": [], "views": []}')

    def controls(self, app, back):
        """The app's buttons and frames once Back has appeared among them."""
        found = []
        eventually(lambda: found.append(self.tree(app.pid)) or any(c[1] == back for c in found[-1]),
                   what="a button named %r in the app's AT-SPI tree" % back)
        return found[-1]

    def listen(self, pid):
        """A listener for the announcements of process `pid`, registered."""
        listener = Announcements(self.session.env, pid)
        self.addCleanup(listener.stop)
        return listener


class Announcements:
    """atspi_events.py running: the announcements it has printed."""

    def __init__(self, env, pid):
        self.process = subprocess.Popen([sys.executable, EVENTS, str(pid)], env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self.pump, daemon=True)
        self.reader.start()
        first = self.next()
        if first != "ready":
            raise AssertionError("the AT-SPI listener did not start: %r %s" % (first, self.stop_and_errors()))
        self.heard = []

    def pump(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next(self, timeout=PATIENCE):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def collect(self):
        """Every announcement printed so far."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return self.heard
            if line is not None:
                self.heard.append(json.loads(line))

    def wait_for(self, count, what):
        eventually(lambda: len(self.collect()) >= count, what=what)
        return self.heard

    def stop_and_errors(self):
        self.errors = ""
        self.stop()
        return self.errors

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=PATIENCE)
        if not self.process.stderr.closed:
            self.errors = self.process.stderr.read()
            self.process.stderr.close()
            self.process.stdout.close()
