"""A burst of the settings portal's SettingChanged signals (red-team finding
6): 500 contrast flips from a flooding portal on the session's private bus
are applied once, with the last values, and logged once, instead of
applying (and making GTK reload its theme) and logging each. The app is
stopped while the portal sends, so that the burst meets it all at once, as
after any busy moment; what is counted is the style's log lines, each
standing for one application or more (one line every 5 s at most).

And a paced flood (red team 4): twenty flips a second for ten seconds, each
in a main-loop turn of its own, applied at most four times a second and
logged a few times, for little of the app's CPU."""

import os
import signal
import subprocess
import time

import dbus

from app_harness import AppTestCase
from harness import PATIENCE, eventually
from proc_accounting import cpu_seconds

HERE = os.path.dirname(os.path.abspath(__file__))
STYLE_LINE = "The desktop's style:"
FLIPS = 500
# Twenty a second for ten seconds.
PACED_FLIPS, PACED_INTERVAL_MS = 200, 50


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

    def control(self):
        bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(bus.close)
        return dbus.Interface(bus.get_object("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop"),
                              "com.dreamsforlittles.Test.FloodingPortal")

    def test_five_hundred_flips_are_applied_once_with_the_last_values(self):
        app = self.start_app()
        eventually(lambda: self.style_lines(app), what="the first reading of the style")
        self.assertIn("contrast normal", self.style_lines(app)[0])
        control = self.control()
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

    def test_twenty_flips_a_second_for_ten_seconds_cost_little_and_are_logged_a_few_times(self):
        # Red team 4: each paced flip came in a main-loop turn of its own,
        # and was applied (GTK reloading its theme) and logged alone: 104 to
        # 154 lines and 5.9 to 8.2 s of the app's CPU. Now at most one
        # application a quarter-second, and a line every five seconds.
        app = self.start_app()
        eventually(lambda: self.style_lines(app), what="the first reading of the style")
        control = self.control()
        # The page loaded and the app quiet before the CPU is counted.
        time.sleep(3)
        before, lines_before = cpu_seconds(app.pid), len(self.style_lines(app))
        control.Pace(PACED_FLIPS, PACED_INTERVAL_MS)
        eventually(lambda: control.Sent() == PACED_FLIPS, what="the paced flips to be sent", timeout=10 * PATIENCE)
        try:
            eventually(lambda: "contrast high" in self.style_lines(app)[-1], what="the last flip to be logged")
        except AssertionError as error:
            raise AssertionError("%s; the style's last lines: %r" % (error, self.style_lines(app)[-3:])) from None
        spent = cpu_seconds(app.pid) - before
        lines = self.style_lines(app)[lines_before:]
        self.assertLessEqual(len(lines), 5, lines)
        self.assertLess(spent, 1.0, "%.2f s of CPU for %d flips; lines: %r" % (spent, PACED_FLIPS, lines))
        self.assertIsNone(app.process.poll())
