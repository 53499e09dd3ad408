"""The programs under test as processes: where the binaries are, the real
agent started on a session's bus and waited for through sd_notify, the
clients a shell script would use (gdbus, dfl-sleepctl), and stopping a
process by its pid. Also the agent's names on the bus and a valid Mirror
dictionary, which every client needs."""

import os
import signal
import socket
import subprocess
import uuid

from patience import PATIENCE, now_ms

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The binaries under test: the debug build, or another folder of the same
# programs (a sanitizer's build, /usr/bin for the installed package).
BUILD = os.environ.get("DFL_BUILD_DIR", os.path.join(REPO, ".build", "debug"))
AGENT = os.path.join(BUILD, "dfl-sleep-agent")
# Where the desktop tests leave their screenshots (and the crops they read).
ARTIFACTS = os.environ.get("DFL_ARTIFACTS") or os.path.join(REPO, "build", "test-artifacts")
SLEEPCTL = os.path.join(BUILD, "dfl-sleepctl")

BUS_NAME = "com.dreamsforlittles.DreamsForLittles.SleepTimers1"
OBJECT_PATH = "/com/dreamsforlittles/SleepTimers1"
INTERFACE = "com.dreamsforlittles.SleepTimers1"
ERROR = INTERFACE + ".Error."

ORIGIN = "https://api.dreamsforlittles.example"
USER_ID = "9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f"
FAMILY_ID = "c56a4180-65aa-42ec-a945-5fd21dec0538"
BABY_ID = "7d444840-9dc0-11d1-b245-5ffdce74fad2"

# What in a program's log means a sanitizer found something: the test that
# started the program fails.
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer")


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
        for marker in SANITIZER_MARKERS:
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


class FileDescriptor:
    """A descriptor to send as D-Bus type h."""

    def __init__(self, descriptor):
        self.descriptor = descriptor


def canary_token():
    """A token unique to one test, easy to search for wherever it must not be."""
    return "dflnat_CANARY_" + uuid.uuid4().hex


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
