"""Shared machinery for the integration tests: a private session bus, the
real agent binary, and the clients other apps would use.

Everything runs in a fresh temporary HOME with its own XDG directories, so a
test never touches the user's real configuration, state or bus. Processes are
stopped by pid when a test ends.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts", "tests"))
from platform_harness import PlatformProcess, make_certs  # noqa: E402

BUILD = os.environ.get("DFL_BUILD_DIR", os.path.join(REPO, ".build", "debug"))
AGENT = os.path.join(BUILD, "dfl-sleep-agent")
SLEEPCTL = os.path.join(BUILD, "dfl-sleepctl")

BUS_NAME = "com.dreamsforlittles.SleepTimers1"
OBJECT_PATH = "/com/dreamsforlittles/SleepTimers1"
INTERFACE = "com.dreamsforlittles.SleepTimers1"
ERROR = INTERFACE + ".Error."

ORIGIN = "https://api.dreamsforlittles.example"
USER_ID = "9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f"
FAMILY_ID = "c56a4180-65aa-42ec-a945-5fd21dec0538"
BABY_ID = "7d444840-9dc0-11d1-b245-5ffdce74fad2"

# How long a test waits for something that should happen at once. A bound
# for a hung process, not a performance assertion.
PATIENCE = 30.0

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{services}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def now_ms():
    return int(time.time() * 1000)


def sleep_until_ms(moment_ms):
    """Sleeps until the wall clock reaches `moment_ms` (ms since 1970)."""
    while now_ms() < moment_ms:
        time.sleep(max(moment_ms - now_ms(), 1) / 1000)


def next_minute_ms(started_ms, after_ms):
    """The first boundary of a whole minute of elapsed time, for a timer
    started at `started_ms`, that comes after `after_ms`."""
    return started_ms + ((after_ms - started_ms) // 60_000 + 1) * 60_000


def eventually(predicate, timeout=PATIENCE, what="the condition"):
    """Waits until `predicate()` holds; the bound catches a hang, it is not
    a performance assertion."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for %s" % what)
        time.sleep(0.05)


def read_until(read, ready, what, timeout=PATIENCE, describe=repr):
    """Reads with `read()` until `ready(value)` holds and returns that value.
    A reading of something that is still coming (a popup sliding in, a
    screenshot a busy machine took early, a count not yet final) is taken
    again rather than once; a timeout says what was last read, through
    `describe`."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if ready(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for %s; it last read %s" % (what, describe(value)))
        time.sleep(0.05)


def voluntary_switches(pid, main_thread_only=False):
    """How often all threads of a process (or its main thread, the one that
    runs the loop) went to sleep: a count of its wake-ups, which a busy loop
    would drive into the thousands."""
    tasks = [str(pid)] if main_thread_only else os.listdir("/proc/%d/task" % pid)
    return sum(_task_switches(pid, task) for task in tasks)


def _task_switches(pid, task):
    """The voluntary switches of one thread of a process."""
    with open("/proc/%d/task/%s/status" % (pid, task)) as handle:
        for line in handle:
            if line.startswith("voluntary_ctxt_switches"):
                return int(line.split()[1])
    return 0


def switches_by_thread(pid):
    """The voluntary switches of each thread of a process, by "tid name":
    which thread woke, when a count says one did."""
    found = {}
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, task)) as handle:
                name = handle.read().strip()
            found["%s %s" % (task, name)] = _task_switches(pid, task)
        except FileNotFoundError:
            continue  # the thread ended meanwhile
    return found


def wait_until_settled(pid, quiet_s=5):
    """Waits until no thread of the process has switched for `quiet_s`: the
    end of its start-up, whose last steps (a worker thread's first answer,
    say) may come after READY=1 on a loaded machine."""
    deadline = time.monotonic() + PATIENCE
    seen = switches_by_thread(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = switches_by_thread(pid)
        if now == seen:
            return
        seen = now
    raise AssertionError("the agent's threads kept switching for %d s after its start: %s" % (PATIENCE, seen))


def cpu_seconds(pid):
    """CPU time a process has used: what a busy loop burns while it waits."""
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def canary_token():
    """A token unique to one test, easy to search for wherever it must not be."""
    return "dflnat_CANARY_" + uuid.uuid4().hex


def session_environment(root, home, runtime):
    """A private session's environment: its own HOME and XDG directories
    under `root`, nothing of the tests' own but PATH."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_CONFIG_DIRS": os.path.join(root, "etc-xdg"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_RUNTIME_DIR": runtime,
        "LANG": "C.UTF-8",
    }


class Session:
    """A private home with its own session bus, whose only service directory
    is the session's own (so no installed service starts by itself)."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="dfl-it-")
        self.home = os.path.join(self.root, "home")
        self.runtime = os.path.join(self.root, "runtime")
        self.services = os.path.join(self.root, "services")
        for path in (self.home, self.runtime, self.services):
            os.makedirs(path, mode=0o700)
        self.config_dir = os.path.join(self.home, ".config", "dreamsforlittles")
        self.state_dir = os.path.join(self.home, ".local", "state", "dreamsforlittles")
        os.makedirs(self.config_dir)
        self.env = session_environment(self.root, self.home, self.runtime)
        # A sanitized build reads its options (suppressions among them)
        # from the environment.
        for name in ("ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"):
            if name in os.environ:
                self.env[name] = os.environ[name]
        config = os.path.join(self.root, "bus.conf")
        with open(config, "w") as handle:
            handle.write(BUS_CONFIG.format(socket=os.path.join(self.runtime, "bus"), services=self.services))
        self.bus_log = open(os.path.join(self.root, "dbus-daemon.log"), "w")
        self.bus = subprocess.Popen(
            ["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE, stderr=self.bus_log, env=self.env, text=True)
        address = self.bus.stdout.readline().strip()
        if not address:
            raise RuntimeError("dbus-daemon did not start")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = address
        self.processes = []
        self.agents = []
        self.write_config()

    def bus_output(self):
        """What the bus logged, D-Bus-activated programs' output among it."""
        self.bus_log.flush()
        with open(self.bus_log.name, errors="replace") as handle:
            return handle.read()

    def write_config(self, text=None):
        if text is None:
            text = "[platform]\nallowed-origins=%s;http://127.0.0.1:1\n\n[app]\nurl-opener=%s\n" % (
                ORIGIN, self.opener_path())
        with open(os.path.join(self.config_dir, "sleep-agent.conf"), "w") as handle:
            handle.write(text)

    def opener_path(self):
        """A url-opener that appends each URL it is given to a file."""
        path = os.path.join(self.root, "record-url")
        if not os.path.exists(path):
            with open(path, "w") as handle:
                handle.write('#!/bin/sh\nprintf "%%s\\n" "$1" >> "%s"\n' % os.path.join(self.root, "opened-urls"))
            os.chmod(path, 0o755)
        return path

    def opened_urls(self):
        try:
            with open(os.path.join(self.root, "opened-urls")) as handle:
                return handle.read().split()
        except FileNotFoundError:
            return []

    def close(self):
        # An agent's sanitizer report fails the test from agent.close(); the
        # bus and the directory still go.
        try:
            for process in reversed(self.processes):
                stop(process)
            for agent in self.agents:
                agent.close()
        finally:
            stop(self.bus)
            self.bus_log.close()
            shutil.rmtree(self.root, ignore_errors=True)


def stop(process, sig=signal.SIGTERM):
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for stream in (process.stdout, process.stderr, process.stdin):
        if stream:
            stream.close()


class NotifySocket:
    """The receiving end of NOTIFY_SOCKET, as systemd would hold it."""

    def __init__(self, directory):
        self.path = os.path.join(directory, "notify-%s" % uuid.uuid4().hex[:8])
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(self.path)
        self.socket.settimeout(PATIENCE)

    def receive(self):
        return self.socket.recv(4096).decode()

    def close(self):
        self.socket.close()


class AgentProcess:
    """The real dfl-sleep-agent binary on the session's bus, started and
    waited for through the sd_notify protocol (READY=1)."""

    def __init__(self, session, extra_env=None, wait=True, wrapper=()):
        """`wrapper`: a command that ends by exec'ing the agent, given as
        its last argument (a mount namespace, say)."""
        self.session = session
        self.notify = NotifySocket(session.runtime)
        env = dict(session.env, NOTIFY_SOCKET=self.notify.path, **(extra_env or {}))
        self.stderr_path = os.path.join(session.root, "agent-%s.log" % uuid.uuid4().hex[:8])
        self.stderr_file = open(self.stderr_path, "w")
        self.process = subprocess.Popen([*wrapper, AGENT], env=env, stdout=subprocess.DEVNULL, stderr=self.stderr_file)
        session.processes.append(self.process)
        session.agents.append(self)
        if wait:
            message = self.notify.receive()
            if "READY=1" not in message:
                raise RuntimeError("agent sent %r instead of READY=1" % message)

    @property
    def pid(self):
        return self.process.pid

    def log(self):
        self.stderr_file.flush()
        with open(self.stderr_path) as handle:
            return handle.read()

    def terminate(self, sig=signal.SIGTERM):
        self.process.send_signal(sig)
        status = self.process.wait(PATIENCE)
        self.close()
        return status

    def close(self):
        if self.stderr_file.closed:
            return
        self.stderr_file.close()
        self.notify.close()
        # Under a sanitizer build, a report in the agent's log fails the test.
        with open(self.stderr_path, errors="replace") as handle:
            log = handle.read()
        for marker in ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer"):
            if marker in log:
                raise AssertionError("dfl-sleep-agent reported a sanitizer finding:\n" + log[log.index(marker):][:4000])


def gdbus_call(session, method, *args, interface=INTERFACE, check=True):
    """Calls a method through gdbus, as a shell script would."""
    result = subprocess.run(
        ["gdbus", "call", "--session", "--dest", BUS_NAME, "--object-path", OBJECT_PATH,
         "--method", "%s.%s" % (interface, method), *args],
        env=session.env, capture_output=True, text=True, timeout=PATIENCE)
    if check and result.returncode != 0:
        raise AssertionError("gdbus %s failed: %s" % (method, result.stderr))
    return result


def sleepctl(session, *args):
    return subprocess.run([SLEEPCTL, *args], env=session.env, capture_output=True, text=True, timeout=PATIENCE)


def timer_dict(**overrides):
    """A valid Mirror dictionary as plain Python values."""
    timer = {
        "timer_id": str(uuid.uuid4()),
        "api_origin": ORIGIN,
        "user_id": USER_ID,
        "family_subject_id": FAMILY_ID,
        "baby_id": BABY_ID,
        "baby_name": "Maya",
        "activity_type": "sleep",
        "actor_mode": "self",
        "started_at_ms": now_ms() - 83 * 60 * 1000,
        "timezone": "Europe/Berlin",
        "action_token": canary_token(),
        "token_expires_at_ms": now_ms() + 12 * 3600 * 1000,
        "revision": 1,
    }
    timer.update(overrides)
    return {key: value for key, value in timer.items() if value is not None}


# ---------------------------------------------------------------------------
# The reference platform, over TLS with a test CA the agent is told to trust.

DEMO_FAMILY = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
MAYA = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21"
LEO = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d22"


class Platform:
    """The reference platform with the demo family, over TLS (or, with
    `tls=False`, plain http on loopback, which the agent allows there)."""

    def __init__(self, session, db=None, env=None, tls=True, extra_args=(), certs=None):
        """`env`: the platform's environment, for example one with libfaketime
        that sets its clock off the desktop's; `extra_args`: more options
        (--webapp); `certs`: another platform's certificates, for a second
        origin the same test CA vouches for."""
        self.session = session
        if certs is None and tls:
            certs = make_certs(os.path.join(session.root, "certs-%s" % uuid.uuid4().hex[:6]))
        self.certs = certs
        self.db = db or os.path.join(session.root, "platform-%s.sqlite3" % uuid.uuid4().hex[:6])
        self.env = env
        self.extra_args = tuple(extra_args)
        self.process = PlatformProcess(certs=self.certs, db=self.db, fixtures="demo", env=env,
                                       extra_args=self.extra_args).start()
        self.origin = self.process.ready["api"]
        self.port = self.process.api_port
        users = self.process.control_json("GET", "/control/users")["users"]
        self.parent = next(u for u in users if "parent" in u["name"])
        self.coach = next(u for u in users if "coach" in u["name"])

    def start_again(self):
        """Starts the platform again after stop(), with the same state on the
        same port: the same origin, as after an outage."""
        self.process = PlatformProcess(certs=self.certs, db=self.db, fixtures="demo",
                                       extra_args=self.extra_args + ("--port", str(self.port)), env=self.env).start()

    def configure(self, extra="", platform_extra=""):
        """Writes the agent's configuration for this platform, with more
        lines for [platform] and after [app]."""
        ca = "ca-file=%s\n" % os.path.join(str(self.certs), "ca.pem") if self.certs else ""
        self.session.write_config(
            "[platform]\nallowed-origins=%s\n%s%s\n[app]\nurl-opener=%s\n%s" % (
                self.origin, ca, platform_extra, self.session.opener_path(), extra))

    def start_sleep(self, baby=MAYA, started_ago_s=83 * 60, user=None, request_token=True, timer_id=None):
        """Starts a Sleep timer as the parent (self-mode), asking for a native
        action token: returns (timer_id, reply) with the token in reply."""
        timer_id = timer_id or str(uuid.uuid4())
        started = time.time() - started_ago_s
        body = {"familySubjectId": DEMO_FAMILY, "babyId": baby, "activityType": "sleep",
                "startedAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(started)),
                "timezone": "Europe/Berlin", "details": {}, "note": None,
                "requestNativeActionToken": request_token}
        reply = self.process.api("PUT", "/active-timers/" + timer_id, body, token=(user or self.parent)["accessToken"])
        if reply.status not in (200, 201):
            raise AssertionError("PUT timer: %d %s" % (reply.status, reply.body))
        return timer_id, reply.json

    def mirror(self, client, timer_id, reply, baby_name="Maya", baby=MAYA, token=None, **extra):
        """Mirrors a platform timer with its token to the agent, as the bridge
        does: the token through a pipe, never in the message. `extra` are
        more keys of the Mirror dictionary."""
        timer = reply["timer"]
        issued = reply["nativeActionToken"]
        token = token or issued["token"]
        read_end, write_end = os.pipe()
        os.write(write_end, token.encode())
        os.close(write_end)
        try:
            client.mirror({
                "timer_id": timer_id, "api_origin": self.origin, "user_id": self.parent["id"],
                "family_subject_id": DEMO_FAMILY, "baby_id": baby, "baby_name": baby_name,
                "activity_type": "sleep", "actor_mode": "self", "started_at_ms": iso_ms(timer["startedAt"]),
                "timezone": timer["timezone"], "action_token_fd": FileDescriptor(read_end),
                "token_expires_at_ms": iso_ms(issued["expiresAt"]), "revision": timer["revision"], **extra})
        finally:
            os.close(read_end)
        return token

    def activities(self):
        return self.process.control_json("GET", "/control/activities")["activities"]

    def requests(self):
        return self.process.control_json("GET", "/control/requests")["requests"]

    def fault(self, **fault):
        self.process.control_json("POST", "/control/faults", fault)

    def clear_faults(self):
        self.process.control_json("DELETE", "/control/faults")

    def wait_for_activities(self, count, timeout=PATIENCE):
        deadline = time.monotonic() + timeout
        while len(self.activities()) < count:
            if time.monotonic() > deadline:
                raise AssertionError("expected %d activities, have %d" % (count, len(self.activities())))
            time.sleep(0.05)
        return self.activities()

    def stop(self):
        if self.process.process is not None:
            self.process.stop()


class SystemBus:
    """A second private bus standing in for the system bus, where a test plays
    NetworkManager and announces the network state as it does. Without
    `network_manager`, nobody owns its name: a client that calls
    NetworkManager (GNOME Shell does) is told at once there is none, instead
    of waiting for an answer this process does not give."""

    def __init__(self, session, network_manager=True):
        import dbus.bus
        config = os.path.join(session.root, "system-bus.conf")
        with open(config, "w") as handle:
            handle.write(BUS_CONFIG.format(socket=os.path.join(session.runtime, "system-bus"),
                                           services=session.services))
        self.log = open(os.path.join(session.root, "system-bus.log"), "w")
        self.process = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
                                        stdout=subprocess.PIPE, stderr=self.log, text=True)
        session.processes.append(self.process)
        self.address = self.process.stdout.readline().strip()
        session.env["DBUS_SYSTEM_BUS_ADDRESS"] = self.address
        self.connection = dbus.bus.BusConnection(self.address)
        if network_manager:
            self.connection.request_name("org.freedesktop.NetworkManager")

    def network_state(self, state):
        import dbus
        import dbus.lowlevel
        message = dbus.lowlevel.SignalMessage("/org/freedesktop/NetworkManager", "org.freedesktop.NetworkManager",
                                              "StateChanged")
        message.append(dbus.UInt32(state), signature="u")
        self.connection.send_message(message)
        self.connection.flush()

    def close(self):
        self.connection.close()
        self.log.close()


class FileDescriptor:
    """A descriptor to send as D-Bus type h."""

    def __init__(self, descriptor):
        self.descriptor = descriptor


def iso_ms(text):
    """An ISO-8601 UTC time with milliseconds as ms since 1970."""
    import calendar
    seconds = calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S"))
    millis = int(text[20:23]) if len(text) > 20 and text[19] == "." else 0
    return seconds * 1000 + millis


class PlatformTestCase(unittest.TestCase):
    """A session with the reference platform, the agent configured for it
    (plus `extra_config`, more lines of sleep-agent.conf)."""

    extra_config = ""
    # The platform's environment (None: the tests' own).
    platform_env = None
    # False: the platform speaks plain http on loopback.
    platform_tls = True

    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        self.platform = Platform(self.session, env=self.platform_env, tls=self.platform_tls)
        self.addCleanup(self.platform.stop)
        self.platform.configure(self.extra_config)
        self.agent = None
        self.client = None

    def start_agent(self, **env):
        """The agent (again), and a python3-dbus client that follows it."""
        from dbus_client import Client
        self.agent = AgentProcess(self.session, extra_env=env)
        if self.client is None:
            self.client = Client(self.session)
            self.addCleanup(self.client.close)
        return self.agent

    def new_timer(self, baby=MAYA):
        """A Sleep timer started on the platform and mirrored with its token:
        (timer id, token, the platform's reply)."""
        timer_id, reply = self.platform.start_sleep(baby=baby)
        token = self.platform.mirror(self.client, timer_id, reply, baby=baby)
        return timer_id, token, reply

    def timer(self, timer_id):
        return next((t for t in self.client.list() if t["timer_id"] == timer_id), None)

    def state(self, timer_id):
        return (self.timer(timer_id) or {}).get("state")

    def activities_of(self, timer_id):
        return [a for a in self.platform.activities() if a["timerId"] == timer_id]


class AgentTestCase(unittest.TestCase):
    """A session with a running agent for each test."""

    start_agent = True

    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        if self.start_agent:
            self.agent = AgentProcess(self.session)
