"""A notification server that stops answering holds up nothing but the
notifications: the agent calls libnotify on a thread of its own, so while a
server owns org.freedesktop.Notifications and never answers Notify, List
answers at its usual speed and a Complete reaches the platform at once; when
the hung server goes and a working one takes the name, every running timer
is shown there, once."""

import time
import unittest

import dbus

from desktop import RecordingServer
from harness import INTERFACE, LEO, PlatformTestCase, eventually, now_ms
from hung_notifications import HungServer

LISTS = 10
# A blocked loop would answer after libnotify's 25 s timeout; these bounds
# only tell the two apart, on a noisy machine.
ANSWER_BOUND_S = 5.0
POST_BOUND_MS = 5000
# Covers the 25 s libnotify waits on the call already stuck, and more.
CATCH_UP_S = 60


class HungServerTests(PlatformTestCase):
    def setUp(self):
        super().setUp()
        self.hung = HungServer(self.session)
        self.start_agent()

    def timed(self, call):
        began = time.monotonic()
        result = call()
        return result, time.monotonic() - began

    def test_nothing_waits_for_a_server_that_never_answers(self):
        maya, _, _ = self.new_timer()
        eventually(lambda: any(c["method"] == "Notify" for c in self.hung.calls()),
                   what="the agent's first Notify to reach the hung server")
        # From here libnotify's thread waits for an answer that never comes.
        leo, reply = self.platform.start_sleep(baby=LEO)
        _, mirrored = self.timed(lambda: self.platform.mirror(self.client, leo, reply, baby_name="Leo", baby=LEO))
        times = [self.timed(self.client.list)[1] for _ in range(LISTS)]
        print("\n  while the server hangs: Mirror %.1f ms; List %s ms"
              % (mirrored * 1000, ", ".join("%.1f" % (t * 1000) for t in times)))
        self.assertLess(mirrored, ANSWER_BOUND_S)
        self.assertLess(max(times), ANSWER_BOUND_S)
        self.assertEqual(len(self.client.list()), 2)

        clicked = now_ms()
        self.assertEqual(str(self.client.timers.Complete(maya, dbus.Int64(0))), "queued")
        eventually(lambda: self.posts(maya), what="the completion to reach the platform")
        reached = self.posts(maya)[0]["arrivalNs"] // 1_000_000 - clicked
        print("  Complete's POST reached the platform %d ms after the click" % reached)
        self.assertLess(reached, POST_BOUND_MS)
        self.platform.wait_for_activities(1)
        eventually(lambda: self.timer(maya) is None, what="Maya's timer to leave the list")
        self.assertTrue(any(c["method"] == "Notify" for c in self.hung.calls()))

        self.hung.stop()
        began = time.monotonic()
        working = RecordingServer(self.session)
        self.assertTrue(working.wait_for(lambda calls: self.open_notifications(calls, "Leo is asleep"),
                                         timeout=CATCH_UP_S), "Leo's timer was not shown on the working server")
        print("  shown on the working server %.1f s after the hung one went" % (time.monotonic() - began))
        eventually(lambda: self.timer(leo)["notification"] == "shown", what="List to say Leo's is shown")
        time.sleep(1)
        calls = working.calls()
        self.assertEqual(len(self.open_notifications(calls, "Leo is asleep")), 1, calls)
        self.assertEqual(self.open_notifications(calls, "Maya is asleep"), [], calls)
        [shown] = self.open_notifications(calls, "Leo is asleep")
        self.assertEqual(shown["actions"], ["default", "Open", "complete", "Complete"])
        self.assertTrue(str(self.client.properties.Get(INTERFACE, "NotificationServer")).startswith("recorder"))

    def posts(self, timer_id):
        return [r for r in self.platform.requests() if r["method"] == "POST" and timer_id in r["path"]]

    @staticmethod
    def open_notifications(calls, summary):
        """The last Notify of each notification still open on the server
        with this summary."""
        latest = {}
        for call in calls:
            if call["method"] == "Notify":
                latest[call["id"]] = call
            elif call["method"] == "CloseNotification":
                latest.pop(call["id"], None)
        return [call for call in latest.values() if call["summary"] == summary]


if __name__ == "__main__":
    unittest.main()
