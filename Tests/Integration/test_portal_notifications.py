"""The agent on the notification portal, as inside a Flatpak: the real
xdg-desktop-portal with its GTK backend, D-Bus activated on the session's
private bus, forwarding to xfce4-notifyd under Xvfb. The agent is put on
the portal surface by DFL_NOTIFICATION_SURFACE=portal (on the host, where
the portal takes an unsandboxed caller's AddNotification as the app id "").

What the server drew is read from xfce4-notifyd's own log; what crossed the
bus from a capture of the whole bus."""

import os
import signal
import subprocess
import unittest

from dbus_client import Client
from desktop import BusMonitor, Display, XfceNotifyd
from harness import PATIENCE, AgentProcess, PlatformTestCase, eventually

PORTAL = "org.freedesktop.portal.Desktop"
# The bus names the portal needs without systemd, each with the package
# whose D-Bus service file starts it.
PORTAL_SERVICES = {
    PORTAL: "xdg-desktop-portal",
    "org.freedesktop.impl.portal.PermissionStore": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.desktop.gtk": "xdg-desktop-portal-gtk",
}


def install_portal(session):
    """The portal's service files on the session's bus, and DISPLAY in the
    activation environment (the GTK backend opens the display)."""
    session.install_services(PORTAL_SERVICES)
    subprocess.run(["dbus-update-activation-environment", "DISPLAY=" + session.env["DISPLAY"]],
                   env=session.env, check=True, timeout=PATIENCE)


def calls(monitor, member, sender=None):
    """The method calls of `member` in the capture, each as its header and
    argument lines."""
    found = []
    for header, args in monitor.messages():
        if header.startswith("method call") and "member=%s" % member in header.split():
            if sender is None or "sender=%s" % sender in header.split():
                found.append((header, args))
    return found


class PortalNotificationTests(PlatformTestCase):
    def setUp(self):
        super().setUp()
        self.display = Display(self.session)
        install_portal(self.session)
        self.server = XfceNotifyd(self.session, log=True)
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.monitor.stop)
        self.agent = AgentProcess(self.session, extra_env={"DFL_NOTIFICATION_SURFACE": "portal"})
        self.client = Client(self.session)
        self.addCleanup(self.client.close)
        self.agent_name = self.client.bus.get_name_owner("com.dreamsforlittles.DreamsForLittles.SleepTimers1")

    def shown(self, summary):
        return [entry for entry in self.server.logged() if entry.get("summary") == summary]

    def server_says(self):
        return str(self.client.properties.Get("com.dreamsforlittles.SleepTimers1", "NotificationServer"))

    def test_a_mirror_is_drawn_with_open_and_complete_updated_in_place_and_removed(self):
        eventually(lambda: self.server_says() == "portal 1", what="the agent to name the portal as its server")
        timer_id, reply = self.platform.start_sleep()
        token = self.platform.mirror(self.client, timer_id, reply, baby_name="Maya")

        # The server drew it, with Open and Complete in words.
        eventually(lambda: self.shown("Maya is asleep"), what="xfce4-notifyd to draw Maya's notification")
        [first] = self.shown("Maya is asleep")
        self.assertEqual([label for label in first["labels"] if label], ["Open", "Complete"])

        # The agent called AddNotification with the app's exported actions
        # and the timer's id, and never the notification server itself.
        [(_, add)] = calls(self.monitor, "AddNotification", sender=self.agent_name)
        text = "\n".join(add)
        self.assertEqual(add[0], 'string "%s"' % timer_id)
        for expected in ('string "default-action"', 'string "app.open-timer"', 'string "default-action-target"',
                         'string "app.complete-timer"', 'string "buttons"', 'string "Maya is asleep"'):
            self.assertIn(expected, text)
        self.assertEqual(text.count('string "%s"' % timer_id), 4, "the id, the default target and two buttons' targets")
        self.assertEqual(calls(self.monitor, "Notify", sender=self.agent_name), [])
        # The portal's backend passed the exported actions on to the server.
        [notify] = self.monitor.notify_calls()
        self.assertEqual(notify["actions"][2:], ["app.open-timer::" + timer_id, "Open",
                                                 "app.complete-timer::" + timer_id, "Complete"])

        # An update (a new name) replaces it by the same id.
        self.platform.mirror(self.client, timer_id, reply, baby_name="Maya Rose", token=token)
        eventually(lambda: self.shown("Maya Rose is asleep"), what="the update to be drawn")
        adds = calls(self.monitor, "AddNotification", sender=self.agent_name)
        self.assertEqual([args[0] for _, args in adds], ['string "%s"' % timer_id] * 2)
        second = self.monitor.notify_calls()[-1]
        self.assertEqual(second["replaces_id"], notify["id"], "the server replaced the notification in place")

        # Removing the timer removes the notification, and the server closes it.
        self.assertTrue(bool(self.client.timers.Remove(timer_id)))
        eventually(lambda: calls(self.monitor, "RemoveNotification", sender=self.agent_name),
                   what="RemoveNotification from the agent")
        [(_, remove)] = calls(self.monitor, "RemoveNotification", sender=self.agent_name)
        self.assertEqual(remove, ['string "%s"' % timer_id])
        eventually(lambda: any(args == ["uint32 %d" % notify["id"]] for _, args in calls(self.monitor, "CloseNotification")),
                   what="the backend to close the notification on the server")

        # The token is in no message, no record of the server and no log.
        self.monitor.stop()
        with open(self.monitor.path, errors="replace") as handle:
            self.assertNotIn(token, handle.read())
        self.assertNotIn(token, repr(self.server.logged()))
        self.assertNotIn(token, self.session.bus_output())
        self.assertNotIn(token, self.agent.log())

    def test_the_agent_follows_the_portal_leaving_and_coming_back(self):
        eventually(lambda: self.server_says() == "portal 1", what="the agent to name the portal as its server")
        bus = self.client.bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus", introspect=False)
        portal = int(bus.GetConnectionUnixProcessID(PORTAL, dbus_interface="org.freedesktop.DBus"))
        os.kill(portal, signal.SIGTERM)
        # The next call to the portal (the agent asks again when it comes
        # back; here the test's Mirror makes it) starts it again by
        # activation.
        eventually(lambda: self.server_says() == "", what="the agent to notice the portal left")
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply, baby_name="Leo")
        subprocess.run(["gdbus", "call", "--session", "--dest", PORTAL, "--object-path", "/org/freedesktop/portal/desktop",
                        "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.portal.Notification",
                        "version"], env=self.session.env, check=True, capture_output=True, timeout=PATIENCE)
        eventually(lambda: self.server_says() == "portal 1", what="the agent to take the portal back")
        eventually(lambda: self.shown("Leo is asleep"), what="Leo's notification once the portal is back")


class SurfaceOverrideTests(PlatformTestCase):
    def test_an_override_that_names_no_surface_stops_the_agent_with_a_clear_error(self):
        agent = AgentProcess(self.session, extra_env={"DFL_NOTIFICATION_SURFACE": "libnotify"}, wait=False)
        status = agent.process.wait(PATIENCE)
        self.assertEqual(status, 78)
        self.assertIn("DFL_NOTIFICATION_SURFACE=libnotify names no notification surface; use server or portal.",
                      agent.log())


if __name__ == "__main__":
    unittest.main()
