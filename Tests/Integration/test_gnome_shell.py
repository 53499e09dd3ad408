"""GNOME Shell 43 with the agent started before the Shell, as at login: the
Shell's notification service owns org.freedesktop.Notifications before the
Shell behind it can answer, so the agent's first GetCapabilities and
GetServerInformation fail. The agent asks again until it knows, and the
notification gets its Complete button; pressing it through the Shell
creates exactly one activity on the reference platform.

That moment lasts only milliseconds when the Shell starts its service
itself. The test starts the service the moment the Shell appears on the
bus, as an early client at login may, which makes it last most of a second,
and checks on the bus that the agent's first questions did fail."""

import time
import unittest

from desktop import BusMonitor
from gnome_shell import GnomeShell
from harness import BUS_NAME, INTERFACE, PlatformTestCase, eventually

# Starts of the Shell tried until one shows the agent its early errors (the
# first does, unless the machine stalls the agent for most of a second).
TRIES = 3


def failed_questions(messages, asker):
    """The GetCapabilities and GetServerInformation calls `asker` made that
    were answered with an error, in a dbus-monitor capture."""
    asked = {}
    failed = []
    for header, _ in messages:
        fields = dict(part.split("=", 1) for part in header.replace(";", "").split() if "=" in part)
        if header.startswith("method call") and fields.get("sender") == asker \
                and fields.get("member") in ("GetCapabilities", "GetServerInformation"):
            asked[fields.get("serial")] = fields["member"]
        elif header.startswith("error") and fields.get("destination") == asker and fields.get("reply_serial") in asked:
            failed.append((asked[fields["reply_serial"]], fields.get("error_name")))
    return failed


class LoginTests(PlatformTestCase):
    def start_shell_after_the_agent(self):
        """Starts the Shell with the agent already waiting for a notification
        server; starts it again (as a new login would) if the agent's first
        questions did not meet the service before it could answer, as the
        bus shows."""
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        agent_name = self.client.bus.get_name_owner(BUS_NAME)
        for attempt in range(1, TRIES + 1):
            seen = len(monitor.messages())
            shell = GnomeShell(self.session, early_service=True)
            eventually(lambda: str(self.client.properties.Get(INTERFACE, "NotificationServer")) != "",
                       what="the agent to take the Shell's notification service for its server")
            failed = failed_questions(monitor.messages()[seen:], agent_name)
            if failed:
                print("\n  start %d of the Shell: the agent's first questions failed: %s" % (attempt, failed))
                return shell
            shell.stop()
            eventually(lambda: str(self.client.properties.Get(INTERFACE, "NotificationServer")) == "",
                       what="the agent to see the Shell go")
        self.fail("in %d starts of the Shell the agent never met its notification service before it could answer"
                  % TRIES)

    def test_started_with_the_shell_the_notification_has_complete_and_it_works(self):
        self.start_agent()
        timer_id, _, _ = self.new_timer()
        self.assertEqual(self.timer(timer_id)["notification"], "unavailable")
        shell = self.start_shell_after_the_agent()
        self.addCleanup(shell.stop)

        def shown():
            return [n for n in shell.notifications() if n["title"] == "Maya is asleep"]

        eventually(shown, what="the notification in the Shell's message tray")
        [notification] = shown()
        self.assertEqual(notification["actions"], ["Open", "Complete"], notification)
        self.assertTrue(str(self.client.properties.Get(INTERFACE, "NotificationServer")).startswith("gnome-shell"))
        self.assertNotIn("Open the app", notification["body"])
        self.assertEqual(self.timer(timer_id)["notification"], "shown")
        self.assertTrue(shell.invoke("Maya is asleep", "Complete"))
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        eventually(lambda: self.timer(timer_id) is None, what="the timer to leave the list")
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1)


if __name__ == "__main__":
    unittest.main()
