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

import dbus

from app_harness import (APP, BRIDGE, CONFIGURATION_MISTAKE_TEXT, DESKTOP_FILE, WEBAPP, AppTestCase, Platform,
                         app_windows, bridge_children, session_app_pids, window_startup_id)
from dbus_client import Client
from desktop import BusMonitor, xdotool
from harness import DEMO_FAMILY, LEO, MAYA, PATIENCE, AgentProcess, eventually


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

    def test_a_sleep_stopped_in_the_page_is_saved_by_the_app_and_leaves_the_desktop(self):
        app = self.signed_in(self.start_app())
        client = Client(self.session)
        self.addCleanup(client.close)
        app.click("#start-sleep-Leo")
        [timer_id] = app.wait("return [...document.querySelectorAll('#running li')].map(li => li.dataset.timerId)",
                              "the running timer in the page")
        eventually(lambda: any(t["timer_id"] == timer_id for t in client.list()), what="the agent's mirror")
        app.click("#running li[data-timer-id='%s'] button" % timer_id)
        saved = app.wait("const li = document.querySelector('#saved li[data-activity-id]');"
                         "return li && [li.dataset.activityId, li.textContent]", "the page to show the saved sleep")
        [activity] = self.platform.activities()
        self.assertEqual((saved[0], activity["timerId"], activity["source"]), (activity["id"], timer_id, "app"))
        self.assertTrue(saved[1].startswith("Saved: Leo's sleep"), saved[1])
        eventually(lambda: not any(t["timer_id"] == timer_id for t in client.list()), what="the timer to leave the desktop")

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
        self.assertEqual(query.stdout.strip(), "com.dreamsforlittles.DreamsForLittles.desktop")

        # The click's activation token (on X11, the startup id) goes along.
        opened = subprocess.run(["xdg-open", sleep_link(timer_id, baby=LEO)],
                                env=dict(self.session.env, DESKTOP_STARTUP_ID="dfl-click_TIME1001"),
                                capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(opened.returncode, 0, opened.stderr)

        route = self.platform.sleep_route(timer_id, baby=LEO)
        eventually(lambda: app.url() == route, what="the window to show the route")
        # Not signed in yet: the route shows once the family is.
        app.wait_for_page()
        app.click("#sign-in-parent")
        self.assertEqual(app.shown_sleep_route(), [timer_id, "running", "Leo"])
        self.assertEqual(len(app.windows()), 1)
        self.assertEqual(session_app_pids(self.session), [app.pid])
        self.assertEqual(self.startup_id(app), "dfl-click_TIME1001")

    def test_org_freedesktop_application_open_raises_the_window_with_the_token_it_was_given(self):
        import dbus
        app = self.start_app()
        app.wait_for_page()
        timer_id = str(uuid.uuid4())
        dbus_application(self.session).Open([sleep_link(timer_id)], {
            "activation-token": dbus.String("dfl-agent_TIME2002"), "desktop-startup-id": dbus.String("dfl-agent_TIME2002")})
        eventually(lambda: app.url().endswith("?timer=" + timer_id), what="the route")
        eventually(lambda: self.startup_id(app) == "dfl-agent_TIME2002", what="the window to take the token")
        self.assertEqual(len(app.windows()), 1)

    def test_back_and_reload_from_the_keyboard(self):
        app = self.start_app()
        app.wait_for_page()
        start = app.url()
        dbus_application(self.session).Open([sleep_link(str(uuid.uuid4()))], {})
        eventually(lambda: app.url() != start, what="the route")
        [window] = app.windows()
        xdotool(self.session, "windowfocus", "--sync", window)
        xdotool(self.session, "key", "--window", window, "alt+Left")
        eventually(lambda: app.url() == start, what="Back to the start page")
        loads = len([r for r in self.platform.requests() if r["path"] == "/demo/events"])
        xdotool(self.session, "key", "--window", window, "ctrl+r")
        eventually(lambda: len([r for r in self.platform.requests() if r["path"] == "/demo/events"]) == loads + 1,
                   what="the page to load again")
        self.assertEqual(app.url(), start)

    def startup_id(self, app):
        """The activation token GTK presented the app's one window with."""
        [window] = app.windows()
        return window_startup_id(self.session, window)

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
        self.assertEqual(app.url(), self.platform.sleep_route(timer_id))
        # Each refused, and logged once a minute for each way in (the
        # command line, Open): the rest are counted into the next line.
        log = app.log()
        self.assertEqual(log.count("Refused a link"), 2, log)
        self.assertEqual(len(app.windows()), 1)
        self.assertEqual(session_app_pids(self.session), [app.pid])

    def test_a_hundred_thousand_bad_links_in_one_open_are_one_line_with_their_count(self):
        app = self.start_app()
        app.wait_for_page()
        before = app.url()
        bad = [sleep_link(str(uuid.uuid4())).replace(MAYA, "not-a-uuid-%d" % n) for n in range(100000)]
        dbus_application(self.session).Open(bad, {}, timeout=10 * PATIENCE)
        eventually(lambda: "Refused a link" in app.log(), what="the refusal to be logged")
        log = app.log()
        self.assertEqual(log.count("Refused a link"), 1, log[-2000:])
        self.assertIn("(100000 refusals of this kind of call since the last such line", log)
        self.assertEqual(app.url(), before)
        self.assertEqual(len(app.windows()), 1)


def dbus_application(session):
    """com.dreamsforlittles.DreamsForLittles's org.freedesktop.Application, as the portal calls it."""
    import dbus
    bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
    proxy = bus.get_object("com.dreamsforlittles.DreamsForLittles", "/com/dreamsforlittles/DreamsForLittles")
    return dbus.Interface(proxy, "org.freedesktop.Application")


class IsolationTests(AppTestCase):
    notification_server = False

    def test_a_frame_of_another_origin_cannot_reach_the_bridge(self):
        tap = os.path.join(self.session.root, "bridge-stdin.log")
        self.session.env.update(DFL_WEBVIEW_BRIDGE=os.path.join(os.path.dirname(__file__), "bridge_tap.py"),
                                DFL_BRIDGE_TAP=tap, DFL_BRIDGE_TAP_BRIDGE=BRIDGE)
        other = Platform(self.session, extra_args=("--webapp", WEBAPP), certs=self.platform.certs)
        self.addCleanup(other.stop)
        self.assertNotEqual(other.origin, self.platform.origin)
        app = self.signed_in(self.start_app())
        # The control: the tap records what the web app's own page sends.
        eventually(lambda: b"session.set" in read(tap), what="the page's session.set in the bridge's stdin")
        app.js("window.seen = []; window.dreamsForLittlesDesktop.transport.onMessage(t => window.seen.push(t));"
               "const f = document.createElement('iframe'); f.id = 'probe'; f.src = arguments[0];"
               "document.body.append(f);", other.origin + "/demo/probe/frame.html")

        frame = app.command("POST", "/element", {"using": "css selector", "value": "#probe"})
        app.command("POST", "/frame", {"id": frame})
        app.wait("return document.body && document.body.dataset.done === 'true'", "the frame's attempts")
        self.assertEqual(app.js("return location.origin"), other.origin)
        attempts = app.js("return Object.fromEntries([...document.querySelectorAll('li')]"
                          ".map(li => [li.dataset.attempt, li.textContent.split(': ')[1]]))")
        app.command("POST", "/frame/parent", {})

        self.assertEqual(attempts["handler"], "absent")
        self.assertEqual(attempts["transport"], "absent")
        self.assertTrue(attempts["top-event"].startswith("threw"), attempts)
        # A round trip of the page's own after the frame's attempts: anything
        # the frame got through would have reached the bridge before it.
        app.js("window.dreamsForLittlesDesktop.transport.send(JSON.stringify("
               "{jsonrpc: '2.0', id: 'after-the-frame', method: 'bridge.getCapabilities'}))")
        app.wait("return window.seen.some(t => t.includes('after-the-frame'))", "the page's own call to be answered")
        self.assertNotIn(b"frame-probe", read(tap))
        self.assertFalse(app.js("return window.seen.some(t => t.includes('frame-probe'))"))

    def test_clicked_links_to_other_origins_open_in_the_default_browser_never_in_the_window(self):
        opened = self.register_browser()
        other = Platform(self.session, extra_args=("--webapp", WEBAPP), certs=self.platform.certs)
        self.addCleanup(other.stop)
        app = self.start_app()
        app.wait_for_page()
        page = app.url()
        elsewhere = self.platform.origin.replace("127.0.0.1", "localhost") + "/demo/probe/frame.html"
        app.js("for (const [id, target] of [['elsewhere', ''], ['new-window', '_blank']]) {"
               "  const a = document.createElement('a'); a.id = id; a.href = arguments[0] + '?' + id;"
               "  a.target = target; a.textContent = id; a.style.display = 'block'; document.body.prepend(a); }",
               elsewhere)
        app.click("#elsewhere")
        eventually(lambda: read_lines(opened) == [elsewhere + "?elsewhere"], what="the browser to get the link")
        app.click("#new-window")
        eventually(lambda: len(read_lines(opened)) == 2, what="the browser to get the new window's link")
        # Not clicked: the page itself goes to another origin (one with a
        # certificate the app accepts), is stopped at the response, and
        # goes nowhere else either: only a person's click leaves the app.
        scripted = other.origin + "/demo/probe/frame.html?scripted"
        app.js("location.href = arguments[0]", scripted)
        eventually(lambda: "Refused to leave the app for %s" % other.origin in app.log(),
                   what="the scripted navigation to be dropped")
        self.assertEqual(read_lines(opened), [elsewhere + "?elsewhere", elsewhere + "?new-window"])
        self.assertEqual(app.url(), page)
        self.assertEqual(len(app.windows()), 1)
        self.assertTrue(app.js("return document.getElementById('sign-in') !== null"))

    def register_browser(self):
        """The default browser of the test's desktop: a .desktop file whose Exec records the URL."""
        data = os.path.join(self.session.root, "xdg-data")
        os.makedirs(os.path.join(data, "applications"))
        opened = os.path.join(self.session.root, "browser-opened")
        recorder = os.path.join(self.session.root, "browser")
        with open(recorder, "w") as handle:
            handle.write('#!/bin/sh\nprintf "%%s\\n" "$1" >> "%s"\n' % opened)
        os.chmod(recorder, 0o755)
        with open(os.path.join(data, "applications", "test-browser.desktop"), "w") as handle:
            handle.write("[Desktop Entry]\nType=Application\nName=Test browser\nExec=%s %%u\n"
                         "MimeType=x-scheme-handler/http;x-scheme-handler/https;\n" % recorder)
        subprocess.run(["update-desktop-database", os.path.join(data, "applications")], check=True, timeout=PATIENCE)
        config = self.session.env["XDG_CONFIG_HOME"]
        with open(os.path.join(config, "mimeapps.list"), "w") as handle:
            handle.write("[Default Applications]\nx-scheme-handler/https=test-browser.desktop\n"
                         "x-scheme-handler/http=test-browser.desktop\n")
        self.session.env["XDG_DATA_DIRS"] = data + ":/usr/local/share:/usr/share"
        return opened


class BridgeLifeTests(AppTestCase):
    notification_server = False

    def test_a_killed_bridge_rejects_the_pending_call_is_restarted_and_the_next_upsert_works(self):
        app = self.signed_in(self.start_app())
        [first] = bridge_children(app.pid)
        self.platform.fault(route="upsert", mode="latency", ms=15_000, count=1)
        app.click("#start-sleep-Maya")
        eventually(lambda: self.requests("PUT", "/active-timers/"), what="the upsert to reach the platform")

        os.kill(first, signal.SIGKILL)

        message = app.wait("const m = document.getElementById('message').textContent;"
                           "return m.startsWith('Could not start') && m", "the pending call to be rejected")
        self.assertIn("(-31002)", message)
        eventually(lambda: [pid for pid in bridge_children(app.pid) if pid != first], what="a new bridge")
        self.assertIn("The bridge ended (signal 9)", app.log())
        self.platform.clear_faults()
        app.click("#start-sleep-Leo")
        app.wait("return document.getElementById('message').textContent === "
                 "\"Leo's sleep started; it is on the desktop too.\"", "the next upsert, mirrored")

    def test_the_offline_page_loads_the_web_app_by_itself_once_it_can_be_reached(self):
        self.platform.stop()
        app = self.start_app()
        app.wait("return document.querySelector('h1') && "
                 "document.querySelector('h1').textContent === 'Dreams for Littles cannot be reached'",
                 "the offline page")
        # The page may be loaded again by the app's own retry meanwhile.
        self.assertIn("Trying again in", app.wait_for_text("retry", "the offline page's line on its next attempt"))
        self.platform.start_again()
        app.wait_for_page()
        self.assertEqual(app.url(), self.platform.origin + "/")


class NoConfigurationTests(AppTestCase):
    """Installed and started with no configuration file at all: the app
    asks for the platform's own web app. The tests' machines cannot reach
    it, so the load fails and the offline page names its origin."""

    notification_server = False

    def test_with_no_configuration_file_the_window_asks_for_the_platforms_web_app(self):
        os.remove(os.path.join(self.session.config_dir, "sleep-agent.conf"))
        app = self.start_app()
        eventually(lambda: "Loading https://app.dreamsforlittles.com/." in app.log(),
                   what="the app loading the platform's web app")
        self.assertIn("No configuration file; every setting has its default", app.log())
        self.assertNotIn("not set up", app.log())
        shown = app.wait("return document.querySelector('h1') && "
                         "[document.querySelector('h1').textContent, document.body.innerText]",
                         "the offline page")
        self.assertEqual(shown[0], "Dreams for Littles cannot be reached")
        self.assertIn("https://app.dreamsforlittles.com", shown[1])
        self.assertIn("Trying again in", shown[1])


class ConfigurationMistakeTests(AppTestCase):
    notification_server = False
    configuration_mistake = True

    def test_a_configuration_mistake_is_named_in_the_window_and_no_bridge_starts(self):
        app = self.start_app()
        text = app.wait("return document.querySelector('h1') && document.body.innerText", "the page")
        self.assertIn("The configuration cannot be used", text)
        self.assertIn(CONFIGURATION_MISTAKE_TEXT, text)
        self.assertIn(os.path.join(self.session.config_dir, "sleep-agent.conf"), text)
        self.assertEqual(bridge_children(app.pid), [])


def read(path):
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return b""


def read_lines(path):
    return read(path).decode().split()


class KeptBetweenStartsTests(AppTestCase):
    """Without --automation (WebKit gives WebDriver a fresh, ephemeral
    profile): real keyboard input only, and the platform's request log to
    see what the page did."""

    notification_server = False

    def start_plain_app(self):
        log = open(os.path.join(self.session.root, "plain-app-%s.log" % uuid.uuid4().hex[:6]), "w")
        self.addCleanup(log.close)
        self.plain_logs = getattr(self, "plain_logs", []) + [log.name]
        process = subprocess.Popen([APP], env=self.session.env, stdout=log, stderr=log)
        self.session.processes.append(process)
        eventually(lambda: len(app_windows(self.session, process.pid)) == 1, what="the window")
        return process, app_windows(self.session, process.pid)[0]

    def loads(self):
        return len(self.requests("POST", "/demo/events"))

    def signed_in_fetches(self):
        return [r for r in self.requests("GET", "/active-timers?familySubjectId=") if r["hasAuthorization"]]

    def geometry(self, window):
        shell = xdotool(self.session, "getwindowgeometry", "--shell", window).stdout.split()
        values = dict(line.split("=") for line in shell)
        return int(values["WIDTH"]), int(values["HEIGHT"])

    def start_signed_in(self):
        """The app started as a person starts it and signed in by the
        keyboard: Tab reaches the page's first button (Sign in as Sam),
        Return presses it. Its process and window."""
        process, window = self.start_plain_app()
        eventually(lambda: self.loads() == 1, what="the page to load")
        xdotool(self.session, "windowfocus", "--sync", window)
        xdotool(self.session, "key", "--window", window, "Tab")
        xdotool(self.session, "key", "--window", window, "Return")
        eventually(lambda: len(self.signed_in_fetches()) == 1, what="the page to fetch the family's timers signed in")
        return process, window

    def test_the_sign_in_and_the_window_size_are_kept_between_starts(self):
        process, window = self.start_signed_in()
        xdotool(self.session, "windowsize", "--sync", window, "900", "700")
        size = self.geometry(window)
        self.assertEqual(size, (900, 700))
        time.sleep(1)  # GTK takes the new size from the X server's configure event
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(PATIENCE), 0)
        state = os.path.join(self.session.env["XDG_STATE_HOME"], "dreamsforlittles", "window.conf")
        self.assertTrue(os.path.exists(state))
        data = os.path.join(self.session.env["XDG_DATA_HOME"], "dreamsforlittles")
        self.assertTrue(os.listdir(data))

        # No input at all this time: the page finds its sign-in in its website data.
        process, window = self.start_plain_app()
        eventually(lambda: self.loads() == 2, what="the page to load again")
        eventually(lambda: len(self.signed_in_fetches()) == 2, what="the page to fetch signed in by itself")
        self.assertEqual(self.geometry(window), size)
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(PATIENCE), 0)


    def test_a_sign_in_under_folders_made_0755_before_is_readable_by_no_other_user(self):
        # A home another user may pass through, whose website-data and cache
        # folders an older release, a restored backup or a tool under umask
        # 022 made 0755 before the app's first start.
        for path in (self.session.root, self.session.home):
            os.chmod(path, 0o755)
        folders = [os.path.join(self.session.env[variable], "dreamsforlittles")
                   for variable in ("XDG_DATA_HOME", "XDG_CACHE_HOME")]
        for folder in folders:
            os.makedirs(folder, mode=0o755)
            path = folder
            while path != self.session.home:
                os.chmod(path, 0o755)
                path = os.path.dirname(path)
        process, window = self.start_signed_in()
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(PATIENCE), 0)
        files = [os.path.join(directory, name) for folder in folders
                 for directory, _, names in os.walk(folder) for name in names]
        self.assertTrue(any(f.startswith(folders[0] + "/") for f in files), "the sign-in wrote no website data")
        self.assertEqual(read_as_another_user(files), [], "another uid reads these files")
        # What WebKit wrote is 0600 by itself (the app's umask of 077), not
        # only unreachable behind a private folder.
        self.assertEqual(shared_with_others(files), [], "files with group or other bits")
        for folder in folders:
            self.assertEqual(os.stat(folder).st_mode & 0o777, 0o700, folder)


    def test_a_linked_storage_folder_is_refused_and_nothing_beneath_is_readable_by_another_user(self):
        # Red team 4, item 3: the website-data folder 0700, but its
        # `storage` a link to a traversable folder elsewhere, through which
        # WebKit wrote the local storage (and the bearer token) 0644; and a
        # cache subfolder and file an older release left 0755 and 0644.
        for path in (self.session.root, self.session.home):
            os.chmod(path, 0o755)
        data = os.path.join(self.session.env["XDG_DATA_HOME"], "dreamsforlittles")
        cache = os.path.join(self.session.env["XDG_CACHE_HOME"], "dreamsforlittles")
        elsewhere = os.path.join(self.session.root, "elsewhere")
        os.makedirs(elsewhere, mode=0o755)
        os.chmod(elsewhere, 0o755)
        kept = os.path.join(elsewhere, "kept-by-the-person")
        with open(kept, "w") as file:
            file.write("not the app's to delete")
        os.chmod(kept, 0o644)
        os.makedirs(data, mode=0o700)
        os.symlink(elsewhere, os.path.join(data, "storage"))
        old = os.path.join(cache, "WebKitCache")
        os.makedirs(old)
        with open(os.path.join(old, "old-entry"), "w") as file:
            file.write("from an older release")
        for path in (cache, old):
            os.chmod(path, 0o755)
        os.chmod(os.path.join(old, "old-entry"), 0o644)
        process, window = self.start_signed_in()
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(PATIENCE), 0)
        # Every file the app's folders reach, links followed, by the path
        # another user would take: the file itself, wherever it is.
        files = sorted({os.path.realpath(os.path.join(directory, name))
                        for variable in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")
                        for directory, _, names in os.walk(os.path.join(self.session.env[variable], "dreamsforlittles"),
                                                           followlinks=True)
                        for name in names} - {kept})
        self.assertTrue(files, "the app wrote nothing")
        self.assertEqual(read_as_another_user(files), [], "another uid reads these files")
        # Not only unreachable: each file is this user's alone (the umask,
        # and the old entry's mode tightened).
        self.assertEqual(shared_with_others(files), [], "files with group or other bits")
        self.assertEqual(os.stat(old).st_mode & 0o777, 0o700)
        log = read(self.plain_logs[-1]).decode()
        self.assertIn("in memory only", log)
        self.assertIn("storage is a symbolic link", log)
        # Nothing lost: the link and what it points to are as they were.
        self.assertEqual(os.readlink(os.path.join(data, "storage")), elsewhere)
        self.assertTrue(os.path.exists(kept))

    def files_holding(self, token):
        """The files under the website-data and cache folders whose bytes
        hold `token`, as UTF-8 or as the UTF-16 WebKit's local storage keeps."""
        needles = (token.encode(), token.encode("utf-16-le"))
        found = []
        for variable in ("XDG_DATA_HOME", "XDG_CACHE_HOME"):
            for directory, _, names in os.walk(os.path.join(self.session.env[variable], "dreamsforlittles")):
                for name in names:
                    path = os.path.join(directory, name)
                    if os.path.isfile(path) and not os.path.islink(path):
                        content = read(path)
                        if any(needle in content for needle in needles):
                            found.append(path)
        return sorted(found)

    def test_the_menus_sign_out_leaves_no_byte_of_the_sign_in_on_disk(self):
        process, window = self.start_signed_in()
        tokens = [self.platform.parent["accessToken"], self.platform.coach["accessToken"]]
        eventually(lambda: any(self.files_holding(t) for t in tokens),
                   what="WebKit to write the sign-in's token into the website data")
        # The menu's item activates the window's action win.sign-out, which
        # GTK exports on the bus: the same activation, without a pointer.
        window_actions = dbus.Interface(
            dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"]).get_object(
                "com.dreamsforlittles.DreamsForLittles", "/com/dreamsforlittles/DreamsForLittles/window/1"), "org.gtk.Actions")
        self.assertIn("sign-out", window_actions.List())
        window_actions.Activate("sign-out", dbus.Array([], signature="v"), {})
        eventually(lambda: self.loads() == 2, what="the web app's start to load again")
        process.send_signal(signal.SIGTERM)
        self.assertEqual(process.wait(PATIENCE), 0)
        self.assertIn("Signed out: all website data is cleared", read(self.plain_logs[-1]).decode())
        for token in tokens:
            self.assertEqual(self.files_holding(token), [], "the sign-in's token is still on disk")


def shared_with_others(paths):
    """The paths among `paths` whose mode gives the group or others any
    bit; a file gone meanwhile (SQLite removes its -shm) is none."""
    found = []
    for path in paths:
        try:
            if os.lstat(path).st_mode & 0o077:
                found.append(path)
        except FileNotFoundError:
            pass
    return found


def read_as_another_user(paths):
    """The paths among `paths` that uid and gid 65534 (nobody), with no
    other group, can open for reading."""
    reader = ("import sys\nfor path in sys.stdin.read().splitlines():\n"
              "    try:\n        open(path, 'rb').close()\n        print(path)\n    except OSError:\n        pass\n")
    result = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3",
                             "-c", reader], input="\n".join(paths), capture_output=True, text=True,
                            timeout=PATIENCE, check=True)
    return result.stdout.split("\n")[:-1]


class AgentOpensTheAppTests(AppTestCase):
    """The agent's opener: org.freedesktop.Application.Open on the app,
    D-Bus activation when it does not run, the web app in the default
    browser when it is not installed."""

    def mirrored_timer(self, baby=MAYA):
        client = Client(self.session)
        self.addCleanup(client.close)
        timer_id, reply = self.platform.start_sleep(baby=baby)
        self.platform.mirror(client, timer_id, reply, baby=baby)
        return timer_id

    def route(self, timer_id, baby=MAYA):
        return self.platform.sleep_route(timer_id, baby=baby)

    def sleepctl_open(self, timer_id):
        from harness import sleepctl
        result = sleepctl(self.session, "open", timer_id)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_the_notifications_open_and_dfl_sleepctl_open_reach_the_running_app(self):
        app = self.start_app()
        app.wait_for_page()
        timer_id = self.mirrored_timer()
        popups = lambda: xdotool(self.session, "search", "--onlyvisible", "--class", "xfce4-notifyd").stdout.split()
        eventually(lambda: len(popups()) == 1, what="the notification")
        [popup] = popups()
        xdotool(self.session, "windowfocus", "--sync", popup)
        xdotool(self.session, "key", "--window", popup, "Return")  # the default action: Open
        eventually(lambda: app.url() == self.route(timer_id), what="the window to show the timer's route")

        other = self.mirrored_timer(baby=LEO)
        self.sleepctl_open(other)
        eventually(lambda: app.url() == self.route(other, baby=LEO), what="the window to show the second route")
        self.assertEqual(len(app.windows()), 1)
        self.assertIn("through com.dreamsforlittles.DreamsForLittles", self.agent.log())

    def test_d_bus_activation_starts_the_app_at_the_timers_route(self):
        with open(os.path.join(os.path.dirname(DESKTOP_FILE), "..", "dbus", "com.dreamsforlittles.DreamsForLittles.service")) as source:
            service = source.read().replace("/usr/bin/dreamsforlittles", APP)
        with open(os.path.join(self.session.services, "com.dreamsforlittles.DreamsForLittles.service"), "w") as handle:
            handle.write(service)
        # As a desktop session does at login: what D-Bus-activated programs get.
        subprocess.run(["dbus-update-activation-environment", "DISPLAY", "PATH", "GTK_A11Y", "NO_AT_BRIDGE",
                        "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "HOME"],
                       env=self.session.env, check=True, timeout=PATIENCE)
        timer_id = self.mirrored_timer()
        self.sleepctl_open(timer_id)
        path = self.route(timer_id)[len(self.platform.origin):]
        try:
            eventually(lambda: self.requests("GET", path), what="the activated app to load the route")
        except AssertionError as error:
            raise AssertionError("%s\nthe agent's log:\n%s\nthe bus's log (the activated app's output):\n%s\n"
                                 "the platform's GET requests: %r" % (
                                     error, self.agent.log()[-3000:], self.session.bus_output()[-3000:],
                                     [r["path"] for r in self.requests("GET")][-10:])) from None
        [pid] = session_app_pids(self.session)
        self.session.processes.append(ProcessHandle(pid))
        with open("/proc/%d/environ" % pid, "rb") as handle:
            self.assertIn(b"DBUS_STARTER_BUS_TYPE=session", handle.read().split(b"\0"))
        self.assertEqual(len(app_windows(self.session, pid)), 1)

    def test_without_the_app_a_link_opens_the_web_app_in_the_default_browser(self):
        self.agent.terminate()
        opened = IsolationTests.register_browser(self)
        self.agent = AgentProcess(self.session)
        timer_id = self.mirrored_timer()
        self.sleepctl_open(timer_id)
        eventually(lambda: read_lines(opened), what="the default browser to get the link")
        self.assertEqual(read_lines(opened), [self.route(timer_id)])
        self.assertIn("The app is not installed", self.agent.log())


class ProcessHandle:
    """A process the test did not start (D-Bus did), stopped with the session."""

    def __init__(self, pid):
        self.pid = pid
        self.stdout = self.stderr = self.stdin = None

    def poll(self):
        return None if os.path.exists("/proc/%d" % self.pid) else 0

    def send_signal(self, sig):
        try:
            os.kill(self.pid, sig)
        except ProcessLookupError:
            pass

    def wait(self, timeout=None):
        eventually(lambda: self.poll() is not None, timeout=timeout or PATIENCE, what="process %d to end" % self.pid)
        return 0

    def kill(self):
        self.send_signal(signal.SIGKILL)
