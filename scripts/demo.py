#!/usr/bin/python3
"""The demo: the native Sleep path of Dreams for Littles on this desktop.

It starts the reference platform over TLS on loopback and dfl-sleep-agent,
then, through dfl-webview-bridge (as the app's WebView would), signs in as
the demo parent in family self-mode and starts a Sleep timer for the demo
baby; the agent shows it as a notification with a Complete button.

On a desktop (DISPLAY or WAYLAND_DISPLAY set) it leaves the notification
for you to click, and prints the activity the platform creates. Headless,
it runs Xvfb and xfce4-notifyd on a private bus itself, clicks Complete,
saves a screenshot and prints its path and the activity. Every process it
starts is stopped at the end.
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
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("DFL_BUILD_DIR", os.path.join(REPO, ".build", "debug"))
OUTPUT = os.path.join(REPO, "build", "demo")
FAMILY = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
MAYA = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21"
PATIENCE = 30
# How long a person at the desktop has to click Complete.
CLICK_WAIT = int(os.environ.get("DFL_DEMO_WAIT", "600"))


def say(text):
    print("demo: " + text, flush=True)


class Demo:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="dfl-demo-")
        self.processes = []
        self.desktop = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        home = os.path.join(self.root, "home")
        os.makedirs(home, mode=0o700)
        # The demo agent keeps its configuration and state apart from yours.
        self.env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                        XDG_STATE_HOME=os.path.join(home, ".local", "state"),
                        XDG_CONFIG_DIRS=os.path.join(self.root, "etc-xdg"))
        if not self.desktop:
            runtime = os.path.join(self.root, "runtime")
            os.makedirs(runtime, mode=0o700)
            self.env.update(HOME=home, XDG_RUNTIME_DIR=runtime, XDG_DATA_HOME=os.path.join(home, ".local", "share"),
                            XDG_CACHE_HOME=os.path.join(home, ".cache"), LANG=os.environ.get("LANG", "C.UTF-8"))

    def start(self, argv, log=None, **kwargs):
        output = open(os.path.join(self.root, log), "w") if log else subprocess.DEVNULL
        process = subprocess.Popen(argv, env=self.env, stdout=kwargs.pop("stdout", output), stderr=output, **kwargs)
        self.processes.append(process)
        return process

    def close(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(PATIENCE)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    def wait(self, predicate, what, timeout=PATIENCE):
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for " + what)
            time.sleep(0.1)

    def platform(self):
        certs = os.path.join(self.root, "certs")
        subprocess.run([os.path.join(REPO, "scripts", "make-test-certs.sh"), certs], check=True)
        ready = os.path.join(self.root, "platform.json")
        self.start([sys.executable, os.path.join(REPO, "scripts", "reference_platform.py"), "--fixtures", "demo",
                    "--tls-cert", os.path.join(certs, "server.pem"), "--tls-key", os.path.join(certs, "server.key"),
                    "--db", os.path.join(self.root, "platform.sqlite3"), "--ready-file", ready], log="platform.log")
        self.wait(lambda: os.path.exists(ready), "the reference platform")
        with open(ready) as handle:
            self.urls = json.load(handle)
        config = os.path.join(self.env["XDG_CONFIG_HOME"], "dreamsforlittles")
        os.makedirs(config)
        with open(os.path.join(config, "sleep-agent.conf"), "w") as handle:
            handle.write("[platform]\nallowed-origins=%s\nca-file=%s\n" % (self.urls["api"], os.path.join(certs, "ca.pem")))
        say("reference platform at %s (TLS, with a test CA)" % self.urls["api"])

    def headless_desktop(self):
        """Xvfb, a private session bus, and xfce4-notifyd on it."""
        read_end, write_end = os.pipe()
        self.start(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
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
        return subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                               "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:" + name],
                              env=self.env, capture_output=True, text=True).stdout.strip().endswith("true")

    def agent(self):
        if self.name_has_owner("com.dreamsforlittles.SleepTimers1"):
            raise RuntimeError("dfl-sleep-agent already runs on your session bus; stop it for the demo "
                               "(systemctl --user stop dfl-sleep-agent) and try again")
        self.start([os.path.join(BUILD, "dfl-sleep-agent")], log="agent.log")
        self.wait(lambda: self.name_has_owner("com.dreamsforlittles.SleepTimers1"), "dfl-sleep-agent")
        say("dfl-sleep-agent owns com.dreamsforlittles.SleepTimers1")

    def bridge(self):
        self.bridge_process = self.start([os.path.join(BUILD, "dfl-webview-bridge")], log="bridge.log",
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.next_id = 0

    def call(self, method, params=None):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "method": method, "id": self.next_id}
        if params is not None:
            request["params"] = params
        self.bridge_process.stdin.write(json.dumps(request) + "\n")
        self.bridge_process.stdin.flush()
        while True:
            answer = json.loads(self.bridge_process.stdout.readline())
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer["result"]

    def control(self, path):
        with urllib.request.urlopen(self.urls["control"] + path, timeout=PATIENCE) as reply:
            return json.load(reply)

    def start_sleep_timer(self):
        parent = next(u for u in self.control("/control/users")["users"] if "parent" in u["name"])
        self.call("session.set", {"apiOrigin": self.urls["api"], "userId": parent["id"],
                                  "accessToken": parent["accessToken"],
                                  "actor": {"mode": "self", "familySubjectId": FAMILY}})
        timer = {"id": str(uuid.uuid4()), "babyId": MAYA, "babyName": "Maya", "activityType": "sleep",
                 "startedAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 97 * 60)),
                 "timezone": "Europe/Berlin", "details": {}, "note": None}
        answer = self.call("sleepTimer.upsert", {"timer": timer})
        say("dfl-webview-bridge started a Sleep timer for Maya as the parent (self-mode): native %s"
            % json.dumps(answer["native"]))
        return timer["id"]

    def click_complete(self):
        """Presses the popup's second button (Complete): the first has the
        focus, Tab moves on, Return invokes."""
        def popups():
            return subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "xfce4-notifyd"], env=self.env,
                                  capture_output=True, text=True).stdout.split()
        self.wait(lambda: popups(), "the notification")
        time.sleep(0.5)  # let the popup finish drawing before the screenshot
        os.makedirs(OUTPUT, exist_ok=True)
        screenshot = os.path.join(OUTPUT, "notification.png")
        subprocess.run(["import", "-window", "root", screenshot], env=self.env, check=True)
        say("screenshot of the notification: " + screenshot)
        window = popups()[0]
        for command in (["windowfocus", "--sync", window], ["key", "--window", window, "Tab"],
                        ["key", "--window", window, "Return"]):
            subprocess.run(["xdotool", *command], env=self.env, check=True)
        say("clicked Complete")

    def wait_for_activity(self, timeout):
        self.wait(lambda: self.control("/control/activities")["activities"], "the activity", timeout)
        [activity] = self.control("/control/activities")["activities"]
        started = calendar.timegm(time.strptime(activity["startedAt"][:19], "%Y-%m-%dT%H:%M:%S"))
        ended = calendar.timegm(time.strptime(activity["endedAt"][:19], "%Y-%m-%dT%H:%M:%S"))
        say("the platform created exactly one activity: %s, a %s of %d min for Maya, %s to %s"
            % (activity["id"], activity["type"], (ended - started) // 60, activity["startedAt"], activity["endedAt"]))


def main():
    demo = Demo()
    try:
        demo.platform()
        if not demo.desktop:
            demo.headless_desktop()
        demo.agent()
        demo.bridge()
        demo.start_sleep_timer()
        if demo.desktop:
            say("the notification is on your desktop: click Complete (waiting up to %d s)" % CLICK_WAIT)
            demo.wait_for_activity(CLICK_WAIT)
        else:
            demo.click_complete()
            demo.wait_for_activity(PATIENCE)
        return 0
    except RuntimeError as error:
        say(str(error))
        for name in ("agent.log", "xfce4-notifyd.log", "bridge.log"):
            path = os.path.join(demo.root, name)
            if os.path.exists(path) and os.path.getsize(path):
                with open(path) as handle:
                    say("%s:\n%s" % (name, handle.read()[-2000:]))
        return 1
    finally:
        demo.close()


if __name__ == "__main__":
    sys.exit(main())
