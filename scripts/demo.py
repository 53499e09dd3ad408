#!/usr/bin/python3
"""The demo: Dreams for Littles on this desktop, the whole story.

It starts the reference platform over TLS on loopback (serving the demo web
app beside the API), dfl-sleep-agent, and the desktop app, dreamsforlittles,
which opens on the demo web app and starts dfl-webview-bridge for its page.
Then: the parent signs in and starts a Sleep for Maya; the agent shows it
as a notification with Complete; Complete is clicked; the page shows the
saved sleep ("Saved from the desktop"); a Sleep for Leo is started, and its
notification's default action (a click on its body, or its Open button)
opens Leo's Sleep route in the same window.

Headless (no DISPLAY or WAYLAND_DISPLAY), it runs Xvfb, a private session
bus and xfce4-notifyd itself, clicks as a person would (the page's buttons
with real X clicks found through WebKit's WebDriver, the notification's
buttons with the keyboard), and saves screenshots of the window and the
notification to build/demo/. On a desktop it opens the window and leaves
the clicks to you. Every process it starts is stopped at the end.
"""

import calendar
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "Tests", "Integration"))
from webdriver import AppDriver  # noqa: E402

BUILD = os.environ.get("DFL_BUILD_DIR", os.path.join(REPO, ".build", "debug"))
OUTPUT = os.path.join(REPO, "build", "demo")
FAMILY = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
LEO = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d22"
PATIENCE = 30
# The icons the package installs into the hicolor theme: file, directory.
ICONS = (("com.dreamsforlittles.DreamsForLittles.svg", "scalable"), ("com.dreamsforlittles.DreamsForLittles.SleepAgent.svg", "scalable"),
         ("com.dreamsforlittles.DreamsForLittles-symbolic.svg", "symbolic"))
# How long a person at the desktop has for the clicks.
CLICK_WAIT = int(os.environ.get("DFL_DEMO_WAIT", "600"))


def say(text):
    print("demo: " + text, flush=True)


class Demo:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="dfl-demo-")
        self.processes = []
        self.driver = None
        self.desktop = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        home = os.path.join(self.root, "home")
        os.makedirs(home, mode=0o700)
        # The demo keeps its configuration, state and website data apart from yours.
        self.env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                        XDG_STATE_HOME=os.path.join(home, ".local", "state"),
                        XDG_DATA_HOME=os.path.join(home, ".local", "share"),
                        XDG_CACHE_HOME=os.path.join(home, ".cache"),
                        XDG_CONFIG_DIRS=os.path.join(self.root, "etc-xdg"))
        if not self.desktop:
            runtime = os.path.join(self.root, "runtime")
            os.makedirs(runtime, mode=0o700)
            self.env.update(HOME=home, XDG_RUNTIME_DIR=runtime, LANG=os.environ.get("LANG", "C.UTF-8"),
                            GTK_A11Y="none", NO_AT_BRIDGE="1")

    def start(self, argv, log=None, **kwargs):
        output = open(os.path.join(self.root, log), "w") if log else subprocess.DEVNULL
        process = subprocess.Popen(argv, env=self.env, stdout=kwargs.pop("stdout", output), stderr=output, **kwargs)
        self.processes.append(process)
        return process

    def close(self):
        if self.driver is not None:
            self.driver.close()
            self.stop_pid(self.driver.pid)
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(PATIENCE)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    @staticmethod
    def stop_pid(pid):
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass

    def wait(self, predicate, what, timeout=PATIENCE):
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for " + what)
            time.sleep(0.1)

    def run(self, argv):
        return subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=PATIENCE)

    # ---- the parts

    def platform(self):
        certs = os.path.join(self.root, "certs")
        subprocess.run([os.path.join(REPO, "scripts", "make-test-certs.sh"), certs], check=True)
        ready = os.path.join(self.root, "platform.json")
        self.start([sys.executable, os.path.join(REPO, "scripts", "reference_platform.py"), "--fixtures", "demo",
                    "--webapp", os.path.join(REPO, "webapp", "demo"),
                    "--tls-cert", os.path.join(certs, "server.pem"), "--tls-key", os.path.join(certs, "server.key"),
                    "--db", os.path.join(self.root, "platform.sqlite3"), "--ready-file", ready], log="platform.log")
        self.wait(lambda: os.path.exists(ready), "the reference platform")
        with open(ready) as handle:
            self.urls = json.load(handle)
        config = os.path.join(self.env["XDG_CONFIG_HOME"], "dreamsforlittles")
        os.makedirs(config)
        with open(os.path.join(config, "sleep-agent.conf"), "w") as handle:
            handle.write("[platform]\nallowed-origins=%s\nca-file=%s\n\n[app]\nweb-origin=%s\n"
                         % (self.urls["api"], os.path.join(certs, "ca.pem"), self.urls["api"]))
        say("reference platform and demo web app at %s (TLS, with a test CA)" % self.urls["api"])

    def icons(self):
        """The app's icons where a desktop looks for them, as the package
        puts them under /usr/share: a hicolor theme directory of the demo's
        own, first in XDG_DATA_DIRS, so the notification shows the app's
        icon, not a missing-icon picture."""
        share = os.path.join(self.root, "share")
        for name, directory in ICONS:
            target = os.path.join(share, "icons", "hicolor", directory, "apps")
            os.makedirs(target, exist_ok=True)
            shutil.copyfile(os.path.join(REPO, "packaging", "icons", name), os.path.join(target, name))
        self.env["XDG_DATA_DIRS"] = share + ":" + (os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share")

    def headless_desktop(self):
        """Xvfb, a private session bus, and xfce4-notifyd on it."""
        read_end, write_end = os.pipe()
        self.start(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1440x900x24", "-nolisten", "tcp"],
                   pass_fds=(write_end,))
        os.close(write_end)
        with os.fdopen(read_end) as reader:
            self.env["DISPLAY"] = ":" + reader.readline().strip()
        bus_config = os.path.join(self.root, "bus.conf")
        with open(bus_config, "w") as handle:
            # The only service directory is an empty one of the demo's, so no
            # installed notification server starts by itself.
            handle.write('<busconfig><type>session</type><listen>unix:path=%s/bus</listen><auth>EXTERNAL</auth>'
                         '<servicedir>%s</servicedir><policy context="default"><allow send_destination="*"/>'
                         '<allow eavesdrop="true"/><allow own="*"/></policy></busconfig>'
                         % (self.env["XDG_RUNTIME_DIR"], self.root))
        bus = self.start(["dbus-daemon", "--config-file=" + bus_config, "--nofork", "--print-address=1"],
                         stdout=subprocess.PIPE, text=True)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
        [notifyd] = glob.glob("/usr/lib/*/xfce4/notifyd/xfce4-notifyd")
        self.start([notifyd], log="xfce4-notifyd.log")
        self.wait(lambda: self.name_has_owner("org.freedesktop.Notifications"), "xfce4-notifyd")
        say("headless desktop: Xvfb on %s, xfce4-notifyd on a private session bus" % self.env["DISPLAY"])

    def name_has_owner(self, name):
        return self.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                         "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:" + name]
                        ).stdout.strip().endswith("true")

    def agent(self):
        for name, how in (("com.dreamsforlittles.DreamsForLittles.SleepTimers1", "systemctl --user stop dfl-sleep-agent"),
                          ("com.dreamsforlittles.DreamsForLittles", "quit Dreams for Littles (Ctrl+Q)")):
            if self.name_has_owner(name):
                raise RuntimeError("%s already runs on your session bus; %s for the demo and try again" % (name, how))
        self.start([os.path.join(BUILD, "dfl-sleep-agent")], log="agent.log")
        self.wait(lambda: self.name_has_owner("com.dreamsforlittles.DreamsForLittles.SleepTimers1"), "dfl-sleep-agent")
        say("dfl-sleep-agent owns com.dreamsforlittles.DreamsForLittles.SleepTimers1")

    def app(self):
        app = os.path.join(BUILD, "dreamsforlittles")
        if self.desktop:
            self.start([app], log="app.log")
        else:
            self.driver = AppDriver(app, self.env, os.path.join(self.root, "app.log"))
            self.driver.wait("return document.body && document.body.dataset.loaded === 'true' && "
                             "document.getElementById('desktop-status').textContent.startsWith('On the desktop')",
                             "the demo web app in the window")
        self.wait(lambda: self.name_has_owner("com.dreamsforlittles.DreamsForLittles"), "the app")
        say("dreamsforlittles (com.dreamsforlittles.DreamsForLittles) shows the demo web app; dfl-webview-bridge is its child")

    def control(self, path):
        with urllib.request.urlopen(self.urls["control"] + path, timeout=PATIENCE) as reply:
            return json.load(reply)

    # ---- headless: the clicks

    def popups(self):
        return self.run(["xdotool", "search", "--onlyvisible", "--class", "xfce4-notifyd"]).stdout.split()

    def press_notification(self, window, tabs):
        """A button of the popup: the first (Open, the default action) has
        the focus, Tab moves on, Return invokes."""
        for command in (["windowfocus", "--sync", window], *[["key", "--window", window, "Tab"]] * tabs,
                        ["key", "--window", window, "Return"]):
            self.run(["xdotool", *command])

    def screenshot(self, name, window):
        time.sleep(1)  # lets the window finish painting what the page shows
        os.makedirs(OUTPUT, exist_ok=True)
        path = os.path.join(OUTPUT, name)
        subprocess.run(["import", "-window", window, path], env=self.env, check=True, timeout=PATIENCE)
        say("screenshot: " + path)

    def app_window(self):
        return self.run(["xdotool", "search", "--onlyvisible", "--pid", str(self.driver.pid),
                         "--name", "Dreams for Littles"]).stdout.split()[0]

    def headless_story(self):
        driver = self.driver
        driver.click("#sign-in-parent")
        driver.wait("return !document.getElementById('family').hidden", "the family to show")
        say("signed in as Sam (parent), in family self-mode")
        driver.click("#start-sleep-Maya")
        driver.wait("return document.getElementById('running').children.length === 1", "Maya's running timer")
        say("started a Sleep for Maya: %s" % driver.js("return document.getElementById('message').textContent"))
        self.wait(lambda: self.popups(), "the notification")
        self.screenshot("notification.png", self.popups()[0])
        self.screenshot("window-running.png", self.app_window())
        self.press_notification(self.popups()[0], tabs=1)
        say("clicked Complete on the notification")
        saved = driver.wait("const li = document.querySelector('#saved li[data-activity-id]');"
                            "return li && li.textContent", "the page to show the saved sleep")
        say("the page shows: %s" % saved)
        self.screenshot("window.png", self.app_window())
        self.print_activity()

        earlier = set(self.popups())  # Maya's "saved" notice may still show
        driver.click("#start-sleep-Leo")
        self.wait(lambda: set(self.popups()) - earlier, "Leo's notification")
        [leo] = set(self.popups()) - earlier
        self.press_notification(leo, tabs=0)
        say("clicked Leo's notification (its default action)")
        route = driver.wait("const s = document.getElementById('sleep-route');"
                            "return !s.hidden && s.dataset.state === 'running' && "
                            "location.pathname.includes(arguments[0]) && "
                            "document.getElementById('desktop-status').textContent.startsWith('On the desktop') && "
                            "document.getElementById('sleep-route-timer').textContent", "Leo's Sleep route",
                            PATIENCE, LEO)
        say("the same window shows %s: %s" % (driver.url(), route))
        self.screenshot("window-sleep-route.png", self.app_window())

    def print_activity(self, timeout=PATIENCE):
        self.wait(lambda: self.control("/control/activities")["activities"], "the activity", timeout)
        [activity] = self.control("/control/activities")["activities"]
        started = calendar.timegm(time.strptime(activity["startedAt"][:19], "%Y-%m-%dT%H:%M:%S"))
        ended = calendar.timegm(time.strptime(activity["endedAt"][:19], "%Y-%m-%dT%H:%M:%S"))
        say("the platform created exactly one activity: %s, a %s of %d min, %s to %s (%s)"
            % (activity["id"], activity["type"], (ended - started) // 60, activity["startedAt"], activity["endedAt"],
               activity["source"]))


def main():
    demo = Demo()
    try:
        demo.platform()
        demo.icons()
        if not demo.desktop:
            demo.headless_desktop()
        demo.agent()
        demo.app()
        if demo.desktop:
            say("in the window: Sign in as Sam (parent), then Start Sleep for Maya; click Complete on the "
                "notification (waiting up to %d s)" % CLICK_WAIT)
            demo.print_activity(CLICK_WAIT)
            say("the page says 'Saved from the desktop'; start a Sleep for Leo and click its notification to "
                "open Leo's Sleep route in the same window; quit the app with Ctrl+Q to end the demo (while a "
                "Sleep runs, closing the window only hides it)")
            demo.processes[-1].wait(CLICK_WAIT)
        else:
            demo.headless_story()
        return 0
    except (RuntimeError, AssertionError, subprocess.TimeoutExpired) as error:
        say(str(error))
        for name in ("agent.log", "xfce4-notifyd.log", "app.log", "platform.log"):
            path = os.path.join(demo.root, name)
            if os.path.exists(path) and os.path.getsize(path):
                with open(path, errors="replace") as handle:
                    say("%s:\n%s" % (name, handle.read()[-2000:]))
        return 1
    finally:
        demo.close()


if __name__ == "__main__":
    sys.exit(main())
