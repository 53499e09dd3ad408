"""dfl-webview-bridge end to end: the real bridge on stdin/stdout as the
desktop wrapper runs it, the reference platform over TLS, a private bus and
the real agent."""

import json
import os

import dbus
import dbus.lowlevel
import queue
import subprocess
import threading
import time
import unittest
import uuid

import bus_probe
from dbus_client import Client
from desktop import BusMonitor
from harness import (BUILD, DEMO_FAMILY, INTERFACE, LEO, MAYA, OBJECT_PATH, PATIENCE, AgentProcess, PlatformTestCase,
                     eventually, iso_ms, now_ms)

BRIDGE = os.path.join(BUILD, "dfl-webview-bridge")


class Bridge:
    """The bridge process with a reader of its output lines."""

    def __init__(self, session, extra_env=None, command=None):
        """`extra_env`: what differs from the session's environment (another
        installation's XDG_STATE_HOME, say); `command`: another way to run
        it (the installed package's, a Flatpak's `flatpak run`)."""
        self.stderr_path = os.path.join(session.root, "bridge-%s.log" % uuid.uuid4().hex[:6])
        self.stderr = open(self.stderr_path, "w")
        self.process = subprocess.Popen(command or [BRIDGE], env=dict(session.env, **(extra_env or {})), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr)
        session.processes.append(self.process)
        self.lines = queue.Queue()
        self.notifications = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.decode())

    def send(self, text):
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()

    def receive(self):
        return self.lines.get(timeout=PATIENCE)

    def call(self, method, params=None):
        self.next_id += 1
        request = {"jsonrpc": "2.0", "method": method, "id": self.next_id}
        if params is not None:
            request["params"] = params
        self.send(json.dumps(request))
        while True:
            message = json.loads(self.receive())
            if message.get("id") == self.next_id:
                return message
            self.notifications.append(message)

    def result(self, method, params=None):
        answer = self.call(method, params)
        if "error" in answer:
            raise AssertionError("%s failed: %r" % (method, answer["error"]))
        return answer["result"]

    def wait_notification(self, method):
        deadline = time.monotonic() + PATIENCE
        while not any(n.get("method") == method for n in self.notifications):
            try:
                self.notifications.append(json.loads(self.lines.get(timeout=max(0.01, deadline - time.monotonic()))))
            except queue.Empty:
                break
        return [n for n in self.notifications if n.get("method") == method]

    def log(self):
        if not self.stderr.closed:
            self.stderr.flush()
        with open(self.stderr_path) as handle:
            return handle.read()

    def close(self):
        self.process.stdin.close()
        self.process.wait(PATIENCE)
        self.stderr.close()


def sleep_timer(activity="sleep", baby=MAYA, name="Maya", started_ago=42 * 60):
    return {"id": str(uuid.uuid4()), "babyId": baby, "babyName": name, "activityType": activity,
            "startedAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - started_ago)),
            "timezone": "Europe/Berlin", "details": {}, "note": None}


class BridgeTestCase(PlatformTestCase):
    def setUp(self):
        super().setUp()
        self.agent = AgentProcess(self.session)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)
        self.bridge = Bridge(self.session)
        self.addCleanup(lambda: self.bridge.process.poll() is None and self.bridge.close())

    def self_session(self, user=None):
        user = user or self.platform.parent
        return self.bridge.result("session.set", {
            "apiOrigin": self.platform.origin, "userId": user["id"], "accessToken": user["accessToken"],
            "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})

    def coach_session(self):
        coach = self.platform.coach
        return self.bridge.result("session.set", {
            "apiOrigin": self.platform.origin, "userId": coach["id"], "accessToken": coach["accessToken"],
            "actor": {"mode": "coach", "familySubjectId": DEMO_FAMILY}})

    def put_bodies(self):
        return [r["body"] for r in self.platform.requests() if r["method"] == "PUT"]

    def puts_of(self, timer_id):
        return [r for r in self.platform.requests() if r["method"] == "PUT" and r["path"] == "/active-timers/" + timer_id]

    def platform_timer(self, timer_id):
        return next((t for t in self.platform.process.control_json("GET", "/control/timers")["timers"]
                     if t["id"] == timer_id), None)

    def mirror_calls(self, monitor):
        """The dictionaries of the Mirror calls on the bus, as dbus-monitor
        printed them: {key: value line}."""
        calls = []
        for header, args in monitor.messages():
            if header.startswith("method call") and "member=Mirror" in header:
                entries = {}
                for index, line in enumerate(args[:-1]):
                    if line.startswith('string "') and args[index + 1].startswith("variant"):
                        entries[line[len('string "'):-1]] = args[index + 1][len("variant"):].strip()
                calls.append(entries)
        return calls


class NativePathTests(BridgeTestCase):
    def test_capabilities(self):
        capabilities = self.bridge.result("bridge.getCapabilities")
        self.assertEqual(capabilities["protocolVersion"], 1)
        self.assertIs(capabilities["nativeSleepTimer"], True)
        self.assertRegex(capabilities["agentVersion"], r"^\d+\.\d+\.\d+$")

    def test_self_mode_sleep_is_mirrored_completed_once_and_reported(self):
        self.self_session()
        timer = sleep_timer()
        answer = self.bridge.result("sleepTimer.upsert", {"timer": timer})
        self.assertEqual(answer["native"], {"mirrored": True, "reason": "mirrored"})
        self.assertEqual(answer["timer"]["id"], timer["id"])
        self.assertNotIn("nativeActionToken", json.dumps(answer))
        self.assertIs(self.put_bodies()[-1]["requestNativeActionToken"], True)
        [listed] = self.client.list()
        self.assertEqual((listed["timer_id"], listed["baby_name"], listed["can_complete"]), (timer["id"], "Maya", True))
        self.client.timers.Complete(timer["id"], dbus.Int64(0))
        [activity] = self.platform.wait_for_activities(1)
        [note] = self.bridge.wait_notification("sleepTimer.completedNatively")
        self.assertEqual(note["params"], {"timerId": timer["id"], "activityId": activity["id"]})
        self.assertNotIn("id", note)

    def test_coach_view_as_never_asks_for_a_token_and_never_mirrors(self):
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        self.coach_session()
        answer = self.bridge.result("sleepTimer.upsert", {"timer": sleep_timer()})
        self.assertEqual(answer["native"], {"mirrored": False, "reason": "coach-view-as"})
        self.assertNotIn("requestNativeActionToken", self.put_bodies()[-1])
        self.assertEqual(self.client.list(), [])
        self.assertNotIn("member=Mirror", monitor.text())

    def test_breastfeeding_and_pumping_are_never_mirrored(self):
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        self.self_session()
        for activity, baby in (("breastfeeding", MAYA), ("pumping", LEO)):
            answer = self.bridge.result("sleepTimer.upsert", {"timer": sleep_timer(activity, baby)})
            self.assertEqual(answer["native"], {"mirrored": False, "reason": "not-sleep"})
        self.assertTrue(all("requestNativeActionToken" not in body for body in self.put_bodies()))
        self.assertEqual(self.client.list(), [])
        self.assertNotIn("member=Mirror", monitor.text())

    def test_sign_out_purges_the_scope(self):
        self.self_session()
        self.bridge.result("sleepTimer.upsert", {"timer": sleep_timer()})
        self.bridge.result("sleepTimer.upsert", {"timer": sleep_timer(baby=LEO, name="Leo")})
        self.assertEqual(len(self.client.list()), 2)
        self.assertEqual(self.bridge.result("session.clear"), {"purged": 2})
        self.assertEqual(self.client.list(), [])
        self.assertEqual(self.bridge.result("session.clear"), {"purged": 0})
        error = self.bridge.call("sleepTimer.upsert", {"timer": sleep_timer()})["error"]
        self.assertEqual((error["code"], error["data"]["code"]), (-32010, "no_session"))

    def test_a_switch_of_user_purges_the_previous_users_timers(self):
        self.self_session()
        self.bridge.result("sleepTimer.upsert", {"timer": sleep_timer()})
        self.assertEqual(len(self.client.list()), 1)
        self.self_session(user=self.platform.coach)
        self.assertEqual(self.client.list(), [])

    def test_remove_and_reconcile(self):
        self.self_session()
        first, second = sleep_timer(), sleep_timer(baby=LEO, name="Leo")
        for timer in (first, second):
            self.bridge.result("sleepTimer.upsert", {"timer": timer})
        self.assertEqual(self.bridge.result("sleepTimers.reconcile", {"runningTimerIds": [second["id"]]}), {"removed": 1})
        self.assertEqual(self.bridge.result("sleepTimer.remove", {"timerId": second["id"]}), {"removed": True})
        self.assertEqual(self.bridge.result("sleepTimer.remove", {"timerId": second["id"]}), {"removed": False})
        self.assertEqual(self.client.list(), [])

    def test_remove_needs_a_session_and_reports_an_unreachable_agent(self):
        error = self.bridge.call("sleepTimer.remove", {"timerId": str(uuid.uuid4())})["error"]
        self.assertEqual((error["code"], error["data"]["code"]), (-32010, "no_session"))
        self.self_session()
        self.agent.terminate()
        error = self.bridge.call("sleepTimer.remove", {"timerId": str(uuid.uuid4())})["error"]
        self.assertEqual((error["code"], error["data"]["code"]), (-32003, "agent_unavailable"))
        error = self.bridge.call("sleepTimers.reconcile", {"runningTimerIds": []})["error"]
        self.assertEqual(error["code"], -32003)
        # Sign-out succeeds (the bearer token is forgotten) and says the desktop was not cleared.
        self.assertEqual(self.bridge.result("session.clear"), {"purged": 0, "agentUnavailable": True})

    def test_only_this_sessions_completions_reach_the_webview(self):
        self.self_session()
        foreign_id, reply = self.platform.start_sleep(baby=LEO)
        self.platform.mirror(self.client, foreign_id, reply, baby=LEO, baby_name="Leo")
        timer = sleep_timer()
        self.bridge.result("sleepTimer.upsert", {"timer": timer})
        self.client.timers.Complete(foreign_id, dbus.Int64(0))
        self.client.timers.Complete(timer["id"], dbus.Int64(0))
        self.platform.wait_for_activities(2)
        notes = self.bridge.wait_notification("sleepTimer.completedNatively")
        time.sleep(0.5)
        notes = self.bridge.wait_notification("sleepTimer.completedNatively")
        self.assertEqual([n["params"]["timerId"] for n in notes], [timer["id"]])

    def test_platform_refusals_carry_status_and_code(self):
        self.self_session()
        answer = self.bridge.call("sleepTimer.upsert", {"timer": sleep_timer(baby=str(uuid.uuid4()))})
        self.assertEqual(answer["error"]["code"], -32001)
        self.assertEqual(answer["error"]["data"], {"status": 404, "code": "baby_not_found"})

    def test_invalid_params_name_the_parameter(self):
        self.self_session()
        for change, parameter in ((("babyId", "x"), "timer.babyId"), (("activityType", "nap"), "timer.activityType"),
                                  (("babyName", 7), "timer.babyName"), (("startedAt", "noon"), "timer.startedAt")):
            timer = sleep_timer()
            timer[change[0]] = change[1]
            error = self.bridge.call("sleepTimer.upsert", {"timer": timer})["error"]
            self.assertEqual((error["code"], error["data"]["parameter"]), (-32602, parameter))
        error = self.bridge.call("session.set", {"apiOrigin": "https://evil.example", "userId": str(uuid.uuid4()),
                                                 "accessToken": "x", "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})["error"]
        self.assertEqual(error["data"]["parameter"], "apiOrigin")

    def test_the_bounds_hold_and_the_bridge_goes_on(self):
        self.bridge.send('{"jsonrpc":"2.0","method":"bridge.getCapabilities","params":["' + "x" * (1 << 20) + '"],"id":1}')
        answer = json.loads(self.bridge.receive())
        self.assertEqual(answer["error"]["code"], -32600)
        self.bridge.send("[" + ",".join(['{"jsonrpc":"2.0","method":"bridge.getCapabilities","id":2}'] * 101) + "]")
        self.assertEqual(json.loads(self.bridge.receive())["error"]["code"], -32600)
        self.bridge.send("[" * 1000 + "]" * 1000)
        self.assertEqual(json.loads(self.bridge.receive())["error"]["code"], -32600)
        self.assertIs(self.bridge.result("bridge.getCapabilities")["nativeSleepTimer"], True)

    def test_the_end_of_input_ends_the_bridge_cleanly(self):
        self.bridge.close()
        self.assertEqual(self.bridge.process.returncode, 0)


class DisplayNameTests(BridgeTestCase):
    def test_a_name_the_desktop_cannot_show_is_saved_on_the_platform_and_mirrored_cleaned(self):
        self.self_session()
        name = "\u202eMaya\nRose " + "x" * 189
        self.assertEqual(len(name), 200)
        timer = sleep_timer(name=name)
        answer = self.bridge.result("sleepTimer.upsert", {"timer": timer})
        self.assertEqual(answer["native"], {"mirrored": True, "reason": "mirrored"})
        self.assertEqual(self.platform_timer(timer["id"])["status"], "running")
        [listed] = self.client.list()
        self.assertEqual(listed["baby_name"], "Maya Rose " + "x" * 53 + "\u2026")

    def test_a_name_with_nothing_to_show_is_saved_on_the_platform_and_says_why_it_is_not_mirrored(self):
        self.self_session()
        timer = sleep_timer(name="\u202e\n\t\u2069")
        answer = self.bridge.result("sleepTimer.upsert", {"timer": timer})
        self.assertEqual(answer["native"], {"mirrored": False, "reason": "name-not-displayable"})
        self.assertEqual(answer["timer"]["id"], timer["id"])
        [put] = self.puts_of(timer["id"])
        self.assertEqual(put["status"], 201)
        self.assertNotIn("requestNativeActionToken", put["body"])
        self.assertEqual(self.client.list(), [])


class ScopeConflictTests(BridgeTestCase):
    def test_the_canonical_timer_is_mirrored_and_the_page_told(self):
        self.self_session()
        canonical_id, started = self.platform.start_sleep(baby=MAYA)
        other_device = started["nativeActionToken"]["token"]
        page_timer = sleep_timer()
        answer = self.bridge.call("sleepTimer.upsert", {"timer": page_timer})
        error = answer["error"]
        self.assertEqual(error["code"], -32001)
        self.assertEqual((error["data"]["status"], error["data"]["code"]), (409, "scope_conflict"))
        self.assertEqual(error["data"]["canonicalTimer"]["id"], canonical_id)
        self.assertEqual(error["data"]["canonicalTimer"]["startedAt"], started["timer"]["startedAt"])
        self.assertEqual(error["data"]["native"], {"mirrored": True, "reason": "mirrored"})
        self.assertNotIn("dflnat_", json.dumps(answer))
        # The page's own timer was never stored; the canonical one was upserted
        # again for its token, with its own fields.
        self.assertIsNone(self.platform_timer(page_timer["id"]))
        [_, adopt] = self.puts_of(canonical_id)
        self.assertEqual((adopt["status"], adopt["body"]["startedAt"], adopt["body"]["requestNativeActionToken"]),
                         (200, started["timer"]["startedAt"], True))
        [listed] = self.client.list()
        self.assertEqual((listed["timer_id"], listed["baby_name"], listed["can_complete"]), (canonical_id, "Maya", True))
        # One live token per timer: the other device's was revoked.
        refused = self.platform.process.api("POST", "/native/sleep-timers/%s/complete" % canonical_id, raw=json.dumps(
            {"actionToken": other_device, "completedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}).encode())
        self.assertEqual((refused.status, refused.json["error"]["code"]), (401, "token_revoked"))
        self.client.timers.Complete(canonical_id, dbus.Int64(0))
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual(activity["timerId"], canonical_id)
        [note] = self.bridge.wait_notification("sleepTimer.completedNatively")
        self.assertEqual(note["params"], {"timerId": canonical_id, "activityId": activity["id"]})

    def test_a_coach_is_told_the_canonical_timer_and_nothing_is_mirrored(self):
        self.coach_session()
        canonical_id, _ = self.platform.start_sleep(baby=LEO)
        error = self.bridge.call("sleepTimer.upsert", {"timer": sleep_timer(baby=LEO, name="Leo")})["error"]
        self.assertEqual((error["data"]["status"], error["data"]["code"]), (409, "scope_conflict"))
        self.assertEqual(error["data"]["canonicalTimer"]["id"], canonical_id)
        self.assertEqual(error["data"]["native"], {"mirrored": False, "reason": "coach-view-as"})
        self.assertEqual(len(self.puts_of(canonical_id)), 1)  # its start, and no more
        self.assertEqual(self.client.list(), [])


class ClockOffsetTests(BridgeTestCase):
    """The platform's clock 90 s ahead of the desktop's (libfaketime in the
    platform alone): the bridge measures it from the Date of its upsert's
    answer and passes it on in Mirror."""

    FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
    platform_env = dict(os.environ, LD_PRELOAD=FAKETIME, FAKETIME="+90s")

    def setUp(self):
        if not os.path.exists(self.FAKETIME):
            self.fail("libfaketime is missing: apt-get install faketime")
        super().setUp()

    def test_mirror_carries_the_platforms_clock_offset(self):
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        self.self_session()
        timer = sleep_timer()
        self.assertIs(self.bridge.result("sleepTimer.upsert", {"timer": timer})["native"]["mirrored"], True)
        [mirror] = self.mirror_calls(monitor)
        kind, value = mirror["platform_clock_offset_ms"].split()
        self.assertEqual(kind, "int64")
        # Half a second for the Date header's resolution, and some for the trip.
        self.assertLess(abs(int(value) - 90_000), 2_000, value)


class AgentSignalTests(BridgeTestCase):
    # Half a minute waited for a renewal that must not come: it runs in the
    # lane beside the workers (parallel.py), not in one of them.
    mostly_waits = True

    def forge(self, forger, member, signature, *args, destination=None):
        message = dbus.lowlevel.SignalMessage(OBJECT_PATH, INTERFACE, member)
        message.append(*args, signature=signature)
        if destination:
            message.set_destination(destination)
        forger.send_message(message)

    def test_signals_forged_by_another_connection_never_reach_the_webview(self):
        self.self_session()
        timer = sleep_timer()
        self.bridge.result("sleepTimer.upsert", {"timer": timer})
        [bridge_name] = bus_probe.connections_of(self.client.bus, self.bridge.process.pid)
        forger = bus_probe.private_connection(self.session)
        self.addCleanup(forger.close)
        # The bridge renews a token at most every 30 s: past that, a forged
        # TokenExpiring that was believed would make it upsert at once.
        time.sleep(31)
        for destination in (None, bridge_name):
            self.forge(forger, "TokenExpiring", "sx", timer["id"], now_ms() + 60_000, destination=destination)
            self.forge(forger, "TimerRemoved", "ss", timer["id"], "reconciled", destination=destination)
            self.forge(forger, "CompletionFinished", "sss", timer["id"], "created", "forged-activity",
                       destination=destination)
        bus_probe.bus_daemon(forger).GetId()
        # The forgeries were delivered before the agent's real signals:
        # the real completion still reaches the page, once, with its id.
        self.client.timers.Complete(timer["id"], dbus.Int64(0))
        [activity] = self.platform.wait_for_activities(1)
        [note] = self.bridge.wait_notification("sleepTimer.completedNatively")
        self.assertEqual(note["params"], {"timerId": timer["id"], "activityId": activity["id"]})
        self.bridge.result("bridge.getCapabilities")
        self.assertNotIn("forged", json.dumps(self.bridge.notifications))
        self.assertEqual(len(self.puts_of(timer["id"])), 1)

    def test_the_agents_next_owner_is_believed(self):
        self.self_session()
        timer = sleep_timer()
        self.bridge.result("sleepTimer.upsert", {"timer": timer})
        self.agent.terminate()
        self.agent = AgentProcess(self.session)
        self.client.timers.Complete(timer["id"], dbus.Int64(0))
        [activity] = self.platform.wait_for_activities(1)
        [note] = self.bridge.wait_notification("sleepTimer.completedNatively")
        self.assertEqual(note["params"], {"timerId": timer["id"], "activityId": activity["id"]})


class TokenRenewalTests(BridgeTestCase):
    """Tokens of 40 s, renewed half an hour ahead (the agent's default): each
    token is due for renewal the moment it arrives, and the bridge renews a
    timer every 30 s, the most often it does. The class mostly waits for
    tokens to come due: it runs in parallel.py's lane beside the workers."""

    TOKEN_SECONDS = 40
    mostly_waits = True

    def setUp(self):
        super().setUp()
        self.platform.process.control_json("POST", "/control/config", {"tokenTtlSeconds": self.TOKEN_SECONDS})

    def test_a_live_session_renews_the_token_and_the_sleep_completes_after_the_first_one_expired(self):
        self.self_session()
        timer = sleep_timer()
        self.bridge.result("sleepTimer.upsert", {"timer": timer})
        [first] = self.puts_of(timer["id"])
        first_expiry_ms = first["arrivalNs"] // 1_000_000 + self.TOKEN_SECONDS * 1000
        # The platform logs a request when it arrives and its status when it
        # has answered: wait for the answer too.
        eventually(lambda: len(self.puts_of(timer["id"])) >= 2 and self.puts_of(timer["id"])[1]["status"] is not None,
                   timeout=self.TOKEN_SECONDS + PATIENCE, what="the renewal and its answer")
        renewal = self.puts_of(timer["id"])[1]
        self.assertLess(renewal["arrivalNs"] // 1_000_000, first_expiry_ms, "renewed only after the token expired")
        self.assertEqual((renewal["status"], renewal["hasAuthorization"]), (200, True))
        self.assertEqual(renewal["body"], first["body"])
        eventually(lambda: self.platform_timer(timer["id"])["nativeActionTokensRevoked"] >= 1, what="the revocation")
        # Past the first token's expiry, between two renewals.
        while now_ms() <= first_expiry_ms + 1000:
            time.sleep(0.2)
        [listed] = self.client.list()
        self.assertEqual((listed["state"], listed["can_complete"]), ("running", True))
        self.client.timers.Complete(timer["id"], dbus.Int64(0))
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual(activity["timerId"], timer["id"])
        [note] = self.bridge.wait_notification("sleepTimer.completedNatively")
        self.assertEqual(note["params"]["activityId"], activity["id"])
        # A renewal every 30 s at the most, not a storm.
        self.assertLessEqual(len(self.puts_of(timer["id"])), 3)
        self.assertNotIn("dflnat_", self.bridge.log())

    def test_without_a_session_for_the_family_nothing_is_renewed(self):
        self.self_session()
        timer = sleep_timer()
        self.bridge.result("sleepTimer.upsert", {"timer": timer})
        # The same user looks at another family now.
        self.bridge.result("session.set", {
            "apiOrigin": self.platform.origin, "userId": self.platform.parent["id"],
            "accessToken": self.platform.parent["accessToken"],
            "actor": {"mode": "self", "familySubjectId": str(uuid.uuid4())}})
        self.assertTrue(self.client.wait_for(lambda: any(
            member == "TimerChanged" and args[0]["timer_id"] == timer["id"] and args[0]["state"] == "token-expired"
            for member, args in self.client.signals), timeout=self.TOKEN_SECONDS + PATIENCE))
        self.assertEqual(len(self.puts_of(timer["id"])), 1)
        self.assertEqual(self.platform_timer(timer["id"])["nativeActionTokensIssued"], 1)


class BearerTokenTests(BridgeTestCase):
    def test_the_bearer_token_appears_only_in_the_put(self):
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        bearer = self.platform.parent["accessToken"]
        self.self_session()
        timer = sleep_timer()
        replies = json.dumps(self.bridge.result("sleepTimer.upsert", {"timer": timer}))
        self.client.timers.Complete(timer["id"], dbus.Int64(0))
        self.platform.wait_for_activities(1)
        self.bridge.wait_notification("sleepTimer.completedNatively")
        replies += json.dumps(self.bridge.result("session.clear"))
        self.bridge.close()
        places = {"bridge stderr": self.bridge.log(), "agent stderr": self.agent.log(), "the bus": monitor.text(),
                  "JSON-RPC replies": replies}
        for root, _, files in os.walk(self.session.home):
            for name in files:
                with open(os.path.join(root, name), "rb") as handle:
                    places["file " + name] = handle.read().decode(errors="replace")
        with open("/proc/%d/environ" % self.agent.pid, "rb") as handle:
            places["agent environ"] = handle.read().decode(errors="replace")
        for where, text in places.items():
            self.assertNotIn(bearer, text, "the bearer token appeared in " + where)
        self.assertTrue(self.put_bodies())  # the PUT was made, with the token in its header only
        self.assertTrue(all(r["hasAuthorization"] for r in self.platform.requests() if r["method"] == "PUT"))


if __name__ == "__main__":
    unittest.main()
