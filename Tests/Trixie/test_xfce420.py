"""XFCE 4.20 in the Debian 13 root: xfce4-notifyd 0.9 and xfce4-panel 4.20
pass the project's xfce tests, which run here as they are written for
Debian 12 (the classes of Tests/Integration, subclassed), against the
installed package. Besides: what xfce4-notifyd 0.9 does during Do Not
Disturb, and the screenshots of the notification and the panel item."""

import os
import shutil
import subprocess
import unittest

import test_indicator_xfce
import test_notifications
from desktop import XfceNotifyd, xdotool
from harness import INTERFACE, PATIENCE, eventually
import screen_words

ARTIFACTS = test_notifications.ARTIFACTS


class OwnArtifacts:
    """The screenshots the Debian 12 tests take go beside theirs, not over
    them, while one of these tests runs."""

    def setUp(self):
        for module in (test_notifications, test_indicator_xfce):
            self.addCleanup(setattr, module, "ARTIFACTS", module.ARTIFACTS)
            module.ARTIFACTS = os.path.join(ARTIFACTS, "xfce420")
        super().setUp()


def artifact(name):
    """Where a screenshot of these tests goes."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    return os.path.join(ARTIFACTS, name)


def need(program, package):
    """A missing part of the desktop fails the test, naming its package."""
    if shutil.which(program) is None:
        raise AssertionError("%s is needed: apt-get install %s" % (program, package))


def xfconf(session, channel, prop, value):
    """Sets an xfconf property as the settings dialog would, through the
    session's xfconfd (made if missing, as a boolean)."""
    need("xfconf-query", "xfconf")
    result = subprocess.run(["xfconf-query", "-c", channel, "-p", prop, "-n", "-t", "bool", "-s", value],
                            env=session.env, capture_output=True, text=True, timeout=PATIENCE)
    if result.returncode != 0:
        raise AssertionError("xfconf-query failed: %s" % result.stderr)


class Xfce420NotificationTests(OwnArtifacts, test_notifications.XfceTests):
    """Every test of the Debian 12 xfce4-notifyd class, on 0.9."""

    def test_the_server_is_xfce4_notifyd_0_9(self):
        eventually(lambda: str(self.client.properties.Get(INTERFACE, "NotificationServer")), what="the server")
        self.assertRegex(str(self.client.properties.Get(INTERFACE, "NotificationServer")),
                         r"^Xfce Notify Daemon 0\.9\.")

    def test_the_popup_says_open_and_complete_in_words(self):
        self.start_timer()
        eventually(lambda: len(self.popups()) == 1, what="the popup")
        window = self.popups()[0]
        shots = []

        def screenshot():
            shots.append(self.display.screenshot(self.session, os.path.join(self.session.root, "screen.png")))
            return shots[-1]

        def box():
            geometry = self.geometry(window)
            return geometry["X"], geometry["Y"], geometry["WIDTH"], geometry["HEIGHT"]

        # Read until the popup says it all: xfce4-notifyd fades a popup in.
        screen_words.require_tesseract()
        screen_words.wait_for_text(screenshot, box, self.session.root,
                                   lambda text: all(word.lower() in text.lower()
                                                    for word in ("Maya is asleep", "Open", "Complete")),
                                   "the popup")
        x, y, width, height = box()
        subprocess.run(["convert", shots[-1], "-crop", "%dx%d+%d+%d" % (width, height, x, y), "+repage",
                        artifact("xfce420-notification.png")], check=True, timeout=PATIENCE)


class DoNotDisturbTests(test_notifications.DesktopTestCase):
    """xfce4-notifyd 0.9 shows nothing during Do Not Disturb: it closes what
    it showed (reason 4) and every notification that comes during it, still
    says it has actions, and announces the end only in xfconf. The agent
    shows no button then, and Complete again once it ends."""

    def server_class(self, session):
        return XfceNotifyd(session, log=True)

    popups = test_notifications.XfceTests.popups
    press = test_notifications.XfceTests.press

    def test_no_button_during_do_not_disturb_and_complete_after_it(self):
        timer_id, _ = self.start_timer()
        eventually(lambda: len(self.popups()) == 1, what="the popup")
        before = len(self.server.logged())

        xfconf(self.session, "xfce4-notifyd", "/do-not-disturb", "true")
        eventually(lambda: self.popups() == [], what="the popup to go for Do Not Disturb")
        # Put away by the server, not dismissed by the parent.
        eventually(lambda: self.timer(timer_id)["notification"] == "unavailable", what="the notification put away")
        # What the agent sent during it, as the server logged it: no Complete.
        eventually(lambda: len(self.server.logged()) > before,
                   what="the server to log a notification during Do Not Disturb")
        during = self.server.logged()[before:]
        self.assertTrue(all("complete" not in entry["actions"] for entry in during), during)
        self.assertTrue(during[-1]["body"].endswith("Open the app to complete it."), during[-1])
        self.assertEqual(self.popups(), [])

        xfconf(self.session, "xfce4-notifyd", "/do-not-disturb", "false")
        eventually(lambda: len(self.popups()) == 1, what="the popup to come back")
        self.assertEqual(self.timer(timer_id)["notification"], "shown")
        self.press(self.popups()[0], tabs=1)
        self.assertCompletedOnce(timer_id)


class Xfce420PanelTests(OwnArtifacts, test_indicator_xfce.XfcePanelTests):
    """Every test of the Debian 12 xfce4-panel class, on 4.20."""

    def test_the_panel_is_4_20(self):
        # GTK opens the display before the panel prints its version.
        version = subprocess.run(["xfce4-panel", "--version"], env=self.session.env, capture_output=True, text=True,
                                 timeout=PATIENCE).stdout
        self.assertRegex(version, r"xfce4-panel 4\.20\.")

    def test_the_panel_item_and_its_menu(self):
        self.new_sleep()
        x, y = self.wait_for_icon()
        xdotool(self.session, "mousemove", str(x), str(y))
        xdotool(self.session, "click", "3")
        self.wait_to_read("Complete Maya's sleep", "Open Maya's sleep")
        shot = self.screenshot()
        subprocess.run(["convert", shot, "-crop", "290x125+0+0", "+repage",
                        artifact("xfce420-indicator.png")], check=True, timeout=PATIENCE)


if __name__ == "__main__":
    unittest.main()
