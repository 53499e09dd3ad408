"""The agent's global shortcuts follow the desktop's portal and never start
it: the real xdg-desktop-portal (1.16 here, whose GTK backend offers no
GlobalShortcuts) with its GTK backend, D-Bus activatable on the session's
private bus. An agent started with no portal on the bus starts none (a
session without a desktop must not get the portal and its backends with
every agent); once a portal comes, the agent asks it, and it asks a portal
started again anew, as that one holds no session. The binding itself and a
press of the keys are proven against Plasma 6.3's portal and kglobalacceld
in Tests/Trixie/test_plasma6_shortcuts.py."""

import os
import signal
import unittest

from bus_probe import owner_pid, private_connection
from desktop import BusMonitor, Display
from harness import PATIENCE, PlatformTestCase, eventually, sleepctl
from test_portal_notifications import PORTAL, calls, install_portal

UNAVAILABLE = "No global shortcuts through the portal"


class PortalComesAndGoesTests(PlatformTestCase):
    def setUp(self):
        super().setUp()
        self.display = Display(self.session)
        install_portal(self.session)
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.monitor.stop)
        self.bus = private_connection(self.session)
        self.addCleanup(self.bus.close)

    def said_unavailable(self):
        return self.agent.log().count(UNAVAILABLE)

    def shortcut_questions(self):
        """The agent's reads of the portal's GlobalShortcuts version."""
        return [header for header, args in calls(self.monitor, "Get")
                if 'string "org.freedesktop.portal.GlobalShortcuts"' in args]

    def start_portal(self):
        self.bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "StartServiceByName", "su", (PORTAL, 0), timeout=PATIENCE)
        return str(self.bus.get_name_owner(PORTAL))

    def test_the_agent_starts_no_portal_and_asks_each_one_that_comes(self):
        self.start_agent()
        status = sleepctl(self.session, "status")
        self.assertEqual(status.returncode, 0, status.stderr)
        # The agent's calls at its start are out before it answers: none
        # went to the portal, and the bus started none.
        to_the_portal = [header for header, _ in self.monitor.messages()
                         if header.startswith("method call") and "destination=%s" % PORTAL in header.split()]
        self.assertEqual(to_the_portal, [])
        self.assertFalse(self.bus.name_has_owner(PORTAL), "the agent started the portal")
        self.assertEqual(self.shortcut_questions(), [])
        self.assertNotIn("global shortcuts", self.agent.log())

        first = self.start_portal()
        eventually(lambda: self.said_unavailable() == 1, what="the agent to ask the portal that came")
        asked = self.shortcut_questions()
        self.assertEqual(len(asked), 1, asked)
        self.assertIn("destination=%s" % PORTAL, asked[0])

        # The portal goes and another comes: that one is asked anew.
        os.kill(owner_pid(self.bus, first), signal.SIGKILL)
        eventually(lambda: not self.bus.name_has_owner(PORTAL), what="the portal to leave the bus")
        second = self.start_portal()
        self.assertNotEqual(first, second)
        eventually(lambda: self.said_unavailable() == 2, what="the agent to ask the portal that came again")
        self.assertIsNone(self.agent.process.poll())


if __name__ == "__main__":
    unittest.main()
