"""The app as a screen reader meets it on this release, read through AT-SPI
(at-spi2-core's bus, libatspi's client) from the window of the running app:
Back, Reload and the window's title, in English and German (the tests
accessible_cases.py holds for both releases). And what it cannot meet
here, recorded
so that a change shows: Debian 12's WebKit (2.50 on GTK 4.8) plugs no page
into the window's tree, and GTK 4.8 has no gtk_accessible_announce, so a
sleep saved from the desktop is shown but not announced, and quietly so.
Tests/Trixie/test_accessible.py reads the same on Debian 13, where both
are there."""

import ctypes
import os
import time

import accessible_cases
from app_harness import AppTestCase
from atspi_session import AccessibilityBus
from harness import REPO, eventually, sleepctl

# What the page would be read as, were it there; the demo web app names each
# baby's Start Sleep button with its baby.
START_MAYA = ["button", "Start Maya's sleep"]
# How long the listener goes on listening after the save was shown: a bound
# for an announcement on its way, not a measurement.
QUIET_SECONDS = 3


class AccessibleControlsTests(accessible_cases.NamedControls):
    """English and German (accessible_cases.py), the build's catalogs; and
    German asked for with LANGUAGE alone under C.UTF-8."""

    catalogs = os.path.join(REPO, "build", "locale")

    def test_german_under_c_utf8_gtks_words_too(self):
        """glibc 2.41 ignores LANGUAGE under C.UTF-8: the app takes the
        messages from an installed German locale, for GTK's words as well."""
        self.session.env.update(LANG="C.UTF-8", LANGUAGE="de", DFL_LOCALEDIR=self.catalogs)
        app = self.start_app()
        controls = self.controls(app, "Zurück")
        self.assertIn(["button", "Neu laden", "Lädt die Seite neu"], controls)
        self.assertIn("Schließen", [name for _, name, _ in controls])


class WhatThisReleaseCannotExposeTests(AccessibilityBus, AppTestCase):
    """The demo web app loaded over TLS and signed in."""

    notification_server = False

    def setUp(self):
        super().setUp()
        self.start_accessibility_bus()

    def test_the_page_is_absent_the_web_view_is_an_empty_filler(self):
        app = self.signed_in(self.start_app())
        app.wait("return document.querySelector('#start-sleep-Maya')", "the babies' buttons in the page")
        self.assertEqual(app.js("return document.querySelector('#start-sleep-Maya').getAttribute('aria-label')"),
                         "Start Maya's sleep")
        self.controls(app, "Back")
        self.assertEqual(self.page(app.pid), {"documents": [], "views": [["filler", "WebKitWebView", 0]]})
        self.assertNotIn(START_MAYA[1], [name for _, name, _ in self.tree(app.pid)])

    def test_gtk_has_no_announcements_so_a_save_is_not_announced_and_nothing_is_logged(self):
        gtk = ctypes.CDLL("libgtk-4.so.1")
        self.assertFalse(hasattr(gtk, "gtk_accessible_announce"), "GTK 4.14 or later: this test is for 4.8")
        self.assertEqual(gtk.gtk_get_minor_version(), 8)
        app = self.signed_in(self.start_app())
        listener = self.listen(app.pid)
        app.click("#start-sleep-Maya")
        [timer_id] = app.wait("return [...document.querySelectorAll('#running li')].map(li => li.dataset.timerId)",
                              "the running timer in the page")
        eventually(lambda: timer_id in sleepctl(self.session, "list").stdout, what="the agent's mirror")
        log_before = app.log()
        completed = sleepctl(self.session, "complete", timer_id)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        app.wait("return document.querySelector('#saved li[data-activity-id]')", "the page to show the saved sleep")
        time.sleep(QUIET_SECONDS)
        self.assertEqual(listener.collect(), [])
        os.kill(app.pid, 0)  # the app runs on, and its page still answers
        self.assertEqual(app.js("return 1"), 1)
        added = app.log()[len(log_before):]
        self.assertNotIn("announce", added.lower())
        self.assertNotIn("critical", added.lower())
        self.assertNotIn("warning", added.lower(), added)
