"""The app as a screen reader meets it on Debian 13 (GTK 4.18, WebKitGTK
2.52), read through AT-SPI under Xvfb: the window's controls by name in
English and German; the demo web app, loaded over TLS and signed in, inside
the window's frame (WebKit plugs the page's tree in through GTK's AT-SPI
socket, GTK 4.14 and later), its heading, its babies' buttons by name and
its live status line; and a sleep saved from the desktop while the window
is shown, announced exactly once (gtk_accessible_announce, which GTK 4.18
sends as AT-SPI's object:announcement on the window's accessible).
Tests/Integration/test_app_accessible.py records what Debian 12 lacks."""

import time

import accessible_cases
from app_harness import AppTestCase
from atspi_session import AccessibilityBus
from harness import eventually, sleepctl

# How long the listener goes on listening after the first announcement: a
# bound for a second one on its way, not a measurement.
QUIET_SECONDS = 3
# AT-SPI's politeness of an announcement (detail1): ATSPI_LIVE_POLITE, GTK's
# GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM.
POLITE = 1


class ControlsTests(accessible_cases.NamedControls):
    """The controls in English and German (accessible_cases.py); GTK 4.18
    names and describes the window's Close button too."""

    more_english_controls = (["button", "Close", "Close the window"],)


class PageTests(AccessibilityBus, AppTestCase):
    """The demo web app over TLS from the reference platform, signed in."""

    notification_server = False

    def setUp(self):
        super().setUp()
        self.start_accessibility_bus()

    def document(self, app):
        """The page's document in the window, once its babies' buttons are there."""
        found = []

        def read():
            found[:] = self.page(app.pid)["documents"]
            return found and ["button", "Start Leo's sleep"] in found[0]["content"]
        eventually(read, what="the page's document web with its babies' buttons in the app's AT-SPI tree")
        return found

    def test_the_page_is_read_inside_the_windows_frame(self):
        app = self.signed_in(self.start_app())
        [document] = self.document(app)
        self.assertEqual(document["frame"], "Dreams for Littles")
        content = document["content"]
        self.assertEqual([name for role, name in content if role == "heading"],
                         ["Dreams for Littles", "Babies", "Running timers", "Saved"])
        self.assertEqual([name for role, name in content if role == "button"],
                         ["Sign out", "Start Maya's sleep", "Start Leo's sleep"])
        self.assertEqual([live for role, live in content if role == "status"], ["polite"])
        # The page's buttons are the page's: the window's controls stay its own.
        self.assertNotIn("Start Maya's sleep", [name for _, name, _ in self.tree(app.pid)])

    def test_a_sleep_saved_from_the_desktop_is_announced_once(self):
        app = self.signed_in(self.start_app())
        listener = self.listen(app.pid)
        timer_id = self.start_sleep(app, "Maya")
        completed = sleepctl(self.session, "complete", timer_id)
        self.assertEqual((completed.returncode, completed.stdout), (0, "queued\n"), completed.stderr)

        [heard] = listener.wait_for(1, "the announcement through AT-SPI")
        self.assertEqual(heard, {"type": "object:announcement", "role": "frame", "name": "Dreams for Littles",
                                 "detail1": POLITE, "detail2": 0, "text": "Maya's sleep saved"})
        app.wait("return document.querySelector('#saved li[data-activity-id]')", "the page to show the saved sleep")
        time.sleep(QUIET_SECONDS)
        self.assertEqual(len(listener.collect()), 1, listener.heard)

    def test_the_announcement_is_in_the_readers_language(self):
        """Only the shown window's: GTK 4.18 itself sends nothing from a
        hidden window (checked with a bare GtkWindow), so that the app says
        nothing while its window is closed is SaveAnnouncementMachine's unit tests'
        to show, not this one's."""
        self.session.env.update(LANG="de_DE.UTF-8", LANGUAGE="de")
        app = self.signed_in(self.start_app())
        listener = self.listen(app.pid)
        maya = self.start_sleep(app, "Maya")
        self.assertEqual(sleepctl(self.session, "complete", maya).returncode, 0)
        [heard] = listener.wait_for(1, "the announcement through AT-SPI")
        self.assertEqual((heard["text"], heard["detail1"]), ("Schlaf von Maya gespeichert", POLITE))

    def start_sleep(self, app, baby):
        """Starts the baby's sleep in the page; its timer's id once the agent mirrors it."""
        before = app.js("return [...document.querySelectorAll('#running li')].map(li => li.dataset.timerId)")
        app.click("#start-sleep-%s" % baby)
        [timer_id] = app.wait("const ids = [...document.querySelectorAll('#running li')].map(li => li.dataset.timerId)"
                              ".filter(id => !arguments[0].includes(id)); return ids.length && ids",
                              "%s's timer in the page" % baby, 30, before)
        eventually(lambda: timer_id in sleepctl(self.session, "list").stdout, what="the agent's mirror of %s's" % baby)
        return timer_id
