"""GNOME Shell headless on Wayland, as a parent meets it: 48 in the Debian 13
root, 50 in the Debian testing one (DFL_RELEASE names which):
the agent's notification with Open and Complete (GNOME draws no button for
the body's own Open, so the agent sends Open as a button too), Complete pressed through the Shell making one
activity and then "Sleep saved", a real click on the banner raising the
app's window on the Sleep route with the Shell's own activation token, the
app's notice that it keeps running, for a baby named
`<a href="https://phish.example/login">Maya</a>`, sent and drawn as
written, text that never shows an elapsed time left to go stale, no second
banner for a change a parent need not see again, and, with the
AppIndicator extension, the panel item in the top bar whose menu completes
once.

Everything is read from the Shell (org.gnome.Shell.Eval, its screenshots),
never from the agent's or the app's own account; clicks are a pointer's,
through Mutter's RemoteDesktop (mutter_input.py says why). The programs are
the installed package's; its desktop entries under /usr/share/applications
are what lets the Shell know the agent and send an activation token."""

import os
import time
import unittest

import appindicator
from app_harness import App, WEBAPP, require_tool
from bus_capture import BusCapture
from display_text import asleep_since, elapsed_minutes
from gnome_shell import GnomeShell
from harness import (DEMO_FAMILY, MAYA, PATIENCE, Platform, PlatformTestCase, Session, eventually, iso_ms,
                     next_minute_ms, now_ms, sleep_until_ms)
from mutter_input import BUTTON_RIGHT, KEY_F5, Keyboard, Pointer
from shell_screen import HIDDEN, Screen, centre, grow, union
from test_markup_names import NAME, NOTICE, added_bodies, listed_to_the_app

SOURCE = "Dreams for Littles Sleep Timers"
ASLEEP = "Maya is asleep"
SAVED_TITLE = "Maya's sleep"
# The title of the app's own notices.
APP_NAME = "Dreams for Littles"
AGENT_ENTRY = "/usr/share/applications/com.dreamsforlittles.DreamsForLittles.SleepAgent.desktop"
APP_ENTRY = "/usr/share/applications/com.dreamsforlittles.DreamsForLittles.desktop"
INDICATOR_ID = "com.dreamsforlittles.DreamsForLittles.SleepAgent"
# The Shell each root carries: Debian 13's, and testing's (Ubuntu 26.04's
# and Fedora 44's).
SHELL_OF_RELEASE = {"trixie": 48, "forky": 50}
RELEASE = os.environ.get("DFL_RELEASE", "trixie")


def assert_the_roots_shell(test, shell):
    """Fails `test` unless `shell` is the GNOME Shell of the root it runs in."""
    test.assertEqual(shell.major, SHELL_OF_RELEASE[RELEASE],
                     "the %s root should have GNOME Shell %d; it has %s"
                     % (RELEASE, SHELL_OF_RELEASE[RELEASE], shell.version))


def sleep_link(timer_id):
    return "dreamsforlittles://families/%s/babies/%s/track/sleep?timer=%s" % (DEMO_FAMILY, MAYA, timer_id)


class GnomeShellTestCase(PlatformTestCase):
    """A session with GNOME Shell as its desktop, the reference platform
    (serving the demo web app), and the agent configured for it."""

    extensions = False

    def setUp(self):
        for entry in (AGENT_ENTRY, APP_ENTRY):
            self.assertTrue(os.path.exists(entry), "the package's desktop entry %s is not installed" % entry)
        self.session = Session()
        self.addCleanup(self.session.close)
        # The installed desktop entries: GNOME knows the agent by them.
        self.session.env["XDG_DATA_DIRS"] = "/usr/local/share:/usr/share"
        self.platform = Platform(self.session, extra_args=("--webapp", WEBAPP))
        self.addCleanup(self.platform.stop)
        self.configure()
        if self.extensions:
            appindicator.enable(self.session)
        self.bus = BusCapture(self.session)
        self.addCleanup(self.bus.stop)
        self.shell = GnomeShell(self.session)
        self.addCleanup(self.shell.stop)
        assert_the_roots_shell(self, self.shell)
        self.screen = Screen(self.shell)
        self.screen.close_system_notices()
        self.screen.record_banners()
        self.agent = None
        self.client = None

    def configure(self):
        self.platform.configure()

    def mirrored_timer(self, started_ago_s=83 * 60, baby_name="Maya"):
        if self.agent is None:
            self.start_agent()
        timer_id, reply = self.platform.start_sleep(started_ago_s=started_ago_s)
        self.platform.mirror(self.client, timer_id, reply, baby_name=baby_name)
        return timer_id, reply

    def shown(self, title=ASLEEP):
        return [n for n in self.shell.notifications(SOURCE) if n["title"] == title]

    def wait_shown(self, title=ASLEEP, what=None):
        self.until(lambda: self.shown(title), what or "the notification %r in the Shell's message tray" % title)
        [notification] = self.shown(title)
        return notification

    def until(self, predicate, what, timeout=PATIENCE):
        """eventually(), with the Shell's and the agent's logs when it fails."""
        try:
            eventually(predicate, timeout=timeout)
        except AssertionError:
            agent = self.agent.log()[-2000:] if self.agent else ""
            raise AssertionError("timed out waiting for %s\nthe Shell holds: %r\nthe agent's log:\n%s\n"
                                 "gnome-shell's log:\n%s" % (what() if callable(what) else what,
                                                              self.shell.notifications(), agent,
                                                              self.shell.log()[-3000:])) from None

    def agent_banners(self):
        return [b for b in self.screen.banners() if b["source"] == SOURCE]

    def pointer(self):
        pointer = Pointer(self.shell)
        self.addCleanup(pointer.close)
        return pointer

    def click_banner(self, pointer, title):
        """A person's click on the banner's title: the pointer goes there,
        the banner expands under it, and the click lands once it is still."""
        banner = self.screen.wait_for_banner(title, settled=False)
        pointer.move_to(*centre(banner["titleBox"]))
        banner = self.screen.wait_for_banner(title)
        self.assertTrue(banner["hover"], banner)
        pointer.click_at(*centre(banner["titleBox"]))
        return banner

    def assert_one_activity(self, timer_id):
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        self.until(lambda: self.timer(timer_id) is None, "the timer to leave the agent's list")
        # Long enough for a second completion to have reached the platform.
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1, self.platform.activities())
        return activity


class NotificationTests(GnomeShellTestCase):
    def test_the_notification_shows_open_and_complete_and_its_body_opens_too(self):
        self.screen.leave_overview()
        timer_id, _ = self.mirrored_timer()
        notification = self.wait_shown()
        # The pointer on the banner expands it, with its buttons.
        pointer = self.pointer()
        banner = self.screen.wait_for_banner(ASLEEP, settled=False)
        pointer.move_to(*centre(banner["titleBox"]))
        banner = self.screen.wait_for_banner(ASLEEP)
        self.assertTrue(banner["expanded"], banner)
        path = self.screen.screenshot("gnome%d-notification.png" % self.shell.major, box=grow(banner["box"], 24))
        print("\n  the banner: %s" % path)
        self.assertEqual(notification["actions"], ["Open", "Complete"], notification)
        self.assertNotIn("Open the app", notification["body"])
        self.assertEqual(self.timer(timer_id)["notification"], "shown")
        # GNOME draws no button for the body's "default" action, so Open
        # comes as a button of its own as well; a click on the body still
        # invokes "default".
        self.assertIn([("default", "Open"), ("open", "Open"), ("complete", "Complete")], self.bus.notify_actions())
        self.assertTrue(self.shell.ask(
            "Main.messageTray.getSources().flatMap(s => s.notifications).find(n => n.title === %r).activate() ?? true"
            % ASLEEP))
        self.until(lambda: self.session.opened_urls(), "the body's click to open the timer's link")
        self.assertEqual(self.session.opened_urls(), [sleep_link(timer_id)])

    def test_complete_pressed_through_the_shell_makes_one_activity_then_sleep_saved(self):
        timer_id, _ = self.mirrored_timer()
        self.wait_shown()
        self.assertTrue(self.shell.invoke(ASLEEP, "Complete"))
        self.assert_one_activity(timer_id)
        saved = self.wait_shown(SAVED_TITLE, "the notification that the sleep was saved")
        self.assertTrue(saved["body"].startswith("Sleep saved · "), saved)
        self.assertEqual(saved["actions"], [])
        self.assertEqual(self.shown(ASLEEP), [])


class HonestTextTests(GnomeShellTestCase):
    """The agent does not update a running notification on GNOME (the Shell
    alerts again on every update), so its text holds no elapsed time."""

    def test_asleep_since_and_no_update_at_the_minute_boundary(self):
        _, reply = self.mirrored_timer(started_ago_s=5 * 60 - 4)
        started_ms = iso_ms(reply["timer"]["startedAt"])
        before = self.wait_shown()
        seen_ms = now_ms()
        self.assertEqual(before["body"], asleep_since(started_ms, seen_ms), before)
        self.assertIsNone(elapsed_minutes(before["body"]), before)
        # Past the first minute boundary after the notification was seen.
        sleep_until_ms(next_minute_ms(started_ms, seen_ms) + 2500)
        self.assertEqual(self.shown(), [before])
        posts = self.bus.notify_actions(sender_pid=self.agent.pid)
        self.assertEqual(len(posts), 1, "the agent posted %d times: the Shell alerts on each" % len(posts))


class QuietChangeTests(GnomeShellTestCase):
    """On GNOME 46 and later a replaced notification pops up again as a
    banner unless its urgency is low (on 48: the urgency it held before the
    replace; see the failure message): a change a parent need not see again
    (a renewal of the timer's token, the "Saving…" of a Complete) must not
    bring one. Every banner the Shell puts up is recorded, so one that comes
    and goes between two looks still counts."""

    def test_a_renewal_and_saving_pop_up_no_second_banner(self):
        timer_id, reply = self.mirrored_timer()
        self.wait_shown()
        self.screen.wait_for_banner(ASLEEP, settled=False)
        # A person moves the mouse: the Shell sees them there, and lets the
        # banner go a moment later.
        pointer = self.pointer()
        pointer.move_to(640, 600)
        self.screen.wait(lambda: self.screen.banner()["state"] == HIDDEN, "the first banner to go")
        first = self.agent_banners()
        self.assertEqual([b["title"] for b in first], [ASLEEP], first)

        # The renewal: a new token for the same timer, mirrored as the bridge does.
        renewed = self.platform.process.api("PUT", "/active-timers/" + timer_id, {
            "familySubjectId": DEMO_FAMILY, "babyId": MAYA, "activityType": "sleep",
            "startedAt": reply["timer"]["startedAt"], "timezone": reply["timer"]["timezone"], "details": {},
            "note": None, "requestNativeActionToken": True}, token=self.platform.parent["accessToken"])
        self.assertIn(renewed.status, (200, 201), renewed.body)
        self.platform.mirror(self.client, timer_id, renewed.json)

        # Saving, then saved.
        self.assertTrue(self.shell.invoke(ASLEEP, "Complete"))
        self.assert_one_activity(timer_id)
        self.wait_shown(SAVED_TITLE, "the notification that the sleep was saved")
        again = self.agent_banners()[len(first):]
        held = self.shell.notifications(SOURCE)
        self.assertEqual(again, [], "GNOME popped up %d more banner(s) for the agent's changes: %r; the tray holds "
                         "%r. (Urgency 0 is low, 1 normal. GNOME 48 pops a replaced notification up again unless "
                         "the urgency it held before the replace is low: its service marks it unread before it "
                         "takes the new urgency. A new notification posted with low urgency pops up nowhere.)"
                         % (len(again), again, held))


class AppWindowTests(GnomeShellTestCase):
    """The app (GTK 4, WebKitGTK) on the Shell's Wayland display, raised by
    a click on the banner's body with the activation token the Shell sent."""

    def configure(self):
        origin = self.platform.origin
        # No url-opener: the agent opens the app through
        # org.freedesktop.Application.Open, with the Shell's token.
        self.session.write_config("[platform]\nallowed-origins=%s\nca-file=%s\n\n[app]\nweb-origin=%s\n" % (
            origin, os.path.join(str(self.platform.certs), "ca.pem"), origin))

    def start_app_on_wayland(self):
        require_tool("WebKitWebDriver", "webkitgtk-webdriver")
        env = self.session.env
        env.pop("DISPLAY", None)
        env.update(WAYLAND_DISPLAY="wayland-0", GDK_BACKEND="wayland", GTK_A11Y="none", NO_AT_BRIDGE="1")
        app = App(self.session)
        self.addCleanup(app.close)
        app.wait_for_page()
        self.screen.wait(lambda: len(self.screen.app_windows()) == 1,
                         lambda: "the app's one window on the Shell's display; windows: %r" % self.screen.windows())
        return app

    def test_a_click_on_the_body_raises_the_app_on_the_sleep_route_with_the_shells_token(self):
        app = self.start_app_on_wayland()
        self.screen.leave_overview()
        # The parent is elsewhere: the app's window is minimized, nothing has the focus.
        self.screen.minimize_app_windows()
        timer_id, _ = self.mirrored_timer()
        self.wait_shown()
        pointer = self.pointer()
        self.click_banner(pointer, ASLEEP)

        route = self.platform.sleep_route(timer_id)
        self.until(lambda: app.url() == route, lambda: "the window to show the timer's route; it shows %s" % app.url())
        self.screen.wait(lambda: (self.screen.focus() or {}).get("app") == "com.dreamsforlittles.DreamsForLittles",
                         lambda: "the Shell to give the app's window the focus; it has %r, windows %r" % (
                             self.screen.focus(), self.screen.windows()))
        focus = self.screen.focus()
        self.assertEqual((focus["wmClass"], focus["minimized"]), ("com.dreamsforlittles.DreamsForLittles", False), focus)
        self.assertEqual(len(self.screen.app_windows()), 1, self.screen.windows())
        # The token the app was given is the one the Shell sent for the click.
        tokens = self.bus.activation_tokens()
        self.assertEqual(len(tokens), 1, tokens)
        [(uris, data)] = self.bus.open_calls()
        self.assertEqual(uris, [sleep_link(timer_id)])
        self.assertEqual(data.get("activation-token"), next(iter(tokens)), data)
        # Not signed in yet: the route shows once the family is, on the
        # route's own page (a click on the page the link replaces is lost).
        app.wait_for_page()
        app.js("document.getElementById('sign-in-parent').click()")
        self.assertEqual(app.shown_sleep_route(), [timer_id, "running", "Maya"])

    def test_a_name_written_as_markup_reads_as_written_in_the_apps_notice(self):
        """The app's notice that it keeps running, sent when its window is
        closed while the Sleep of a baby named
        `<a href="https://phish.example/login">Maya</a>` runs. Outside a
        sandbox GIO hands it to the Shell's org.gtk.Notifications, whose body
        the Shell reads as plain text, so the app sends the name as written
        (test_markup_names has every path) and the banner draws it so: its
        body label's text, which is what Pango draws once the Shell has taken
        out what it read as markup, is the notice as written, where a body
        taken as markup would read "while Maya's sleep".

        What the Shell does with the address in it, as with any address in
        a body: it lists https://phish.example/login among the addresses of
        the drawn text, those a click on their letters opens
        (URLHighlighter), yet draws it plain, not as a link, since it looks
        for addresses to colour in the escaped text, where `&quot;` hides
        where this one starts. Both come with the name's letters, whatever
        the app sends."""
        self.start_app_on_wayland()
        self.screen.leave_overview()
        self.mirrored_timer(baby_name=NAME)
        self.wait_shown(NAME + " is asleep")
        # The agent's banner stays up while nobody moves (the Shell keeps a
        # banner for a person who is away): a person moves the mouse and it
        # goes. That is done before the notice comes: on GNOME Shell 48 a
        # banner queued behind another stayed in the queue, never shown,
        # when that one went while the pointer's remote-desktop session ran.
        self.screen.wait_for_banner(NAME + " is asleep", settled=False)
        pointer = self.pointer()
        pointer.move_to(640, 600)
        self.screen.wait(lambda: self.screen.banner()["state"] == HIDDEN, "the agent's banner to go")
        pointer.close()

        # Closed before the app knows of the Sleep, the app would just quit.
        self.until(lambda: listed_to_the_app(self.session, self.bus), "the app to list the timer")
        self.screen.close_app_windows()
        self.screen.wait(lambda: not self.screen.app_windows(),
                         lambda: "the app's window to close; windows: %r" % self.screen.windows())
        notices = lambda: [b for b in added_bodies(self.bus, "org.gtk.Notifications") if "keeps running" in b]
        self.until(notices, "the app's notice on org.gtk.Notifications")
        self.assertEqual(notices(), [NOTICE])
        # The pointer on the banner expands it, with the whole body.
        banner = self.screen.wait_for_banner(APP_NAME, settled=False)
        self.pointer().move_to(*centre(banner["titleBox"]))
        banner = self.screen.wait_for_banner(APP_NAME)
        self.assertTrue(banner["expanded"], banner)
        path = self.screen.screenshot("gnome%d-markup-name.png" % self.shell.major, box=grow(banner["box"], 24))
        print("\n  the notice: %s" % path)
        self.assertEqual([n["body"] for n in self.shell.notifications() if n["title"] == APP_NAME], [NOTICE])
        self.assertEqual(banner["drawnBody"], NOTICE)
        self.assertEqual(banner["bodyUrls"], ["https://phish.example/login"])

    def test_f5_reloads_on_its_first_press(self):
        keyboard = Keyboard(self.shell)
        self.addCleanup(keyboard.close)
        app = self.start_app_on_wayland()
        self.screen.leave_overview()
        self.screen.wait(lambda: (self.screen.focus() or {}).get("app") == "com.dreamsforlittles.DreamsForLittles",
                         lambda: "the app's window to have the focus; it is %r, windows %r" % (
                             self.screen.focus(), self.screen.windows()))
        loads = lambda: len([r for r in self.platform.requests()
                             if r["method"] == "POST" and r["path"].startswith("/demo/events")])
        self.until(lambda: loads() == 1, "the page to load")
        for count in (2, 3):
            keyboard.press(KEY_F5)
            self.until(lambda: loads() == count, lambda: "F5 to load the page again; loads: %d" % loads())
        self.assertEqual(app.url().rstrip("/"), self.platform.origin.rstrip("/"))


class IndicatorTests(GnomeShellTestCase):
    extensions = True

    def test_the_panel_item_is_in_the_top_bar_and_its_menus_complete_makes_one_activity(self):
        self.assertEqual(appindicator.state(self.shell), [appindicator.ACTIVE, ""],
                         "the AppIndicator extension is not running in the Shell")
        timer_id, _ = self.mirrored_timer()
        self.until(lambda: appindicator.shown(appindicator.item(self.shell, INDICATOR_ID)),
                   lambda: "the agent's item in the top bar; the extension shows %r" % appindicator.items(self.shell))
        item = appindicator.item(self.shell, INDICATOR_ID)
        self.assertEqual(item["title"], "Maya asleep")
        self.assertLess(item["box"][1], 40, "the item is not in the top bar: %r" % item)
        self.screen.leave_overview()

        # The remote-desktop session puts the Shell's own sharing indicator
        # in the top bar, which moves the item: it is found again under the pointer.
        pointer = self.pointer()
        self.open_menu(pointer)
        self.until(lambda: appindicator.item(self.shell, INDICATOR_ID)["menuSettled"],
                   lambda: "the item's menu to open: %r" % appindicator.item(self.shell, INDICATOR_ID))
        labels = [e["label"] for e in appindicator.item(self.shell, INDICATOR_ID)["entries"]]
        self.assertIn("Complete Maya's sleep", labels)
        # The picture without the sharing indicator: the session ends, the menu stays.
        pointer.close()
        self.until(lambda: not self.shell.ask("Main.panel.statusArea.screenSharing.visible")
                   and appindicator.item(self.shell, INDICATOR_ID)["menuSettled"],
                   lambda: "the sharing indicator to go, the menu open: %r" % appindicator.item(self.shell, INDICATOR_ID))
        menu = appindicator.item(self.shell, INDICATOR_ID)
        boxes = [e["box"] for e in menu["entries"]] + [menu["box"]]
        path = self.screen.screenshot("gnome%d-indicator.png" % self.shell.major, box=grow(union(boxes), 24))
        print("\n  the panel item: %s" % path)
        pointer = self.pointer()

        def complete_entry():
            return next(e for e in appindicator.item(self.shell, INDICATOR_ID)["entries"]
                        if e["label"] == "Complete Maya's sleep")

        self.point_at(pointer, complete_entry, "the menu's Complete")
        pointer.click()
        self.assert_one_activity(timer_id)

    def open_menu(self, pointer, clicks=3, wait=10.0):
        """Right-clicks the panel item until its menu begins to open. On a
        busy machine GNOME Shell 50 once took a click on the item, the
        pointer on it, and opened nothing (the top bar was still making
        room for the sharing indicator): a person clicks again, and so does
        this, but never while the menu is opening, which a second click
        would close."""
        def opening():
            return appindicator.item(self.shell, INDICATOR_ID)["menuOpen"]

        for _ in range(clicks):
            self.point_at(pointer, lambda: appindicator.item(self.shell, INDICATOR_ID), "the panel item")
            pointer.click(BUTTON_RIGHT)
            try:
                eventually(opening, timeout=wait)
                return
            except AssertionError:
                continue

    def point_at(self, pointer, find, what):
        """Moves the pointer onto what `find` gives (a dict with box and
        hover) until the Shell says the pointer is on it."""
        def on_it():
            found = find()
            if found["hover"]:
                return True
            pointer.move_to(*centre(found["box"]))
            return False

        self.until(on_it, lambda: "the pointer on %s: %r, the pointer at %r" % (what, find(), pointer.position()))


if __name__ == "__main__":
    unittest.main()
