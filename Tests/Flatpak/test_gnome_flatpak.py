"""The installed Flatpak on GNOME Shell (48 in the Debian 13 root, 50 in the
Debian testing one), with
xdg-desktop-portal and its GNOME backend, as a parent meets it: the app
started as its launcher does on the Shell's Wayland display, signed in and
a Sleep started in its window from the keyboard (each button found by its
words and the page's focus ring on a screenshot), the window closed; then
the agent's notification, posted through the notification portal with the
app's exported actions, with Open and Complete in words; the agent's line
under Quick Settings' Background Apps, sent once and cleared when the
Sleep ends; Complete pressed through the Shell making one activity with no
window shown, its token in no bus message and no file outside the
sandbox's data; a click on the next banner raising the app's window on the
Sleep route; and the autostart entry the Background portal wrote starting
the agent again at the next login, its timer still completable.

Everything is read from the desktop (the Shell through
org.gnome.Shell.Eval and its screenshots, the portal's
org.freedesktop.background.Monitor, a capture of the session bus) or from
the platform, never from the programs' own account. Nothing is started
inside the sandbox but by `flatpak run` (the launcher, the exported D-Bus
services, the autostart entry's Exec)."""

import os
import re
import signal
import subprocess
import time
import unittest

import dbus

from bus_capture import BusCapture
from dbus_client import Client
from gnome_shell import GnomeShell
from harness import (BUS_NAME, PATIENCE, REPO, Platform, Session, eventually, next_minute_ms, now_ms, sleep_until_ms,
                     stop)
from installed import APP_ID, Installation, exec_words, key_file, manifest_finish_args, permissions_of
from mutter_input import Pointer
from proc_accounting import children_of
from shell_screen import Screen, centre, grow
from test_gnome_wayland import assert_the_roots_shell
import screen_words

WEBAPP = os.path.join(REPO, "webapp", "demo")
PORTAL_SERVICES = {
    "org.freedesktop.portal.Desktop": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.PermissionStore": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.desktop.gnome": "xdg-desktop-portal-gnome",
    # WebKit's web processes are sandboxed through it inside a Flatpak.
    "org.freedesktop.portal.Flatpak": "flatpak",
}
MONITOR = "org.freedesktop.background.Monitor"
MONITOR_PATH = "/org/freedesktop/background/monitor"
ASLEEP = "Maya is asleep"
TIME = r"\d{1,2}:\d{2}(?:\u202f| )?(?:[AP]M)?"

# The app's windows with where they are on the stage.
APP_WINDOWS = """
global.get_window_actors().map(a => a.meta_window).filter(w => w.get_gtk_application_id() === %r).map(w => {
    const r = w.get_frame_rect();
    return {title: w.get_title(), focused: w.has_focus(), minimized: w.minimized, box: [r.x, r.y, r.width, r.height]};
})
""" % APP_ID

# Closes the app's windows as their close button does.
CLOSE_APP_WINDOWS = """
global.get_window_actors().map(a => a.meta_window).filter(w => w.get_gtk_application_id() === %r)
    .forEach(w => w.delete(global.get_current_time())) ?? true
""" % APP_ID

# Quick Settings' Background Apps toggle: whether it shows, its title, and
# each app's entry (its name and the line under it).
BACKGROUND_APPS = """
(() => {
    const toggle = Main.panel.statusArea.quickSettings._backgroundApps.quickSettingsItems[0];
    return {visible: toggle.visible, title: toggle.title, open: toggle.menu.isOpen,
            apps: toggle._appsSection._getMenuItems().map(i => ({name: i.label.text, message: i.message}))};
})()
"""

# Opens Quick Settings and its Background Apps list, as a person's clicks
# on the top bar's corner and on the toggle do; the place of the menu.
OPEN_BACKGROUND_APPS = """
(() => {
    const quick = Main.panel.statusArea.quickSettings;
    const toggle = quick._backgroundApps.quickSettingsItems[0];
    if (!quick.menu.isOpen) quick.menu.open();
    if (!toggle.menu.isOpen) toggle.menu.open();
    const pointer = quick.menu._boxPointer, list = toggle.menu.actor;
    const [x, y] = pointer.get_transformed_position();
    const [width, height] = pointer.get_transformed_size();
    return {open: toggle.menu.isOpen, box: [x, y, width, height],
            settled: toggle.menu.isOpen && width > 0 && !pointer.get_transition('opacity') &&
                     !pointer.get_transition('translation-y') && !list.get_transition('height') &&
                     !list.get_transition('opacity')};
})()
"""

# Every notification in the tray, with its source's title.
NOTIFICATIONS = """
Main.messageTray.getSources().flatMap(s => s.notifications.map(n => ({
    source: s.title, title: n.title, body: n.body, actions: (n.actions || []).map(a => a.label)})))
"""

# Activates the body of the notification titled %s (a click on it).
ACTIVATE = """
(() => {
    const n = Main.messageTray.getSources().flatMap(s => s.notifications).find(n => n.title === %s);
    if (!n) return false;
    n.activate();
    return true;
})()
"""

# Presses the button labelled %(label)s of the notification titled %(title)s.
PRESS = """
(() => {
    const n = Main.messageTray.getSources().flatMap(s => s.notifications).find(n => n.title === %(title)s);
    const a = n && (n.actions || []).find(a => a.label === %(label)s);
    if (!a) return false;
    a.activate();
    return true;
})()
"""


# X keysyms, as Mutter's RemoteDesktop takes them.
TAB, RETURN = 0xff09, 0xff0d
# The page's focus ring (GNOME's accent blue) and the strip around a
# button's first word where it is looked for.
RING_MARGIN = (48, 20)


class Keyboard(Pointer):
    """The remote-desktop session's keyboard beside its pointer."""

    def key(self, keysym):
        self.session.NotifyKeyboardKeysym(dbus.UInt32(keysym), True)
        self.session.NotifyKeyboardKeysym(dbus.UInt32(keysym), False)


def focus_ring_at(png, word, scratch):
    """Whether the focus ring is drawn around the button whose first word
    is `word`: light blue pixels in the strip left of and around it, where
    the button is dark navy and the page beige."""
    x, y = int(word["x"]), int(word["y"])
    left, top = max(0, x - RING_MARGIN[0]), max(0, y - RING_MARGIN[1])
    pixels = subprocess.run(["convert", png, "-crop", "%dx%d+%d+%d" % (RING_MARGIN[0], 2 * RING_MARGIN[1], left, top),
                             "+repage", "-depth", "8", "txt:-"], capture_output=True, text=True, timeout=PATIENCE,
                            check=True).stdout
    blue = 0
    for line in pixels.splitlines()[1:]:
        match = re.search(r"\((\d+),(\d+),(\d+)", line)
        if match:
            r, g, b = (int(v) for v in match.groups())
            if b > 170 and b > r + 80 and g > r + 30:
                blue += 1
    return blue >= 20


class FlatpakOnGnome(unittest.TestCase):
    """A login of GNOME Shell with the portals, the Flatpak installed for
    its user, the reference platform (serving the demo web app) over TLS."""

    def setUp(self):
        screen_words.require_tesseract()
        self.session = Session()
        self.addCleanup(self.session.close)
        self.addCleanup(self.stop_sandboxes)
        self.installation = Installation(self.session)
        self.platform = Platform(self.session, extra_args=("--webapp", WEBAPP))
        self.addCleanup(self.platform.stop)
        self.installation.configure(self.platform)
        self.login()

    def login(self):
        """What a GNOME login starts: the Shell, and the portals on demand."""
        env = self.session.env
        env.update(XDG_CURRENT_DESKTOP="GNOME", XDG_SESSION_DESKTOP="gnome", XDG_SESSION_TYPE="wayland",
                   WAYLAND_DISPLAY="wayland-0", GTK_A11Y="none", NO_AT_BRIDGE="1")
        env.pop("DISPLAY", None)
        self.session.install_services(PORTAL_SERVICES)
        self.bus = BusCapture(self.session)
        self.addCleanup(self.bus.stop)
        self.shell = GnomeShell(self.session)
        self.addCleanup(self.shell.stop)
        assert_the_roots_shell(self, self.shell)
        self.installation.activation_environment(
            "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP", "XDG_SESSION_TYPE", "XDG_DATA_DIRS",
            "DBUS_SYSTEM_BUS_ADDRESS", "GTK_A11Y", "NO_AT_BRIDGE", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
            "XDG_STATE_HOME", "XDG_CACHE_HOME", "FLATPAK_USER_DIR")
        self.screen = Screen(self.shell)
        self.screen.close_system_notices()
        self.screen.record_banners()
        self.client = None
        self.app_logs = getattr(self, "app_logs", [])

    def start_app(self):
        """The app as its launcher starts it (flatpak run APP_ID)."""
        log = os.path.join(self.session.root, "app-launcher-%d.log" % time.monotonic_ns())
        self.app_logs.append(log)
        self.installation.start(None, log=log)

    def stop_sandboxes(self):
        """Every program of this session's sandboxes, which `flatpak run`
        under the bus leaves running when the bus goes."""
        for program in ("dreamsforlittles", "dfl-webview-bridge", "dfl-sleep-agent"):
            for pid in self.installation.sandbox_pids(program):
                try:
                    os.kill(pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        try:
            eventually(lambda: not any(self.installation.sandbox_pids(p)
                                       for p in ("dreamsforlittles", "dfl-webview-bridge", "dfl-sleep-agent")),
                       what="the sandboxed programs to stop")
        except AssertionError:
            for program in ("dreamsforlittles", "dfl-webview-bridge", "dfl-sleep-agent"):
                for pid in self.installation.sandbox_pids(program):
                    os.kill(pid, signal.SIGKILL)

    # What the desktop shows.

    def logs(self):
        """The Shell's and the bus's logs (the activated programs' output,
        the portals' among it): what a failure shows."""
        apps = "".join("%s:\n%s\n" % (os.path.basename(path), tail(path)) for path in self.app_logs)
        return "gnome-shell's log:\n%s\nthe bus's log:\n%s\n%s" % (
            self.shell.log()[-3000:], self.session.bus_output()[-5000:], apps)

    def until(self, predicate, what, timeout=PATIENCE):
        try:
            eventually(predicate, timeout=timeout)
        except AssertionError:
            raise AssertionError("timed out waiting for %s\n%s" % (what() if callable(what) else what,
                                                                   self.logs())) from None

    def notifications(self):
        return self.shell.ask(NOTIFICATIONS)

    def shown(self, title=ASLEEP):
        return [n for n in self.notifications() if n["title"] == title]

    def wait_shown(self, title=ASLEEP):
        self.until(lambda: self.shown(title),
                   lambda: "the notification %r in the Shell's tray; it holds %r" % (title, self.notifications()))
        [notification] = self.shown(title)
        return notification

    def app_windows(self):
        return self.shell.ask(APP_WINDOWS)

    def read_window(self, wanted, what):
        """Reads the app's one window with tesseract until `wanted(words)`
        holds; the words."""
        found = []

        def read():
            windows = self.app_windows()
            if len(windows) != 1:
                return False
            shot = self.screen.screenshot("flatpak-gnome-window.png")
            found[:] = screen_words.words(shot, windows[0]["box"], self.session.root, page=True)
            return wanted(found)

        self.until(read, lambda: "%s in the app's window; it reads %r; windows %r" % (
            what, screen_words.text(found), self.app_windows()), timeout=PATIENCE * 3)
        return found

    def pointer(self):
        pointer = Keyboard(self.shell)
        self.addCleanup(pointer.close)
        return pointer

    def background_apps(self):
        """The portal's list of apps running in the background, as the
        Shell reads it for Background Apps: dicts of app_id and message."""
        proxy = self.shell.bus.get_object(MONITOR, MONITOR_PATH)
        apps = proxy.Get(MONITOR, "BackgroundApps", dbus_interface="org.freedesktop.DBus.Properties")
        return [{str(k): str(v) for k, v in app.items()} for app in apps]

    def background_message(self):
        """The line of the app's instances: the agent's (the app's own
        window-less instance, when it runs, is listed too, without one)."""
        return next((a["message"] for a in self.background_apps()
                     if a.get("app_id") == APP_ID and a.get("message")), None)

    def background_entry(self):
        """The app's entry under Background Apps, once the Shell shows one."""
        def entry():
            shown = self.shell.ask(BACKGROUND_APPS)
            return next((a for a in shown["apps"] if a["name"] == "Dreams for Littles" and a["message"]), None)

        self.until(entry, lambda: "the app's entry with its line under Background Apps: %r"
                   % self.shell.ask(BACKGROUND_APPS))
        return entry()

    def save_background_apps(self):
        """Quick Settings opened on Background Apps, saved among the test's
        artifacts (docs/ holds a copy of one run's)."""
        self.until(lambda: self.shell.ask(OPEN_BACKGROUND_APPS)["settled"],
                   lambda: "Quick Settings' Background Apps to open: %r" % self.shell.ask(OPEN_BACKGROUND_APPS))
        box = self.shell.ask(OPEN_BACKGROUND_APPS)["box"]
        self.screen.screenshot("flatpak-gnome-background-apps.png", box=grow(box, 12))
        self.shell.ask("Main.panel.statusArea.quickSettings.menu.close() ?? true")

    def save_banner(self):
        """The notification's banner, expanded under the pointer, saved among
        the test's artifacts (docs/ holds a copy of one run's)."""
        pointer = self.pointer()
        banner = self.screen.wait_for_banner(ASLEEP, settled=False)
        pointer.move_to(*centre(banner["titleBox"]))
        banner = self.screen.wait_for_banner(ASLEEP)
        self.screen.screenshot("flatpak-gnome-notification.png", box=grow(banner["box"], 24))
        pointer.move_to(640, 600)

    # What the agent was sent and sent.

    def agent_client(self):
        if self.client is None:
            self.client = Client(self.session)
            self.addCleanup(self.client.close)
        return self.client

    def portal_calls(self, member):
        """The calls of `member` on org.freedesktop.portal.* in the capture,
        each as (header, argument lines)."""
        return [(h, a) for h, a in self.bus.messages()
                if h.startswith("method call") and "member=%s" % member in h.split()
                and "interface=org.freedesktop.portal." in h]

    def statuses(self):
        found = []
        for header, args in self.portal_calls("SetStatus"):
            match = re.search(r'string "message"\s+variant\s+string "([^"]*)"', "\n".join(args))
            found.append(match.group(1) if match else "\n".join(args))
        return found


class StoryTests(FlatpakOnGnome):
    def start_maya_in_the_window(self):
        """The launcher's window: the parent signs in (unless the web app
        still knows them) and starts Maya's Sleep from the keyboard, then
        closes the window. (The keyboard: Mutter's virtual pointer moves
        and clicks GTK's own widgets here, but WebKit's page takes no
        click from it.)"""
        self.screen.leave_overview()
        self.start_app()
        keyboard = self.pointer()

        def maya_start(words):
            # The button beside Maya's name, level with it.
            maya = screen_words.find(words, "Maya")
            return maya and next((w for w in words if w["text"] == "Start" and abs(w["y"] - maya["y"]) < 16), None)

        def sign_in(words):
            return screen_words.find_phrase(words, "Sign in as Sam")

        found = self.read_window(lambda w: sign_in(w) or maya_start(w), "Sign in as Sam, or Maya's Start Sleep")
        if not maya_start(found):
            self.press_button(keyboard, sign_in, "Sign in as Sam")
            self.read_window(maya_start, "Maya's Start Sleep")
        before = len(self.agent_timers())
        self.press_button(keyboard, maya_start, "Maya's Start Sleep")
        self.until(lambda: len(self.agent_timers()) > before, lambda: "the agent to mirror the Sleep; the platform "
                   "has %r" % [(r["method"], r["path"]) for r in self.platform.requests()][-8:])
        keyboard.close()
        self.shell.ask(CLOSE_APP_WINDOWS)
        self.until(lambda: self.app_windows() == [], lambda: "the window to close: %r" % self.app_windows())

    def press_button(self, keyboard, find, what):
        """Tab until the page's focus ring is around the button `find`
        finds, then Return, as a person at the keyboard does."""
        def ring_on_button():
            shot = self.screen.screenshot("flatpak-gnome-window.png")
            words[:] = screen_words.words(shot, self.app_windows()[0]["box"], self.session.root, page=True)
            button = find(words)
            return bool(button and focus_ring_at(shot, button, self.session.root))

        words = []
        for _ in range(12):
            keyboard.key(TAB)
            # The page draws the moved ring a moment after the key: a
            # screenshot may still show the last one. The ring counts
            # once two looks a second apart both show it there.
            time.sleep(1)
            if ring_on_button():
                time.sleep(1)
                if ring_on_button():
                    keyboard.key(RETURN)
                    return
        raise AssertionError("Tab never took the focus to %s; the window reads %r\n%s"
                             % (what, screen_words.text(words), self.logs()))

    def middle(self, word):
        return word["x"], word["y"]

    def agent_timers(self):
        try:
            return self.agent_client().list()
        except dbus.exceptions.DBusException:
            return []

    def test_the_whole_story(self):
        self.assertEqual(self.installation.permissions(), permissions_of(manifest_finish_args()))
        self.start_maya_in_the_window()
        [timer] = self.agent_timers()
        timer_id = timer["timer_id"]
        self.assert_web_processes_sandboxed()

        # The notification, in words, through the portal.
        notification = self.wait_shown()
        self.save_banner()
        self.assertEqual(notification["actions"], ["Open", "Complete"], notification)
        # The agent's own calls (the app posts one of its own, "keeps
        # running", through GTK).
        agent = self.agent_client().bus.get_name_owner(BUS_NAME)
        adds = [(h, a) for h, a in self.portal_calls("AddNotification") if "sender=%s" % agent in h.split()]
        self.assertTrue(adds, "no AddNotification from the agent (%s) on the bus: %r"
                        % (agent, self.portal_calls("AddNotification")))
        for header, args in adds:
            text = "\n".join(args)
            for action in ("app.complete-timer", "app.open-timer"):
                # The action and, in the same button's dictionary, the
                # timer's id as its target.
                near = r'"%s".{0,160}?"target".{0,60}?"%s"|"target".{0,60}?"%s".{0,160}?"%s"' % (
                    re.escape(action), timer_id, timer_id, re.escape(action))
                self.assertRegex(text, re.compile(near, re.DOTALL))
            self.assertNotIn("libnotify", text)
        self.assertEqual([c for c in self.bus.notify_calls() if c["sender"] == agent], [],
                         "the agent posted to org.freedesktop.Notifications from the sandbox")

        # Background Apps carries the line.
        self.until(lambda: self.background_message(), lambda: "the agent's line among the background apps: %r"
                   % self.background_apps())
        self.assertRegex(self.background_message(), "^Maya asleep since %s$" % TIME)
        self.assertEqual(len(self.statuses()), 1, self.statuses())
        # Past the timer's next minute boundary the line is the same, and
        # was not sent again.
        sleep_until_ms(next_minute_ms(timer["started_at_ms"], now_ms()) + 2500)
        self.assertEqual(len(self.statuses()), 1, "the line was sent again at a minute: %r" % self.statuses())

        entry = self.background_entry()
        self.assertEqual(entry["message"], self.background_message(), entry)
        self.save_background_apps()

        # Complete, through the Shell.
        self.assertTrue(self.shell.ask(PRESS % {"title": '"%s"' % ASLEEP, "label": '"Complete"'}))
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        self.until(lambda: self.agent_timers() == [], "the timer to leave the agent's list")
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1, self.platform.activities())
        self.assertEqual(self.app_windows(), [])
        self.until(lambda: self.statuses()[-1:] == [""], lambda: "the line to be cleared: %r" % self.statuses())
        self.assertEqual(len(self.statuses()), 2, "the line changed when no timer did: %r" % self.statuses())
        self.until(lambda: self.background_message() is None,
                   lambda: "the portal to drop the line: %r" % self.background_apps())

        # The token went to the platform in the agent's POST, and nowhere else.
        [post] = [r for r in self.platform.requests() if r["method"] == "POST" and r["path"].endswith("/complete")]
        token = post["body"]["actionToken"]
        self.assertNotIn(token, self.bus.text(), "the token crossed the session bus")
        self.assertEqual(self.files_holding(token), [])

        # A second Sleep; a click on its banner raises the app on its route.
        self.start_maya_in_the_window()
        [timer] = self.agent_timers()
        self.wait_shown()
        pointer = self.pointer()
        banner = self.screen.wait_for_banner(ASLEEP, settled=False)
        pointer.move_to(*centre(banner["titleBox"]))
        banner = self.screen.wait_for_banner(ASLEEP)
        pointer.click_at(*centre(banner["titleBox"]))
        self.until(lambda: [w for w in self.app_windows() if w["focused"] and not w["minimized"]],
                   lambda: "the app's window, focused; windows %r, the focus on %r" % (
                       self.app_windows(), self.screen.focus()))
        found = self.read_window(lambda w: screen_words.find_phrase(w, "Sleep · Maya")
                                 or screen_words.find_phrase(w, "Sleep Maya"), "the Sleep route of Maya")
        self.assertEqual(len(self.app_windows()), 1, self.app_windows())
        self.assertEqual(len(self.platform.activities()), 1)
        self.assertEqual([t["timer_id"] for t in self.agent_timers()], [timer["timer_id"]])

    def assert_web_processes_sandboxed(self):
        """WebKit keeps its own sandbox inside the Flatpak: its web
        processes are started through flatpak-spawn --sandbox, each in a
        sandbox of its own, not in the app's (which is what WebKit falls
        back to, saying "flatpak-spawn --sandbox is not usable", where the
        runtime has no flatpak-spawn)."""
        [app] = self.installation.sandbox_pids("dreamsforlittles") or [None]
        self.assertIsNotNone(app, "the app's process is not found")
        web = self.installation.sandbox_pids("WebKitWebProcess")
        self.assertTrue(web, "no WebKitWebProcess of the app is found\n%s" % self.logs())
        mount_namespace = lambda pid: os.readlink("/proc/%d/ns/mnt" % pid)
        shared = [pid for pid in web if mount_namespace(pid) == mount_namespace(app)]
        self.assertEqual(shared, [], "web processes run in the app's own sandbox\n%s" % self.logs())
        for path in self.app_logs:
            self.assertNotIn("is not usable", tail(path), path)

    def files_holding(self, text):
        """The files of the session outside the sandbox's own data that hold
        `text`: the home (but the Flatpak installation, written before any
        token existed) and the runtime folder."""
        wanted = text.encode()
        found = []
        skip = {self.installation.data, self.installation.user_dir}
        for top in (self.session.home, self.session.runtime):
            for folder, subfolders, files in os.walk(top):
                subfolders[:] = [d for d in subfolders if os.path.join(folder, d) not in skip]
                for name in files:
                    path = os.path.join(folder, name)
                    try:
                        if not os.path.isfile(path) or os.path.islink(path):
                            continue
                        with open(path, "rb") as handle:
                            if wanted in handle.read():
                                found.append(path)
                    except OSError:
                        continue
        return found


class AutostartTests(FlatpakOnGnome):
    def autostart_entry(self):
        return os.path.join(self.session.env["XDG_CONFIG_HOME"], "autostart", APP_ID + ".desktop")

    def test_the_portals_autostart_entry_starts_the_agent_at_the_next_login_and_its_timer_completes(self):
        # The app's first start asks the Background portal for the agent's autostart.
        self.start_app()
        self.until(lambda: os.path.exists(self.autostart_entry()),
                   lambda: "the portal to write %s; RequestBackground calls: %r" % (
                       self.autostart_entry(), self.portal_calls("RequestBackground")))
        entry = key_file(self.autostart_entry())["Desktop Entry"]
        words = exec_words(entry["Exec"])
        self.assertEqual(words[:2], ["flatpak", "run"], entry["Exec"])
        self.assertIn(APP_ID, words)
        self.assertIn("--command=dfl-sleep-agent", words)

        # A Sleep mirrored to the agent, as the app's bridge does.
        self.until(lambda: self.installation.sandbox_pids("dfl-sleep-agent"), "the app to start the agent")
        client = self.agent_client()
        timer_id, reply = self.platform.start_sleep()
        self.platform.mirror(client, timer_id, reply)
        self.wait_shown()

        # Everything of the session goes, as at a log out.
        self.log_out()
        self.assertEqual(self.session_processes(), [], "processes of the session outlived it")

        # The next login runs the entry's Exec.
        self.log_in_again()
        logged_before = len(self.session.bus_output())
        agent = subprocess.Popen(words, env=self.session.env, stdout=subprocess.DEVNULL,
                                 stderr=open(os.path.join(self.session.root, "autostarted-agent.log"), "w"))
        self.session.processes.append(agent)
        self.until(lambda: self.agent_timers_now(), lambda: "the autostarted agent to list the timer; its log:\n%s"
                   % self.read(os.path.join(self.session.root, "autostarted-agent.log")))
        self.assertEqual([t["timer_id"] for t in self.agent_timers_now()], [timer_id])
        self.wait_shown()
        self.assertTrue(self.shell.ask(PRESS % {"title": '"%s"' % ASLEEP, "label": '"Complete"'}))
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        # The app ran for it only as the Shell's ActivateAction D-Bus
        # activated it (flatpak run of the exported service), windowless.
        since = self.session.bus_output()[logged_before:]
        self.assertIn("Successfully activated service '%s'" % APP_ID, since, since[-3000:])
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1, self.platform.activities())
        self.assertEqual(self.app_windows(), [])

    def agent_timers_now(self):
        try:
            return self.agent_client().list()
        except dbus.exceptions.DBusException:
            return []

    def read(self, path):
        with open(path, errors="replace") as handle:
            return handle.read()[-3000:]

    def session_processes(self):
        """The processes still running of this login: the sandboxes', and
        the children the bus started (the portals)."""
        left = []
        for program in ("dreamsforlittles", "dfl-webview-bridge", "dfl-sleep-agent"):
            left += self.installation.sandbox_pids(program)
        return left + children_of(self.session.bus.pid)

    def log_out(self):
        if self.client is not None:
            self.client.close()
            self.client = None
        self.stop_sandboxes()
        self.shell.stop()
        self.bus.stop()
        for pid in children_of(self.session.bus.pid):
            os.kill(pid, signal.SIGTERM)
        self.until(lambda: not children_of(self.session.bus.pid),
                   lambda: "the bus's children to stop: %r" % children_of(self.session.bus.pid))
        stop(self.session.bus)

    def log_in_again(self):
        """A new session bus at the same address, the Shell and the portals."""
        config = os.path.join(self.session.root, "bus.conf")
        self.session.bus = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
                                            stdout=subprocess.PIPE, stderr=self.session.bus_log, env=self.session.env,
                                            text=True)
        address = self.session.bus.stdout.readline().strip()
        self.assertEqual(address.split(",")[0], self.session.env["DBUS_SESSION_BUS_ADDRESS"].split(",")[0])
        self.session.env["DBUS_SESSION_BUS_ADDRESS"] = address
        self.login()


def tail(path, size=3000):
    try:
        with open(path, errors="replace") as handle:
            return handle.read()[-size:]
    except OSError as error:
        return "(%s)" % error


if __name__ == "__main__":
    unittest.main()
