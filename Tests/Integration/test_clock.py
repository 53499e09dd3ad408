"""A suspend and a clock jump: on logind's PrepareForSleep(false) (a faked
logind on a private system bus) and on a set clock (the agent's wall-clock
timer, TFD_TIMER_CANCEL_ON_SET), the agent at once brings everything up to
date: elapsed times, the expiry of a token that ran out meanwhile, and a
completion whose retry came due.

The agent runs under libfaketime and its wall clock jumps ten minutes while
its monotonic clock stands still, as in a suspend. Nothing the agent armed
before the jump is due in real time for most of a minute after it (the next
minute boundary, the retry the platform asked for), so whatever happens
within that time happened because the agent was told."""

import time
import unittest

import dbus

from desktop import RecordingServer
from display_text import elapsed_minutes
from fake_clock import FakeClock, announce_clock_set, require_clock_setting
from fake_logind import FakeLogind
from harness import LEO, MAYA, PlatformTestCase, SystemBus, eventually, iso_ms, next_minute_ms, now_ms, sleep_until_ms

JUMP_S = 10 * 60
SHORT_TOKEN_S = 5 * 60
# The platform's default action-token lifetime, restored after the short one.
DEFAULT_TOKEN_S = 12 * 3600
RETRY_AFTER_S = 400
# Both timers started this long ago: a minute boundary has just passed.
STARTED_AGO_S = 83 * 60 + 3
# How long before the next thing the agent armed the checks must be done.
MARGIN_S = 5


class CatchingUpTestCase(PlatformTestCase):
    """Two timers of the demo family, both started just after a minute
    boundary: Leo's with a five-minute token, Maya's completed while the
    platform answers 503 with a Retry-After of 400 s."""

    def system_bus(self):
        raise NotImplementedError

    def setUp(self):
        super().setUp()
        self.system = self.system_bus()
        self.addCleanup(self.system.close)
        self.server = RecordingServer(self.session)
        self.clock = FakeClock(self.session, "agent")
        self.start_agent(**self.clock.env())
        self.platform.process.control_json("POST", "/control/config", {"tokenTtlSeconds": SHORT_TOKEN_S})
        self.leo, reply = self.platform.start_sleep(baby=LEO, started_ago_s=STARTED_AGO_S)
        self.platform.mirror(self.client, self.leo, reply, baby_name="Leo", baby=LEO)
        self.started_ms = iso_ms(reply["timer"]["startedAt"])
        self.platform.process.control_json("POST", "/control/config", {"tokenTtlSeconds": DEFAULT_TOKEN_S})
        self.maya, reply = self.platform.start_sleep(baby=MAYA, started_ago_s=STARTED_AGO_S)
        self.platform.mirror(self.client, self.maya, reply)
        self.platform.fault(route="complete", mode="status", status=503, retryAfter=str(RETRY_AFTER_S), count=1)
        self.clicked_ms = now_ms()
        self.assertEqual(str(self.client.timers.Complete(self.maya, dbus.Int64(self.clicked_ms))), "queued")
        eventually(lambda: "will be tried again in %d s" % RETRY_AFTER_S in self.agent.log(),
                   what="the completion to wait for its retry")
        self.assertTrue(self.server.wait_for(lambda calls: self.leo_shown()), "Leo's notification was not shown")

    def leo_shown(self):
        return [c for c in self.server.notifies() if c["summary"] == "Leo is asleep"]

    def posts(self, timer_id):
        return [r for r in self.platform.requests() if r["method"] == "POST" and timer_id in r["path"]]

    def quiet_until_ms(self):
        """The real moment before which nothing the agent armed is due: the
        next minute boundary of the timers' elapsed time (the retry, 400 s
        away, and Leo's token, 300 s away, come later). Right after a
        boundary, at least 50 s."""
        boundary = next_minute_ms(self.started_ms, now_ms())
        if boundary - now_ms() < 20000:
            # A slow set-up: let this boundary pass and its updates land.
            sleep_until_ms(boundary)
            self.settle()
            boundary += 60000
        return boundary

    def settle(self):
        """Until the notification server has had no call for a second: what
        the set-up started has landed."""
        seen = -1
        while len(self.server.calls()) != seen:
            seen = len(self.server.calls())
            time.sleep(1)

    def catch_up(self, announce):
        """Jumps the agent's clock, announces it with `announce()`, and
        checks that everything came up to date before anything armed was
        due; prints how long each took."""
        self.settle()
        quiet_until = self.quiet_until_ms()
        before = self.leo_shown()[-1]
        minutes_before = elapsed_minutes(before["body"])
        calls_before = len(self.server.calls())
        self.clock.move(JUMP_S)
        time.sleep(0.5)
        self.assertEqual(self.server.calls()[calls_before:], [], "the agent acted before it was told")
        announced = now_ms()
        announce()
        seen = {}

        def check():
            if "elapsed and expiry" not in seen:
                updated = [c for c in self.leo_shown() if elapsed_minutes(c["body"]) == minutes_before + JUMP_S // 60
                           and c["actions"] == ["default", "Open"]]
                if updated:
                    seen["elapsed and expiry"] = updated[0]["ns"] // 1_000_000
            if "List" not in seen:
                listed = self.timer(self.leo)
                if listed and (listed["state"], listed["can_complete"]) == ("token-expired", False):
                    seen["List"] = now_ms()
            if "outbox" not in seen:
                sent = [p for p in self.posts(self.maya) if p["status"] == 201]
                if sent:
                    seen["outbox"] = sent[0]["arrivalNs"] // 1_000_000
            return len(seen) == 3

        while not check():
            if now_ms() > quiet_until - MARGIN_S * 1000:
                self.fail("not brought up to date before the next wake-up the agent had armed; done: %r; Leo shown: "
                          "%r; Maya's POSTs: %r" % (seen, self.leo_shown()[-2:], self.posts(self.maya)))
            time.sleep(0.02)
        print("\n  %s: caught up after %s (ms after the announcement; the next armed wake-up was %d ms away)"
              % (".".join(self.id().split(".")[-2:]), ", ".join("%s %d" % (k, v - announced) for k, v in seen.items()),
                 quiet_until - announced))
        updated = [c for c in self.leo_shown() if c["actions"] == ["default", "Open"]][0]
        self.assertTrue(updated["body"].endswith("\nOpen the app to finish it."), updated["body"])
        [activity] = [a for a in self.platform.activities() if a["timerId"] == self.maya]
        self.assertEqual(iso_ms(activity["endedAt"]), self.clicked_ms)
        self.assertEqual([p["status"] for p in self.posts(self.maya)], [503, 201])


class ResumeTests(CatchingUpTestCase):
    def system_bus(self):
        return FakeLogind(self.session)

    def test_prepare_for_sleep_false_brings_everything_up_to_date(self):
        self.system.prepare_for_sleep(True)
        self.catch_up(lambda: self.system.prepare_for_sleep(False))
        self.assertIn("The machine woke from a suspend.", self.agent.log())


class ClockSetTests(CatchingUpTestCase):
    # It sets the system clock (announce_clock_set), which wakes every
    # agent's wall-clock alarm on the machine: the parallel runner runs it
    # with no other test beside it.
    runs_alone = True

    def setUp(self):
        require_clock_setting()
        super().setUp()

    def system_bus(self):
        # A system bus of the test's own, where no real logind speaks.
        return SystemBus(self.session)

    def test_a_set_clock_brings_everything_up_to_date(self):
        self.catch_up(announce_clock_set)
        self.assertIn("Bringing every timer up to date: the clock was set.", self.agent.log())


if __name__ == "__main__":
    unittest.main()
