"""A night without the app: a timer mirrored with a short action token and no
bridge to renew it. At the token's expiry the sleep stays on the desktop as
still running, with the Open action only, and List says token-expired; an
hour later it is still there; only a sleep longer than any (48 hours after
its start) leaves. What is shown is read from a real server's own record
(xfce4-notifyd's notification log under Xvfb), not from the agent.

The agent runs under libfaketime, its wall clock moved by the test; the jump
is announced to it as a set clock (a real clock_settime as root), which the
agent's wall-clock timer hears."""

import unittest

import dbus

from desktop import Display, xdotool
from display_text import elapsed_minutes
from fake_clock import FakeClock, announce_clock_set, require_clock_setting
from harness import ERROR, PlatformTestCase, eventually, iso_ms
from server_records import LoggedXfceNotifyd

TOKEN_SECONDS = 6
HOUR_S = 3600


class OvernightWithoutSessionTests(PlatformTestCase):
    # It sets the system clock (announce_clock_set), which wakes every
    # agent's wall-clock alarm on the machine: the parallel runner runs it
    # with no other test beside it.
    runs_alone = True

    def setUp(self):
        require_clock_setting()
        super().setUp()
        self.display = Display(self.session)
        self.server = LoggedXfceNotifyd(self.session)
        self.clock = FakeClock(self.session, "agent")
        self.start_agent(**self.clock.env())
        self.platform.process.control_json("POST", "/control/config", {"tokenTtlSeconds": TOKEN_SECONDS})

    def shown(self, timer_summary="Maya is asleep"):
        return [r for r in self.server.records() if r.get("summary") == timer_summary]

    def wait_shown(self, predicate, what):
        found = []

        def check():
            found[:] = [r for r in self.shown() if predicate(r)]
            return found

        try:
            eventually(check, what=what + " in xfce4-notifyd's log")
        except AssertionError as error:
            raise AssertionError("%s; it holds %r" % (error, self.shown())) from None
        return found[-1]

    def popups(self):
        return xdotool(self.session, "search", "--onlyvisible", "--class", "xfce4-notifyd").stdout.split()

    def test_the_sleep_stays_shown_past_the_tokens_expiry_and_an_hour_later(self):
        timer_id, token, reply = self.new_timer()
        started_ms = iso_ms(reply["timer"]["startedAt"])
        expires_ms = iso_ms(reply["nativeActionToken"]["expiresAt"])
        first = self.wait_shown(lambda r: r["labels"] == ["Open", "Complete"], "the running notification")
        self.assertRegex(first["body"], r"^Asleep since \d\d:\d\d · 1 h 2[34] min$")
        # Nobody renews: the agent asked once, and nobody answered.
        self.assertTrue(self.client.wait_for(lambda: ("TokenExpiring", [timer_id, expires_ms]) in self.client.signals))

        # The token runs out: still running, Open only, finish it in the app.
        expired = self.wait_shown(lambda r: r["labels"] == ["Open"], "the notification without Complete")
        self.assertGreaterEqual(expired["ns"] // 1_000_000, expires_ms, "Complete went before the token expired")
        self.assertTrue(expired["body"].endswith("\nOpen the app to finish it."), expired["body"])
        self.assertIsNotNone(elapsed_minutes(expired["body"]))
        listed = self.timer(timer_id)
        self.assertEqual((listed["state"], listed["can_complete"], listed["notification"]),
                         ("token-expired", False, "shown"))
        with self.assertRaises(dbus.exceptions.DBusException) as refused:
            self.client.timers.Complete(timer_id, dbus.Int64(0))
        self.assertEqual(refused.exception.get_dbus_name(), ERROR + "CannotComplete")
        self.assertEqual(len(self.popups()), 1)

        # An hour later (the agent's clock moves on, and it hears of it).
        records_before = len(self.shown())
        self.clock.move(HOUR_S)
        announce_clock_set()
        later = self.wait_shown(lambda r: elapsed_minutes(r["body"]) is not None
                                and elapsed_minutes(r["body"]) >= elapsed_minutes(expired["body"]) + 60,
                                "the notification an hour later")
        self.assertGreater(len(self.shown()), records_before)
        self.assertEqual((later["keys"], later["labels"]), (["default"], ["Open"]))
        self.assertTrue(later["body"].endswith("\nOpen the app to finish it."), later["body"])
        listed = self.timer(timer_id)
        self.assertEqual((listed["state"], listed["can_complete"], listed["notification"]),
                         ("token-expired", False, "shown"))
        self.assertEqual(len(self.popups()), 1)
        self.assertNotIn("TimerRemoved", self.client.members())
        self.assertEqual([r for r in self.platform.requests() if r["method"] == "POST"], [])

        # No sleep lasts 48 hours: then, and only then, it goes.
        self.clock.move((started_ms + 48 * HOUR_S * 1000 + 60_000 - self.clock.now_ms()) // 1000)
        announce_clock_set()
        self.assertTrue(self.client.wait_for(lambda: ("TimerRemoved", [timer_id, "expired"]) in self.client.signals),
                        "not dropped 48 hours after its start: %r" % self.client.signals)
        self.assertEqual(self.client.list(), [])
        eventually(lambda: self.popups() == [], what="the popup to close")


if __name__ == "__main__":
    unittest.main()
