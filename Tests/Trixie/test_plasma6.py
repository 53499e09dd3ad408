"""KDE Plasma 6.3 as the agent's desktop: plasmashell's notification popups
and system tray, KWin raising the app's window, with the real agent and the
reference platform over TLS (plasma.py starts Plasma as a login would).

On Wayland (kwin_wayland --virtual) the clicks are real: KWin's EIS server
gives an emulated pointer (kwin_input.py) whose clicks go through KWin's
input handling as a mouse's do, and where a popup is comes from KWin itself
(its scripting). What is on the screen cannot be read there: KWin
composites a virtual output with QPainter when there is no GPU, and its
ScreenShot2 interface exists only with OpenGL compositing. So what a parent
reads, and the clicks that must find a button by its word (the popup's
Complete, the tray menu's entry), are done on Plasma on X11 under Xvfb
(kwin_x11, plasmashell on xcb): a screenshot read with tesseract, and a real
X click (xdotool) on the word found. Everything else (who serves the
notifications, the popup replaced in place, the tray's registration, the
body click raising the app) runs on Wayland.

Plasma starts once per class; each test has its own platform, agent and
state."""

import os
import shutil
import subprocess
import time
import unittest
import uuid

from app_harness import require_tool
from dbus_client import Client
from desktop import BusMonitor, xdotool
from display_text import elapsed_minutes
from harness import ARTIFACTS, PATIENCE, REPO, AgentProcess, Platform, Session, eventually, next_minute_ms, now_ms, stop
from plasma import HEIGHT, WIDTH, Plasma
import screen_words

WEBAPP = os.path.join(REPO, "webapp", "demo")
APP = os.path.join(os.environ.get("DFL_BUILD_DIR", "/usr/bin"), "dreamsforlittles")
APP_ID = "com.dreamsforlittles.DreamsForLittles"
# The strip at the screen's foot where Plasma's panel is.
PANEL = 56


def notify_errors(monitor):
    """Error replies the notification server gave to Notify calls
    (ExcessNotificationGeneration among them): (error name, message)."""
    return [(c["error"], c["error_message"]) for c in monitor.notify_calls() if "error" in c]


def notify_timeline(monitor):
    """Every Notify on the bus with its answer, as lines: when (the bus's
    clock), who sent it, what it replaces, its summary, body and actions,
    and the id or the error the server answered."""
    return "\n".join("%s %s replaces %s: %s | %s | actions %r -> %s" % (
        c["time"], c["sender"], c["replaces_id"], c["summary"], c["body"], c["actions"],
        c.get("error") or c.get("id", "no answer")) for c in monitor.notify_calls())


def signals(monitor, member):
    """The arguments of each Notifications signal `member` seen on the bus."""
    return [args for header, args in monitor.messages()
            if header.startswith("signal") and "interface=org.freedesktop.Notifications" in header
            and "member=%s" % member in header]


class PlasmaTestCase(unittest.TestCase):
    """Plasma for the class; a platform, an agent with state of its own, a
    client and a bus monitor for each test."""

    x11 = False
    extra_config = ""

    @classmethod
    def setUpClass(cls):
        cls.session = Session()
        try:
            cls.plasma = Plasma(cls.session, x11=cls.x11)
            # The whole class's traffic, for a failure's timeline.
            cls.class_monitor = BusMonitor(cls.session)
        except BaseException:
            cls.session.close()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            cls.plasma.stop()
        finally:
            cls.session.close()

    def setUp(self):
        self.monitor = BusMonitor(self.session)
        self.addCleanup(self.stop_process, self.monitor.process, self.monitor.stop)
        self.platform = Platform(self.session, extra_args=("--webapp", WEBAPP))
        self.addCleanup(self.platform.stop)
        # The app's configuration too (the body's click opens it), and no
        # url-opener: the agent opens links through the app, as installed.
        self.session.write_config("[platform]\nallowed-origins=%s\nca-file=%s\n\n[app]\nweb-origin=%s\n%s" % (
            self.platform.origin, os.path.join(str(self.platform.certs), "ca.pem"), self.platform.origin,
            self.extra_config))
        state = os.path.join(self.session.root, "state-%s" % uuid.uuid4().hex[:6])
        # After the agent has stopped (cleanups run last first): an agent
        # shows a notification closed by another client again.
        self.addCleanup(self.wait_for_no_popups)
        self.agent = AgentProcess(self.session, extra_env={"XDG_STATE_HOME": state})
        self.addCleanup(self.stop_process, self.agent.process, self.agent.close)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def stop_process(self, process, close):
        stop(process)
        if process in self.session.processes:
            self.session.processes.remove(process)
        close()

    def wait_for_no_popups(self):
        """Until the test's popups are gone, so the next test starts on a
        clear screen: a stopped agent's notifications are closed for it."""
        # Every notification the class saw: one a test's app sent as it
        # quit may outlive that test's monitor.
        closed_all = lambda: self.plasma.closed_all(self.class_monitor.notify_calls())
        try:
            eventually(closed_all, what="the popups to go")
        except AssertionError:
            raise AssertionError("popups still on screen: %r\nNotify on the bus since the class started:\n%s"
                                 % (self.plasma.popups(), notify_timeline(self.class_monitor))) from None
        # Plasma refuses a notification identical to the last one it took
        # within a second, from any client, and the next test's agent shows
        # the same text.
        time.sleep(1.1)

    def new_sleep(self, started_ago_s=83 * 60):
        timer_id, reply = self.platform.start_sleep(started_ago_s=started_ago_s)
        self.platform.mirror(self.client, timer_id, reply)
        return timer_id, reply

    def wait_for_popup(self):
        try:
            eventually(lambda: len(self.plasma.popups()) == 1, what="plasmashell's popup")
        except AssertionError:
            raise AssertionError(self.failure("no popup on screen (KWin's windows: %r)" % self.plasma.windows()))
        return self.plasma.popups()[0]

    def check(self, ok, text):
        """Fails with `failure(text)` unless `ok`: the screenshot and the
        logs are gathered only for a failure."""
        if not ok:
            raise AssertionError(self.failure(text))

    def failure(self, text):
        """A failure's message: what was wrong, the Notify calls on the bus,
        the agent's log and Plasma's, and on X11 the screen as it was, kept
        beside the screenshots."""
        if self.plasma.display:
            os.makedirs(ARTIFACTS, exist_ok=True)
            path = os.path.join(ARTIFACTS, "plasma6-failed-%s.png" % self._testMethodName)
            self.plasma.screenshot(path)
            text += "\nthe screen: %s" % path
        return "%s\nNotify on the bus since the class started:\n%s\nthe agent's log:\n%s\n%s" % (
            text, notify_timeline(self.class_monitor), self.agent.log()[-2500:], self.plasma.log_tails())


class WaylandTests(PlasmaTestCase):
    """Plasma on Wayland: kwin_wayland --virtual and plasmashell on it."""

    def pointer(self):
        from kwin_input import Pointer
        pointer = Pointer(self.plasma.bus, log=lambda: self.plasma.log("kwin"))
        self.addCleanup(pointer.close)
        return pointer

    def test_plasmashell_serves_the_notification_as_one_popup_with_complete(self):
        self.assertEqual(self.plasma.owner_pid("org.freedesktop.Notifications"), self.plasma.shell.pid)
        self.assertEqual(self.plasma.server_information()[:2], ("Plasma", "KDE"))
        timer_id, _ = self.new_sleep()
        popup = self.wait_for_popup()
        self.assertEqual((popup["pid"], popup["desktopFileName"]), (self.plasma.shell.pid, "org.kde.plasmashell"))
        eventually(lambda: (self.client.list() or [{}])[0].get("notification") == "shown",
                   what="the agent to say the notification is shown")
        [notify] = self.monitor.notify_calls()
        self.assertEqual(notify["summary"], "Maya is asleep")
        self.assertEqual(notify_errors(self.monitor), [])
        # What Plasma was asked to draw: the body's click (default) and Complete.
        text = self.monitor.text()
        self.assertIn('string "complete"', text)
        self.assertIn('string "Complete"', text)

    def test_the_minutes_update_replaces_the_popup_in_place(self):
        # The minute boundary 5 s after the start; the test goes by the
        # minute first shown (a loaded machine may show it after the boundary).
        timer_id, _ = self.new_sleep(started_ago_s=5 * 60 - 5)
        popup = self.wait_for_popup()
        eventually(lambda: self.monitor.notify_calls() and "id" in self.monitor.notify_calls()[0],
                   what="the first Notify and its id")
        first = self.monitor.notify_calls()[0]
        shown = elapsed_minutes(first["body"])
        self.assertIsNotNone(shown, "the body shows no elapsed time on Plasma: %r" % first["body"])
        started_ms = self.platform_started_ms(timer_id)
        boundary = next_minute_ms(started_ms, now_ms())
        # (when, popups on screen), by the wall clock the bus monitor's
        # timestamps are in.
        samples = [(0.0, [popup])]
        deadline = boundary + 10_000
        while now_ms() < deadline and len(self.monitor.notify_calls()) < 2:
            samples.append((time.time(), self.plasma.popups()))
            time.sleep(0.5)
        eventually(lambda: len(self.monitor.notify_calls()) >= 2, timeout=PATIENCE + 60,
                   what="the minute's update")
        time.sleep(2)
        samples.append((time.time(), self.plasma.popups()))
        calls = self.monitor.notify_calls()
        update = calls[1]
        self.check(update["replaces_id"] == first["id"], "the update was not a replacement")
        self.check(update.get("id") == first["id"], "Plasma gave the update a new id")
        self.assertEqual(elapsed_minutes(update["body"]), elapsed_minutes(first["body"]) + 1, update["body"])
        self.check(notify_errors(self.monitor) == [], "Plasma refused a Notify: %r" % calls)
        # The replacement's doing is judged from the screen just before it
        # was sent: a popup another client's notification put up earlier
        # (a test before this one) is not the update's.
        sent = float(update["time"])
        before = [shown for when, shown in samples if when < sent][-1]
        earlier = {p["id"] for p in before}
        added = [(when, p) for when, shown in samples if when >= sent for p in shown if p["id"] not in earlier]
        self.check(added == [], "popups added when the minute changed: %r; on screen before: %r; Notify calls: %r"
                   % (added, before, calls))
        kept = [(p["id"], p["x"]) for p in samples[-1][1]]
        self.check((popup["id"], popup["x"]) in kept,
                   "the popup was not kept in place: %r, then %r" % (popup, samples[-1][1]))

    def platform_started_ms(self, timer_id):
        [timer] = [t for t in self.client.list() if t["timer_id"] == timer_id]
        return timer["started_at_ms"]

    def test_the_item_is_in_plasmas_system_tray(self):
        self.assertTrue(self.plasma.host_registered())
        self.new_sleep()
        key = "org.kde.StatusNotifierItem-%d-1/StatusNotifierItem" % self.agent.pid
        eventually(lambda: key in self.plasma.registered_items(), what="the item in the watcher")
        # The tray (plasmashell's connection) reads the item's properties.
        shell = self.plasma.bus.get_name_owner("org.kde.StatusNotifierHost-%d" % self.plasma.shell.pid)
        eventually(lambda: any("sender=%s " % shell in h and "path=/StatusNotifierItem" in h
                               for h, _ in self.monitor.messages()), what="plasmashell to read the item")

    def test_a_click_on_the_body_raises_the_apps_window_with_plasmas_token(self):
        log = open(os.path.join(self.session.root, "app-%s.log" % uuid.uuid4().hex[:6]), "w")
        self.addCleanup(log.close)
        env = dict(self.session.env, GTK_A11Y="none", NO_AT_BRIDGE="1", GDK_BACKEND="wayland")
        app = subprocess.Popen([APP], env=env, stdout=log, stderr=log)
        self.addCleanup(stop, app)
        eventually(lambda: any(w["pid"] == app.pid for w in self.plasma.windows()), timeout=60,
                   what="the app's window under KWin")
        [window] = [w for w in self.plasma.windows() if w["pid"] == app.pid]
        self.assertEqual(window["desktopFileName"], APP_ID)
        self.new_sleep()
        popup = self.wait_for_popup()
        pointer = self.pointer()
        # A click on the desktop first: the app's window is not the active one.
        [window] = [w for w in self.plasma.windows() if w["pid"] == app.pid]
        pointer.click(*desktop_spot(window, popup))
        eventually(lambda: (self.plasma.active_window() or {}).get("pid") != app.pid,
                   what="the desktop to take the focus")
        pointer.click(popup["x"] + popup["width"] // 2, popup["y"] + popup["height"] // 2)
        eventually(lambda: any('string "default"' in args for args in signals(self.monitor, "ActionInvoked")),
                   what="Plasma to send ActionInvoked(default)")
        tokens = [args[1] for args in signals(self.monitor, "ActivationToken")]
        self.assertEqual(len(tokens), 1, tokens)
        self.check("not-granted" not in tokens[0], "KWin gave plasmashell no activation token: %r" % tokens[0])
        # The agent hands Plasma's token to the app with the link.
        token = tokens[0].split('"')[1]
        eventually(lambda: any("member=Open" in h and "interface=org.freedesktop.Application" in h
                               and any('"%s"' % token in line for line in args) for h, args in self.monitor.messages()),
                   what="the agent to open the app with Plasma's token")
        try:
            eventually(lambda: (self.plasma.active_window() or {}).get("pid") == app.pid,
                       what="KWin to make the app's window active")
        except AssertionError:
            raise AssertionError(self.failure("KWin's active window is %r, not the app's"
                                              % self.plasma.active_window())) from None


def desktop_spot(*windows):
    """A point of the desktop that none of `windows` covers."""
    for x, y in ((8, 8), (WIDTH - 8, 8), (8, HEIGHT // 2), (WIDTH - 8, HEIGHT // 2), (WIDTH // 2, 8)):
        if not any(w["x"] <= x < w["x"] + w["width"] and w["y"] <= y < w["y"] + w["height"] for w in windows):
            return x, y
    raise AssertionError("the windows cover the desktop: %r" % (windows,))


class X11Tests(PlasmaTestCase):
    """Plasma on X11 under Xvfb, where the screen can be read and clicked."""

    x11 = True

    @classmethod
    def setUpClass(cls):
        screen_words.require_tesseract()
        require_tool("xdotool", "xdotool")
        super().setUpClass()

    def screenshot(self, name=None):
        path = os.path.join(self.session.root, "screen-%d.png" % time.monotonic_ns())
        self.plasma.screenshot(path)
        if name:
            os.makedirs(ARTIFACTS, exist_ok=True)
            shutil.copy(path, os.path.join(ARTIFACTS, name))
        return path

    def words_once(self, box, ready, what):
        """The words tesseract reads in `box` once `ready(words)` holds,
        from a new screenshot each time (`box` may be a function giving
        where to read now); a failure says what `what` last read."""
        try:
            return screen_words.wait_for_words(self.screenshot, box, self.session.root, ready, what)
        except AssertionError as error:
            raise AssertionError(self.failure(str(error))) from None

    def popup_box(self):
        """Where the one popup is now, once it holds still: where KWin first
        put it need not be where it stays (Plasma slides a popup in). Read
        through words_once, whose failure adds the screen and the logs."""
        boxes = []

        def box():
            popups = self.plasma.popups()
            if len(popups) != 1:
                raise AssertionError("one popup was on screen, now %d (KWin's windows: %r)"
                                     % (len(popups), self.plasma.windows()))
            return popups[0]["x"], popups[0]["y"], popups[0]["width"], popups[0]["height"]

        def still():
            boxes.append(box())
            return len(boxes) > 1 and boxes[-1] == boxes[-2]

        eventually(still, what="the popup to hold still")
        return boxes[-1]

    def save_crop(self, name, width, height, x, y):
        """The part of the screen at (x, y), width × height, kept as `name`
        beside the other screenshots."""
        os.makedirs(ARTIFACTS, exist_ok=True)
        subprocess.run(["convert", self.screenshot(), "-crop", "%dx%d+%d+%d" % (width, height, x, y),
                        "+repage", os.path.join(ARTIFACTS, name)], check=True, timeout=PATIENCE)

    def click(self, x, y, button="1"):
        result = xdotool(self.session, "mousemove", "--sync", str(round(x)), str(round(y)), "click", button)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_the_popup_shows_complete_and_open_and_its_complete_makes_one_activity(self):
        timer_id, _ = self.new_sleep()
        self.wait_for_popup()
        # What a parent reads: both actions in words (Plasma draws a button
        # for each action but "default", the click on the body), read until
        # the popup, where it is now, says them; a failure shows the actions
        # the agent sent among the Notify calls.
        found = self.words_once(self.popup_box, lambda words: screen_words.find(words, "Complete")
                                and screen_words.find(words, "Open") and screen_words.find(words, "asleep"),
                                "the popup")
        popup = self.plasma.popups()[0]
        margin = 12
        self.save_crop("plasma6-notification.png", popup["width"] + 2 * margin, popup["height"] + 2 * margin,
                       popup["x"] - margin, popup["y"] - margin)
        complete = screen_words.find(found, "Complete")
        self.click(complete["x"], complete["y"])
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        # The saved notification is low urgency, which Plasma keeps in its
        # history without a popup: the running popup goes.
        eventually(lambda: not self.plasma.popups(), what="the popup to go after Complete")
        eventually(lambda: any(c["body"].startswith("Sleep saved") for c in self.monitor.notify_calls()),
                   what="the agent to say the sleep is saved")
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1)
        self.check(notify_errors(self.monitor) == [], "Plasma refused a Notify: %r" % self.monitor.notify_calls())

    def tray_strip(self):
        """The panel's strip of the screen, as raw RGB rows, once it holds
        still (a new item slides in)."""
        def strip():
            return subprocess.run(["convert", self.screenshot(), "-crop", "%dx%d+0+%d" % (WIDTH, PANEL, HEIGHT - PANEL),
                                   "-depth", "8", "rgb:-"], capture_output=True, check=True, timeout=PATIENCE).stdout

        shots = [strip()]

        def still():
            time.sleep(0.7)
            shots.append(strip())
            return shots[-1] == shots[-2]

        eventually(still, what="the panel to hold still")
        return shots[-1]

    def icon_spot(self, before, after):
        """The middle of the first run of panel columns that changed between
        two pictures of it: where the tray drew the new item (left of the
        clock, which may have changed too)."""
        changed = sorted({(i // 3) % WIDTH for i in range(0, min(len(before), len(after)), 3)
                          if sum(abs(before[i + c] - after[i + c]) for c in range(3)) > 60})
        if len(changed) < 8:
            return None
        run = [changed[0]]
        for column in changed[1:]:
            if column - run[-1] > 3:
                break
            run.append(column)
        return (run[0] + run[-1]) / 2, HEIGHT - PANEL / 2

    def open_the_items_menu(self):
        """A new sleep's item in the tray, and its menu opened with a right
        click: (timer id, the item's key in the watcher, the item's spot,
        the box the menu shows in)."""
        before = self.tray_strip()
        timer_id, _ = self.new_sleep()
        key = "org.kde.StatusNotifierItem-%d-1/StatusNotifierItem" % self.agent.pid
        eventually(lambda: key in self.plasma.registered_items(), what="the item in the watcher")
        self.wait_for_popup()
        spot = []
        eventually(lambda: spot.append(self.icon_spot(before, self.tray_strip())) or spot[-1], timeout=PATIENCE,
                   what="the item's icon in the tray")
        x, y = spot[-1]
        self.click(x, y, "3")
        return timer_id, key, (x, y), (max(0, x - 400), HEIGHT - PANEL - 260, 800, 260)

    def test_the_tray_items_menu_is_worked_by_the_keyboard(self):
        """As on xfce4-panel: the menu opened on the item, its first entry
        (Complete) reached with Down and chosen with Return."""
        timer_id, _, _, menu_box = self.open_the_items_menu()
        self.words_once(menu_box, lambda words: screen_words.find_phrase(words, "Complete Maya's sleep"), "the menu")
        xdotool(self.session, "key", "Down")
        time.sleep(0.3)
        xdotool(self.session, "key", "Return")
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1)

    def test_the_tray_items_menu_opened_with_a_click_completes_once(self):
        timer_id, key, (x, y), menu_box = self.open_the_items_menu()
        found = self.words_once(menu_box, lambda words: screen_words.find_phrase(words, "Complete Maya's sleep"),
                                "the menu")
        # The menu, the item and the clock beside it.
        left = max(0, min(x - 300, WIDTH - 560))
        self.save_crop("plasma6-indicator.png", WIDTH - left, 300, left, HEIGHT - 300)
        complete = screen_words.find_phrase(found, "Complete Maya's sleep")
        self.click(complete["x"], complete["y"])
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        eventually(lambda: key not in self.plasma.registered_items(), what="the item to leave the tray")
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1)
        self.check(notify_errors(self.monitor) == [], "Plasma refused a Notify: %r" % self.monitor.notify_calls())

