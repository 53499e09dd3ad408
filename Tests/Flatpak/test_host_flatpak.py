"""Another program on the host lists and completes the sandboxed agent's
timers at its one name, com.dreamsforlittles.DreamsForLittles.SleepTimers1,
which is under the app id, so the sandbox may own it with no --own-name.

Run in the Debian 13 root (Tests/Flatpak/run.sh): the installed Flatpak
(installed.py), its agent started with `flatpak run` on a private session
bus, the reference platform over TLS on loopback, and a python3-dbus client
outside the sandbox, as any app of the parent's would be."""

import os
import unittest

import dbus

from dbus_client import Client
from harness import BUS_NAME, ERROR, LEO, PATIENCE, Platform, Session, eventually, stop
from installed import AGENT_NAME, Installation


class HostClientTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.session = Session()
        try:
            cls.installation = Installation(cls.session)
        except BaseException:
            cls.session.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.session.close()

    def setUp(self):
        self.platform = Platform(self.session)
        self.addCleanup(self.platform.stop)
        self.installation.configure(self.platform, web_origin=False)
        self.agent_log = os.path.join(self.session.root, "agent-%s.log" % self._testMethodName)
        self.agent = self.installation.start("dfl-sleep-agent", log=self.agent_log)
        self.addCleanup(self.stop_agent)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)
        self.wait(lambda: self.owner(BUS_NAME) and self.owner(AGENT_NAME),
                  "the sandboxed agent to own %s and %s" % (BUS_NAME, AGENT_NAME))

    def stop_agent(self):
        stop(self.agent)
        if self.agent in self.session.processes:
            self.session.processes.remove(self.agent)

    def log(self):
        with open(self.agent_log, errors="replace") as handle:
            return handle.read()

    def wait(self, predicate, what):
        """Waits for `predicate`; a failure carries the agent's log."""
        try:
            eventually(predicate, what=what)
        except AssertionError as error:
            raise AssertionError("%s\nthe agent's log:\n%s" % (error, self.log()[-3000:])) from None

    def owner(self, name):
        try:
            return str(self.client.bus.get_name_owner(name))
        except dbus.exceptions.DBusException:
            return None

    def complete_requests(self):
        return [r for r in self.platform.requests() if r["method"] == "POST" and r["path"].endswith("/complete")]

    def test_the_name_is_the_sandboxed_agent(self):
        # One name, under the app id, on the host and in the sandbox.
        self.assertEqual(BUS_NAME, AGENT_NAME)
        self.assertIsNotNone(self.owner(AGENT_NAME))
        self.assertNotEqual(self.installation.sandbox_pids("dfl-sleep-agent"), [])

    def test_a_host_program_lists_the_sandboxed_agents_timers_and_completes_one_exactly_once(self):
        timer_id, reply = self.platform.start_sleep()
        token = self.platform.mirror(self.client, timer_id, reply, baby_name="Maya")
        other_id, other_reply = self.platform.start_sleep(baby=LEO)
        self.platform.mirror(self.client, other_id, other_reply, baby_name="Leo", baby=LEO)

        listed = {t["timer_id"]: t for t in self.client.list()}
        self.assertEqual(set(listed), {timer_id, other_id})
        self.assertEqual((listed[timer_id]["state"], listed[timer_id]["can_complete"]), ("running", True))
        self.assertEqual(listed[timer_id]["baby_name"], "Maya")
        # What a host program reads carries nothing of the token.
        self.assertNotIn(token, repr(listed))

        self.assertEqual(str(self.client.timers.Complete(timer_id, dbus.Int64(0))), "queued")
        self.wait(lambda: self.platform.activities(), "the platform to record the completion")
        [activity] = self.platform.activities()
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        self.wait(lambda: timer_id not in {t["timer_id"] for t in self.client.list()},
                  "the completed timer to leave the agent's list")

        # A second Complete of the same timer is refused and sends nothing.
        with self.assertRaises(dbus.exceptions.DBusException) as refused:
            self.client.timers.Complete(timer_id, dbus.Int64(0), timeout=PATIENCE)
        self.assertIn(refused.exception.get_dbus_name(), (ERROR + "UnknownTimer", ERROR + "CannotComplete"))
        # The other timer still runs, and listing it again asks the agent
        # once more across the sandbox's bus proxy after the refusal.
        self.assertEqual([t["timer_id"] for t in self.client.list()], [other_id])
        self.assertEqual(len(self.complete_requests()), 1, self.complete_requests())
        self.assertEqual(len(self.platform.activities()), 1)
        self.assertNotIn(token, self.log())


if __name__ == "__main__":
    unittest.main()
