"""GNOME's Background Apps line: inside a Flatpak the agent calls the
background portal's SetStatus when, and only when, the line changes.

The agent runs as inside a sandbox (test_portal_names' overlay root with
/.flatpak-info); what it sends is read from a capture of the bus. The
portal itself takes SetStatus only from a real sandbox and with a
Background backend (GNOME's or KDE's; Debian 12's xdg-desktop-portal 1.16
with the GTK backend has no Background interface at all), so what GNOME
Shell then shows is the Flatpak's own desktop test's to read; here the
agent names the portal's refusal once."""

import re
import unittest

from dbus_client import Client
from desktop import BusMonitor, Display
from harness import LEO, AgentProcess, PlatformTestCase, eventually, read_until
from test_portal_names import sandbox_wrapper
from test_portal_notifications import install_portal

TIME = r"\d{1,2}:\d{2}(?: [AP]M)?"


class BackgroundStatusTests(PlatformTestCase):
    def setUp(self):
        super().setUp()
        Display(self.session)
        install_portal(self.session)
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.monitor.stop)
        self.agent = AgentProcess(self.session, wrapper=sandbox_wrapper(self.session))
        self.client = Client(self.session)
        self.addCleanup(self.client.close)
        self.agent_name = self.client.bus.get_name_owner("com.dreamsforlittles.DreamsForLittles.SleepTimers1")

    def statuses(self):
        """The message of every SetStatus the agent called, in order."""
        found = []
        for header, args in self.monitor.messages():
            fields = header.replace(";", "").split()
            if header.startswith("method call") and "member=SetStatus" in fields and "sender=%s" % self.agent_name in fields:
                text = "\n".join(args)
                match = re.search(r'string "message"\s+variant\s+string "([^"]*)"', text)
                found.append(match.group(1) if match else text)
        return found

    def wait_for_statuses(self, count):
        eventually(lambda: len(self.statuses()) >= count, what="%d SetStatus calls" % count)
        return self.statuses()

    def test_the_line_changes_only_when_a_timer_does_and_is_cleared_when_none_runs(self):
        maya, maya_reply = self.platform.start_sleep()
        maya_token = self.platform.mirror(self.client, maya, maya_reply, baby_name="Maya")
        [first] = self.wait_for_statuses(1)
        self.assertRegex(first, "^Maya asleep since %s$" % TIME)

        # The same timer mirrored again (a renewal's Mirror): no call.
        self.platform.mirror(self.client, maya, maya_reply, baby_name="Maya", token=maya_token)
        leo, leo_reply = self.platform.start_sleep(baby=LEO)
        self.platform.mirror(self.client, leo, leo_reply, baby_name="Leo", baby=LEO)
        statuses = self.wait_for_statuses(2)
        self.assertEqual(len(statuses), 2, "the repeated Mirror changed nothing")
        self.assertRegex(statuses[1], "^(Maya|Leo) asleep since %s · (Leo|Maya) since %s$" % (TIME, TIME))

        self.assertTrue(bool(self.client.timers.Remove(maya)))
        self.assertRegex(self.wait_for_statuses(3)[2], "^Leo asleep since %s$" % TIME)
        self.assertTrue(bool(self.client.timers.Remove(leo)))
        self.assertEqual(self.wait_for_statuses(4)[3], "")

        # The line carries no elapsed time, so nothing else would change it;
        # a call answered after the last Remove shows no call came after it.
        self.client.list()
        self.assertEqual(len(self.statuses()), 4)
        # The refusal's line is written when the portal's answer is read,
        # which a busy machine may do after the calls above returned.
        refused = "The background portal did not take the status line"
        log = read_until(self.agent.log, lambda log: refused in log, "the agent to log the portal's refusal",
                         describe=lambda log: "a log of:\n" + log[-3000:])
        self.assertEqual(log.count(refused), 1, log)
        self.assertNotIn(maya_token, self.monitor.text())


if __name__ == "__main__":
    unittest.main()
