"""Completion times in the platform's clock, with the reference platform
running 90 s behind and 90 s ahead of the desktop (libfaketime preloaded into
its process, FAKETIME="-90s" / "+90s"): each Complete creates exactly one
activity whose endedAt is the click's moment in the platform's clock.

The offset is measured as the WebView bridge measures it, from the Date
header of the platform's answer to the upsert against the request's
midpoint, and passed in Mirror's platform_clock_offset_ms. Without it, a
platform that is behind refuses the time (400 invalid_request about
completedAt) and the agent sends it once more, corrected by the Date of
that answer."""

import email.utils
import os
import time
import unittest
import uuid

import dbus

from fake_clock import library
from harness import DEMO_FAMILY, INTERFACE, MAYA, PlatformTestCase, eventually, iso_ms, now_ms
from test_webview_bridge import Bridge, sleep_timer

SKEW_S = 90
# How far endedAt may lie from the click in the platform's clock: the Date
# header names a whole second, and the machine is noisy.
TOLERANCE_MS = 3000


def skewed(seconds):
    """The environment of a process whose clock is `seconds` off."""
    return dict(os.environ, LD_PRELOAD=library(), FAKETIME="%+ds" % seconds, FAKETIME_DONT_FAKE_MONOTONIC="1")


class SkewedPlatformTestCase(PlatformTestCase):
    skew_s = 0

    def setUp(self):
        self.platform_env = skewed(self.skew_s)
        super().setUp()
        self.start_agent()

    def start_sleep_measuring_offset(self):
        """Starts a Sleep timer as the parent, asking for a token, and
        measures the platform's clock minus the desktop's from the answer's
        Date: (timer id, reply, offset in ms)."""
        timer_id = str(uuid.uuid4())
        body = {"familySubjectId": DEMO_FAMILY, "babyId": MAYA, "activityType": "sleep",
                "startedAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 83 * 60)),
                "timezone": "Europe/Berlin", "details": {}, "note": None, "requestNativeActionToken": True}
        sent = now_ms()
        reply = self.platform.process.api("PUT", "/active-timers/" + timer_id, body,
                                          token=self.platform.parent["accessToken"])
        received = now_ms()
        self.assertIn(reply.status, (200, 201), reply.body)
        second = int(email.utils.parsedate_to_datetime(reply.headers["Date"]).timestamp()) * 1000
        offset = second + 500 - (sent + (received - sent) // 2)
        return timer_id, reply.json, offset

    def complete_and_check(self, timer_id, statuses):
        """Completes now, as a click does; checks one activity, ended at the
        click in the platform's clock, after POSTs answered with
        `statuses`."""
        before = now_ms()
        self.assertEqual(str(self.client.timers.Complete(timer_id, dbus.Int64(0))), "queued")
        after = now_ms()
        eventually(lambda: self.timer(timer_id) is None
                   and int(self.client.properties.Get(INTERFACE, "PendingCompletions")) == 0,
                   what="the completion to settle")
        time.sleep(0.5)
        [activity] = self.activities_of(timer_id)
        ended = iso_ms(activity["endedAt"])
        click_in_platform_clock = (before + after) // 2 + self.skew_s * 1000
        delta = ended - click_in_platform_clock
        print("\n  %s: endedAt - click in the platform's clock = %+d ms (click took %d ms)"
              % (".".join(self.id().split(".")[-2:]), delta, after - before))
        self.assertLessEqual(abs(delta), TOLERANCE_MS + (after - before) // 2,
                             "endedAt is %+d ms from the click in the platform's clock" % delta)
        posts = [r for r in self.platform.requests() if r["method"] == "POST" and timer_id in r["path"]]
        self.assertEqual([p["status"] for p in posts], statuses)
        self.assertEqual(posts[-1]["body"]["actionToken"], posts[0]["body"]["actionToken"])
        return posts


class PlatformBehindTests(SkewedPlatformTestCase):
    skew_s = -SKEW_S

    def test_the_offset_measured_at_the_upsert_puts_completed_at_in_the_platforms_clock(self):
        timer_id, reply, offset = self.start_sleep_measuring_offset()
        self.assertLess(abs(offset + SKEW_S * 1000), 1500, "measured %d ms" % offset)
        self.platform.mirror(self.client, timer_id, reply, platform_clock_offset_ms=offset)
        self.complete_and_check(timer_id, [201])

    def test_without_an_offset_the_refused_time_is_corrected_once(self):
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply)
        refused, corrected = self.complete_and_check(timer_id, [400, 201])
        # The same click, shifted by the offset the refusal's Date gave.
        shift = iso_ms(corrected["body"]["completedAt"]) - iso_ms(refused["body"]["completedAt"])
        self.assertLess(abs(shift + SKEW_S * 1000), 1500, "corrected by %d ms" % shift)
        self.assertIn("The platform's clock differs from this desktop's", self.agent.log())


class PlatformAheadTests(SkewedPlatformTestCase):
    skew_s = SKEW_S

    def test_the_offset_measured_at_the_upsert_puts_completed_at_in_the_platforms_clock(self):
        timer_id, reply, offset = self.start_sleep_measuring_offset()
        self.assertLess(abs(offset - SKEW_S * 1000), 1500, "measured %d ms" % offset)
        self.platform.mirror(self.client, timer_id, reply, platform_clock_offset_ms=offset)
        self.complete_and_check(timer_id, [201])


class ThroughTheBridgeTests(SkewedPlatformTestCase):
    """End to end as the app runs it: the WebView bridge upserts the timer,
    measures the platform's clock from the Date of that answer, and mirrors
    the timer with it; Complete is clicked on the desktop."""

    skew_s = SKEW_S

    def test_the_bridges_upsert_puts_completed_at_in_the_platforms_clock(self):
        bridge = Bridge(self.session)
        self.addCleanup(lambda: bridge.process.poll() is None and bridge.close())
        parent = self.platform.parent
        bridge.result("session.set", {
            "apiOrigin": self.platform.origin, "userId": parent["id"], "accessToken": parent["accessToken"],
            "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})
        timer = sleep_timer()
        self.assertEqual(bridge.result("sleepTimer.upsert", {"timer": timer})["native"]["mirrored"], True)
        self.complete_and_check(timer["id"], [201])
        [note] = bridge.wait_notification("sleepTimer.completedNatively")
        self.assertEqual(note["params"]["timerId"], timer["id"])


if __name__ == "__main__":
    unittest.main()
