"""The desktop app driven as a person would, for the tests and the demo.

WebKit's own WebDriver (WebKitWebDriver, Debian package webkit2gtk-driver,
the same WebKit 2.50 as the app's WebKitGTK 6.0) starts the app with
--automation and reaches its one web view: it finds the page's buttons and
reads the page's DOM back. Its simulated input (Element Click, Actions)
answers "unsupported operation" for GTK 4 views in this WebKit, so every
click is a real X pointer event instead: xdotool moves the X server's
pointer to the middle of the button on screen and presses it, which goes
through X, GTK and WebKit's event handling as a person's click does.

Standard library only; the processes it starts are the caller's to stop.
"""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

from patience import PATIENCE
from proc_accounting import children_of, executable

WEBDRIVER = "WebKitWebDriver"


class WebDriverError(AssertionError):
    pass


class PageUnloaded(WebDriverError):
    """The page a script ran in was unloaded before the script answered."""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class AppDriver:
    """WebKitWebDriver with one session: the app at `binary`, started by it
    with --automation and `app_args`, in environment `env`; its output and
    the app's go to `log_path`."""

    def __init__(self, binary, env, log_path, app_args=()):
        if shutil.which(WEBDRIVER, path=env.get("PATH")) is None:
            raise AssertionError("%s is missing: install the Debian package webkit2gtk-driver" % WEBDRIVER)
        self.env = env
        self.binary = binary
        self.log_path = log_path
        # The port is free when probed, but a test beside this one may take
        # it before WebKitWebDriver binds it: then it exits, and another
        # port is tried.
        for attempt in range(3):
            self.port = free_port()
            with open(log_path, "w") as log:
                self.process = subprocess.Popen([WEBDRIVER, "--port=%d" % self.port], env=env, stdout=log, stderr=log)
            deadline = time.monotonic() + PATIENCE
            while self.process.poll() is None and not self.ready():
                if time.monotonic() > deadline:
                    raise AssertionError("WebKitWebDriver did not start:\n" + self.log())
                time.sleep(0.05)
            if self.process.poll() is None:
                break
        else:
            raise AssertionError("WebKitWebDriver did not start:\n" + self.log())
        capabilities = {"webkitgtk:browserOptions": {"binary": binary, "args": ["--automation", *app_args]}}
        self.id = self.request("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})["sessionId"]
        self.pid = self.find_app()

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

    def log(self):
        with open(self.log_path, errors="replace") as handle:
            return handle.read()

    def find_app(self):
        """The app is WebKitWebDriver's child."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            for child in children_of(self.process.pid):
                if executable(child) == os.path.realpath(self.binary):
                    return child
            time.sleep(0.05)
        raise AssertionError("the app did not start:\n" + self.log())

    # ---- the page's DOM

    def js(self, script, *args):
        try:
            return self.command("POST", "/execute/sync", {"script": script, "args": list(args)})
        except WebDriverError as error:
            if '"no such frame"' in str(error):
                raise PageUnloaded(str(error)) from None
            raise

    def ask(self, script, *args, attempts=3):
        """The script's answer from a page the app loads again by itself
        (its own pages retry the web app on a schedule): a script whose page
        was unloaded under it is asked again of the page that replaced it.
        For questions whose answer does not depend on which load it is."""
        for attempt in range(attempts):
            try:
                return self.js(script, *args)
            except PageUnloaded:
                if attempt == attempts - 1:
                    raise

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


    def shown_sleep_route(self):
        """What the page's Sleep route shows once it is shown: [its timer's
        id, its state, its baby's name]. The page a link replaces may be
        gone for a moment, hence the check that the element is there."""
        return self.wait("const s = document.getElementById('sleep-route');"
                         "return s && !s.hidden && [s.dataset.timerId, s.dataset.state, "
                         "document.getElementById('sleep-route-baby').textContent]", "the Sleep route")
    def url(self):
        return self.command("GET", "/url")

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
        result = subprocess.run(["xdotool", "mousemove", "--sync", str(round(place[0])), str(round(place[1])),
                                 "click", "1"], env=self.env, capture_output=True, text=True, timeout=PATIENCE)
        if result.returncode != 0:
            raise AssertionError("xdotool: %s" % result.stderr)

    def close(self):
        try:
            self.request("DELETE", "/session/%s" % self.id)
        except (WebDriverError, OSError):
            pass
