"""The app's exported actions as the notification portal calls them inside a
Flatpak: org.freedesktop.Application.ActivateAction('complete-timer' or
'open-timer', [timer id], platform data) on com.dreamsforlittles.DreamsForLittles, which
D-Bus activation starts when it does not run (the package's service file,
`--gapplication-service`). The real app under Xvfb, the real agent, the
reference platform over TLS; the calls are made with gdbus, as a portal
backend makes them.

The sandbox's own part (the agent's name under the app id, the Background
portal) is decided by RunningPlace, read from /.flatpak-info, which has no
override: its rules are unit tests (SandboxAgentMachineTests,
TimerActionRuleTests) and the Flatpak's tests carry it out."""

import os
import signal
import subprocess
import time

import dbus
import dbus.lowlevel

import app_harness
import bus_probe

from app_harness import AppTestCase, app_windows, require_tool, session_app_pids, window_startup_id
from dbus_client import Client
from desktop import BusMonitor, Display, XfceNotifyd, xdotool
from harness import DEMO_FAMILY, MAYA, PATIENCE, AgentProcess, eventually
from proc_accounting import alive
from processes import BUILD
from test_background import install_app_service
from test_desktop_app import ProcessHandle
from test_portal_notifications import calls, install_portal

APP_NAME = "com.dreamsforlittles.DreamsForLittles"
AGENT_NAME = "com.dreamsforlittles.DreamsForLittles.SleepTimers1"
PORTAL_SURFACE = {"DFL_NOTIFICATION_SURFACE": "portal"}
APP_PATH = "/com/dreamsforlittles/DreamsForLittles"
# The app's allowance of what a way in (an action, Open) may make it do: a
# burst of three, then one a second, and all ways in together a burst of six,
# then two a second (CallerRateLimitMachine.Settings.opens, as the agent's).
BURST = 3
REFILL_S = 1.0
ALL_BURST = 6
ALL_REFILL_S = 0.5
# How late the platform answers a completion when a test needs it still on
# its way (a bound on the test's own steps, not a measurement).
LATE_MS = 15000


class AppActionsTestCase(AppTestCase):
    notification_server = False

    def setUp(self):
        super().setUp()
        install_app_service(self.session)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def mirrored_timer(self):
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply)
        return timer_id

    def listed(self, timer_id):
        return [t for t in self.client.list() if t["timer_id"] == timer_id]

    def activate_action(self, name, target, platform_data="@a{sv} {}"):
        """ActivateAction as a portal backend calls it; `target` in GVariant
        text. The reply comes once the app has run the action."""
        result = subprocess.run(
            ["gdbus", "call", "--session", "--dest", APP_NAME, "--object-path", APP_PATH,
             "--method", "org.freedesktop.Application.ActivateAction", name, "[<%s>]" % target, platform_data],
            env=self.session.env, capture_output=True, text=True, timeout=PATIENCE)
        for pid in session_app_pids(self.session):
            self.session.processes.append(ProcessHandle(pid))
        return result

    def app_output(self):
        """What the activated app wrote: its stderr goes to the bus's log."""
        return "\n".join(line for line in self.session.bus_output().splitlines() if "dreamsforlittles:" in line)

    def visible_windows(self):
        return xdotool(self.session, "search", "--onlyvisible", "--name", "Dreams for Littles").stdout.split()

    def wait_until_the_app_quits(self):
        try:
            eventually(lambda: session_app_pids(self.session) == [], what="the activated app to quit")
        except AssertionError as error:
            raise AssertionError("%s\nthe app's output:\n%s" % (error, self.app_output()[-3000:])) from None


class CompleteTimerTests(AppActionsTestCase):
    def test_complete_activates_the_app_makes_one_activity_shows_no_window_and_the_app_quits(self):
        timer_id = self.mirrored_timer()
        self.assertEqual(session_app_pids(self.session), [])

        result = self.activate_action("complete-timer", "'%s'" % timer_id)
        self.assertEqual(result.returncode, 0, result.stderr)
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        self.wait_until_the_app_quits()
        output = self.app_output()
        self.assertIn("Completing timer %s from the notification" % timer_id, output)
        self.assertIn("The agent recorded the completion of timer %s" % timer_id, output)
        # No window was made: a window loads the web app as it is made.
        self.assertNotIn("Loading ", output)
        self.assertEqual(self.visible_windows(), [])

        # The same click delivered again: the app starts again, the agent
        # has nothing more to send.
        again = self.activate_action("complete-timer", "'%s'" % timer_id)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.wait_until_the_app_quits()
        self.assertIn("is no longer mirrored by the agent", self.app_output())
        self.assertEqual(len(self.platform.activities()), 1)
        self.assertEqual(self.visible_windows(), [])

    def test_a_second_complete_while_the_first_is_being_sent_is_not_an_error_and_makes_no_second_activity(self):
        timer_id = self.mirrored_timer()
        # The platform answers the first completion late: it is still in the
        # agent's outbox when the second click comes.
        self.platform.fault(route="complete", mode="latency", ms=LATE_MS)
        first = self.activate_action("complete-timer", "'%s'" % timer_id)
        self.assertEqual(first.returncode, 0, first.stderr)
        [listed] = self.listed(timer_id)
        self.assertEqual(listed["state"], "saving", "the completion was answered before the second click")
        second = self.activate_action("complete-timer", "'%s'" % timer_id.upper())
        self.assertEqual(second.returncode, 0, second.stderr)
        [activity] = self.platform.wait_for_activities(1, timeout=PATIENCE + LATE_MS / 1000)
        self.assertEqual(activity["timerId"], timer_id)
        self.wait_until_the_app_quits()
        output = self.app_output()
        self.assertIn("The agent already holds the completion of timer %s" % timer_id, output)
        self.assertNotIn("Could not complete", output)
        self.assertEqual(len(self.platform.activities()), 1)

    def test_a_bad_timer_id_is_refused_and_changes_nothing(self):
        timer_id = self.mirrored_timer()
        for target in ("'not-a-timer'", "'%s/../x'" % timer_id, "''"):
            result = self.activate_action("complete-timer", target)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.wait_until_the_app_quits()
        self.assertEqual(self.app_output().count("Refused the complete-timer action"), 3)
        # A target of another type never reaches the action: GApplication
        # refuses the call itself.
        typed = self.activate_action("complete-timer", "int32 42")
        self.assertIn("org.freedesktop.DBus.Error.InvalidArgs", typed.stderr)
        self.wait_until_the_app_quits()
        self.assertNotIn("Completing timer", self.app_output())
        [listed] = self.listed(timer_id)
        self.assertEqual((listed["state"], listed["can_complete"]), ("running", True))
        self.assertEqual(self.platform.activities(), [])
        self.assertEqual(self.visible_windows(), [])


class LeftPortalNotificationTests(AppActionsTestCase):
    """As inside a Flatpak: the agent's notifications and the app's own go
    through the notification portal (the real xdg-desktop-portal with its
    GTK backend, forwarding to xfce4-notifyd), and a Complete comes back as
    the app's action. An agent killed after a timer left its store, before
    it removed the notification, takes it away at its next start; a
    Complete pressed on it anyway (GNOME Shell restores a portal app's
    notifications after its own restart) sends nothing to the platform, and
    the notification then says the Sleep has already ended."""

    def setUp(self):
        require_tool("xdotool", "xdotool")
        self.session_setup()
        self.display = Display(self.session)
        self.session.env.update(GTK_A11Y="none", NO_AT_BRIDGE="1", GTK_USE_PORTAL="1",
                                PATH=BUILD + os.pathsep + self.session.env["PATH"])
        self.write_app_config()
        install_portal(self.session)
        self.server = XfceNotifyd(self.session, log=True)
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.monitor.stop)
        install_app_service(self.session)
        # The activated app's notices go through the portal, as in a sandbox.
        subprocess.run(["dbus-update-activation-environment", "GTK_USE_PORTAL"], env=self.session.env, check=True,
                       timeout=PATIENCE)
        # The agent that will leave the notification is the first and only
        # one to add it. Debian 12's GTK backend (xdg-desktop-portal-gtk
        # 1.14, fixed in 1.15) keeps a second AddNotification of an id twice
        # in its list, frees it at the RemoveNotification, and may crash at
        # the next AddNotification: an agent started again that shows the
        # notification anew would lose the app's notice to that crash.
        self.agent = AgentProcess(self.session, extra_env=dict(PORTAL_SURFACE, DFL_TEST_CRASH_AT="after-removal-commit"))
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def drawn(self, test):
        return [entry for entry in self.server.logged() if test(entry)]

    def leave_a_notification(self):
        """Maya's notification, left on screen by an agent killed after her
        timer left its store; the agent started again. Returns the timer's
        id, its token, the agent's unique name and the agents' logs."""
        timer_id, reply = self.platform.start_sleep()
        token = self.platform.mirror(self.client, timer_id, reply, baby_name="Maya")
        eventually(lambda: self.drawn(lambda e: e.get("summary") == "Maya is asleep"), what="Maya's notification")
        crashing = self.agent
        with self.assertRaises(dbus.exceptions.DBusException):
            self.client.timers.Remove(timer_id, timeout=PATIENCE)
        self.assertEqual(crashing.process.wait(PATIENCE), -signal.SIGKILL)
        self.assertEqual(calls(self.monitor, "RemoveNotification"), [], "the killed agent removed nothing")
        portal_adds = [header for header, _ in calls(self.monitor, "AddNotification")
                       if "interface=org.freedesktop.portal.Notification;" in header]
        self.assertEqual(len(portal_adds), 1, "the notification was added once (see setUp)")

        restarted = AgentProcess(self.session, extra_env=PORTAL_SURFACE)
        owner = self.client.bus.get_name_owner(AGENT_NAME)
        eventually(lambda: calls(self.monitor, "RemoveNotification", sender=owner),
                   what="the restarted agent to remove the notification it left")
        [(_, removed)] = calls(self.monitor, "RemoveNotification", sender=owner)
        self.assertEqual(removed, ['string "%s"' % timer_id])
        return timer_id, token, owner, [crashing.log, restarted.log]

    def assert_nothing_sent(self, timer_id, token, logs):
        self.assertEqual([r for r in self.platform.requests() if r["method"] == "POST" and timer_id in r["path"]], [])
        self.assertEqual(self.platform.activities(), [])
        for log in [read() for read in logs] + [self.app_output()]:
            self.assertNotIn(token, log)

    def test_an_old_complete_changes_nothing_at_the_platform_and_says_the_sleep_has_ended(self):
        timer_id, token, owner, logs = self.leave_a_notification()
        # Pressed anyway: the app asks the agent, which no longer holds it.
        result = self.activate_action("complete-timer", "'%s'" % timer_id)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.wait_until_the_app_quits()
        self.assertIn("is no longer mirrored by the agent", self.app_output())
        ended = "This Sleep has already ended. Nothing was changed; open the app to see your sleeps."
        eventually(lambda: self.drawn(lambda e: e.get("body") == ended), what="the notice that the Sleep has ended")
        # It replaced the clicked notification (the same id) and has no button.
        [app_add] = [args for header, args in calls(self.monitor, "AddNotification")
                     if "interface=org.freedesktop.portal.Notification;" in header
                     and any(ended in line for line in args)]
        self.assertEqual(app_add[0], 'string "%s"' % timer_id)
        self.assertNotIn('string "app.complete-timer"', "\n".join(app_add))
        self.assert_nothing_sent(timer_id, token, logs)

    def test_an_old_open_shows_the_window_and_takes_the_notification_away(self):
        timer_id, token, owner, logs = self.leave_a_notification()
        result = self.activate_action("open-timer", "'%s'" % timer_id)
        self.assertEqual(result.returncode, 0, result.stderr)
        eventually(lambda: self.visible_windows(), what="the window")
        eventually(lambda: "has no link in the agent's list" in self.app_output(), what="the app to read the list")
        app_removes = lambda: [args for header, args in calls(self.monitor, "RemoveNotification")
                               if "interface=org.freedesktop.portal.Notification;" in header
                               and "sender=%s" % owner not in header.split()]
        eventually(app_removes, what="the app to take the notification away")
        self.assertEqual(app_removes(), [['string "%s"' % timer_id]])
        self.assert_nothing_sent(timer_id, token, logs)


class OpenTimerTests(AppActionsTestCase):
    def route(self, timer_id):
        return "/families/%s/babies/%s/track/sleep?timer=%s" % (DEMO_FAMILY, MAYA, timer_id)

    def test_open_activates_the_app_and_shows_the_window_on_the_timers_route_with_the_token(self):
        timer_id = self.mirrored_timer()
        # GNOME Shell's platform data: the token under both names (GTK reads
        # activation-token on Wayland, desktop-startup-id on X11).
        token = "dfl-portal_TIME7"
        result = self.activate_action(
            "open-timer", "'%s'" % timer_id,
            "{'activation-token': <'%s'>, 'desktop-startup-id': <'%s'>}" % (token, token))
        self.assertEqual(result.returncode, 0, result.stderr)
        try:
            eventually(lambda: self.requests("GET", self.route(timer_id)), what="the app to load the timer's route")
        except AssertionError as error:
            raise AssertionError("%s\nthe app's output:\n%s" % (error, self.app_output()[-3000:])) from None
        [pid] = session_app_pids(self.session)
        eventually(lambda: len(app_windows(self.session, pid)) == 1, what="the window")
        [window] = app_windows(self.session, pid)
        eventually(lambda: window_startup_id(self.session, window) == token, what="the window to take the portal's token")
        self.assertIn("Opening timer %s from the notification" % timer_id, self.app_output())
        # The timer is untouched.
        self.assertEqual(self.listed(timer_id)[0]["state"], "running")
        self.assertEqual(self.platform.activities(), [])
        self.assertTrue(alive(pid))

    def test_open_of_a_timer_no_longer_listed_shows_the_web_app_and_a_bad_id_opens_nothing(self):
        refused = self.activate_action("open-timer", "'javascript:alert(1)'")
        self.assertEqual(refused.returncode, 0, refused.stderr)
        self.wait_until_the_app_quits()
        self.assertIn("Refused the open-timer action", self.app_output())
        self.assertEqual(self.visible_windows(), [])

        gone = "0b8e1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4"
        result = self.activate_action("open-timer", "'%s'" % gone)
        self.assertEqual(result.returncode, 0, result.stderr)
        eventually(lambda: len(session_app_pids(self.session)) == 1 and len(app_windows(self.session, session_app_pids(self.session)[0])) == 1,
                   what="the window")
        eventually(lambda: "has no link in the agent's list" in self.app_output(), what="the app to read the list")
        eventually(lambda: [r for r in self.requests("GET") if r["path"] == "/"], what="the web app's start to load")
        self.assertEqual([r["path"] for r in self.requests("GET") if "/track/sleep" in r["path"]], [])


class FloodedActionTests(AppActionsTestCase):
    """Any program of the session can call the app's exported actions and
    its Open (red team 4, finding 5): a flood of them does what a few
    would, within the agent's own bounds, and writes a few lines."""

    def session_setup(self):
        # A bus with a desktop's limits, so that thousands of calls may wait.
        self.session = bus_probe.session_with_desktop_limits()
        self.addCleanup(self.session.close)
        self.platform = app_harness.Platform(self.session, extra_args=("--webapp", app_harness.WEBAPP))
        self.addCleanup(self.platform.stop)

    def route(self, timer_id):
        return "/families/%s/babies/%s/track/sleep?timer=%s" % (DEMO_FAMILY, MAYA, timer_id)

    def flood(self, messages, last):
        """Sends `messages` pipelined on one connection, then waits for the
        reply to `last` (the app answers them in order); returns the time."""
        flooder = bus_probe.private_connection(self.session)
        self.addCleanup(flooder.close)
        # The app started by D-Bus activation first: the bus refuses more
        # than 512 calls waiting for a start.
        flooder.send_message_with_reply_and_block(
            dbus.lowlevel.MethodCallMessage(APP_NAME, APP_PATH, "org.freedesktop.DBus.Peer", "Ping"), 10 * PATIENCE)
        for pid in session_app_pids(self.session):
            self.session.processes.append(ProcessHandle(pid))
        started = time.monotonic()
        for message in messages:
            flooder.send_message(message)
        flooder.send_message_with_reply_and_block(last, 10 * PATIENCE)
        return time.monotonic() - started

    def settled_route_loads(self, timer_id, loaded=False):
        """The route's loads once they stop; with `loaded`, once the first
        has come (a busy machine may take longer than the settling to
        start the web process)."""
        from test_bounded_opens import settled_count
        if loaded:
            eventually(lambda: self.requests("GET", self.route(timer_id)), what="the route to load")
        return settled_count(lambda: len(self.requests("GET", self.route(timer_id))), "the route's loads")

    @staticmethod
    def action_message(name, target):
        message = dbus.lowlevel.MethodCallMessage(APP_NAME, APP_PATH, "org.freedesktop.Application", "ActivateAction")
        message.append(name, dbus.Array([dbus.String(target, variant_level=1)], signature="v"),
                       dbus.Dictionary({}, signature="sv"), signature="sava{sv}")
        return message

    @staticmethod
    def open_message(link):
        message = dbus.lowlevel.MethodCallMessage(APP_NAME, APP_PATH, "org.freedesktop.Application", "Open")
        message.append(dbus.Array([link], signature="s"), dbus.Dictionary({}, signature="sv"), signature="asa{sv}")
        return message

    def test_five_thousand_open_timer_calls_open_at_most_the_bound_and_log_a_few_lines(self):
        timer_id = self.mirrored_timer()
        elapsed = self.flood([self.action_message("open-timer", timer_id) for _ in range(5000)],
                             self.action_message("open-timer", timer_id))
        loads = self.settled_route_loads(timer_id)
        bound = BURST + int(elapsed / REFILL_S)
        output = self.app_output()
        opened = output.count("Opening timer %s" % timer_id)
        self.assertGreaterEqual(opened, 1)
        self.assertLessEqual(opened, bound, "%d opens for 5,001 calls in %.1f s" % (opened, elapsed))
        refused = [line for line in output.splitlines() if "Refused a call of open-timer" in line]
        self.assertLessEqual(len(refused), 1 + int(elapsed / 60), refused[:3])
        # Each allowed open writes a few lines of its own; nothing per call.
        self.assertLessEqual(len(output.splitlines()), 40 + 4 * bound, output[-2000:])
        self.assertLessEqual(loads, bound, "%d loads of the route for 5,001 calls in %.1f s" % (loads, elapsed))

    def paced(self, message, count=50, per_second=5):
        """`count` calls, `per_second` a second, as the review made them;
        returns the time they took."""
        caller = bus_probe.private_connection(self.session)
        self.addCleanup(caller.close)
        started = time.monotonic()
        for number in range(count):
            time.sleep(max(0, started + number / per_second - time.monotonic()))
            caller.send_message_with_reply_and_block(message(), 10 * PATIENCE)
        return time.monotonic() - started

    def test_fifty_open_timer_calls_at_five_a_second_load_the_route_at_most_the_bound(self):
        timer_id = self.mirrored_timer()
        elapsed = self.paced(lambda: self.action_message("open-timer", timer_id))
        loads = self.settled_route_loads(timer_id, loaded=True)
        # A load that a newer one cancels may never reach the platform:
        # the opens the app began count too.
        opened = self.app_output().count("Opening timer %s" % timer_id)
        self.assertLessEqual(opened, BURST + int(elapsed / REFILL_S),
                             "%d opens for 50 calls in %.1f s" % (opened, elapsed))
        self.assertGreaterEqual(loads, 1)
        self.assertLessEqual(loads, BURST + int(elapsed / REFILL_S),
                             "%d loads of the route for 50 calls in %.1f s" % (loads, elapsed))

    def test_fifty_opens_of_the_deep_link_at_five_a_second_load_the_route_at_most_the_bound(self):
        timer_id = self.mirrored_timer()
        [listed] = self.listed(timer_id)
        elapsed = self.paced(lambda: self.open_message(listed["deep_link"]))
        loads = self.settled_route_loads(timer_id, loaded=True)
        self.assertGreaterEqual(loads, 1)
        self.assertLessEqual(loads, BURST + int(elapsed / REFILL_S),
                             "%d loads of the route for 50 Opens in %.1f s" % (loads, elapsed))

    def test_the_actions_together_stay_within_the_bound_of_all_ways_in(self):
        timer_id = self.mirrored_timer()
        [listed] = self.listed(timer_id)
        messages = []
        for _ in range(500):
            messages.append(self.action_message("open-timer", timer_id))
            messages.append(self.open_message(listed["deep_link"]))
        elapsed = self.flood(messages, self.action_message("open-timer", timer_id))
        loads = self.settled_route_loads(timer_id)
        self.assertLessEqual(loads, ALL_BURST + int(elapsed / ALL_REFILL_S),
                             "%d loads of the route for 1,001 calls in %.1f s" % (loads, elapsed))
        # complete-timer is bounded too: a flood of them sends the agent a
        # few Completes (each logs its line), not one per call.
        completing = self.flood([self.action_message("complete-timer", timer_id) for _ in range(1000)],
                                self.action_message("complete-timer", timer_id))
        time.sleep(2)
        sent = self.app_output().count("Completing timer %s" % timer_id)
        self.assertGreaterEqual(sent, 1)
        self.assertLessEqual(sent, BURST + int(completing / REFILL_S), self.app_output()[-2000:])
