"""The reference platform (scripts/tests/platform_harness.py) for the
integration tests: started over TLS with a test CA the agent is told to
trust (or plain http on loopback), on a port the kernel hands out, with the
demo family; the agent configured for it; Sleep timers started there and
mirrored to the agent with their tokens, as the bridge does.

Named reference_platform, not platform: this folder is first on sys.path
and would hide the standard library's platform module."""

import os
import sys
import time
import uuid

from patience import PATIENCE, iso_ms
from processes import REPO, FileDescriptor

sys.path.insert(0, os.path.join(REPO, "scripts", "tests"))
from platform_harness import PlatformProcess, make_certs  # noqa: E402


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

    def sleep_route(self, timer_id, baby=MAYA):
        """The web app's page for a timer's Sleep, as the app's window
        shows it after a dreamsforlittles:// link."""
        return "%s/families/%s/babies/%s/track/sleep?timer=%s" % (self.origin, DEMO_FAMILY, baby, timer_id)

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
