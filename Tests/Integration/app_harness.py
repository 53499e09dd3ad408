"""The desktop app (dreamsforlittles) under Xvfb, driven as a person would.

How it is driven, and why: WebKit's own WebDriver (WebKitWebDriver, Debian
package webkit2gtk-driver, the same WebKit 2.50 as the app's WebKitGTK 6.0)
starts the app with --automation and reaches its one web view, to find the
demo page's buttons and to read the page's DOM back. Its own simulated
input (Element Click, Actions) is not implemented for GTK 4 views in this
WebKit ("unsupported operation"), so every click is a real X pointer event:
xdotool moves the X server's pointer to the middle of the button on screen
and presses it, which goes through X, GTK and WebKit's event handling as a
person's click does. Without --automation (the runs that check what the app
keeps between starts) only real X input is used, and what happened is read
from the platform's request log.

The rest is real: a private session bus, the agent, the bridge the app
starts, the reference platform over TLS (with the demo web app), and
xfce4-notifyd.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import unittest
import urllib.error
import urllib.request
import uuid

from desktop import Display, XfceNotifyd, xdotool
from harness import BUILD, PATIENCE, REPO, AgentProcess, Platform, Session, eventually, stop

APP = os.path.join(BUILD, "dreamsforlittles")
BRIDGE = os.path.join(BUILD, "dfl-webview-bridge")
WEBAPP = os.path.join(REPO, "webapp", "demo")
DESKTOP_FILE = os.path.join(REPO, "packaging", "desktop", "com.dreamsforlittles.App.desktop")
WEBDRIVER = "WebKitWebDriver"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def require_tool(name, package):
    if shutil.which(name) is None:
        raise AssertionError("%s is missing: install the Debian package %s" % (name, package))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class WebDriverError(AssertionError):
    pass


class WebDriver:
    """WebKitWebDriver with one session: the app, started by it."""

    def __init__(self, session, app_args=()):
        require_tool(WEBDRIVER, "webkit2gtk-driver")
        self.session = session
        self.port = free_port()
        self.log_path = os.path.join(session.root, "app-%s.log" % uuid.uuid4().hex[:6])
        # The app is the driver's child and writes to the same log.
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen([WEBDRIVER, "--port=%d" % self.port], env=session.env, stdout=log,
                                            stderr=log)
        session.processes.append(self.process)
        eventually(self.ready, what="WebKitWebDriver to listen")
        capabilities = {"webkitgtk:browserOptions": {"binary": APP, "args": ["--automation", *app_args]}}
        self.id = self.request("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})["sessionId"]

    def ready(self):
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/status" % self.port, timeout=5):
                return True
        except OSError:
            return False

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (self.port, path), data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=2 * PATIENCE) as reply:
                return json.load(reply)["value"]
        except urllib.error.HTTPError as error:
            raise WebDriverError("%s %s: %s" % (method, path, error.read().decode(errors="replace"))) from None

    def command(self, method, path, body=None):
        return self.request(method, "/session/%s%s" % (self.id, path), body)

    def close(self):
        try:
            self.request("DELETE", "/session/%s" % self.id)
        except (WebDriverError, OSError):
            pass
        stop(self.process)


class App:
    """The app, through WebDriver (DOM) and the X server (input)."""

    def __init__(self, session, app_args=()):
        self.session = session
        self.driver = WebDriver(session, app_args)
        self.pid = self.find_pid()

    def find_pid(self):
        """The app is WebKitWebDriver's child."""
        def child():
            for entry in os.listdir("/proc"):
                if entry.isdigit():
                    try:
                        with open("/proc/%s/stat" % entry) as handle:
                            fields = handle.read().rsplit(")", 1)[1].split()
                        if int(fields[1]) == self.driver.process.pid and os.readlink("/proc/%s/exe" % entry) == \
                                os.path.realpath(APP):
                            return int(entry)
                    except (OSError, ValueError, IndexError):
                        continue
            return None
        eventually(lambda: child() is not None, what="the app to start")
        return child()

    def log(self):
        with open(self.driver.log_path, errors="replace") as handle:
            return handle.read()

    # ---- the page's DOM

    def js(self, script, *args):
        return self.driver.command("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait(self, script, what, timeout=PATIENCE, *args):
        """Waits until `script` returns something truthy in the page; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.js(script, *args)
            except WebDriverError:
                value = None  # between two pages
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for %s\n%s" % (what, self.log()[-3000:]))
            time.sleep(0.1)

    def url(self):
        return self.driver.command("GET", "/url")

    def text(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]); return e ? e.textContent : null", element_id)

    def wait_for_page(self):
        return self.wait("return document.body && document.body.dataset.loaded === 'true' && "
                         "document.getElementById('desktop-status').textContent.startsWith('On the desktop')",
                         "the demo page to load, with the desktop's bridge")

    # ---- real X input

    def click(self, selector):
        """A real pointer click in the middle of the element, through the X server."""
        place = self.wait("""
            const element = document.querySelector(arguments[0]);
            if (!element || element.disabled || element.offsetParent === null) return null;
            element.scrollIntoView({block: 'center'});
            const box = element.getBoundingClientRect();
            const border = (window.outerWidth - window.innerWidth) / 2;
            return [window.screenX + border + box.left + box.width / 2,
                    window.screenY + window.outerHeight - window.innerHeight - border + box.top + box.height / 2];
        """, "%s to be visible" % selector, PATIENCE, selector)
        result = xdotool(self.session, "mousemove", "--sync", str(round(place[0])), str(round(place[1])), "click", "1")
        if result.returncode != 0:
            raise AssertionError("xdotool: %s" % result.stderr)

    def windows(self):
        return app_windows(self.session, self.pid)

    def close(self):
        self.driver.close()
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


def app_windows(session, pid):
    """The app's visible top-level windows."""
    return xdotool(session, "search", "--onlyvisible", "--pid", str(pid), "--name", "Dreams for Littles").stdout.split()


def bridge_children(pid):
    """The bridge processes the app started (its children running dfl-webview-bridge)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            if parent == pid and os.readlink("/proc/%s/exe" % entry) == os.path.realpath(BRIDGE):
                found.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    return found


class AppTestCase(unittest.TestCase):
    """Xvfb, the platform serving the demo web app over TLS, the agent,
    xfce4-notifyd, and the app configured for that platform."""

    notification_server = True
    web_origin = True

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

    def session_setup(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        self.platform = Platform(self.session, extra_args=("--webapp", WEBAPP))
        self.addCleanup(self.platform.stop)

    def write_app_config(self, extra=""):
        origin = self.platform.origin
        web = "web-origin=%s\n" % origin if self.web_origin else ""
        self.session.write_config("[platform]\nallowed-origins=%s\nca-file=%s\n\n[app]\n%s%s" % (
            origin, os.path.join(str(self.platform.certs), "ca.pem"), web, extra))

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
