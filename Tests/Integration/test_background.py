"""The app with its window closed while a Sleep runs: the real app under
Xvfb, the real agent, the bridge the app starts, the reference platform
over TLS with short token lifetimes, and xfce4-notifyd.

The window is closed as a window manager closes it (WM_DELETE_WINDOW,
window_close.py) or with Ctrl+W; the app stays, hidden, while the agent
mirrors a timer, renews its token through the bridge, follows a stop on
another device, and quits when the last timer ends or Quit is chosen."""

import os
import signal
import subprocess
import time
import xml.sax.saxutils

import dbus

from app_harness import APP, DESKTOP_FILE, AppTestCase, app_windows, bridge_children, session_app_pids
from proc_accounting import alive, process_tree
from dbus_client import Client
from desktop import BusMonitor, SpecPanel, xdotool
from harness import PATIENCE, AgentProcess, eventually, now_ms
from test_desktop_app import DeepLinkTests, ProcessHandle, dbus_application, sleep_link
from test_portal_notifications import calls, install_portal
from window_close import request_close

NOTICE = "Dreams for Littles keeps running while Maya's sleep is on the desktop; quit from the panel or with Ctrl+Q"
# BackgroundMachine.Settings.grace: a hidden app with no timer left quits after it.
GRACE_SECONDS = 10


def as_markup(text):
    """Text as a notification body a server reads as markup carries it: the
    five characters escaped as GLib escapes them."""
    return xml.sax.saxutils.escape(text, {'"': "&quot;", "'": "&#39;"})


def install_app_service(session):
    """The package's D-Bus service file for the app, so that the agent's
    ActivateAction starts it, with what a desktop session gives activated
    programs at login."""
    with open(os.path.join(os.path.dirname(DESKTOP_FILE), "..", "dbus", "com.dreamsforlittles.DreamsForLittles.service")) as source:
        service = source.read().replace("/usr/bin/dreamsforlittles", APP)
    with open(os.path.join(session.services, "com.dreamsforlittles.DreamsForLittles.service"), "w") as handle:
        handle.write(service)
    subprocess.run(["dbus-update-activation-environment", "DISPLAY", "PATH", "GTK_A11Y", "NO_AT_BRIDGE",
                    "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "HOME"],
                   env=session.env, check=True, timeout=PATIENCE)


def application_actions(session):
    """com.dreamsforlittles.DreamsForLittles's actions, as the agent and the panel reach them."""
    bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
    proxy = bus.get_object("com.dreamsforlittles.DreamsForLittles", "/com/dreamsforlittles/DreamsForLittles")
    return dbus.Interface(proxy, "org.freedesktop.Application")


class ShortTokensTestCase(AppTestCase):
    """The platform gives tokens of TOKEN_SECONDS; a client follows the agent."""
    TOKEN_SECONDS = 40

    def setUp(self):
        super().setUp()
        self.platform.process.control_json("POST", "/control/config", {"tokenTtlSeconds": self.TOKEN_SECONDS})
        self.client = Client(self.session)
        self.addCleanup(self.client.close)


class BackgroundTestCase(ShortTokensTestCase):
    def setUp(self):
        super().setUp()
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.monitor.stop)

    def app_with_a_sleep(self, baby="Maya"):
        """The app signed in, a Sleep started in its page and mirrored."""
        app = self.signed_in(self.start_app())
        app.click("#start-sleep-%s" % baby)
        [timer_id] = app.wait("return [...document.querySelectorAll('#running li')].map(li => li.dataset.timerId)",
                              "the running timer in the page")
        try:
            eventually(lambda: self.listed(timer_id), what="the agent's mirror")
        except AssertionError as error:
            # The page says why its sleep is not on the desktop (the bridge's
            # `native.reason`); without it a failure here says nothing.
            raise AssertionError("%s; the page said: %r" % (error, app.text("message"))) from None
        return app, timer_id

    def listed(self, timer_id):
        return any(t["timer_id"] == timer_id for t in self.client.list())

    def close_window(self, app):
        [window] = app.windows()
        request_close(self.session, window)

    def notices(self, text=NOTICE):
        """The app's notices saying `text`: escaped as markup, since
        xfce4-notifyd reads bodies as markup."""
        return [c for c in self.monitor.notify_calls() if c["body"] == as_markup(text)]

    def puts_of(self, timer_id):
        return [r for r in self.requests("PUT", "/active-timers/" + timer_id)
                if (r["body"] or {}).get("requestNativeActionToken")]


class WindowClosedWithASleepTests(BackgroundTestCase):
    def test_a_sleep_stopped_on_another_device_leaves_the_desktop_and_the_hidden_app_quits(self):
        app, timer_id = self.app_with_a_sleep()
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to be unmapped")
        # The phone stops it.
        reply = self.platform.process.api("POST", "/active-timers/%s/stop" % timer_id, {},
                                          token=self.platform.parent["accessToken"])
        self.assertEqual(reply.status, 200, reply.body)
        app.eventually(lambda: not self.listed(timer_id), timeout=2 * PATIENCE, what="the reconcile")
        self.assertTrue(self.client.wait_for(lambda: any(
            member == "TimerRemoved" and args[0] == timer_id and args[1] == "reconciled"
            for member, args in self.client.signals)))
        popups = xdotool(self.session, "search", "--onlyvisible", "--class", "xfce4-notifyd").stdout.split()
        eventually(lambda: all("Maya" not in xdotool(self.session, "getwindowname", p).stdout for p in popups),
                   what="the timer's notification to close")
        eventually(lambda: not alive(app.pid), timeout=GRACE_SECONDS + PATIENCE, what="the hidden app to quit")

    def test_everything_that_opens_the_app_shows_the_hidden_window_and_the_notice_comes_once(self):
        app, timer_id = self.app_with_a_sleep()
        route = self.platform.sleep_route(timer_id)

        # The notification's Open and a deep link: org.freedesktop.Application.Open.
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to hide")
        dbus_application(self.session).Open([sleep_link(timer_id)], {
            "activation-token": dbus.String("dfl-open_TIME1"), "desktop-startup-id": dbus.String("dfl-open_TIME1")})
        app.eventually(lambda: len(app.windows()) == 1, what="the window to show again")
        eventually(lambda: app.url() == route, what="the timer's route")
        self.assertEqual(app.js("return document.visibilityState"), "visible")
        eventually(lambda: DeepLinkTests.startup_id(self, app) == "dfl-open_TIME1", what="the window to take the token")

        # The panel item's "Open Dreams for Littles": Activate.
        [window] = app.windows()
        xdotool(self.session, "windowfocus", "--sync", window)
        xdotool(self.session, "key", "--window", window, "ctrl+w")
        eventually(lambda: app.windows() == [], what="the window to hide on Ctrl+W")
        dbus_application(self.session).Activate({})
        app.eventually(lambda: len(app.windows()) == 1, what="the window to show on Activate")

        # A second launch.
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to hide")
        launched = subprocess.run([APP], env=self.session.env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(launched.returncode, 0, launched.stderr)
        app.eventually(lambda: len(app.windows()) == 1, what="the window to show on a second launch")
        self.assertTrue(alive(app.pid))
        self.assertEqual(len(self.notices()), 1)

    def test_quit_quits_while_a_sleep_runs_and_says_what_stops(self):
        app, timer_id = self.app_with_a_sleep()
        [window] = app.windows()
        xdotool(self.session, "windowfocus", "--sync", window)
        xdotool(self.session, "key", "--window", window, "ctrl+q")
        eventually(lambda: not alive(app.pid), what="the app to quit")
        self.assertTrue(bridge_children(app.pid) == [])
        eventually(lambda: any("no longer renewed" in c["body"] for c in self.monitor.notify_calls()),
                   what="the line that says what stops")
        # The agent keeps the timer; only the app has gone.
        self.assertTrue(self.listed(timer_id))

    def test_the_quit_action_quits_a_hidden_app(self):
        app, timer_id = self.app_with_a_sleep()
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to hide")
        application_actions(self.session).ActivateAction("quit", dbus.Array([], signature="v"), {})
        eventually(lambda: not alive(app.pid), what="the app to quit")


class HiddenAppRenewalTests(BackgroundTestCase):
    """The hidden app across a token's lifetime: its bridge renews, and
    with the app quit the agent starts it again to renew. Most of their
    minutes are that lifetime waited out, so they run in the lane beside
    the workers (parallel.py), not in one of them."""
    mostly_waits = True

    def test_the_app_stays_hidden_renews_the_token_and_a_complete_after_its_expiry_makes_one_activity(self):
        app, timer_id = self.app_with_a_sleep()
        [first] = self.puts_of(timer_id)
        first_expiry_ms = first["arrivalNs"] // 1_000_000 + self.TOKEN_SECONDS * 1000
        bridges = bridge_children(app.pid)
        self.assertEqual(len(bridges), 1)

        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to be unmapped")
        eventually(lambda: len(self.notices()) == 1, what="the notice that the app keeps running")
        self.assertTrue(alive(app.pid))
        self.assertEqual(bridge_children(app.pid), bridges)
        # WebKit is told: the page is hidden (and throttled).
        self.assertEqual(app.js("return document.visibilityState"), "hidden")

        # The bridge renews before the first token expires, with the window closed.
        eventually(lambda: len(self.puts_of(timer_id)) >= 2 and self.puts_of(timer_id)[1]["status"] is not None,
                   timeout=self.TOKEN_SECONDS + PATIENCE, what="the renewal")
        renewal = self.puts_of(timer_id)[1]
        self.assertLess(renewal["arrivalNs"] // 1_000_000, first_expiry_ms, "renewed only after the token expired")
        self.assertEqual(renewal["status"], 200)
        eventually(lambda: now_ms() > first_expiry_ms + 1000, timeout=self.TOKEN_SECONDS + PATIENCE,
                   what="the first token's expiry")
        [listed] = self.client.list()
        self.assertEqual((listed["state"], listed["can_complete"]), ("running", True))
        self.assertEqual(app.windows(), [])

        self.client.timers.Complete(timer_id, dbus.Int64(0))
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        # The last timer ended: the hidden app quits by itself after the grace.
        eventually(lambda: not alive(app.pid), timeout=GRACE_SECONDS + PATIENCE, what="the hidden app to quit")
        self.assertEqual(len(self.platform.activities()), 1)
        self.assertIn("keeps running", app.log())

    def test_the_panel_items_menu_shows_the_hidden_window_and_quits_the_app(self):
        panel = SpecPanel(self.session)
        app, timer_id = self.app_with_a_sleep()
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to hide")
        self.assertEqual(panel.click("Open Dreams for Littles"), {"reply": [[]]})
        eventually(lambda: len(app.windows()) == 1, what="the window to show from the panel")
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to hide again")
        self.assertEqual(panel.click("Quit Dreams for Littles"), {"reply": [[]]})
        eventually(lambda: not alive(app.pid), what="the app to quit from the panel")
        # The entry goes with the app; the timer stays on the desktop.
        panel.wait_for(lambda events: [e for e in events if e["event"] == "layout"][-1]["layout"][2][-1][1]
                       .get("label") == "Open Dreams for Littles", what="the menu without Quit")
        self.assertTrue(self.listed(timer_id))
        self.assertNotIn("Starting the app in the background", self.agent.log())

        # The next renewal finds no bridge: only the agent's background
        # action starts the app again, with no window.
        install_app_service(self.session)
        eventually(lambda: session_app_pids(self.session), timeout=60 + self.TOKEN_SECONDS + PATIENCE,
                   what="the agent to start the app in the background")
        [pid] = session_app_pids(self.session)
        self.session.processes.append(ProcessHandle(pid))
        self.assertIn("Starting the app in the background", self.agent.log())
        self.assertEqual(app_windows(self.session, pid), [])


class QuitThroughThePortalTests(BackgroundTestCase):
    """As in a sandbox, the app's notices go through the notification
    portal (the real xdg-desktop-portal and its GTK backend). The portal
    asks the bus who sent a call only when it takes the call up, and
    refuses one from a sender that has gone: the line the app sends as it
    quits must be in the portal's hands before the app goes. With the
    portal stopped, the app waits for its answer; let go, the portal shows
    the line and the app quits."""

    def setUp(self):
        super().setUp()
        install_portal(self.session)
        self.session.env["GTK_USE_PORTAL"] = "1"

    def portal_pid(self):
        bus = self.client.bus
        bus.start_service_by_name("org.freedesktop.portal.Desktop")
        owner = bus.get_name_owner("org.freedesktop.portal.Desktop")
        daemon = bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus")
        return int(daemon.GetConnectionUnixProcessID(owner, dbus_interface="org.freedesktop.DBus"))

    def test_the_line_that_says_what_stops_waits_for_the_portal_and_is_shown(self):
        app, _ = self.app_with_a_sleep()
        [window] = app.windows()
        portal = self.portal_pid()
        os.kill(portal, signal.SIGSTOP)
        self.addCleanup(lambda: alive(portal) and os.kill(portal, signal.SIGCONT))
        xdotool(self.session, "windowfocus", "--sync", window)
        xdotool(self.session, "key", "--window", window, "ctrl+q")
        sent = lambda: [args for header, args in calls(self.monitor, "AddNotification")
                        if "interface=org.freedesktop.portal.Notification;" in header
                        and any("no longer renewed" in line for line in args)]
        eventually(sent, what="the line that says what stops, on its way to the portal")
        self.assertTrue(alive(app.pid), "the app waits for the portal's answer")
        os.kill(portal, signal.SIGCONT)
        eventually(lambda: any("no longer renewed" in c["body"] for c in self.monitor.notify_calls()),
                   what="the portal to show the line")
        eventually(lambda: not alive(app.pid), what="the app to quit")
        self.assertEqual(len(sent()), 1)


class WindowClosedWithoutASleepTests(BackgroundTestCase):
    def test_the_app_exits(self):
        app = self.signed_in(self.start_app())
        self.assertEqual(self.client.list(), [])
        self.close_window(app)
        eventually(lambda: not alive(app.pid), what="the app to exit")
        self.assertEqual(self.notices(), [])

    def test_a_sleep_of_another_baby_keeps_it_and_the_notice_names_that_baby(self):
        # Control for the test above: a mirrored timer keeps the app.
        app, _ = self.app_with_a_sleep(baby="Leo")
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to hide")
        self.assertTrue(alive(app.pid))
        leo = "Dreams for Littles keeps running while Leo's sleep is on the desktop; quit from the panel or with Ctrl+Q"
        eventually(lambda: len(self.notices(leo)) == 1, what="the notice naming Leo")


class AgentStartsTheAppTests(ShortTokensTestCase):
    """The agent's background action: the app started by D-Bus activation,
    no window shown, for the timers the agent brings back from its store
    and for a renewal nobody answers. Tokens of ten minutes, renewed half an
    hour ahead: each is due for renewal when it arrives."""

    notification_server = False
    TOKEN_SECONDS = 600

    def setUp(self):
        super().setUp()
        install_app_service(self.session)

    def listed(self, timer_id):
        return [t for t in self.client.list() if t["timer_id"] == timer_id]

    def token_puts(self, timer_id):
        return [r for r in self.requests("PUT", "/active-timers/" + timer_id)
                if (r["body"] or {}).get("requestNativeActionToken") and r["status"] is not None]

    def stop_every_app(self):
        for pid in session_app_pids(self.session):
            os.kill(pid, signal.SIGTERM)
        eventually(lambda: session_app_pids(self.session) == [], what="the app to end")

    def signed_in_app_with_a_sleep(self):
        """The app signed in as the parent with real keys (so its website
        data keeps the sign-in), a Sleep started on the phone and handed to
        the desktop by the page."""
        timer_id, _ = self.platform.start_sleep()
        log = open(os.path.join(self.session.root, "plain-app.log"), "w")
        self.addCleanup(log.close)
        process = subprocess.Popen([APP], env=self.session.env, stdout=log, stderr=log)
        self.session.processes.append(process)
        eventually(lambda: len(app_windows(self.session, process.pid)) == 1, what="the window")
        [window] = app_windows(self.session, process.pid)
        eventually(lambda: self.requests("POST", "/demo/events"), what="the page to load")
        xdotool(self.session, "windowfocus", "--sync", window)
        xdotool(self.session, "key", "--window", window, "Tab")  # Sign in as Sam (parent)
        xdotool(self.session, "key", "--window", window, "Return")
        eventually(lambda: len(self.token_puts(timer_id)) == 2, what="the page to hand the sleep to the desktop")
        eventually(lambda: self.listed(timer_id), what="the agent's mirror")
        return process, timer_id

    def reboot(self, config_extra=""):
        """Everything ends; the agent starts again with its store."""
        self.stop_every_app()
        self.agent.terminate()
        if config_extra:
            self.write_app_config(config_extra)
        self.agent = AgentProcess(self.session)

    def test_after_a_reboot_the_agent_starts_the_app_hidden_and_the_token_is_renewed(self):
        _, timer_id = self.signed_in_app_with_a_sleep()
        self.reboot()
        eventually(lambda: len(session_app_pids(self.session)) == 1, what="the agent to start the app")
        [pid] = session_app_pids(self.session)
        self.session.processes.append(ProcessHandle(pid))
        eventually(lambda: len(self.token_puts(timer_id)) == 3, what="the background app to renew the token")
        self.assertEqual(self.token_puts(timer_id)[2]["status"], 200)
        [listed] = self.listed(timer_id)
        self.assertEqual((listed["state"], listed["can_complete"]), ("running", True))
        self.assertEqual(app_windows(self.session, pid), [])
        self.assertEqual(len(bridge_children(pid)), 1)
        self.assertEqual(self.agent.log().count("Starting the app in the background"), 1)

    def test_with_the_setting_off_nothing_starts(self):
        _, timer_id = self.signed_in_app_with_a_sleep()
        self.reboot("background=off\n")
        # The agent acts on its store before it is ready; D-Bus activation
        # would have started the app by now.
        time.sleep(3)
        self.assertEqual(session_app_pids(self.session), [])
        self.assertNotIn("Starting the app in the background", self.agent.log())
        self.assertEqual(len(self.listed(timer_id)), 1)

    def test_signed_out_the_agent_starts_the_app_no_more_than_once_an_hour_for_the_timer(self):
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(self.client, timer_id, reply)
        self.reboot()
        eventually(lambda: len(session_app_pids(self.session)) == 1, what="the agent to start the app")
        [pid] = session_app_pids(self.session)
        self.session.processes.append(ProcessHandle(pid))
        # The renewal asked for at the start does not come: its bound runs out.
        eventually(lambda: "it is not started again yet" in self.agent.log(), timeout=60 + PATIENCE,
                   what="the bound of the renewal to run out")
        self.assertEqual(self.agent.log().count("Starting the app in the background"), 1)
        self.assertEqual(session_app_pids(self.session), [pid])
        self.assertEqual(len(self.token_puts(timer_id)), 1)
        [listed] = self.listed(timer_id)
        self.assertEqual(listed["state"], "running")


class SuspendTests(BackgroundTestCase):
    """A suspend, as the machine's freezes every process: the agent and the
    app's whole tree stopped (SIGSTOP) while the platform's clock runs on,
    past the moment the renewal was due and past the token's expiry. Tokens
    of two minutes, renewed a minute ahead."""

    # Two minutes with the agent and the app stopped, asleep: it runs in the
    # lane beside the workers (parallel.py), not in one of them.
    mostly_waits = True

    TOKEN_SECONDS = 120

    def setUp(self):
        super().setUp()
        self.agent.terminate()
        self.write_app_config("\n[timers]\nrenew-before-expiry-minutes=1\n")
        self.agent = AgentProcess(self.session)

    def test_after_a_resume_the_hidden_app_renews_the_token_that_expired_and_complete_comes_back(self):
        app, timer_id = self.app_with_a_sleep()
        [first] = self.puts_of(timer_id)
        first_expiry_ms = first["arrivalNs"] // 1_000_000 + self.TOKEN_SECONDS * 1000
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to hide")

        frozen = [self.agent.pid] + process_tree(app.pid)
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        try:
            while now_ms() <= first_expiry_ms + 2000:
                time.sleep(0.5)
            # Counted while everything is still stopped: once resumed, the
            # agent's overdue alarm fires at once, and under load the
            # renewal can reach the platform before this process runs again.
            puts_before_resume = len(self.puts_of(timer_id))
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)
        self.assertEqual(puts_before_resume, 1, "renewed before the suspend")

        eventually(lambda: len(self.puts_of(timer_id)) >= 2 and self.puts_of(timer_id)[1]["status"] is not None,
                   what="the renewal after the resume")
        self.assertEqual(self.puts_of(timer_id)[1]["status"], 200)
        eventually(lambda: [t["can_complete"] for t in self.client.list()] == [True], what="Complete to come back")
        self.client.timers.Complete(timer_id, dbus.Int64(0))
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))


class InTheReadersLanguageTests(BackgroundTestCase):
    """The notice in German: LANGUAGE=de, the catalogs of the build tree."""

    def setUp(self):
        from test_translations import CATALOGS, require_catalogs, require_locale
        require_catalogs()
        require_locale("de_DE.UTF-8")
        super().setUp()
        self.session.env.update(LANG="de_DE.UTF-8", LANGUAGE="de", DFL_LOCALEDIR=CATALOGS)

    def test_the_notice_speaks_german(self):
        app, _ = self.app_with_a_sleep()
        self.close_window(app)
        eventually(lambda: app.windows() == [], what="the window to hide")
        german = ("Dreams for Littles läuft weiter, solange Mayas Schlaf auf dem Desktop ist; "
                  "beenden über die Leiste oder mit Strg+Q")
        eventually(lambda: len(self.notices(german)) == 1, what="the notice in German")
        self.assertEqual(self.notices(), [])
