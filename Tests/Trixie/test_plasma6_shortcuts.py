"""Plasma 6.3's global shortcuts as the agent asks for them: "Complete the
running Sleep" and "Open the running Sleep" bound through the
GlobalShortcuts portal (the real xdg-desktop-portal 1.20 with KDE's
backend, started on the session's private bus by the test, as a Plasma
session has it running), kept by
kglobalacceld as Plasma's X11 session starts it (on X11 it is a daemon of
its own, which no D-Bus activation starts; on Wayland it lives in KWin),
and the keys pressed through X (xdotool), as a keyboard's are.

Each test has its own agent, which binds once the portal is on the bus, in
a session of its own."""

import glob
import subprocess
import sys
import time
import unittest

import dbus

from app_harness import require_tool
from desktop import xdotool
from harness import PATIENCE, eventually
from reference_platform import LEO
from test_plasma6 import PlasmaTestCase

PORTAL = "org.freedesktop.portal.Desktop"
# The bus names the portal needs without systemd, each with the package
# whose D-Bus service file starts it.
PORTAL_SERVICES = {
    PORTAL: "xdg-desktop-portal",
    "org.freedesktop.impl.portal.PermissionStore": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.desktop.kde": "xdg-desktop-portal-kde",
}
KGLOBALACCEL = "org.kde.kglobalaccel"
# The agent's shortcuts and the keys it suggests.
COMPLETE = "complete-running-sleep"
OPEN = "open-running-sleep"
COMPLETE_KEYS = "ctrl+alt+shift+s"
# How often a key is pressed before the test gives up on its activation.
PRESSES = 4


class ShortcutTests(PlasmaTestCase):
    x11 = True

    @classmethod
    def setUpClass(cls):
        require_tool("xdotool", "xdotool")
        super().setUpClass()
        try:
            cls.session.install_services(PORTAL_SERVICES)
            env = cls.session.env
            subprocess.run(["dbus-update-activation-environment"] + ["%s=%s" % (key, env[key]) for key in (
                "DISPLAY", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS",
                "QT_QPA_PLATFORM", "KDE_FULL_SESSION", "KDE_SESSION_VERSION")],
                env=env, check=True, timeout=PATIENCE)
            found = glob.glob("/usr/lib/*/libexec/kglobalacceld")
            if not found:
                raise AssertionError("kglobalacceld is missing: install the Debian package kglobalacceld")
            # The agent opens links with a recorder: what it opened is read
            # back (no app is installed on this session's bus).
            cls.extra_config = "url-opener=%s\n" % cls.session.opener_path()
            cls.kglobalacceld = cls.plasma.start("kglobalacceld", [found[0]])
            cls.plasma.wait_until(lambda: cls.plasma.bus.name_has_owner(KGLOBALACCEL), "kglobalacceld on the bus")
            # The first chord xdotool presses on a fresh Xvfb reached no
            # grab in the runs so far (the next did): one that is no one's
            # shortcut goes first.
            result = xdotool(cls.session, "key", "--clearmodifiers", "ctrl+alt+shift+F12")
            if result.returncode != 0:
                raise AssertionError("xdotool could not press a key: %s" % result.stderr)
        except BaseException:
            cls.tearDownClass()
            raise

    def setUp(self):
        super().setUp()
        # A Plasma session has its portal running; the agent never starts
        # one. Started here after the agent, the first test's agent binds
        # once the portal comes, the next tests' find it there.
        if not self.plasma.bus.name_has_owner(PORTAL):
            self.plasma.bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                          "StartServiceByName", "su", (PORTAL, 0), timeout=PATIENCE)

    def bound_line(self):
        """The agent's line on what the portal bound, once it is there."""
        def line():
            lines = [l for l in self.agent.log().splitlines()
                     if "Global shortcuts bound" in l or "No global shortcuts" in l]
            return lines[-1] if lines else None
        try:
            eventually(lambda: line() is not None, what="the agent to bind its shortcuts")
        except AssertionError:
            raise AssertionError(self.failure("the agent said nothing of its shortcuts\nthe portal's calls:\n%s"
                                              % self.portal_calls())) from None
        return line()

    def portal_calls(self):
        return "\n".join("%s\n  %s" % (h, "\n  ".join(args)) for h, args in self.monitor.messages()
                         if "GlobalShortcuts" in h or "member=Response" in h)

    def kglobalaccel_actions(self):
        """Every action of every component kglobalacceld holds."""
        bus = self.plasma.bus
        accel = dbus.Interface(bus.get_object(KGLOBALACCEL, "/kglobalaccel"), "org.kde.KGlobalAccel")
        actions = []
        for path in accel.allComponents():
            component = dbus.Interface(bus.get_object(KGLOBALACCEL, path), "org.kde.kglobalaccel.Component")
            actions += [str(name) for name in component.shortcutNames()]
        return actions

    def bind_and_press(self, keys):
        line = self.bound_line()
        self.check("%s on " % COMPLETE in line, "the portal did not bind the keys: %s\n%s" % (line, self.portal_calls()))
        eventually(lambda: COMPLETE in self.kglobalaccel_actions() and OPEN in self.kglobalaccel_actions(),
                   what="kglobalacceld to hold the agent's shortcuts")
        # A press that brought nothing within a few seconds is pressed
        # again, as a person would (the first chord on a fresh X server
        # was lost before the warm-up above); one that did is never
        # repeated, and the platform's one activity holds that a second
        # press cannot complete twice anyway.
        for press in range(1, PRESSES + 1):
            result = xdotool(self.session, "key", "--clearmodifiers", keys)
            self.assertEqual(result.returncode, 0, result.stderr)
            try:
                eventually(lambda: "The global shortcut" in self.agent.log(), timeout=5, what="the portal's Activated")
                break
            except AssertionError:
                if press == PRESSES:
                    raise AssertionError(self.failure("no activation reached the agent after %d presses\n%s"
                                                      % (PRESSES, self.portal_calls()))) from None
        print("the activation came with press %d" % press, file=sys.stderr)

    def test_the_shortcut_completes_the_one_running_sleep_once(self):
        timer_id, _ = self.new_sleep()
        self.wait_for_popup()
        self.bind_and_press(COMPLETE_KEYS)
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        eventually(lambda: any(c["body"].startswith("Sleep saved") for c in self.monitor.notify_calls()),
                   what="the agent to say the sleep is saved")
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1)
        self.assertIn("The global shortcut %s was pressed" % COMPLETE, self.agent.log())

    def test_with_two_sleeps_the_shortcut_completes_nothing_and_opens_the_app(self):
        opened = len(self.session.opened_urls())
        self.new_sleep()
        timer_id, reply = self.platform.start_sleep(baby=LEO, started_ago_s=40 * 60)
        self.platform.mirror(self.client, timer_id, reply, baby_name="Leo", baby=LEO)
        self.bind_and_press(COMPLETE_KEYS)
        eventually(lambda: "CompleteRunning found several running Sleeps" in self.agent.log(),
                   what="the agent to find two Sleeps")
        home = self.client.list()[0]["deep_link"].split("://", 1)[0] + "://"
        eventually(lambda: home in self.session.opened_urls()[opened:], what="the agent to open the app at its start")
        time.sleep(1)
        self.assertEqual(self.platform.activities(), [])
        self.assertEqual(self.session.opened_urls()[opened:], [home])


if __name__ == "__main__":
    unittest.main()
