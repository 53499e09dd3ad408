"""KRunner on Plasma 6.3, as a parent uses it: KRunner's window asked for
"maya" (its own D-Bus query, as Alt+Space and typing do), the running Sleep
read on the screen from the runner the package installs
(/usr/share/krunner/dbusplugins), and Shift+Return, KRunner's key for a
result's first action, completing it once.

Plasma runs on X11 under Xvfb as test_plasma6's X11 tests have it: what
KRunner shows is read with tesseract, the key pressed through X
(xdotool), as a keyboard's is."""

import os
import time
import unittest

from app_harness import require_tool
from desktop import xdotool
from harness import PATIENCE, eventually
import screen_words
import test_plasma6
from test_plasma6 import PlasmaTestCase

KRUNNER = "org.kde.krunner"
# The height of KRunner's window with its search field alone (Breeze, the
# root's default font): the results are below it.
SEARCH_FIELD = 38
PLUGIN = "/usr/share/krunner/dbusplugins/com.dreamsforlittles.DreamsForLittles.krunner.desktop"


class KRunnerTests(PlasmaTestCase):
    x11 = True
    # The screen, read as test_plasma6's X11 tests read it.
    screenshot = test_plasma6.X11Tests.screenshot
    words_once = test_plasma6.X11Tests.words_once
    save_crop = test_plasma6.X11Tests.save_crop

    @classmethod
    def setUpClass(cls):
        screen_words.require_tesseract()
        require_tool("xdotool", "xdotool")
        if not os.path.exists(PLUGIN):
            raise AssertionError("%s is missing: the package under test must install it" % PLUGIN)
        super().setUpClass()

    def krunner_window(self):
        return next((w for w in self.plasma.windows() if w["resourceClass"] == "krunner" and w["width"] > 0), None)

    def krunner_box(self):
        window = self.krunner_window()
        if window is None:
            raise AssertionError("KRunner's window went (KWin's windows: %r)" % self.plasma.windows())
        return window["x"], window["y"], window["width"], window["height"]

    def results_box(self):
        """KRunner's results, below its search field: tesseract reads no
        word of the whole window, the field's text and icons beside the
        selected row's highlight."""
        x, y, width, height = self.krunner_box()
        return x, y + SEARCH_FIELD, width, max(height - SEARCH_FIELD, 1)

    def test_maya_shows_her_sleep_and_shift_return_completes_it_once(self):
        timer_id, _ = self.new_sleep()
        self.wait_for_popup()
        krunner = self.plasma.start("krunner", ["krunner", "--daemon"])
        self.addCleanup(self.stop_process, krunner, lambda: None)
        self.plasma.wait_until(lambda: self.plasma.bus.name_has_owner(KRUNNER), "KRunner on the bus")
        # What Alt+Space and typing "maya" do.
        self.plasma.bus.call_blocking(KRUNNER, "/App", "org.kde.krunner.App", "query", "s", ("maya",),
                                      timeout=PATIENCE)
        try:
            eventually(self.krunner_window, what="KRunner's window")
        except AssertionError:
            raise AssertionError(self.failure("KRunner showed no window")) from None
        eventually(lambda: self.krunner_box()[3] > SEARCH_FIELD, what="KRunner's results under its field")
        found = self.words_once(self.results_box, lambda words: screen_words.find_phrase(words, "Maya asleep"),
                                "KRunner's results")
        x, y, width, height = self.krunner_box()
        margin = 12
        self.save_crop("krunner-plasma6.png", width + 2 * margin, height + 2 * margin, x - margin, y - margin)
        self.assertTrue(screen_words.find(found, "min"), "KRunner reads %r" % screen_words.text(found))

        # Shift+Return runs the selected result's first action: Complete.
        result = xdotool(self.session, "key", "--clearmodifiers", "shift+Return")
        self.assertEqual(result.returncode, 0, result.stderr)
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        eventually(lambda: timer_id not in {t["timer_id"] for t in self.client.list()},
                   what="the agent to finish the completion")
        time.sleep(1)
        self.assertEqual(len(self.platform.activities()), 1)


if __name__ == "__main__":
    unittest.main()
