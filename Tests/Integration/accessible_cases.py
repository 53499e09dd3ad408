"""The accessibility tests both releases share, which
test_app_accessible.py here (Debian 12) and Tests/Trixie/test_accessible.py
(Debian 13) subclass, each saying what its release's GTK adds: the app's
window as a screen reader meets it, read through AT-SPI (at-spi2-core's
bus, libatspi's client), its controls by name and description in English
and German, and its title naming the page (without the names the buttons
were "GtkImage")."""

from app_harness import AppTestCase
from atspi_session import AccessibilityBus
from harness import eventually

TITLE = "The configuration cannot be used · Dreams for Littles"
GERMAN_TITLE = "Die Konfiguration lässt sich nicht verwenden · Dreams for Littles"


class NamedControls(AccessibilityBus, AppTestCase):
    """The window's controls on the app's own page (a configuration
    mistake): no platform's web app, no notification server."""

    notification_server = False
    configuration_mistake = True
    # More controls the release's GTK names and describes, in English.
    more_english_controls = ()
    # Where the app finds its catalogs: the build's (DFL_LOCALEDIR), or None
    # for the installed package's.
    catalogs = None
    # Whether the German window's title is checked too.
    german_title = True

    def setUp(self):
        super().setUp()
        self.start_accessibility_bus()

    def test_the_controls_are_named_in_english(self):
        app = self.start_app()
        controls = self.controls(app, "Back")
        self.assertIn(["button", "Back", "Goes back to the previous page"], controls)
        self.assertIn(["button", "Reload", "Loads the page again"], controls)
        for control in self.more_english_controls:
            self.assertIn(control, controls)
        eventually(lambda: ["frame", TITLE, ""] in self.tree(app.pid), what="the window's title to name the page")

    def test_the_controls_are_named_in_german(self):
        """A German desktop, its LANG a German locale."""
        self.session.env.update(LANG="de_DE.UTF-8", LANGUAGE="de")
        if self.catalogs:
            self.session.env["DFL_LOCALEDIR"] = self.catalogs
        app = self.start_app()
        controls = self.controls(app, "Zurück")
        self.assertIn(["button", "Zurück", "Geht zur vorigen Seite zurück"], controls)
        self.assertIn(["button", "Neu laden", "Lädt die Seite neu"], controls)
        self.assertIn("Schließen", [name for _, name, _ in controls])
        if self.german_title:
            eventually(lambda: ["frame", GERMAN_TITLE, ""] in self.tree(app.pid),
                       what="the window's title in German")
