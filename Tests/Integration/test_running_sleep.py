"""dfl-sleepctl complete --running and open --running (CompleteRunning and
OpenRunning), as a keyboard shortcut runs them: against the reference
platform over TLS, with a recording notification server on the bus."""

import unittest

from harness import LEO, PATIENCE, eventually, sleepctl
import test_notifications


class RunningSleepTests(test_notifications.RecordedTestCase):
    def opened(self, count=1):
        eventually(lambda: len(self.session.opened_urls()) >= count, PATIENCE,
                   "%d opened link(s); the agent's log:\n%s" % (count, self.agent.log()))
        return self.session.opened_urls()

    def home_of(self, deep_link):
        return deep_link.split("://", 1)[0] + "://"

    def test_one_running_sleep_is_completed_once_and_its_notification_says_saved(self):
        timer_id, token, _ = self.start_timer()
        self.wait_notifies(1)
        done = sleepctl(self.session, "complete", "--running")
        self.assertEqual((done.returncode, done.stderr), (0, ""), self.agent.log())
        self.assertIn("Completed the running Sleep", done.stdout)
        self.platform.wait_for_activities(1)
        self.assertTrue(self.server.wait_for(
            lambda calls: any(n["body"].startswith("Sleep saved") for n in self.server.notifies())),
            self.server.notifies())
        self.assertEqual([a["timerId"] for a in self.platform.activities()], [timer_id])
        # Exactly once: a second keystroke finds nothing to complete.
        again = sleepctl(self.session, "complete", "--running")
        self.assertEqual(again.returncode, 1)
        self.assertEqual(len(self.platform.activities()), 1)
        self.assertNotIn(token, done.stdout + done.stderr + again.stderr + self.agent.log())

    def test_with_no_running_sleep_nothing_is_sent_and_a_notice_says_so(self):
        refused = sleepctl(self.session, "complete", "--running")
        self.assertEqual(refused.returncode, 1)
        self.assertIn("no Sleep is running", refused.stderr)
        # A keystroke has no terminal: the desktop's notifications say it.
        self.assertTrue(self.server.wait_for(
            lambda calls: any(n["summary"] == "No Sleep is running" for n in self.server.notifies())),
            self.server.notifies())
        [notice] = self.server.notifies()
        self.assertEqual((notice["body"], notice["actions"]), ("There is no running Sleep to complete.", []))
        self.assertEqual(self.platform.activities(), [])
        self.assertEqual(self.session.opened_urls(), [])
        self.assertIn("CompleteRunning found no running Sleep", self.agent.log())

    def test_with_two_running_nothing_is_completed_and_the_app_opens_at_its_start(self):
        first, _, _ = self.start_timer()
        second, _, _ = self.start_timer(baby=LEO, baby_name="Leo")
        refused = sleepctl(self.session, "complete", "--running")
        self.assertEqual(refused.returncode, 1)
        self.assertIn("several Sleeps are running", refused.stderr)
        listed = self.client.list()
        [home] = self.opened()
        self.assertEqual(home, self.home_of(listed[0]["deep_link"]))
        self.assertEqual({t["timer_id"]: t["state"] for t in listed}, {first: "running", second: "running"})
        self.assertEqual(self.platform.activities(), [])

    def test_open_running_opens_the_one_sleeps_route(self):
        self.start_timer()
        opened = sleepctl(self.session, "open", "--running")
        self.assertEqual((opened.returncode, opened.stdout, opened.stderr), (0, "", ""))
        self.assertEqual(self.opened(), [self.client.list()[0]["deep_link"]])

    def test_open_running_with_two_opens_the_app_at_its_start(self):
        self.start_timer()
        self.start_timer(baby=LEO, baby_name="Leo")
        self.assertEqual(sleepctl(self.session, "open", "--running").returncode, 0)
        self.assertEqual(self.opened(), [self.home_of(self.client.list()[0]["deep_link"])])


if __name__ == "__main__":
    unittest.main()
