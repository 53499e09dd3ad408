"""What GNOME Shell 48 has on its screen, read through org.gnome.Shell.Eval
(gnome_shell.GnomeShell.ask): the banner a notification pops up as (with
the text its body draws), the windows and which one has the focus (the
app's closed as a person closes them), the overview, and screenshots
through org.gnome.Shell.Screenshot (which --unsafe-mode opens to any
caller).

The banner is MessageTray's own (`Main.messageTray._banner`, a
NotificationMessage, in `_bannerBin`); every banner the tray puts up is
recorded as it is added to that bin, so a banner that comes and goes between
two looks is still seen."""

import json
import os

import dbus

from harness import ARTIFACTS, PATIENCE, eventually

SCREENSHOT = "org.gnome.Shell.Screenshot"
SCREENSHOT_PATH = "/org/gnome/Shell/Screenshot"
APP_ID = "com.dreamsforlittles.DreamsForLittles"

# MessageTray's states of its banner (messageTray.js, State).
HIDDEN, SHOWING, SHOWN, HIDING = 0, 1, 2, 3

# Starts a record of every banner the tray puts up: its notification's
# title, body and urgency, at the moment it is added.
RECORD_BANNERS = """
(() => {
    if (!global._dflBanners) {
        global._dflBanners = [];
        Main.messageTray._bannerBin.connect('child-added', (bin, banner) => {
            const n = banner.notification;
            global._dflBanners.push(n ? {title: n.title, body: n.body, urgency: n.urgency,
                                         source: n.source ? n.source.title : null} : {title: null});
        });
    }
    return global._dflBanners.length;
})()
"""

# The banner's state, whether it is expanded and done moving, the place of
# its title on the stage (x, y, width, height), the text its body label
# draws (Pango's text, with what the Shell took as markup taken out), and
# the addresses the Shell found in that text, each of which a click on it
# opens (messageList.js, URLHighlighter).
BANNER = """
(() => {
    const tray = Main.messageTray, b = tray._banner;
    if (!b) return {state: tray._notificationState};
    const [x, y] = b.titleLabel.get_transformed_position();
    const [width, height] = b.titleLabel.get_transformed_size();
    const [bx, by] = b.get_transformed_position();
    const [bw, bh] = b.get_transformed_size();
    return {state: tray._notificationState, title: b.notification ? b.notification.title : null,
            expanded: b.expanded, hover: tray._bannerBin.hover,
            settled: tray._notificationState === 2 && !tray._bannerBin.get_transition('y') &&
                     !b._actionBin.get_transition('scale-y') && tray._notificationFocusGrabber._focused === b.expanded,
            titleBox: [x, y, width, height], box: [bx, by, bw, bh],
            drawnBody: b._bodyLabel ? b._bodyLabel.clutter_text.text : null,
            bodyUrls: b._bodyLabel ? b._bodyLabel._urls.map(u => u.url) : null};
})()
"""

# The Shell's own notices at start-up ("Logged in as a privileged user":
# the tests run as root; "Screen Lock disabled": there is no display
# manager) are closed as they come, as a person would close them, so they
# take no banner the tests wait for. Closed on the next turn of the Shell's
# loop: a notification closed while it is being added breaks the tray.
CLOSE_SYSTEM_NOTICES = """
(() => {
    const close = n => GLib.idle_add(GLib.PRIORITY_DEFAULT, () => { n.destroy(); return GLib.SOURCE_REMOVE; });
    const watch = source => {
        if (source.title !== 'System') return;
        source.connect('notification-added', (s, n) => close(n));
        source.notifications.forEach(close);
    };
    Main.messageTray.getSources().forEach(watch);
    Main.messageTray.connect('source-added', (tray, source) => watch(source));
    return true;
})()
"""

WINDOWS = """
global.get_window_actors().map(a => a.meta_window).map(w => ({
    app: w.get_gtk_application_id(), wmClass: w.get_wm_class(), title: w.get_title(), minimized: w.minimized,
    focused: w.has_focus(), pid: w.get_pid()}))
"""

FOCUS = """
(() => {
    const w = global.display.focus_window;
    return w ? {app: w.get_gtk_application_id(), wmClass: w.get_wm_class(), title: w.get_title(),
                minimized: w.minimized} : null;
})()
"""


def artifacts_dir():
    """Where the tests leave their screenshots: $DFL_ARTIFACTS, else
    build/test-artifacts in the checkout."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    return ARTIFACTS


class Screen:
    def __init__(self, shell):
        self.shell = shell

    def close_system_notices(self):
        """From the end of the Shell's start-up on (see CLOSE_SYSTEM_NOTICES)."""
        self.wait(lambda: not self.shell.ask("Main.layoutManager._startingUp"), "the Shell's start-up animation")
        self.shell.ask(CLOSE_SYSTEM_NOTICES)

    def record_banners(self):
        self.shell.ask(RECORD_BANNERS)

    def banners(self):
        """Every banner put up since record_banners(), oldest first."""
        return self.shell.ask("global._dflBanners || []")

    def banner(self):
        return self.shell.ask(BANNER)

    def wait_for_banner(self, title, settled=True):
        """The banner of the notification titled `title`, once it is on
        screen and done moving (expanding, when the pointer is on it)."""
        def up():
            banner = self.banner()
            return banner.get("title") == title and (banner["settled"] or not settled) and None not in banner["titleBox"]

        self.wait(up, lambda: "the banner of %r on screen; the banner is %r" % (title, self.banner()))
        return self.banner()

    def windows(self):
        return self.shell.ask(WINDOWS)

    def app_windows(self):
        return [w for w in self.windows() if w["app"] == APP_ID]

    def focus(self):
        """The window the Shell gives the keyboard to, or None."""
        return self.shell.ask(FOCUS)

    def leave_overview(self):
        """The Shell starts in its overview (GNOME 40 and later); a person
        leaves it to see the windows."""
        self.wait(lambda: not self.shell.ask("Main.layoutManager._startingUp"), "the Shell's start-up animation")
        self.shell.ask("Main.overview.hide()")
        self.wait(lambda: not self.shell.ask("Main.overview.visible || Main.overview.animationInProgress"),
                  "the overview to close")

    def minimize_app_windows(self):
        self.shell.ask("global.get_window_actors().map(a => a.meta_window)"
                       ".filter(w => w.get_gtk_application_id() === %s).forEach(w => w.minimize())" % json.dumps(APP_ID))
        self.wait(lambda: all(w["minimized"] for w in self.app_windows()) and self.focus() is None,
                  lambda: "the app's window to be minimized, the focus on nothing; windows: %r" % self.windows())

    def close_app_windows(self):
        """The app's windows closed as their close button does: Mutter asks
        the app to close them."""
        self.shell.ask("global.get_window_actors().map(a => a.meta_window)"
                       ".filter(w => w.get_gtk_application_id() === %s)"
                       ".forEach(w => w.delete(global.get_current_time())) ?? true" % json.dumps(APP_ID))

    def screenshot(self, name, box=None):
        """Saves the screen (or the stage's `box`, x y width height) as
        `name` among the artifacts; its path."""
        path = os.path.join(artifacts_dir(), name)
        shooter = dbus.Interface(self.shell.bus.get_object(SCREENSHOT, SCREENSHOT_PATH), SCREENSHOT)
        if box is None:
            ok, used = shooter.Screenshot(False, False, path, timeout=PATIENCE)
        else:
            x, y, width, height = (int(round(v)) for v in box)
            ok, used = shooter.ScreenshotArea(x, y, width, height, False, path, timeout=PATIENCE)
        if not ok:
            raise AssertionError("the Shell took no screenshot for %s" % path)
        return str(used)

    def wait(self, predicate, what, timeout=PATIENCE):
        """eventually(), with the Shell's log when it fails; `what` may be
        a function, asked only then, to say what the Shell shows."""
        try:
            eventually(predicate, timeout=timeout)
        except AssertionError:
            raise AssertionError("timed out waiting for %s; gnome-shell's log:\n%s" % (
                what() if callable(what) else what, self.shell.log()[-3000:])) from None


def centre(box):
    x, y, width, height = box
    return x + width / 2, y + height / 2


def union(boxes):
    """The smallest box holding all of `boxes`."""
    left = min(b[0] for b in boxes)
    top = min(b[1] for b in boxes)
    right = max(b[0] + b[2] for b in boxes)
    bottom = max(b[1] + b[3] for b in boxes)
    return [left, top, right - left, bottom - top]


def grow(box, margin, width=1280, height=800):
    """The box with a margin, kept on the Shell's 1280x800 screen."""
    x, y, w, h = box
    left, top = max(0, x - margin), max(0, y - margin)
    right, bottom = min(width, x + w + margin), min(height, y + h + margin)
    return [left, top, right - left, bottom - top]
