"""GNOME Shell 48's overview search, as a parent uses it: the overview
open, "maya" typed on a keyboard (Mutter's RemoteDesktop, as in
mutter_input.py), the agent's running Sleep among the results from the
search provider the package installs
(/usr/share/gnome-shell/search-providers), and Return opening it.

What the overview shows is read from the Shell (org.gnome.Shell.Eval) and
its screenshot; what the agent opened, from the recording url-opener the
platform's configuration gives it."""

import json
import unittest

from harness import PATIENCE
from mutter_input import Keyboard
from test_gnome_wayland import GnomeShellTestCase, sleep_link

APP_ID = "com.dreamsforlittles.DreamsForLittles.desktop"
KEY_RETURN = 0xff0d
# The app's provider among the overview's search results.
PROVIDER = """Main.overview.searchController._searchResults._providers
    .find(p => p.appInfo?.get_id() === %s)""" % json.dumps(APP_ID)
# The overview's results of the app's provider: each shown result's id,
# title and description, or None before the provider has any.
RESULTS = """(() => {
    const provider = %s;
    if (!provider?.display)
        return null;
    return Object.entries(provider.display._resultDisplays)
        .filter(([, actor]) => actor.mapped)
        .map(([id, actor]) => ({id, title: actor.label_actor?.text ?? null,
                                description: actor.metaInfo.description ?? null}));
})()""" % PROVIDER
# The box of the app's provider among the results, for the screenshot.
PROVIDER_BOX = """(() => {
    const display = %s.display;
    const [x, y] = display.get_transformed_position();
    const [width, height] = display.get_transformed_size();
    return [x, y, width, height];
})()""" % PROVIDER


class OverviewSearchTests(GnomeShellTestCase):
    def results(self):
        return self.shell.ask(RESULTS)

    def test_typing_the_babys_name_shows_her_sleep_and_return_opens_it(self):
        self.assertTrue(self.shell.ask("Main.overview.searchController !== undefined"))
        timer_id, _ = self.mirrored_timer()
        self.wait_shown()
        # The banner leaves the top of the screen, as its time running out
        # makes it go (a headless Shell sees no user activity, which the
        # time waits for); the notification stays in the message list.
        self.shell.ask("Main.messageTray._expireNotification(), true")
        self.screen.wait(lambda: self.screen.banner().get("title") is None,
                         lambda: "the banner to go; it is %r" % self.screen.banner())
        keyboard = Keyboard(self.shell)
        self.addCleanup(keyboard.close)
        self.shell.ask("Main.overview.show(), true")
        self.screen.wait(lambda: self.shell.ask("Main.overview.visible && !Main.overview.animationInProgress"),
                         "the overview to open")
        # A parent types her name; the overview takes the keys into its search.
        for letter in "maya":
            keyboard.press(ord(letter))
        self.screen.wait(lambda: self.shell.ask("Main.overview.searchEntry.get_text()") == "maya",
                         lambda: "the search to read 'maya'; it reads %r" % self.shell.ask(
                             "Main.overview.searchEntry.get_text()"))
        self.screen.wait(lambda: self.results(),
                         lambda: "the provider's result in the overview; it has %r" % self.results())
        [result] = self.results()
        self.assertEqual((result["id"], result["title"]), (timer_id, "Maya asleep"), result)
        self.assertRegex(result["description"] or "", r"^1 h 2\d min$", result)
        x, y, width, height = self.shell.ask(PROVIDER_BOX)
        self.screen.screenshot("search-gnome48.png", box=(x - 16, y - 16, width + 32, height + 32))

        opened = len(self.session.opened_urls())
        keyboard.press(KEY_RETURN)
        self.screen.wait(lambda: self.session.opened_urls()[opened:] == [sleep_link(timer_id)],
                         lambda: "the agent to open the Sleep; it opened %r" % self.session.opened_urls()[opened:],
                         timeout=PATIENCE)
        self.screen.wait(lambda: not self.shell.ask("Main.overview.visible"), "the overview to close")
        self.assertEqual(self.platform.activities(), [])


if __name__ == "__main__":
    unittest.main()
