#!/usr/bin/python3
"""The demo: the whole native Sleep path on this machine, end to end.

Starts the reference platform over TLS on loopback, a private session bus
and dfl-sleep-agent; starts a Sleep timer for a demo baby as a parent in
family self-mode, with a native action token, mirrors it to the agent the
way the WebView bridge does, and completes it with dfl-sleepctl. Every
process it starts is stopped at the end.
"""

import calendar
import json
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid

import dbus
import dbus.bus

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("DFL_BUILD_DIR", os.path.join(REPO, ".build", "debug"))
DEMO_FAMILY = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
DEMO_BABY = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21"

PATIENCE = 30


def say(text):
    print("demo: " + text, flush=True)


class Demo:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="dfl-demo-")
        self.processes = []
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.path.join(self.root, "home"),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "XDG_RUNTIME_DIR": os.path.join(self.root, "runtime"),
        }
        os.makedirs(self.env["HOME"], mode=0o700)
        os.makedirs(self.env["XDG_RUNTIME_DIR"], mode=0o700)

    def start(self, argv, **kwargs):
        process = subprocess.Popen(argv, **kwargs)
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

    def platform(self):
        certs = os.path.join(self.root, "certs")
        subprocess.run([os.path.join(REPO, "scripts", "make-test-certs.sh"), certs], check=True)
        ready = os.path.join(self.root, "platform.json")
        self.start([sys.executable, os.path.join(REPO, "scripts", "reference_platform.py"), "--fixtures", "demo",
                    "--tls-cert", os.path.join(certs, "server.pem"), "--tls-key", os.path.join(certs, "server.key"),
                    "--db", os.path.join(self.root, "platform.sqlite3"), "--ready-file", ready],
                   stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.root, "platform.log"), "w"))
        deadline = time.monotonic() + PATIENCE
        while not os.path.exists(ready):
            if time.monotonic() > deadline:
                raise RuntimeError("the reference platform did not start")
            time.sleep(0.05)
        with open(ready) as handle:
            self.urls = json.load(handle)
        self.ca_file = os.path.join(certs, "ca.pem")
        self.tls = ssl.create_default_context(cafile=self.ca_file)
        say("reference platform at %s (TLS, test CA)" % self.urls["api"])

    def bus(self):
        output = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                                env=self.env, capture_output=True, text=True, check=True).stdout.split()
        self.env["DBUS_SESSION_BUS_ADDRESS"], pid = output[0], int(output[1])
        self.processes.append(ForkedProcess(pid))
        say("private session bus at %s" % self.env["DBUS_SESSION_BUS_ADDRESS"])

    def agent(self):
        config = os.path.join(self.env["HOME"], ".config", "dreamsforlittles")
        os.makedirs(config)
        with open(os.path.join(config, "sleep-agent.conf"), "w") as handle:
            handle.write("[platform]\nallowed-origins=%s\nca-file=%s\n" % (self.urls["api"], self.ca_file))
        self.agent_process = self.start([os.path.join(BUILD, "dfl-sleep-agent")], env=self.env,
                                        stderr=open(os.path.join(self.root, "agent.log"), "w"))
        self.client = dbus.bus.BusConnection(self.env["DBUS_SESSION_BUS_ADDRESS"])
        deadline = time.monotonic() + PATIENCE
        while not self.client.name_has_owner("com.dreamsforlittles.SleepTimers1"):
            if time.monotonic() > deadline:
                raise RuntimeError("dfl-sleep-agent did not start")
            time.sleep(0.05)
        say("dfl-sleep-agent owns com.dreamsforlittles.SleepTimers1")

    def control(self, path):
        with urllib.request.urlopen(self.urls["control"] + path, timeout=PATIENCE) as reply:
            return json.load(reply)

    def start_sleep_timer(self):
        users = self.control("/control/users")["users"]
        parent = next(u for u in users if "parent" in u.get("name", ""))
        timer_id = str(uuid.uuid4())
        started = time.time() - 42 * 60
        body = json.dumps({
            "familySubjectId": DEMO_FAMILY, "babyId": DEMO_BABY, "activityType": "sleep",
            "startedAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(started)),
            "timezone": "Europe/Berlin", "details": {}, "note": None, "requestNativeActionToken": True,
        }).encode()
        request = urllib.request.Request(self.urls["api"] + "/active-timers/" + timer_id, data=body, method="PUT",
                                         headers={"Authorization": "Bearer " + parent["accessToken"],
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, context=self.tls, timeout=PATIENCE) as reply:
            answer = json.load(reply)
        token = answer["nativeActionToken"]
        say("Sleep timer %s started for Maya; the platform issued a native action token valid until %s"
            % (timer_id, token["expiresAt"]))
        expires = calendar.timegm(time.strptime(token["expiresAt"][:19], "%Y-%m-%dT%H:%M:%S"))
        agent = dbus.Interface(self.client.get_object("com.dreamsforlittles.SleepTimers1",
                                                      "/com/dreamsforlittles/SleepTimers1"),
                               "com.dreamsforlittles.SleepTimers1")
        agent.Mirror(dbus.Dictionary({
            "timer_id": timer_id, "api_origin": self.urls["api"], "user_id": parent["id"],
            "family_subject_id": DEMO_FAMILY, "baby_id": DEMO_BABY, "baby_name": "Maya",
            "activity_type": "sleep", "actor_mode": "self", "started_at_ms": dbus.Int64(int(started * 1000)),
            "timezone": "Europe/Berlin", "action_token": token["token"],
            "token_expires_at_ms": dbus.Int64(int(expires * 1000)), "revision": dbus.Int64(answer["timer"]["revision"]),
        }, signature="sv"))
        say("mirrored to the agent (display data and the token; never the parent's sign-in token)")
        return timer_id

    def sleepctl(self, *args):
        result = subprocess.run([os.path.join(BUILD, "dfl-sleepctl"), *args], env=self.env,
                                capture_output=True, text=True, timeout=PATIENCE)
        if result.returncode != 0:
            raise RuntimeError("dfl-sleepctl %s failed: %s" % (" ".join(args), result.stderr))
        return result.stdout


class ForkedProcess:
    """A process started with --fork, stopped by pid like the others."""

    def __init__(self, pid):
        self.pid = pid

    def poll(self):
        try:
            os.kill(self.pid, 0)
            return None
        except ProcessLookupError:
            return 0

    def send_signal(self, sig):
        os.kill(self.pid, sig)

    def wait(self, timeout):
        deadline = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired("dbus-daemon", timeout)
            time.sleep(0.05)

    def kill(self):
        self.send_signal(signal.SIGKILL)


def main():
    demo = Demo()
    try:
        demo.platform()
        demo.bus()
        demo.agent()
        timer_id = demo.start_sleep_timer()
        print(demo.sleepctl("list"), end="", flush=True)
        say("dfl-sleepctl complete %s -> %s" % (timer_id, demo.sleepctl("complete", timer_id).strip()))
        deadline = time.monotonic() + PATIENCE
        while not demo.control("/control/activities")["activities"] and time.monotonic() < deadline:
            time.sleep(0.1)
        for activity in demo.control("/control/activities")["activities"]:
            say("the platform created activity %s: %s sleep from %s to %s (%s)" % (
                activity["id"], activity.get("type"), activity.get("startedAt"), activity.get("endedAt"),
                activity.get("source", "")))
        print(demo.sleepctl("list"), end="", flush=True)
        return 0
    finally:
        demo.close()


if __name__ == "__main__":
    sys.exit(main())
