"""The desktop's style reaches the app's window: its colour scheme, its
high contrast and its text scale, set as GNOME sets them (GSettings in
dconf) and served to the app by the real settings portal,
xdg-desktop-portal with its GTK backend, D-Bus activated on the session's
bus from the packages' own service files. What is checked is what a person
sees, the screen read back (the header bar's mean luminance, the page's
background colour, the header bar redrawn), and what the page itself is
told (matchMedia and its text's size, through WebDriver). Each change
applies while the app runs.

The screenshots of the app's own pages (setup and offline) in each style
are written to build/test-artifacts/styles, and into the directory
DFL_SCREENSHOTS names when it is set (docs/screenshots is where the
README's come from)."""

import os
import shutil
import subprocess
import unittest

from app_harness import AppTestCase
from desktop import Display, xdotool
from harness import PATIENCE, REPO, Session, eventually, read_until

# The bus names the portal needs without systemd, each with the package
# whose D-Bus service file starts it.
PORTAL_SERVICES = {
    "org.freedesktop.portal.Desktop": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.PermissionStore": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.desktop.gtk": "xdg-desktop-portal-gtk",
    "ca.desrt.dconf": "dconf-service",
}
ARTIFACTS = os.path.join(REPO, "build", "test-artifacts", "styles")
# The screenshots are named by the release they were taken on.
RELEASE = {"trixie": "debian13", "forky": "debian-testing"}.get(os.environ.get("DFL_RELEASE"), "debian12")
# The header bar's height in the default themes, and a band of the page
# below it that holds its text.
HEADER_BAND = (6, 34)
PAGE_BAND = (120, 400)
DARK = 0.35
LIGHT = 0.65
# A pixel of the page's left margin, and the least spread of grey that text
# on it makes.
MARGIN = 24
TEXT = 0.05
# Pixels of the header bar that a theme's borders or a larger title change
# (about 1,400 of them for the high-contrast theme's buttons).
HEADER_CHANGE = 300
# The pages' backgrounds in each style (AppPages.style).
PAGES = {"light": (255, 255, 255), "dark": (30, 30, 30), "high-contrast": (255, 255, 255),
         "high-contrast-dark": (0, 0, 0)}


class StylePortal:
    """The settings portal on a session's bus, as a GNOME session without
    systemd has it: D-Bus activation from the installed service files, the
    activation environment holding DISPLAY (the GTK backend opens the
    display) and XDG_CURRENT_DESKTOP=GNOME (so that xdg-desktop-portal
    1.18 and later pick the GTK backend by its portal file's UseIn=gnome,
    which 1.16 does for any desktop). Settings are written with gsettings,
    as GNOME's own settings write them."""

    def __init__(self, session):
        self.session = session
        session.install_services(PORTAL_SERVICES)
        session.env["XDG_CURRENT_DESKTOP"] = "GNOME"
        subprocess.run(["dbus-update-activation-environment", "DISPLAY=" + session.env["DISPLAY"],
                        "XDG_CURRENT_DESKTOP=GNOME"], env=session.env, check=True, timeout=PATIENCE)

    def gsettings(self, schema, key, value):
        subprocess.run(["gsettings", "set", schema, key, value], env=self.session.env, check=True, timeout=PATIENCE)

    def color_scheme(self, value):
        self.gsettings("org.gnome.desktop.interface", "color-scheme", value)

    def high_contrast(self, on):
        self.gsettings("org.gnome.desktop.a11y.interface", "high-contrast", "true" if on else "false")

    def text_scale(self, factor):
        self.gsettings("org.gnome.desktop.interface", "text-scaling-factor", str(factor))


def portal_settings(session, method, namespace, key):
    """One Settings call to the portal, as gdbus prints its reply (or its
    error)."""
    shown = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Desktop",
                            "--object-path", "/org/freedesktop/portal/desktop",
                            "--method", "org.freedesktop.portal.Settings." + method, namespace, key],
                           env=session.env, capture_output=True, text=True, timeout=PATIENCE)
    return (shown.stdout + shown.stderr).strip()


def measure(path, box, expression):
    """An ImageMagick fx expression over `box` (x, y, width, height) of a
    screenshot, in grey (0 black, 1 white)."""
    x, y, width, height = box
    shown = subprocess.run(["convert", path, "-crop", "%dx%d+%d+%d" % (width, height, x, y), "+repage",
                            "-colorspace", "Gray", "-format", "%[fx:" + expression + "]", "info:"],
                           capture_output=True, text=True, check=True, timeout=PATIENCE)
    return float(shown.stdout)


def pixel(path, x, y):
    """The (red, green, blue) of one pixel of a screenshot, 0 to 255."""
    channels = " ".join("%%[fx:int(255*p{%d,%d}.%s+0.5)]" % (x, y, channel) for channel in "rgb")
    shown = subprocess.run(["convert", path, "-format", channels, "info:"],
                           capture_output=True, text=True, check=True, timeout=PATIENCE)
    return tuple(int(value) for value in shown.stdout.split())


def changed_pixels(first, second):
    """How many pixels of two images of one size differ by more than a
    tenth, as ImageMagick's compare counts them."""
    shown = subprocess.run(["compare", "-metric", "AE", "-fuzz", "10%", first, second, "null:"],
                           capture_output=True, text=True, timeout=PATIENCE)
    return float(shown.stderr.split()[0])


class StyleTestCase(AppTestCase):
    """The app under Xvfb with the settings portal on its bus."""

    notification_server = False
    # WebKitGTK 2.50 (Debian 12) tells a page prefers-contrast from nothing
    # GTK has, later ones from the high-contrast theme's name; the app's own
    # pages take their high-contrast style either way (the app's user style
    # sheet where WebKit does not tell them).
    webkit_tells_contrast = False

    def setUp(self):
        super().setUp()
        self.portal = StylePortal(self.session)
        os.makedirs(ARTIFACTS, exist_ok=True)

    def window(self, app):
        eventually(lambda: len(app.windows()) == 1, what="the window")
        window = app.windows()[0]
        shell = xdotool(self.session, "getwindowgeometry", "--shell", window).stdout.split()
        values = dict(line.split("=") for line in shell)
        return int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"])

    def screenshot(self, name):
        path = os.path.join(self.session.root, name + ".png")
        subprocess.run(["import", "-window", "root", path], env=self.session.env, check=True, timeout=PATIENCE)
        return path

    def seen(self, app, name="shot"):
        """What the window shows now: the header bar's mean luminance, the
        page's background (a pixel of its margin) and whether the page's
        band holds text (its spread of grey)."""
        x, y, width, _ = self.window(app)
        path = self.screenshot(name)
        header = measure(path, (x, y + HEADER_BAND[0], width, HEADER_BAND[1] - HEADER_BAND[0]), "mean")
        page = pixel(path, x + MARGIN, y + PAGE_BAND[0])
        text = measure(path, (x, y + PAGE_BAND[0], width, PAGE_BAND[1] - PAGE_BAND[0]), "standard_deviation")
        return header, page, text

    def header(self, app, name):
        """The header bar alone, cut out of a screenshot."""
        x, y, width, _ = self.window(app)
        shot = self.screenshot("full-" + name)
        path = os.path.join(self.session.root, "header-%s.png" % name)
        subprocess.run(["convert", shot, "-crop", "%dx%d+%d+%d" % (width, HEADER_BAND[1], x, y), "+repage", path],
                       check=True, timeout=PATIENCE)
        return path

    def shows(self, app, header, page, what):
        """Waits until the header bar is dark or light and the page is drawn
        on its own background colour `page` (the style AppPages gives it)."""
        def matches(seen):
            luminance, background, text = seen
            return ((luminance < DARK) if header == "dark" else (luminance > LIGHT)) and \
                background == PAGES[page] and text > TEXT
        read_until(lambda: self.seen(app), matches, "%s: a %s header bar and the page on %s (header luminance, "
                   "page background, text spread)" % (what, header, page))

    def media(self, app, query):
        return app.ask("return matchMedia(arguments[0]).matches", query)

    def keep_screenshot(self, app, name):
        """The window alone, scaled down and in few colours for docs/, into
        the artifacts (and DFL_SCREENSHOTS when set)."""
        x, y, width, height = self.window(app)
        shot = self.screenshot("full-" + name)
        name = "%s-%s" % (name, RELEASE)
        path = os.path.join(ARTIFACTS, name + ".png")
        subprocess.run(["convert", shot, "-crop", "%dx%d+%d+%d" % (width, height, x, y), "+repage",
                        "-resize", "640x", "-strip", "+dither", "-colors", "32", path], check=True, timeout=PATIENCE)
        target = os.environ.get("DFL_SCREENSHOTS")
        if target:
            os.makedirs(target, exist_ok=True)
            shutil.copy(path, os.path.join(target, name + ".png"))

    def wait_for_heading(self, app, heading):
        app.wait("return document.querySelector('h1') && document.querySelector('h1').textContent === "
                 "arguments[0]", "the page headed %r" % heading, PATIENCE, heading)


class PortalTests(unittest.TestCase):
    """What the release's portal serves the app, asked as the app asks it:
    Debian 12's (1.16, -gtk 1.14) has version 1 of Settings, no ReadOne and
    no `contrast`, but GNOME's high-contrast; the app reads that instead."""

    read_one = False
    contrast = False

    def test_what_the_portal_serves(self):
        session = Session()
        self.addCleanup(session.close)
        Display(session)
        portal = StylePortal(session)
        portal.color_scheme("prefer-dark")
        portal.high_contrast(True)
        read_one = portal_settings(session, "ReadOne", "org.freedesktop.appearance", "color-scheme")
        if self.read_one:
            self.assertEqual(read_one, "(<uint32 1>,)")
        else:
            self.assertIn("org.freedesktop.DBus.Error.UnknownMethod", read_one)
        self.assertEqual(portal_settings(session, "Read", "org.freedesktop.appearance", "color-scheme"),
                         "(<<uint32 1>>,)")
        contrast = portal_settings(session, "Read", "org.freedesktop.appearance", "contrast")
        if self.contrast:
            self.assertEqual(contrast, "(<<uint32 1>>,)")
        else:
            self.assertIn("org.freedesktop.portal.Error.NotFound", contrast)
        self.assertEqual(portal_settings(session, "Read", "org.gnome.desktop.a11y.interface", "high-contrast"),
                         "(<<true>>,)")


class SetupPageStyleTests(StyleTestCase):
    """The app's page that names a configuration mistake."""

    configuration_mistake = True
    heading = "The configuration cannot be used"
    page_name = "setup"

    def open_page(self):
        app = self.start_app()
        self.wait_for_heading(app, self.heading)
        return app

    def test_dark_from_the_desktop_and_back_to_light_while_running(self):
        self.portal.color_scheme("prefer-dark")
        app = self.open_page()
        self.shows(app, "dark", "dark", "prefer-dark")
        self.assertTrue(self.media(app, "(prefers-color-scheme: dark)"))
        self.assertFalse(self.media(app, "(prefers-contrast: more)"))
        self.keep_screenshot(app, "%s-dark" % self.page_name)
        self.portal.color_scheme("default")
        self.shows(app, "light", "light", "back to the default, live")
        self.assertFalse(self.media(app, "(prefers-color-scheme: dark)"))
        self.keep_screenshot(app, "%s-light" % self.page_name)

    def test_high_contrast_light_and_dark(self):
        app = self.open_page()
        self.shows(app, "light", "light", "no preference")
        before = self.header(app, "before")
        self.portal.high_contrast(True)
        eventually(lambda: changed_pixels(before, self.header(app, "high-contrast")) > HEADER_CHANGE,
                   what="the header bar drawn in GTK's high-contrast theme, live")
        self.assertEqual(self.media(app, "(prefers-contrast: more)"), self.webkit_tells_contrast)
        self.shows(app, "light", "high-contrast", "high contrast")
        self.assertFalse(self.media(app, "(prefers-color-scheme: dark)"))
        self.keep_screenshot(app, "%s-high-contrast" % self.page_name)
        self.portal.color_scheme("prefer-dark")
        self.shows(app, "dark", "high-contrast-dark", "high contrast, dark")
        self.assertEqual(self.media(app, "(prefers-contrast: more)"), self.webkit_tells_contrast)
        self.assertTrue(self.media(app, "(prefers-color-scheme: dark)"))
        self.keep_screenshot(app, "%s-high-contrast-dark" % self.page_name)

    def test_the_text_scale_reaches_the_header_bar_and_the_page_text(self):
        app = self.open_page()
        self.shows(app, "light", "light", "no preference")
        height = ("const r = document.createRange(); r.selectNodeContents(document.querySelector('h1')); "
                  "return r.getBoundingClientRect().height")
        before = app.ask(height)
        title = self.header(app, "title-before")
        self.portal.text_scale(1.5)
        eventually(lambda: app.ask(height) > before * 1.35, what="the heading's text 1.5 times as tall")
        # Once, not twice: WebKit itself draws CSS pixels whatever GTK's DPI.
        self.assertLess(app.ask(height), before * 1.65)
        eventually(lambda: changed_pixels(title, self.header(app, "title-after")) > HEADER_CHANGE,
                   what="the header bar's title drawn larger")


class OfflinePageStyleTests(SetupPageStyleTests):
    configuration_mistake = False
    heading = "Dreams for Littles cannot be reached"
    page_name = "offline"

    def open_page(self):
        self.platform.stop()
        return super().open_page()


if __name__ == "__main__":
    unittest.main()
