"""The desktop app (dreamsforlittles) under Xvfb, driven as a person would:
WebKitWebDriver finds the demo page's buttons and reads its DOM back, and
clicks are real X pointer events (webdriver.py says how and why). Without
--automation (the runs that check what the app keeps between starts) only
real X input is used, and what happened is read from the platform's request
log.

The rest is real: a private session bus, the agent, the bridge the app
starts, the reference platform over TLS (with the demo web app), and
xfce4-notifyd.
"""

import os
import shutil
import signal
import subprocess
import unittest
import uuid

from desktop import Display, XfceNotifyd, xdotool
from harness import BUILD, PATIENCE, REPO, AgentProcess, Platform, Session, eventually, stop
from proc_accounting import alive, children_of, environment, executable, pids
from webdriver import AppDriver

APP = os.path.join(BUILD, "dreamsforlittles")
BRIDGE = os.path.join(BUILD, "dfl-webview-bridge")
WEBAPP = os.path.join(REPO, "webapp", "demo")
DESKTOP_FILE = os.path.join(REPO, "packaging", "desktop", "com.dreamsforlittles.DreamsForLittles.desktop")


def require_tool(name, package):
    if shutil.which(name) is None:
        raise AssertionError("%s is missing: install the Debian package %s" % (name, package))


class App(AppDriver):
    """The app through WebDriver (its DOM) and the X server (input)."""

    def __init__(self, session, app_args=()):
        self.session = session
        super().__init__(APP, session.env, os.path.join(session.root, "app-%s.log" % uuid.uuid4().hex[:6]), app_args)
        session.processes.append(self.process)

    TEXT = "const e = document.getElementById(arguments[0]); return e ? e.textContent : null"

    def text(self, element_id):
        return self.js(self.TEXT, element_id)

    def wait_for_text(self, element_id, what):
        """The element's text once it has some, read across page loads."""
        return self.wait(self.TEXT, what, PATIENCE, element_id)

    def wait_for_page(self):
        return self.wait("return document.body && document.body.dataset.loaded === 'true' && "
                         "document.getElementById('desktop-status').textContent.startsWith('On the desktop')",
                         "the demo page to load, with the desktop's bridge")

    def windows(self):
        return app_windows(self.session, self.pid)

    def eventually(self, predicate, what, timeout=PATIENCE):
        """`eventually`, with the end of the app's log in a timeout's
        message: what the app did is the first thing such a failure needs."""
        try:
            eventually(predicate, timeout=timeout, what=what)
        except AssertionError as error:
            tail = "\n".join(self.log().splitlines()[-40:])
            raise AssertionError("%s; the app's log ends:\n%s" % (error, tail)) from None

    def close(self):
        super().close()
        stop(self.process)
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def session_app_pids(session):
    """The live app processes of `session`: those running the app whose
    environment is the session's (its XDG_RUNTIME_DIR). Tests run side by
    side, each with its own session, so an app of another test's session is
    none of this one's business."""
    runtime = ("XDG_RUNTIME_DIR=%s" % session.env["XDG_RUNTIME_DIR"]).encode()
    app = os.path.realpath(APP)
    return [pid for pid in pids()
            if executable(pid) == app and runtime in (environment(pid) or []) and alive(pid)]


def app_windows(session, pid):
    """The app's visible top-level windows."""
    return xdotool(session, "search", "--onlyvisible", "--pid", str(pid), "--name", "Dreams for Littles").stdout.split()


def window_startup_id(session, window):
    """The activation token GTK presented an X11 window with: the
    _NET_STARTUP_ID of the window or, for a D-Bus launch, of its client
    leader window."""
    leader = subprocess.run(["xprop", "-id", window, "WM_CLIENT_LEADER"], env=session.env,
                            capture_output=True, text=True, timeout=PATIENCE).stdout.split()[-1]
    for candidate in (window, leader):
        value = subprocess.run(["xprop", "-id", candidate, "_NET_STARTUP_ID"], env=session.env,
                               capture_output=True, text=True, timeout=PATIENCE).stdout
        if " = " in value:
            return value.split(" = ", 1)[1].strip().strip('"')
    return None


def bridge_children(pid):
    """The bridge processes the app started (its children running dfl-webview-bridge)."""
    bridge = os.path.realpath(BRIDGE)
    return [child for child in children_of(pid) if executable(child) == bridge]


# What `configuration_mistake` adds to the [app] group, and what the app's
# page then names.
CONFIGURATION_MISTAKE = "background=sometimes\n"
CONFIGURATION_MISTAKE_TEXT = "[app] background: must be on or off, not sometimes"


class AppTestCase(unittest.TestCase):
    """Xvfb, the platform serving the demo web app over TLS, the agent,
    xfce4-notifyd, and the app configured for that platform."""

    notification_server = True
    # A configuration the app cannot use: its window shows its own page
    # naming the mistake, with nothing to press, and no web app or bridge.
    # It is written after the agent started, which keeps the file it read.
    configuration_mistake = False

    def setUp(self):
        require_tool("xdotool", "xdotool")
        self.session_setup()
        self.display = Display(self.session)
        self.session.env.update(GTK_A11Y="none", NO_AT_BRIDGE="1",
                                PATH=BUILD + os.pathsep + self.session.env["PATH"])
        self.write_app_config()
        if self.notification_server:
            XfceNotifyd(self.session)
        self.agent = AgentProcess(self.session)
        if self.configuration_mistake:
            self.write_app_config(CONFIGURATION_MISTAKE)

    def session_setup(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        self.platform = Platform(self.session, extra_args=("--webapp", WEBAPP))
        self.addCleanup(self.platform.stop)

    def write_app_config(self, extra=""):
        origin = self.platform.origin
        self.session.write_config("[platform]\nallowed-origins=%s\nca-file=%s\n\n[app]\nweb-origin=%s\n%s" % (
            origin, os.path.join(str(self.platform.certs), "ca.pem"), origin, extra))

    def start_app(self, *args):
        app = App(self.session, args)
        self.addCleanup(app.close)
        return app

    def signed_in(self, app, as_who="parent"):
        app.wait_for_page()
        app.click("#sign-in-%s" % as_who)
        app.wait("return !document.getElementById('family').hidden", "the family to show")
        return app

    def requests(self, method=None, path_prefix=""):
        return [r for r in self.platform.requests()
                if (method is None or r["method"] == method) and r["path"].startswith(path_prefix)]
