"""A burst of the settings portal's SettingChanged signals (red-team finding
6): 500 contrast flips from a flooding portal on the session's private bus
are applied once, with the last values, and logged once, instead of
applying (and making GTK reload its theme) and logging each. The app is
stopped while the portal sends, so that the burst meets it all at once, as
after any busy moment; what is counted is the app's applications of the
style, each of which writes one line."""

import os
import signal
import subprocess
import time

import dbus

from app_harness import AppTestCase
from harness import PATIENCE, eventually

HERE = os.path.dirname(os.path.abspath(__file__))
STYLE_LINE = "The desktop's style:"
FLIPS = 500


class StyleBurstTests(AppTestCase):
    notification_server = False

    def setUp(self):
        super().setUp()
        self.portal = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "flooding_portal.py")],
                                       stdout=subprocess.PIPE, text=True, env=self.session.env)
        self.session.processes.append(self.portal)
        self.assertEqual(self.portal.stdout.readline().strip(), "ready")

    def style_lines(self, app):
        return [line for line in app.log().splitlines() if STYLE_LINE in line]

    def test_five_hundred_flips_are_applied_once_with_the_last_values(self):
        app = self.start_app()
        eventually(lambda: self.style_lines(app), what="the first reading of the style")
        self.assertIn("contrast normal", self.style_lines(app)[0])
        bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(bus.close)
        control = dbus.Interface(bus.get_object("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop"),
                                 "com.dreamsforlittles.Test.FloodingPortal")
        os.kill(app.pid, signal.SIGSTOP)
        try:
            self.assertEqual(control.Flood(FLIPS, timeout=PATIENCE), FLIPS)
        finally:
            os.kill(app.pid, signal.SIGCONT)
        try:
            eventually(lambda: "contrast high" in self.style_lines(app)[-1], what="the last flip to be applied")
        except AssertionError as error:
            raise AssertionError("%s; the style's last lines: %r" % (error, self.style_lines(app)[-3:])) from None
        # Settled: no line for two seconds.
        count, since = len(self.style_lines(app)), time.monotonic()
        deadline = since + 10 * PATIENCE
        while time.monotonic() - since < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            if len(self.style_lines(app)) != count:
                count, since = len(self.style_lines(app)), time.monotonic()
        applications = self.style_lines(app)[1:]
        self.assertLess(len(applications), 10, "%d applications of %d flips: %r" % (
            len(applications), FLIPS, applications[:5]))
        self.assertIn("contrast high", applications[-1])
        self.assertIsNone(app.process.poll())
