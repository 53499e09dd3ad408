"""The installed Flatpak on KDE Plasma (6.3 in the Debian 13 root, 6.7 in the
Debian testing one), with xdg-desktop-portal and its
KDE backend: the sandboxed agent's notification, posted through the
notification portal, is plasmashell's popup with Complete and Open; a click
on its body opens the timer's Sleep route in the app; Complete makes one
activity and no window; the panel item, registered with the watcher by
object path from inside the sandbox, is in Plasma's system tray and its
menu's Complete completes once; and the app's notice that it keeps
running, for a baby named `<a href="https://phish.example/login">Maya</a>`,
reaches plasmashell through the portal with ＜ ＞ for < > and its popup
reads the address in words, never a link.

xdg-desktop-portal-kde 6.3 hands the popup to plasmashell with a Notify on
the session bus, which the test reads and closes by its id; 6.7 hands it
over off the session bus, so the popup's words on the screen are what
shows it there, and the agent withdraws it through the portal when the
test removes its timers.

Run by Tests/Flatpak/run.sh. Plasma runs on X11 under
Xvfb (plasma.py, as test_plasma6's X11 tests have it): what a parent reads
is read from the screen with tesseract, waited for until it is there, and
clicked with a real X click on the word found. The portal, its KDE backend,
the Flatpak portal (WebKit's sandbox for its web processes) and the app's
exported services are started by D-Bus activation, as in a login session."""

import json
import os
import shutil
import time
import unittest
import uuid

import dbus

import screen_words
import test_plasma6
from app_harness import require_tool
from dbus_client import Client
from desktop import BusMonitor, xdotool
from harness import BUS_NAME, DEMO_FAMILY, MAYA, PATIENCE, Platform, Session, eventually, stop
from installed import AGENT_NAME, APP_ID, Installation
from plasma import HEIGHT, WIDTH, Plasma
from test_markup_names import NAME, NOTICE, PORTAL_NAME, added_bodies, listed_to_the_app
from test_portal_notifications import calls

WEBAPP = os.path.join(test_plasma6.REPO, "webapp", "demo")
# The bus names a sandboxed app's notifications and window need, each with
# the Debian package whose D-Bus service file starts it.
PORTAL_SERVICES = {
    "org.freedesktop.portal.Desktop": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.PermissionStore": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.desktop.kde": "xdg-desktop-portal-kde",
    "org.freedesktop.portal.Flatpak": "flatpak",
}
# What the portal and its KDE backend read of the session (which backend
# serves, the display), given to the bus's activation environment as a
# Plasma login does.
SESSION_VARIABLES = ("DISPLAY", "XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP", "XDG_SESSION_TYPE", "XDG_DATA_DIRS",
                     "XDG_CONFIG_DIRS", "XDG_MENU_PREFIX", "KDE_FULL_SESSION", "KDE_SESSION_VERSION",
                     "QT_QPA_PLATFORM", "DBUS_SYSTEM_BUS_ADDRESS")
PANEL = test_plasma6.PANEL
# Whether the KDE backend's popup reaches plasmashell as a Notify on the
# session bus: 6.3's does, 6.7's not.
NOTIFY_ON_THE_BUS = {"trixie": True, "forky": False}[os.environ.get("DFL_RELEASE", "trixie")]
# Whether the KDE backend asks the person about a new binding of global
# shortcuts in a dialog of its own ("Global Shortcuts Requested"): 6.7's
# does, 6.3's binds at once.
SHORTCUTS_DIALOG = {"trixie": False, "forky": True}[os.environ.get("DFL_RELEASE", "trixie")]
SHORTCUTS_DIALOG_TITLE = "Global Shortcuts Requested"


def letters(text):
    """`text` with letters and digits only, in lower case: what tesseract
    reads of a word stays, what it makes of a bracket or a box goes."""
    return "".join(c for c in text.lower() if c.isalnum())


def keep_popups_on_screen(session):
    """Plasma's setting of how long a popup stays before it goes to the
    history (5 s unless set; a portal notification carries no timeout), set
    to its longest, 2 minutes: reading a popup with tesseract on a busy
    machine can take longer than 5 s, and the click must find the popup
    where it was read."""
    with open(os.path.join(session.env["XDG_CONFIG_HOME"], "plasmanotifyrc"), "w") as handle:
        handle.write("[Notifications]\nPopupTimeout=120000\n")


class PlasmaFlatpakTests(unittest.TestCase):
    """Plasma and the installation for the class; a platform and a sandboxed
    agent for each test."""

    @classmethod
    def setUpClass(cls):
        screen_words.require_tesseract()
        require_tool("xdotool", "xdotool")
        cls.session = Session()
        try:
            cls.installation = Installation(cls.session)
            keep_popups_on_screen(cls.session)
            cls.plasma = Plasma(cls.session, x11=True)
            cls.session.install_services(PORTAL_SERVICES)
            cls.installation.activation_environment(
                *(name for name in SESSION_VARIABLES if name in cls.session.env))
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
        self.addCleanup(self.monitor.stop)
        # Cleanups run last first: the test's timers withdrawn by its agent,
        # every sandbox of the app gone (the agent, the app it started in
        # the background, a window left open), then the test's popups; the
        # test's connection, which the first and the last use, closed after
        # them (closed first, it left the popups of a clicked notification
        # to come back in a later test on Plasma 6.7).
        self.client = None
        self.addCleanup(lambda: self.client and self.client.close())
        self.addCleanup(self.wait_for_no_popups)
        self.addCleanup(self.end_the_sandboxes)
        self.addCleanup(self.remove_the_timers)
        self.platform = Platform(self.session, extra_args=("--webapp", WEBAPP))
        self.addCleanup(self.platform.stop)
        self.installation.configure(self.platform)
        # Each test's agent starts on an empty store: one left by the test
        # before would show that test's timers again.
        shutil.rmtree(os.path.join(self.installation.data, ".local", "state", "dreamsforlittles"), ignore_errors=True)
        self.agent_log = os.path.join(self.session.root, "agent-%s.log" % uuid.uuid4().hex[:6])
        self.agent = self.installation.start("dfl-sleep-agent", log=self.agent_log)
        self.client = Client(self.session)
        # The names are this test's agent's, not an agent's of the test
        # before (then this one would have exited, or answered "in use").
        self.wait(lambda: " serves " in self.agent_says() or self.agent.poll() is not None,
                  "the sandboxed agent to take its names")
        if " serves " not in self.agent_says():
            raise AssertionError(self.failure("the test's agent did not take its names"))
        self.agent_name = self.owner(BUS_NAME)
        self.assertEqual(self.owner(AGENT_NAME), self.agent_name)
        if SHORTCUTS_DIALOG:
            self.decline_the_shortcuts()

    # ---- the test's parts

    def decline_the_shortcuts(self):
        """Closes the dialog in which Plasma 6.7's portal asks about the
        agent's global shortcuts, as a person who wants none closes it,
        before the test goes on. The session runs no kglobalaccel to
        remember an answer, so each test's agent brings the dialog again.
        Twice a Sleep's popup shown while the dialog came (the two within
        three seconds) stayed an empty strip 8 pixels high for as long as
        the test looked, the only popup on screen (Plasma 6.7 on X11). The
        shortcuts themselves are tested on Plasma 6.3, with kglobalacceld
        (test_plasma6_shortcuts)."""
        def dialogs():
            return [w for w in self.plasma.windows() if w["caption"] == SHORTCUTS_DIALOG_TITLE]

        self.wait(dialogs, "the portal's dialog about the agent's shortcuts")
        self.close_windows("w.caption === %s" % json.dumps(SHORTCUTS_DIALOG_TITLE))
        self.wait(lambda: not dialogs(), "the shortcuts dialog to close")

    def remove_the_timers(self):
        """Every timer the agent still holds removed through its D-Bus API,
        so that it withdraws their popups through the portal, as it does
        when a Sleep ends elsewhere."""
        if self.client is None:
            return  # the test's agent never served
        try:
            held = [timer["timer_id"] for timer in self.client.list()]
            for timer_id in held:
                self.client.timers.Remove(timer_id)
        except dbus.exceptions.DBusException:
            return  # the agent is gone: wait_for_no_popups closes what it can
        withdrawn = lambda: {args[0] for _, args in calls(self.monitor, "RemoveNotification", sender=getattr(self, "agent_name", None))}
        self.wait(lambda: {'string "%s"' % timer_id for timer_id in held} <= withdrawn(),
                  "the agent to withdraw its popups through the portal")

    def end_the_sandboxes(self):
        stop(self.agent)
        if self.agent in self.session.processes:
            self.session.processes.remove(self.agent)
        self.installation.end_sandboxes()
        eventually(lambda: not self.owner(BUS_NAME) and not self.owner(AGENT_NAME), what="the agent's names to go")

    def wait_for_no_popups(self):
        """Closes each notification the test's capture saw on Plasma and
        waits until no popup is left: the next test starts on a clear
        screen. The pointer goes first: Plasma 6.7 keeps a popup under the
        pointer on screen after its notification is removed."""
        xdotool(self.session, "mousemove", "--sync", "200", "200")
        self.wait(lambda: self.removed_at_the_backend() and self.plasma.closed_all(self.monitor.notify_calls()),
                  "the popups to go")
        # Plasma refuses a notification identical to the last one it took
        # within a second, and the next test's agent shows the same text.
        time.sleep(1.1)

    def removed_at_the_backend(self):
        """Each notification the portal handed its backend, removed there as
        the portal removes one: Plasma 6.7's backend is plasmashell itself,
        whose popups come from no org.freedesktop.Notifications call that
        could be closed. Nothing needs removing there before Plasma 6.7,
        whose backend also shows them through Notify. Always true."""
        for header, args in calls(self.monitor, "AddNotification"):
            fields = dict(part.rstrip(";").split("=", 1) for part in header.split() if "=" in part)
            if fields.get("interface") != "org.freedesktop.impl.portal.Notification" or len(args) < 2:
                continue
            app_id, notification_id = (arg[len('string "'):-1] for arg in args[:2])
            try:
                self.plasma.bus.call_blocking(fields["destination"], fields["path"], fields["interface"],
                                              "RemoveNotification", "ss", (app_id, notification_id))
            except dbus.exceptions.DBusException:
                pass  # its backend has gone, and its popups with it
        return True

    def owner(self, name):
        try:
            return str(self.client.bus.get_name_owner(name))
        except dbus.exceptions.DBusException:
            return None

    def agent_says(self):
        with open(self.agent_log, errors="replace") as handle:
            return handle.read()

    def app_says(self):
        """What the D-Bus activated app wrote: its output goes to the bus's log."""
        return "\n".join(line for line in self.session.bus_output().splitlines() if "dreamsforlittles" in line)

    def failure(self, text):
        """A failure's message: what was wrong, the screen as it was (kept
        beside the screenshots), the agent's, the app's and Plasma's logs."""
        os.makedirs(test_plasma6.ARTIFACTS, exist_ok=True)
        path = os.path.join(test_plasma6.ARTIFACTS, "flatpak-plasma-failed-%s.png" % self._testMethodName)
        self.plasma.screenshot(path)
        return "%s\nthe screen: %s\nthe agent's log:\n%s\nthe bus's log (the app, the portals):\n%s\n%s" % (
            text, path, self.agent_says()[-2500:], self.session.bus_output()[-3000:], self.plasma.log_tails())

    def wait(self, predicate, what, timeout=PATIENCE):
        try:
            eventually(predicate, timeout=timeout, what=what)
        except AssertionError as error:
            raise AssertionError(self.failure(str(error))) from None

    def new_sleep(self, baby_name="Maya"):
        timer_id, reply = self.platform.start_sleep()
        try:
            self.token = self.platform.mirror(self.client, timer_id, reply, baby_name=baby_name)
        except dbus.exceptions.DBusException as error:
            raise AssertionError(self.failure("the agent refused the Mirror: %s" % error)) from None
        return timer_id

    def wait_for_popup(self):
        self.wait(lambda: len(self.plasma.popups()) == 1, "plasmashell's popup", timeout=60)
        return self.plasma.popups()[0]

    def where(self, popup_id):
        """Where the popup `popup_id` (KWin's id) is at each reading: Plasma
        slides a popup in and grows it, so where KWin first put it need not
        be where it stays."""
        def box():
            now = [p for p in self.plasma.popups() if p["id"] == popup_id]
            if not now:
                raise AssertionError("the popup went")
            return now[0]["x"], now[0]["y"], now[0]["width"], now[0]["height"]

        return box

    def read_popup(self, popup):
        return self.words_once(self.where(popup["id"]), lambda words: screen_words.find(words, "Complete")
                               and screen_words.find(words, "Open") and screen_words.find(words, "asleep"),
                               "the popup")

    def app_windows(self):
        """The app's windows under KWin: on X11 a sandboxed window's pid is
        the sandbox's own, so it is known by its id or its title."""
        return [w for w in self.plasma.windows() if APP_ID in (w["desktopFileName"], w["resourceClass"])
                or "Dreams for Littles" in (w["caption"] or "")]

    def close_windows(self, condition):
        """The windows `w` for which the KWin script expression `condition`
        holds, closed as their close button does (KWin asks their program
        to close them)."""
        self.plasma.script("""
            for (const w of workspace.stackingOrder)
                if (%s)
                    w.closeWindow();""" % condition)

    def close_app_windows(self):
        self.close_windows("!w.notification && (w.desktopFileName === %(id)s || w.resourceClass === %(id)s)"
                           % {"id": json.dumps(APP_ID)})

    def read_notice(self, popup_id):
        """The words of the popup `popup_id` (KWin's id) once it reads the
        whole notice."""
        return self.words_once(self.where(popup_id), lambda words: all(part in letters(screen_words.text(words)) for part in (
            "keepsrunningwhile", "sleepisonthedesktop", "quitfromthepanel")), "the notice's popup")

    def assert_reads_the_name(self, found):
        """Between "keeps running while" and "sleep is on the desktop" the
        words of `found` hold the tag's words, the address and the name: a
        body taken as markup would read "while Maya's sleep" there."""
        read = letters(screen_words.text(found))
        start = read.index("keepsrunningwhile") + len("keepsrunningwhile")
        between = read[start:read.index("sleepisonthedesktop")]
        for part in ("ahref", "httpsphishexample", "login", "maya"):
            self.assertIn(part, between, "the notice's popup reads %r" % screen_words.text(found))

    def route_requests(self, timer_id):
        route = "/families/%s/babies/%s/track/sleep?timer=%s" % (DEMO_FAMILY, MAYA, timer_id)
        return [r for r in self.platform.requests() if r["method"] == "GET" and r["path"] == route]

    # The screen, read and clicked as test_plasma6's X11 tests do it.
    screenshot = test_plasma6.X11Tests.screenshot
    words_once = test_plasma6.X11Tests.words_once
    save_crop = test_plasma6.X11Tests.save_crop
    click = test_plasma6.X11Tests.click
    tray_strip = test_plasma6.X11Tests.tray_strip
    icon_spot = test_plasma6.X11Tests.icon_spot

    # ---- the tests

    def test_the_portals_popup_shows_complete_and_open_and_complete_makes_one_activity_and_no_window(self):
        timer_id = self.new_sleep()
        popup = self.wait_for_popup()
        found = self.read_popup(popup)
        margin = 12
        self.save_crop("flatpak-plasma-popup.png", popup["width"] + 2 * margin, popup["height"] + 2 * margin,
                       popup["x"] - margin, popup["y"] - margin)
        # Posted through the portal with the app's exported actions, never
        # to the notification server itself.
        adds = [args for _, args in calls(self.monitor, "AddNotification", sender=self.agent_name)
                if args[0] == 'string "%s"' % timer_id]
        if not adds:
            raise AssertionError(self.failure("no AddNotification of the timer from the sandboxed agent"))
        text = "\n".join(adds[0])
        for expected in ('string "app.open-timer"', 'string "app.complete-timer"', 'string "default-action-target"',
                         'string "%s"' % timer_id):
            self.assertIn(expected, text)
        self.assertEqual(calls(self.monitor, "Notify", sender=self.agent_name), [])
        self.assertEqual([c["summary"] for c in self.monitor.notify_calls()],
                         ["Maya is asleep"] if NOTIFY_ON_THE_BUS else [])
        self.assertTrue(screen_words.find_phrase(found, "Maya is asleep"), "the popup reads %r" % found)

        complete = screen_words.find(found, "Complete")
        self.click(complete["x"], complete["y"])
        self.wait(lambda: self.platform.activities(), "the platform to record the completion")
        [activity] = self.platform.activities()
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        # The portal hands the click to the app (the one the agent started
        # in the background, with its window hidden), which hands Complete
        # to the agent and shows no window.
        self.wait(lambda: "The agent recorded the completion of timer %s" % timer_id in self.app_says(),
                  "the app to hand Complete to the agent")
        self.assertIn("Completing timer %s from the notification" % timer_id, self.app_says())
        self.assertEqual(self.app_windows(), [])
        self.wait(lambda: timer_id not in {t["timer_id"] for t in self.client.list()},
                  "the agent to finish the completion")
        self.assertEqual(len(self.platform.activities()), 1)
        # Nothing of the token crossed the bus: the portal, Plasma and the
        # app were handed the timer's id alone.
        self.assertNotIn(self.token, self.monitor.text())

    def test_a_click_on_the_popups_body_opens_the_timers_sleep_route(self):
        timer_id = self.new_sleep()
        popup = self.wait_for_popup()
        found = self.read_popup(popup)
        asleep = screen_words.find(found, "asleep")
        self.click(asleep["x"], asleep["y"])
        self.wait(lambda: self.route_requests(timer_id), "the app to load the timer's Sleep route", timeout=90)
        self.wait(lambda: self.app_windows(), "the app's window under KWin")
        self.assertIn("Opening timer %s from the notification" % timer_id, self.app_says())
        # The timer is untouched.
        self.assertEqual([t["state"] for t in self.client.list() if t["timer_id"] == timer_id], ["running"])
        self.assertEqual(self.platform.activities(), [])
        # The Sleep ended elsewhere, the agent withdraws the clicked popup
        # through the portal and it goes (with the pointer off it: Plasma
        # keeps a popup under the pointer).
        self.client.timers.Remove(timer_id)
        xdotool(self.session, "mousemove", "--sync", "200", "200")
        self.wait(lambda: not self.plasma.popups(), "the clicked popup to go once the agent withdrew it")
        self.assertEqual(self.platform.activities(), [])

    def test_the_panel_item_is_in_plasmas_tray_from_the_sandbox_and_its_menu_completes_once(self):
        before = self.tray_strip()
        timer_id = self.new_sleep()
        # Registered by object path: the watcher keys it by the agent's
        # unique name (the sandbox may own no StatusNotifierItem name).
        key = "%s/StatusNotifierItem" % self.agent_name
        self.wait(lambda: key in self.plasma.registered_items(),
                  "the item in the watcher (it has %r)" % self.plasma.registered_items())
        self.assertNotIn("org.kde.StatusNotifierItem-", self.monitor.text())
        self.wait_for_popup()
        spot = []
        self.wait(lambda: spot.append(self.icon_spot(before, self.tray_strip())) or spot[-1],
                  "the item's icon in the tray")
        x, y = spot[-1]
        self.click(x, y, "3")
        menu_box = (max(0, x - 400), HEIGHT - PANEL - 260, 800, 260)
        found = self.words_once(menu_box, lambda words: screen_words.find_phrase(words, "Complete Maya's sleep"),
                                "the menu")
        left = max(0, min(x - 300, WIDTH - 560))
        self.save_crop("flatpak-plasma-tray.png", WIDTH - left, 300, left, HEIGHT - 300)
        complete = screen_words.find_phrase(found, "Complete Maya's sleep")
        self.click(complete["x"], complete["y"])
        self.wait(lambda: self.platform.activities(), "the platform to record the completion")
        [activity] = self.platform.activities()
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        self.wait(lambda: timer_id not in {t["timer_id"] for t in self.client.list()},
                  "the agent to finish the completion")
        self.assertEqual(len(self.platform.activities()), 1)

    def test_a_name_written_as_markup_reads_as_written_in_the_apps_notice(self):
        """The app's notice that it keeps running, sent when its window is
        closed while the Sleep of a baby named
        `<a href="https://phish.example/login">Maya</a>` runs: the app hands
        the portal the body with ＜ ＞ ＆ for < > & (test_markup_names says
        why), the KDE backend hands plasmashell that body unchanged (6.3,
        on the bus), and the popup draws the name as those characters, the
        address in words, never a link that reads "Maya" alone.

        No font of the root has ＜ and ＞ (it has DejaVu's, as a minimal
        Debian desktop does; Noto Sans CJK has them), so Plasma draws each
        as a missing glyph's box: the popup reads
        `□a href="https://phish.example/login"□Maya□/a□'s sleep`, which
        tesseract reads with a letter or a bracket for each box. What is
        asserted of the drawing is what holds either way: between "keeps
        running while" and "sleep is on the desktop" are the tag's words,
        the address and the name."""
        self.new_sleep(baby_name=NAME)
        agents_popup = self.wait_for_popup()
        self.installation.start(None, log=os.path.join(self.session.root, "app-%s.log" % uuid.uuid4().hex[:6]))
        windows = lambda: [w for w in self.app_windows() if not w["notification"]]
        self.wait(windows, "the app's window under KWin")
        # Closed before the app knows of the Sleep, the app would just quit.
        self.wait(lambda: listed_to_the_app(self.session, self.monitor), "the app to list the timer")
        self.close_app_windows()
        self.wait(lambda: not windows(), "the app's window to close")

        portal_body = NOTICE.replace(NAME, PORTAL_NAME)
        notices = lambda: [body for body in added_bodies(self.monitor, "org.freedesktop.portal.Notification")
                           if "keeps running" in body]
        self.wait(notices, "the app's notice through the portal")
        self.assertEqual(notices(), [portal_body])
        if NOTIFY_ON_THE_BUS:
            self.wait(lambda: [c for c in self.monitor.notify_calls() if "keeps running" in c["body"]],
                      "the KDE backend's Notify of the notice")
            sent = self.monitor.notify_calls()
            self.assertEqual([c["body"] for c in sent if c["summary"] == "Dreams for Littles"], [portal_body])
            # The agent's title, plain text in the popup too, as written.
            self.assertEqual({c["summary"] for c in sent if c["summary"] != "Dreams for Littles"},
                             {NAME + " is asleep"})

        self.wait(lambda: len(self.plasma.popups()) == 2, "the notice's popup beside the agent's")
        notice = next(p for p in self.plasma.popups() if p["id"] != agents_popup["id"])
        found = self.read_notice(notice["id"])
        # The two popups, the agent's and the notice, in the picture.
        popups = self.plasma.popups()
        left, top = min(p["x"] for p in popups) - 12, min(p["y"] for p in popups) - 12
        self.save_crop("flatpak-plasma-markup-name.png", max(p["x"] + p["width"] for p in popups) + 12 - left,
                       max(p["y"] + p["height"] for p in popups) + 12 - top, left, top)
        self.assert_reads_the_name(found)


if __name__ == "__main__":
    unittest.main()
