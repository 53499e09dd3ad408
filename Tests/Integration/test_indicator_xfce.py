"""The panel indicator on a real StatusNotifierItem host: the systray of
xfce4-panel 4.18 under Xvfb, which owns org.kde.StatusNotifierWatcher and
draws items with libdbusmenu-gtk3 menus, with the real agent and the
reference platform over TLS. Everything a person would do goes through real
input (xdotool); what the panel shows is read off the screen with tesseract.

xfce4-panel is the host chosen because it runs here without a compositor or
a full session (only xfconfd, which the private bus starts), it is a
StatusNotifierWatcher and host in one process, and its menus are
libdbusmenu's, as in most GTK panels."""

import os
import re
import subprocess
import time

import dbus

from desktop import ICON_NAVY, BusMonitor, Display, XfcePanel, wait_for_name, xdotool
from harness import ARTIFACTS, PATIENCE, PlatformTestCase, eventually
import screen_words

PANEL_HEIGHT = 32
SCREEN_WIDTH = 1280


def words(text):
    """Text reduced to lower-case letters and digits, so that what OCR reads
    ("1h 23 min", "asleep - 1 h") compares with what was meant."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


class XfcePanelTestCase(PlatformTestCase):
    def setUp(self):
        super().setUp()
        screen_words.require_tesseract()
        self.display = Display(self.session)
        self.panel = XfcePanel(self.session)
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.monitor.stop)
        self.start_agent()

    @property
    def key(self):
        return "org.kde.StatusNotifierItem-%d-1/StatusNotifierItem" % self.agent.pid

    def registered(self):
        watcher = self.client.bus.get_object("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", introspect=False)
        return [str(item) for item in dbus.Interface(watcher, "org.freedesktop.DBus.Properties").Get(
            "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems")]

    def screenshot(self, name=None):
        path = os.path.join(self.session.root, "screen.png")
        self.display.screenshot(self.session, path)
        if name:
            os.makedirs(ARTIFACTS, exist_ok=True)
            subprocess.run(["cp", path, os.path.join(ARTIFACTS, name)], check=True)
        return path

    def icon(self):
        """Where the panel draws the app's icon: (x, y) of its middle, or None."""
        raw = subprocess.run(["convert", self.screenshot(), "-crop", "%dx%d+0+0" % (SCREEN_WIDTH, PANEL_HEIGHT),
                              "-depth", "8", "rgb:-"], capture_output=True, check=True, timeout=PATIENCE).stdout
        points = [(i // 3 % SCREEN_WIDTH, i // 3 // SCREEN_WIDTH) for i in range(0, len(raw), 3)
                  if all(abs(raw[i + c] - ICON_NAVY[c]) <= 10 for c in range(3))]
        if len(points) < 20:
            return None
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2

    def wait_to_read(self, *phrases):
        """The text on screen under the panel's left end (where its tooltip
        and menu open), read from a new screenshot until it holds every
        phrase; a failure says what was last read."""
        try:
            return screen_words.wait_for_text(
                self.screenshot, (0, PANEL_HEIGHT, 320, 140), self.session.root,
                lambda text: all(words(phrase) in words(text) for phrase in phrases),
                "the screen to show %r" % (phrases,))
        except AssertionError as error:
            raise AssertionError("%s\nthe agent's log:\n%s" % (error, self.agent.log()[-2000:])) from None

    def wait_for_icon(self):
        spot = []
        eventually(lambda: spot.append(self.icon()) or spot[-1] is not None, what="the indicator's icon on the panel")
        return spot[-1]

    def new_sleep(self):
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply, baby_name="Maya")
        return timer_id


class XfcePanelTests(XfcePanelTestCase):
    def test_the_indicator_shows_a_sleep_completes_it_from_the_menu_and_goes(self):
        time.sleep(1)
        self.assertIsNone(self.icon())
        self.assertEqual(self.registered(), [])

        timer_id = self.new_sleep()
        x, y = self.wait_for_icon()
        self.assertEqual(self.registered(), [self.key])

        # The tooltip, on hovering the icon.
        xdotool(self.session, "mousemove", str(x), str(y))
        text = self.wait_to_read("Dreams for Littles", "Maya asleep")
        self.assertRegex(words(text), r"mayaasleep1h2[34]min")
        self.screenshot("xfce4-panel-tooltip.png")

        # The menu, on a right click; the first entry chosen with the keyboard.
        xdotool(self.session, "click", "3")
        self.wait_to_read("Complete Maya's sleep", "Open Maya's sleep", "Open Dreams for Littles")
        xdotool(self.session, "key", "Down")
        time.sleep(0.3)
        shot = self.screenshot("xfce4-panel-menu.png")
        subprocess.run(["convert", shot, "-crop", "290x125+0+0", os.path.join(ARTIFACTS, "indicator-xfce4-panel.png")],
                       check=True, timeout=PATIENCE)
        xdotool(self.session, "key", "Return")

        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        self.assertIn("member=EventGroup", self.monitor.text())
        # The last timer has ended: after its saved moment, the item goes.
        eventually(lambda: self.registered() == [], what="the item to leave the watcher")
        eventually(lambda: self.icon() is None, what="the icon to leave the panel")
        time.sleep(0.5)
        self.assertEqual(len(self.platform.activities()), 1)
        self.assertEqual(self.client.list(), [])

    def test_a_restarted_panel_shows_the_indicator_again(self):
        self.new_sleep()
        self.wait_for_icon()
        self.panel.stop()
        wait_for_name(self.session, "org.kde.StatusNotifierWatcher", present=False)
        eventually(lambda: self.icon() is None, what="the old panel to go")
        self.panel = XfcePanel(self.session)
        self.wait_for_icon()
        self.assertEqual(self.registered(), [self.key])


if __name__ == "__main__":
    import unittest
    unittest.main()
