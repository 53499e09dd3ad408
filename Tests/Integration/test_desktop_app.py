"""The desktop app end to end: the real app (GTK 4, WebKitGTK 6.0) under
Xvfb on a private session bus, with the real agent, the bridge the app
starts, the reference platform over TLS serving the demo web app, and
xfce4-notifyd. The demo page is driven through its buttons with real X
clicks and read back from its DOM (see app_harness.py for how and why)."""

import os
import signal
import subprocess
import time
import uuid

from app_harness import (APP, BRIDGE, DESKTOP_FILE, WEBAPP, App, AppTestCase, Platform, app_windows,
                         bridge_children)
from dbus_client import Client
from desktop import BusMonitor, xdotool
from harness import DEMO_FAMILY, LEO, MAYA, PATIENCE, eventually


def sleep_link(timer_id, baby=MAYA, family=DEMO_FAMILY):
    return "dreamsforlittles://families/%s/babies/%s/track/sleep?timer=%s" % (family, baby, timer_id)


class EndToEndTests(AppTestCase):
    def popups(self):
        return xdotool(self.session, "search", "--onlyvisible", "--class", "xfce4-notifyd").stdout.split()

    def press(self, window, tabs):
        """The popup's buttons: the first has the focus, Tab moves on, Return invokes."""
        xdotool(self.session, "windowfocus", "--sync", window)
        for _ in range(tabs):
            xdotool(self.session, "key", "--window", window, "Tab")
        xdotool(self.session, "key", "--window", window, "Return")

    def test_a_sleep_started_in_the_page_is_completed_from_the_notification_and_the_page_shows_it(self):
        app = self.signed_in(self.start_app())
        client = Client(self.session)
        self.addCleanup(client.close)
        app.click("#start-sleep-Maya")

        # Token issued to the page's timer, mirrored to the agent, on a real server.
        running = app.wait("return [...document.querySelectorAll('#running li')].map(li => li.dataset.timerId)",
                           "the running timer in the page")
        [timer_id] = running
        [put] = self.requests("PUT", "/active-timers/" + timer_id)
        self.assertEqual((put["status"], put["body"]["requestNativeActionToken"]), (201, True))
        [platform_timer] = [t for t in self.platform.process.control_json("GET", "/control/timers")["timers"]
                            if t["id"] == timer_id]
        self.assertEqual(platform_timer["nativeActionTokensIssued"], 1)
        eventually(lambda: any(t["timer_id"] == timer_id for t in client.list()), what="the agent's mirror")
        eventually(lambda: len(self.popups()) == 1, what="the notification")

        self.press(self.popups()[0], tabs=1)  # Complete

        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        saved = app.wait("const li = document.querySelector('#saved li[data-activity-id]');"
                         "return li && [li.dataset.activityId, li.dataset.timerId, li.textContent]",
                         "the page to show the saved sleep")
        self.assertEqual(saved[:2], [activity["id"], timer_id])
        self.assertTrue(saved[2].startswith("Saved from the desktop: Maya's sleep"), saved[2])
        app.wait("return document.getElementById('running').children.length === 0", "the timer to leave the page")
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1)

    def test_a_coach_viewing_the_family_never_asks_for_a_token_and_nothing_is_mirrored(self):
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        app = self.signed_in(self.start_app(), as_who="coach")
        self.assertIn("coach view-as", app.text("who"))
        app.click("#start-sleep-Maya")
        [timer_id] = app.wait("return [...document.querySelectorAll('#running li')].map(li => li.dataset.timerId)",
                              "the running timer in the page")
        self.assertIn("coach-view-as", app.text("message"))

        puts = self.requests("PUT", "/active-timers/")
        self.assertEqual([p["path"] for p in puts], ["/active-timers/" + timer_id])
        self.assertEqual(puts[0]["status"], 201)
        for request in self.platform.requests():
            self.assertNotIn("requestNativeActionToken", request["body"] or {}, request["path"])
        time.sleep(1)
        members = [header for header, _ in monitor.messages() if "member=Mirror" in header]
        self.assertEqual(members, [])
        self.assertEqual(self.popups(), [])


class DeepLinkTests(AppTestCase):
    notification_server = False

    def setUp(self):
        super().setUp()
        # The package's .desktop file, where xdg-open looks for the scheme's handler.
        data = os.path.join(self.session.root, "xdg-data")
        applications = os.path.join(data, "applications")
        os.makedirs(applications)
        with open(DESKTOP_FILE) as source, open(os.path.join(applications, os.path.basename(DESKTOP_FILE)), "w") as copy:
            copy.write(source.read())
        subprocess.run(["update-desktop-database", applications], check=True, timeout=PATIENCE)
        self.session.env["XDG_DATA_DIRS"] = data + ":/usr/local/share:/usr/share"

    def test_xdg_open_of_a_link_shows_that_timers_route_in_the_one_window(self):
        app = self.start_app()
        app.wait_for_page()
        timer_id, _ = self.platform.start_sleep(baby=LEO)
        query = subprocess.run(["xdg-mime", "query", "default", "x-scheme-handler/dreamsforlittles"],
                               env=self.session.env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(query.stdout.strip(), "com.dreamsforlittles.App.desktop")

        opened = subprocess.run(["xdg-open", sleep_link(timer_id, baby=LEO)], env=self.session.env,
                                capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(opened.returncode, 0, opened.stderr)

        route = "%s/families/%s/babies/%s/track/sleep?timer=%s" % (self.platform.origin, DEMO_FAMILY, LEO, timer_id)
        eventually(lambda: app.url() == route, what="the window to show the route")
        # Not signed in yet: the route shows once the family is.
        app.wait_for_page()
        app.click("#sign-in-parent")
        shown = app.wait("const s = document.getElementById('sleep-route');"
                         "return !s.hidden && [s.dataset.timerId, s.dataset.state, "
                         "document.getElementById('sleep-route-baby').textContent]", "the Sleep route")
        self.assertEqual(shown, [timer_id, "running", "Leo"])
        self.assertEqual(len(app.windows()), 1)
        self.assertEqual(self.app_processes(), [app.pid])

    def test_malformed_links_navigate_nowhere(self):
        app = self.start_app()
        app.wait_for_page()
        timer_id = str(uuid.uuid4())
        good = sleep_link(timer_id)
        bad = [
            good.replace(MAYA, "not-a-uuid"),
            good.replace(DEMO_FAMILY, DEMO_FAMILY[:-1] + "g"),
            good.replace("dreamsforlittles://", "dreamsforlittles://evil.example/"),
            good.replace("/track/sleep", "/track/sleep/extra"),
            good.replace("?timer=", "/x?timer="),
            "javascript:alert(document.cookie)",
            good.replace("families/%s/" % DEMO_FAMILY, "families/%s%%2F..%%2F/" % DEMO_FAMILY),
            good.replace(DEMO_FAMILY, "%2F" + DEMO_FAMILY[3:]),
            good + "&next=https://evil.example/",
        ]
        before = app.url()
        bus = dbus_application(self.session)
        for link in bad:
            # As xdg-open runs it (Exec=dreamsforlittles %u): refused in the caller's terminal.
            launched = subprocess.run([APP, link], env=self.session.env, capture_output=True, text=True,
                                      timeout=PATIENCE)
            self.assertEqual(launched.returncode, 2, link)
            self.assertIn("cannot be opened", launched.stderr)
            # As the portal and the agent's opener call it.
            bus.Open([link], {})
        # The control: a good link, its scheme and ids in capitals, opens.
        bus.Open([sleep_link(timer_id).replace("dreamsforlittles:", "DreamsForLittles:").replace(timer_id, timer_id.upper())], {})
        eventually(lambda: app.url() != before, what="the control link to open")
        self.assertEqual(app.url(), "%s/families/%s/babies/%s/track/sleep?timer=%s" % (
            self.platform.origin, DEMO_FAMILY, MAYA, timer_id))
        log = app.log()
        self.assertEqual(log.count("Refused a link"), 2 * len(bad))
        self.assertEqual(len(app.windows()), 1)
        self.assertEqual(self.app_processes(), [app.pid])

    def app_processes(self):
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    if os.readlink("/proc/%s/exe" % entry) == os.path.realpath(APP):
                        found.append(int(entry))
                except OSError:
                    pass
        return found


def dbus_application(session):
    """com.dreamsforlittles.App's org.freedesktop.Application, as the portal calls it."""
    import dbus
    bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
    proxy = bus.get_object("com.dreamsforlittles.App", "/com/dreamsforlittles/App")
    return dbus.Interface(proxy, "org.freedesktop.Application")
