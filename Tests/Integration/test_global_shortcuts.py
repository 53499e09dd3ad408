"""The agent's global shortcuts follow the desktop's portal and never start
it: the real xdg-desktop-portal (1.16 here, whose GTK backend offers no
GlobalShortcuts) with its GTK backend, D-Bus activatable on the session's
private bus. An agent started with no portal on the bus starts none (a
session without a desktop must not get the portal and its backends with
every agent); once a portal comes, the agent asks it, and it asks a portal
started again anew, as that one holds no session. The binding itself and a
press of the keys are proven against Plasma 6.3's portal and kglobalacceld
in Tests/Trixie/test_plasma6_shortcuts.py.

StandInPortalTests take each step against a stand-in GlobalShortcuts
portal (shortcuts_portal.py): the bound shortcuts, a press that completes
the running Sleep once, an Activated that does not come from the portal
doing nothing, and the agent's subscription to each Request's Response
ended once it came, or once the portal left without sending it."""

import os
import signal
import subprocess
import unittest

import dbus

from bus_probe import owner_pid, private_connection
from desktop import BusMonitor, Display
from harness import PATIENCE, PlatformTestCase, eventually, sleepctl
from processes import BUS_NAME, INTERFACE, OBJECT_PATH
from test_portal_notifications import PORTAL, calls, install_portal

UNAVAILABLE = "No global shortcuts through the portal"
HERE = os.path.dirname(os.path.abspath(__file__))
SHORTCUTS = "org.freedesktop.portal.GlobalShortcuts"
PORTAL_PATH = "/org/freedesktop/portal/desktop"
BOUND = ("Global shortcuts bound through the portal: complete-running-sleep on Ctrl+Alt+Shift+S, "
         "open-running-sleep on Ctrl+Alt+Shift+O.")


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


class StandInPortalTests(PlatformTestCase):
    def setUp(self):
        super().setUp()
        self.bus = private_connection(self.session)
        self.addCleanup(self.bus.close)
        self.start_agent()
        eventually(lambda: self.bus.name_has_owner(BUS_NAME), what="the agent on the bus")
        self.agent_name = str(self.bus.get_name_owner(BUS_NAME))

    def start_portal(self, *args):
        portal = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "shortcuts_portal.py"), *args],
                                  stdout=subprocess.PIPE, text=True, env=self.session.env)
        self.session.processes.append(portal)
        self.assertEqual(portal.stdout.readline().strip(), "ready")
        return portal

    def control(self, member, *args):
        return self.bus.call_blocking(PORTAL, PORTAL_PATH, "com.dreamsforlittles.Test.ShortcutsPortal", member,
                                      "s" if args else "", args, timeout=PATIENCE)

    def response_rules(self):
        """The agent's subscriptions to a Request's Response, as the bus
        daemon holds them."""
        rules = self.bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.Debug.Stats", "GetAllMatchRules", "", ())
        return [str(rule) for rule in rules.get(self.agent_name, []) if "member='Response'" in rule]

    def test_bound_a_press_completes_the_running_sleep_once_and_a_forged_one_does_nothing(self):
        self.start_portal()
        eventually(lambda: BOUND in self.agent.log(), what="the agent to bind its shortcuts")
        self.assertEqual([str(app) for app in self.control("Registered")], ["com.dreamsforlittles.DreamsForLittles"])
        self.assertEqual(self.response_rules(), [])
        timer_id, _, _ = self.new_timer()

        # An Activated of the portal's path and interface, naming the
        # agent's session, sent straight to the agent by another
        # connection: the bus lets any peer do that.
        [session] = self.control("Sessions")
        forged = dbus.lowlevel.SignalMessage(PORTAL_PATH, SHORTCUTS, "Activated")
        forged.set_destination(self.agent_name)
        forged.append(session, "complete-running-sleep", dbus.UInt64(0),
                      dbus.Dictionary({}, signature="sv"), signature="osta{sv}")
        self.bus.send_message(forged)
        # The agent reads one connection's messages in order: once it has
        # answered this call, the forged signal is behind it.
        self.bus.call_blocking(BUS_NAME, OBJECT_PATH, INTERFACE, "List", "", (), timeout=PATIENCE)
        self.assertEqual(self.state(timer_id), "running")
        self.assertNotIn("was pressed", self.agent.log())

        self.control("Press", "complete-running-sleep")
        eventually(lambda: self.activities_of(timer_id), what="the press to complete the Sleep")
        eventually(lambda: self.timer(timer_id) is None, what="the agent to finish the completion")
        self.assertEqual(len(self.activities_of(timer_id)), 1)
        self.assertEqual(self.agent.log().count("The global shortcut complete-running-sleep was pressed."), 1)

    def test_a_portal_that_leaves_before_its_response_leaves_no_subscription_and_the_next_one_binds(self):
        held = self.start_portal("hold")
        eventually(lambda: self.response_rules(), what="the agent to await CreateSession's Response")
        held.kill()
        held.wait()
        eventually(lambda: self.response_rules() == [], what="the agent to end its subscription to the Response")
        self.assertNotIn(BOUND, self.agent.log())

        self.start_portal()
        eventually(lambda: BOUND in self.agent.log(), what="the agent to bind with the next portal")
        self.assertEqual(self.response_rules(), [])


if __name__ == "__main__":
    unittest.main()
