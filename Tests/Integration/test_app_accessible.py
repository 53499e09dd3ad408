"""The app's own controls as a screen reader meets them, read through
AT-SPI (at-spi2-core's bus, libatspi's client) from the window of the
running app: Back, Reload and the window's title, in English and German.
Without the names the buttons were "GtkImage"."""

import json
import os
import subprocess
import sys

from app_harness import AppTestCase
from harness import PATIENCE, REPO, eventually

BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
TREE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "atspi_tree.py")


class AccessibleControlsTests(AppTestCase):
    notification_server = False
    web_origin = False

    def setUp(self):
        super().setUp()
        if not os.path.exists(BUS_LAUNCHER):
            raise AssertionError("%s is missing: install the Debian package at-spi2-core" % BUS_LAUNCHER)
        for name in ("GTK_A11Y", "NO_AT_BRIDGE"):
            self.session.env.pop(name, None)
        launcher = subprocess.Popen([BUS_LAUNCHER, "--launch-immediately"], env=self.session.env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.session.processes.append(launcher)

    def tree(self, pid):
        shown = subprocess.run([sys.executable, TREE, str(pid)], env=self.session.env, capture_output=True,
                               text=True, timeout=PATIENCE)
        return json.loads(shown.stdout or "[]")

    def controls(self, app, back):
        """The app's buttons and frames once Back has appeared among them."""
        found = []
        eventually(lambda: found.append(self.tree(app.pid)) or any(c[1] == back for c in found[-1]),
                   what="a button named %r in the app's AT-SPI tree" % back)
        return found[-1]

    def test_the_buttons_are_named_and_described_and_the_title_says_the_page(self):
        app = self.start_app()
        controls = self.controls(app, "Back")
        self.assertIn(["button", "Back", "Goes back to the previous page"], controls)
        self.assertIn(["button", "Reload", "Loads the page again"], controls)
        eventually(lambda: ["frame", "Dreams for Littles is not set up yet · Dreams for Littles", ""]
                   in self.tree(app.pid), what="the window's title to name the page")

    def test_in_german(self):
        self.session.env.update(LANG="de_DE.UTF-8", LANGUAGE="de",
                                DFL_LOCALEDIR=os.path.join(REPO, "build", "locale"))
        app = self.start_app()
        controls = self.controls(app, "Zurück")
        self.assertIn(["button", "Zurück", "Geht zur vorigen Seite zurück"], controls)
        self.assertIn(["button", "Neu laden", "Lädt die Seite neu"], controls)

    def test_german_under_c_utf8_gtks_words_too(self):
        """glibc 2.41 ignores LANGUAGE under C.UTF-8: the app takes the
        messages from an installed German locale, for GTK's words as well."""
        self.session.env.update(LANG="C.UTF-8", LANGUAGE="de", DFL_LOCALEDIR=os.path.join(REPO, "build", "locale"))
        app = self.start_app()
        controls = self.controls(app, "Zurück")
        self.assertIn(["button", "Neu laden", "Lädt die Seite neu"], controls)
        self.assertIn("Schließen", [name for _, name, _ in controls])
