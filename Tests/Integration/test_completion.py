"""Native completion against the reference platform over TLS: exactly once
under crashes at every step, through an outage, for every answer of the
contract, and with the token contained."""

import os
import signal
import time
import unittest

import dbus

from dbus_client import Client
from desktop import BusMonitor, RecordingServer
from harness import (INTERFACE, LEO, MAYA, ORIGIN, PATIENCE, AgentProcess, PlatformTestCase, SystemBus, cpu_seconds,
                     eventually, iso_ms, now_ms, timer_dict)
from recording_network import RecordingListener

RUNS = int(os.environ.get("DFL_CRASH_RUNS", "20"))


class CompletionTestCase(PlatformTestCase):
    def completion_posts(self, timer_id):
        return [r for r in self.platform.requests() if r["method"] == "POST" and timer_id in r["path"]]

    def wait_settled(self, timer_id):
        """Until the timer has left the list and nothing is pending."""
        eventually(lambda: self.timer(timer_id) is None
                   and int(self.client.properties.Get(INTERFACE, "PendingCompletions")) == 0,
                   what="timer %s to settle" % timer_id)


class CrashTests(CompletionTestCase):
    """The agent is killed with SIGKILL at each step of a completion, then
    started again: one activity, with the click's time, every time."""

    def complete_expecting_death(self, timer_id, clicked):
        try:
            self.client.timers.Complete(timer_id, dbus.Int64(clicked), timeout=PATIENCE)
        except dbus.exceptions.DBusException:
            pass  # the agent died before it could answer

    def check_exactly_once(self, timer_id, clicked):
        self.wait_settled(timer_id)
        [activity] = self.activities_of(timer_id)
        self.assertEqual(iso_ms(activity["endedAt"]), clicked)

    def crash_runs(self, prepare, crash, after_restart=None):
        for run in range(RUNS):
            with self.subTest(run=run):
                self.start_agent()
                timer_id, _, _ = self.new_timer(baby=(MAYA, LEO)[run % 2])
                clicked = now_ms() - 1000
                self.agent.terminate()
                prepare()
                crash(timer_id, clicked)
                self.platform.clear_faults()
                self.start_agent()
                if after_restart:
                    after_restart(timer_id, clicked)
                self.check_exactly_once(timer_id, clicked)
                self.agent.terminate()

    def test_killed_inside_the_outbox_transaction(self):
        def crash(timer_id, clicked):
            agent = self.start_agent(DFL_TEST_CRASH_AT="before-outbox-commit")
            self.complete_expecting_death(timer_id, clicked)
            self.assertEqual(agent.process.wait(PATIENCE), -signal.SIGKILL)

        def ask_again(timer_id, clicked):
            # The click was not recorded, and the caller was told nothing:
            # the timer still runs, and the caller asks again.
            self.assertEqual(self.timer(timer_id)["state"], "running")
            self.assertEqual(self.completion_posts(timer_id), [])
            self.client.timers.Complete(timer_id, dbus.Int64(clicked))
        self.crash_runs(lambda: None, crash, ask_again)

    def test_killed_after_the_outbox_commit_before_sending(self):
        def crash(timer_id, clicked):
            agent = self.start_agent(DFL_TEST_CRASH_AT="after-outbox-commit")
            self.complete_expecting_death(timer_id, clicked)
            self.assertEqual(agent.process.wait(PATIENCE), -signal.SIGKILL)
            self.assertEqual(self.completion_posts(timer_id), [])
        self.crash_runs(lambda: None, crash)

    def killed_once(self, seen, what):
        """A crash: Complete is clicked, and the agent is killed as soon as
        seen(timer_id) holds."""
        def crash(timer_id, clicked):
            agent = self.start_agent()
            self.client.timers.Complete(timer_id, dbus.Int64(clicked))
            eventually(lambda: seen(timer_id), what=what)
            os.kill(agent.pid, signal.SIGKILL)
            agent.process.wait(PATIENCE)
        return crash

    def test_killed_in_the_middle_of_the_request(self):
        self.crash_runs(lambda: self.platform.fault(route="complete", mode="latency", ms=1500, count=1),
                        self.killed_once(self.completion_posts, "the request to arrive"))

    def test_killed_after_the_platform_committed_before_its_reply(self):
        self.crash_runs(lambda: self.platform.fault(route="complete", mode="delay_after_commit", ms=1500, count=1),
                        self.killed_once(self.activities_of, "the platform to commit"))

    def test_killed_after_the_reply_before_the_local_commit(self):
        def crash(timer_id, clicked):
            agent = self.start_agent(DFL_TEST_CRASH_AT="after-reply")
            self.client.timers.Complete(timer_id, dbus.Int64(clicked))
            self.assertEqual(agent.process.wait(PATIENCE), -signal.SIGKILL)
            self.assertEqual(len(self.activities_of(timer_id)), 1)
        self.crash_runs(lambda: None, crash)


class OfflineTests(CompletionTestCase):
    # Three minutes of outage asleep: it runs in the lane beside the workers
    # (parallel.py), not in one of them.
    mostly_waits = True

    def test_an_outage_of_minutes_keeps_the_completion_and_lands_it_once(self):
        outage = float(os.environ.get("DFL_OUTAGE_SECONDS", "180"))
        system_bus = SystemBus(self.session)
        self.addCleanup(system_bus.close)
        system_bus.network_state(70)
        server = RecordingServer(self.session)
        self.start_agent()
        timer_id, _, _ = self.new_timer()
        self.platform.stop()
        system_bus.network_state(20)  # disconnected
        clicked = now_ms()
        self.assertEqual(str(self.client.timers.Complete(timer_id, dbus.Int64(clicked))), "queued")
        self.assertTrue(server.wait_for(lambda calls: any(
            "back online" in c.get("body", "") for c in calls if c["method"] == "Notify")),
            "the notification did not say it will save when back online")
        time.sleep(outage)
        [listed] = self.client.list()
        self.assertEqual(listed["state"], "saving")
        self.platform.start_again()
        system_bus.network_state(70)  # the network is back: sent now, not at the next backoff
        self.wait_settled(timer_id)
        [activity] = self.activities_of(timer_id)
        self.assertEqual(iso_ms(activity["endedAt"]), clicked)
        self.assertIn("The network is back", self.agent.log())


class ResponseTests(CompletionTestCase):
    """Every answer of the contract leads to its action."""

    def setUp(self):
        super().setUp()
        self.start_agent()

    def complete(self, timer_id):
        self.assertEqual(str(self.client.timers.Complete(timer_id, dbus.Int64(0))), "queued")

    def wait_for_signal(self, signal_entry):
        self.assertTrue(self.client.wait_for(lambda: signal_entry in self.client.signals),
                        "no %r among %r" % (signal_entry, self.client.signals))

    def test_201_creates_one_activity_and_removes_the_timer(self):
        timer_id, _, _ = self.new_timer()
        self.complete(timer_id)
        self.wait_settled(timer_id)
        [activity] = self.activities_of(timer_id)
        self.wait_for_signal(("CompletionFinished", [timer_id, "created", activity["id"]]))
        self.wait_for_signal(("TimerRemoved", [timer_id, "completed"]))

    def test_a_lost_reply_is_replayed_to_the_same_activity(self):
        timer_id, _, _ = self.new_timer()
        self.platform.fault(route="complete", mode="drop_after_commit", count=1)
        self.complete(timer_id)
        self.wait_settled(timer_id)
        [activity] = self.activities_of(timer_id)
        posts = self.completion_posts(timer_id)
        self.assertEqual(len(posts), 2)
        self.assertEqual(posts[0]["body"], posts[1]["body"])  # the same bytes again
        self.wait_for_signal(("CompletionFinished", [timer_id, "created", activity["id"]]))

    def finish_elsewhere(self, finish, expected_status):
        timer_id, _, _ = self.new_timer()
        finish(timer_id)
        self.complete(timer_id)
        self.wait_settled(timer_id)
        self.wait_for_signal(("CompletionFinished", [timer_id, "already-completed", ""]))
        self.wait_for_signal(("TimerRemoved", [timer_id, "completed-elsewhere"]))
        self.assertEqual(self.completion_posts(timer_id)[-1]["status"], expected_status)
        return timer_id

    def test_409_already_completed_in_the_app(self):
        def save_in_app(timer_id):
            timer = self.platform.process.control_json("GET", "/control/timers")["timers"]
            started = next(t for t in timer if t["id"] == timer_id)["startedAt"]
            reply = self.platform.process.api("POST", "/activities", {
                "clientMutationId": "0b9a7e52-0000-4000-8000-%012d" % (now_ms() % 10**12),
                "familySubjectId": "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10", "babyId": MAYA, "type": "sleep",
                "startedAt": started, "endedAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
                "activeTimerId": timer_id}, token=self.platform.parent["accessToken"])
            self.assertEqual(reply.status, 201, reply.body)
        timer_id = self.finish_elsewhere(save_in_app, 409)
        self.assertEqual(len(self.activities_of(timer_id)), 1)  # the app's, and no second one

    def test_404_stopped_in_the_app(self):
        def stop_in_app(timer_id):
            reply = self.platform.process.api("POST", "/active-timers/%s/stop" % timer_id, {},
                                              token=self.platform.parent["accessToken"])
            self.assertEqual(reply.status, 200, reply.body)
        timer_id = self.finish_elsewhere(stop_in_app, 404)
        self.assertEqual(self.activities_of(timer_id), [])

    def needs_app(self, timer_id):
        self.wait_for_signal(("CompletionFinished", [timer_id, "failed", ""]))
        eventually(lambda: self.timer(timer_id)["state"] == "needs-app", what="needs-app")
        self.assertIs(self.timer(timer_id)["can_complete"], False)
        time.sleep(3)
        self.assertEqual(len(self.completion_posts(timer_id)), 1, "never retried")
        self.assertEqual(self.activities_of(timer_id), [])

    def test_401_invalid_token_needs_the_app(self):
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply, token="dflnat_not_a_token_the_platform_issued_0123")
        self.complete(timer_id)
        self.needs_app(timer_id)
        self.assertEqual(self.completion_posts(timer_id)[0]["status"], 401)

    def test_410_token_expired_needs_the_app(self):
        timer_id, _, _ = self.new_timer()
        self.platform.process.control_json("POST", "/control/tokens/expire", {"timerId": timer_id})
        self.complete(timer_id)
        self.needs_app(timer_id)
        self.assertEqual(self.completion_posts(timer_id)[0]["status"], 410)

    def permanent(self, status, code):
        timer_id, _, _ = self.new_timer()
        self.platform.fault(route="complete", mode="status", status=status, code=code)
        self.complete(timer_id)
        self.wait_for_signal(("CompletionFinished", [timer_id, "failed", ""]))
        eventually(lambda: self.timer(timer_id)["state"] == "save-failed", what="save-failed")
        time.sleep(3)
        self.assertEqual(len(self.completion_posts(timer_id)), 1, "never retried")

    def test_400_is_permanent(self):
        self.permanent(400, "invalid_request")

    def test_422_is_permanent(self):
        self.permanent(422, "idempotency_mismatch")

    def retried_then_created(self, **fault):
        timer_id, _, _ = self.new_timer()
        self.platform.fault(route="complete", count=1, **fault)
        self.complete(timer_id)
        self.wait_settled(timer_id)
        self.assertEqual(len(self.activities_of(timer_id)), 1)
        posts = self.completion_posts(timer_id)
        self.assertEqual(len(posts), 2)
        self.assertEqual(posts[0]["body"], posts[1]["body"])
        return timer_id

    def test_429_with_retry_after_in_seconds(self):
        self.retried_then_created(mode="status", status=429, retryAfter="2")
        self.assertIn("will be tried again in 2 s: the platform is busy (429 rate_limited)", self.agent.log())

    def test_503_with_retry_after_as_an_http_date(self):
        date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 3))
        self.retried_then_created(mode="status", status=503, retryAfter=date)
        self.assertRegex(self.agent.log(), r"will be tried again in [23] s: the platform is busy \(503 unavailable\)")

    def test_503_with_a_garbage_retry_after_backs_off(self):
        self.retried_then_created(mode="status", status=503, retryAfter="soonish")
        self.assertRegex(self.agent.log(), r"will be tried again in [0-2] s: the platform is busy \(503 unavailable\)")

    def test_500_backs_off_and_retries(self):
        self.retried_then_created(mode="status", status=500)

    def test_a_non_json_success_is_retried(self):
        self.retried_then_created(mode="non_json_body")

    def test_an_oversized_success_is_retried(self):
        self.retried_then_created(mode="oversized_body")

    def test_a_timeout_is_retried(self):
        self.retried_then_created(mode="never_answer")

    def test_no_busy_loop_while_a_request_is_in_flight(self):
        timer_id, _, _ = self.new_timer()
        self.platform.fault(route="complete", mode="latency", ms=3000, count=1)
        self.complete(timer_id)
        eventually(lambda: self.completion_posts(timer_id), what="the request")
        before = cpu_seconds(self.agent.pid)
        time.sleep(2)
        self.assertLess(cpu_seconds(self.agent.pid) - before, 0.5, "the agent spins while it waits")
        self.wait_settled(timer_id)

    def test_no_retry_past_the_tokens_expiry(self):
        self.platform.process.control_json("POST", "/control/config", {"tokenTtlSeconds": 4})
        timer_id, _, _ = self.new_timer()
        self.platform.fault(route="complete", mode="status", status=503, retryAfter="1")
        self.complete(timer_id)
        self.wait_for_signal(("CompletionFinished", [timer_id, "failed", ""]))
        eventually(lambda: self.timer(timer_id) is None or self.timer(timer_id)["state"] == "save-failed",
                   what="save-failed")
        posts = len(self.completion_posts(timer_id))
        time.sleep(2)
        self.assertEqual(len(self.completion_posts(timer_id)), posts)
        self.assertIn("expires before another attempt", self.agent.log())


class ContainmentTests(CompletionTestCase):
    """The platform-issued token, used as a canary, appears nowhere but in
    the request body sent to its own origin."""

    def test_the_token_is_nowhere_it_must_not_be(self):
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        server = RecordingServer(self.session)
        self.start_agent()
        timer_id, token, _ = self.new_timer()
        listed = self.client.list()
        self.assertTrue(server.wait_for(lambda calls: any(c["method"] == "Notify" for c in calls)))
        with open("/proc/%d/cmdline" % self.agent.pid, "rb") as handle:
            cmdline = handle.read()
        with open("/proc/%d/environ" % self.agent.pid, "rb") as handle:
            environ = handle.read()
        self.client.timers.Complete(timer_id, dbus.Int64(0))
        self.wait_settled(timer_id)
        monitor_text = monitor.text()
        self.assertIn("action_token_fd", monitor_text)  # the Mirror was captured, with a descriptor in it
        for where, text in (("stderr", self.agent.log()), ("the bus", monitor_text), ("List", repr(listed)),
                            ("notifications", repr(server.calls())), ("cmdline", cmdline.decode(errors="replace")),
                            ("environ", environ.decode(errors="replace"))):
            self.assertNotIn(token, text, "the token appeared in " + where)
        [post] = self.completion_posts(timer_id)
        self.assertEqual(post["body"]["actionToken"], token)  # where it belongs
        self.assertIs(post["hasAuthorization"], False)  # no bearer token goes with it

    def test_a_redirect_to_another_origin_never_reaches_it(self):
        # The target speaks TLS with the platform's own certificate, from
        # the CA the agent trusts: only the rule not to follow redirects
        # keeps the token from it.
        target = RecordingListener(certs=self.platform.certs)
        self.addCleanup(target.close)
        self.start_agent()
        timer_id, token, _ = self.new_timer()
        self.platform.fault(route="complete", mode="redirect", count=1,
                            location="https://127.0.0.1:%d/native/sleep-timers/%s/complete" % (target.port, timer_id))
        self.client.timers.Complete(timer_id, dbus.Int64(0))
        eventually(lambda: self.timer(timer_id) is None or target.connections(), what="the completion")
        self.assertEqual(target.connections(), 0, "the agent followed the redirect")
        self.wait_settled(timer_id)
        self.assertEqual(len(self.activities_of(timer_id)), 1)
        self.assertNotIn(token.encode(), target.received())

    def test_an_http_origin_off_loopback_gets_no_connection(self):
        # 0.0.0.0 is no loopback address to the rule, yet Linux hands a
        # connection to it to this machine's own listeners: an origin off
        # loopback whose every connection the test sees.
        listener = RecordingListener()
        self.addCleanup(listener.close)
        origin = "http://0.0.0.0:%d" % listener.port
        self.session.write_config("[platform]\nallowed-origins=%s;%s\n" % (ORIGIN, origin))
        agent = AgentProcess(self.session, wait=False)
        self.addCleanup(agent.close)
        agent.notify.socket.settimeout(None)
        agent.notify.socket.setblocking(False)
        ready = []

        def started_or_stopped():
            try:
                ready.append(agent.notify.socket.recv(4096))
            except BlockingIOError:
                pass
            return ready or agent.process.poll() is not None

        eventually(started_or_stopped, what="the agent to start or refuse its configuration")
        if ready:
            # The configuration was taken: the origin must not be reached
            # later either, by a Mirror or a completion.
            client = Client(self.session)
            self.addCleanup(client.close)
            timer = timer_dict(api_origin=origin)
            try:
                client.mirror(timer)
                client.timers.Complete(timer["timer_id"], dbus.Int64(0))
            except dbus.exceptions.DBusException:
                pass
            eventually(lambda: listener.connections() or "will be tried again" in agent.log()
                       or "failed" in agent.log(), what="the completion to be sent or refused")
        self.assertEqual(listener.connections(), 0, "a request went to an http origin off loopback")
        self.assertEqual(ready, [], "the agent took a configuration that allows plain http off loopback")
        self.assertEqual(agent.process.wait(PATIENCE), 78)
        self.assertIn("allowed-origins: http://0.0.0.0:%d uses plain http, which is allowed only for loopback "
                      "addresses" % listener.port, agent.log())


if __name__ == "__main__":
    unittest.main()
