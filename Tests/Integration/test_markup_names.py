"""A baby's name written as markup, `<a href="https://phish.example/login">Maya</a>`,
shown by the real xfce4-notifyd under Xvfb (which reads bodies as markup)
as the characters it is, in the app's notice that it keeps running with its
window closed and in every notification of the agent, from the running
sleep to the saved one. What the server drew is read back through AT-SPI
(its labels' text, as a screen reader reads it): a name taken as markup
would read "Maya" alone.

Through the notification portal (`PortalMarkupNameTests`) the app cannot
know which backend reads the body: GNOME's shows it as plain text, the GTK
one hands it unchanged to org.freedesktop.Notifications (markup on
xfce4-notifyd and MATE) and KDE's to Plasma's rich text. So there the body
leaves out what would start markup: `<`, `>` and `&` are sent as their
fullwidth look-alikes (＜ ＞ ＆), and the name reads the same on every
backend, never as a link. That path runs the real xdg-desktop-portal with
its GTK backend, forwarding to the real xfce4-notifyd, whose own log
records what it got; the summary (the agent's, with the name) is plain text
on every path and stays as written.

Which path does what:

| path | body |
|---|---|
| org.freedesktop.Notifications with body-markup | escaped (`&lt;a href…`), drawn as written |
| org.freedesktop.Notifications without body-markup | as written (plain text) |
| GNOME Shell's org.gtk.Notifications | as written (plain text) |
| the notification portal, any backend | `<`, `>`, `&` as ＜ ＞ ＆ |
"""

import os
import subprocess

import dbus

from app_harness import AppTestCase, require_tool
from atspi_session import AccessibilityBus
from dbus_client import Client
from desktop import BusMonitor, Display, XfceNotifyd, xdotool
from harness import ARTIFACTS, PATIENCE, AgentProcess, eventually
from processes import BUILD
from proc_accounting import alive
from test_portal_notifications import calls, install_portal
from window_close import request_close

NAME = '<a href="https://phish.example/login">Maya</a>'
NOTICE = ("Dreams for Littles keeps running while %s's sleep is on the desktop; "
          "quit from the panel or with Ctrl+Q" % NAME)
# The picture of docs/markup-name-literal.png.
# The name as the portal's body carries it: nothing that starts markup.
PORTAL_NAME = NAME.replace("<", "\uff1c").replace(">", "\uff1e").replace("&", "\uff06")


def listed_to_the_app(session, monitor):
    """Whether the app's List was answered with the timer of the name
    written as markup (in the capture of the BusMonitor `monitor`): then it
    keeps running, and says so, when its window closes. Also used by the
    Plasma and GNOME Shell tests of the same name."""
    bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
    try:
        app = bus.get_name_owner("com.dreamsforlittles.DreamsForLittles")
    except dbus.exceptions.DBusException:
        return False  # not on the bus yet
    finally:
        bus.close()
    calls = set()
    for header, args in monitor.messages():
        fields = dict(part.split("=", 1) for part in header.replace(";", "").split() if "=" in part)
        if header.startswith("method call") and fields.get("sender") == app and fields.get("member") == "List":
            calls.add(fields.get("serial"))
        elif (header.startswith("method return") and fields.get("destination") == app
              and fields.get("reply_serial") in calls and any("phish.example" in line for line in args)):
            return True
    return False


def added_bodies(monitor, interface):
    """The body of each AddNotification call to `interface` (the portal's
    org.freedesktop.portal.Notification, GNOME Shell's
    org.gtk.Notifications) in the capture of `monitor`, as it crossed the
    bus."""
    bodies = []
    for header, args in monitor.messages():
        if (header.startswith("method call") and "member=AddNotification" in header.split()
                and "interface=%s;" % interface in header.split()):
            for index, line in enumerate(args[:-1]):
                following = args[index + 1]
                if line == 'string "body"' and following.startswith("variant") and 'string "' in following:
                    bodies.append(following.split('string "', 1)[1][:-1])
    return bodies


class MarkupNameTests(AccessibilityBus, AppTestCase):
    notification_server = False

    def setUp(self):
        super().setUp()
        # The accessibility bus before the server, whose GTK joins it as it starts.
        self.start_accessibility_bus()
        self.server = XfceNotifyd(self.session)
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.monitor.stop)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def shown(self):
        """The text of the server's labels now."""
        return self.labels(self.server.process.pid)

    def wait_shown(self, text, what):
        seen = []
        try:
            eventually(lambda: seen.append(self.shown()) or text in seen[-1], what=what)
        except AssertionError as error:
            sent = [(call["summary"], call["body"]) for call in self.monitor.notify_calls()]
            raise AssertionError("%s; the server's labels last read %r; sent were %r" % (error, seen[-1:], sent)) from None

    def popups(self):
        """The server's popups on screen, oldest first."""
        return xdotool(self.session, "search", "--onlyvisible", "--class", "xfce4-notifyd").stdout.split()

    def app_listed_the_name(self):
        return listed_to_the_app(self.session, self.monitor)

    def test_the_name_shows_as_written_in_the_apps_notice_and_the_agents_notifications(self):
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply, baby_name=NAME)
        self.wait_shown(NAME + " is asleep", "the agent's notification with the name as written")
        app = self.start_app()
        eventually(lambda: len(app.windows()) == 1, what="the app's window")
        eventually(self.app_listed_the_name, what="the app to list the timer")

        [window] = app.windows()
        request_close(self.session, window)
        eventually(lambda: app.windows() == [], what="the window to hide")
        self.assertTrue(alive(app.pid))
        # The agent's notification and the app's notice, one above the other in the picture.
        popups = []
        eventually(lambda: popups.append(self.popups()) or len(popups[-1]) == 2, what="the two popups")
        self.save_screenshot(popups[-1])
        self.wait_shown(NOTICE, "the app's notice with the name as written")
        self.assertNotIn(NOTICE.replace(NAME, "Maya"), self.shown())

        self.client.timers.Complete(timer_id, dbus.Int64(0))
        self.platform.wait_for_activities(1)
        self.wait_shown(NAME + "'s sleep", "the saved sleep's notification with the name as written")

        # What crossed the bus: no body carries markup of the name.
        calls = self.monitor.notify_calls()
        self.assertGreaterEqual(len(calls), 3)
        for call in calls:
            self.assertNotIn("<a", call["body"], call)
            self.assertNotIn("<a", call["summary"].replace(NAME, ""), call)

    def save_screenshot(self, windows):
        """The popups cut out of the screen, one above the other, into
        markup-name-literal.png among the test artifacts."""
        os.makedirs(ARTIFACTS, exist_ok=True)
        crops = self.crop(windows)
        subprocess.run(["convert", *crops, "-background", "white", "-gravity", "North", "-splice", "0x8",
                        "-gravity", "East", "-append",
                        os.path.join(ARTIFACTS, "markup-name-literal.png")], check=True, timeout=PATIENCE)

    def crop(self, windows):
        """Each popup cut out of a new screenshot: their files."""
        shot = self.display.screenshot(self.session, os.path.join(self.session.root, "markup-name.png"))
        crops = []
        for index, window in enumerate(windows):
            geometry = self.geometry(window)
            crops.append(os.path.join(self.session.root, "popup-%d.png" % index))
            subprocess.run(["convert", shot, "-crop", "%dx%d+%d+%d" % (
                geometry["WIDTH"], geometry["HEIGHT"], geometry["X"], geometry["Y"]), "+repage", crops[-1]],
                check=True, timeout=PATIENCE)
        return crops

    def geometry(self, window):
        return {key: int(value) for key, value in (
            line.split("=") for line in xdotool(self.session, "getwindowgeometry", "--shell", window).stdout.split())
            if key in ("X", "Y", "WIDTH", "HEIGHT")}


class PortalMarkupNameTests(AppTestCase):
    """The app's notice and the agent's notifications through the
    notification portal with its GTK backend, forwarding to xfce4-notifyd,
    which reads bodies as markup."""

    notification_server = False

    def setUp(self):
        require_tool("xdotool", "xdotool")
        self.session_setup()
        self.display = Display(self.session)
        # GIO's portal backend for the app's notices, as in a sandbox.
        self.session.env.update(GTK_A11Y="none", NO_AT_BRIDGE="1", GTK_USE_PORTAL="1",
                                PATH=BUILD + os.pathsep + self.session.env["PATH"])
        self.write_app_config()
        install_portal(self.session)
        self.server = XfceNotifyd(self.session, log=True)
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.monitor.stop)
        self.agent = AgentProcess(self.session, extra_env={"DFL_NOTIFICATION_SURFACE": "portal"})
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def logged(self, what, test):
        found = []
        try:
            eventually(lambda: found.extend(e for e in self.server.logged() if test(e)) or found, what=what)
        except AssertionError as error:
            raise AssertionError("%s; the server got %r" % (error, self.server.logged())) from None
        return found

    def test_no_body_through_the_portal_holds_markup_and_the_name_reads_the_same(self):
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply, baby_name=NAME)
        # The agent's notification: the name in the title, plain text on every backend, as written.
        self.logged("the agent's notification", lambda e: e.get("summary") == NAME + " is asleep")

        app = self.start_app()
        eventually(lambda: len(app.windows()) == 1, what="the app's window")
        [window] = app.windows()
        eventually(lambda: calls(self.monitor, "List"), what="the app to list the timers")
        request_close(self.session, window)
        eventually(lambda: app.windows() == [], what="the window to hide")
        [notice] = self.logged("the app's notice", lambda e: "keeps running" in e.get("body", ""))
        self.assertEqual(notice["body"], NOTICE.replace(NAME, PORTAL_NAME))
        # It went through the portal, not to the server directly.
        adds = [args for _, args in calls(self.monitor, "AddNotification")]
        self.assertTrue(any("keeps running" in line for args in adds for line in args), adds)

        self.client.timers.Complete(timer_id, dbus.Int64(0))
        self.platform.wait_for_activities(1)
        self.logged("the saved sleep's notification", lambda e: e.get("summary") == NAME + "'s sleep")

        # No body that reached the server holds a character that starts markup.
        sent = self.monitor.notify_calls()
        self.assertGreaterEqual(len(sent), 3)
        for call in sent:
            for character in "<>&":
                self.assertNotIn(character, call["body"], call)
