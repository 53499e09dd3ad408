"""The keyboard-only tests, which test_keyboard.py here and test_keyboard_trixie.py in Tests/Trixie
subclass, each saying whether the page is on the accessibility bus.

The app by the keyboard alone: real key events (XTest), no pointer event
at all (no click helper is called, and the pointer is where it was at the
start), and the focus read where a screen reader reads it, on the
accessibility bus: each control's focus events, and the state of the one
that has the focus.

Tab and Shift+Tab cycle through the page and the header bar: WebKitGTK's
hidden GtkTextView once trapped them past the page's last control. A
view WebDriver drives keeps Tab inside the page (WebKit does not hand the
focus out of it then), so the tests of the cycle run the app without
--automation and read what the page did from the platform's request log;
the others read the page's DOM through WebDriver. On Debian 12 the page
is not on the accessibility bus (README says why): there a Tab inside the
page shows only that the web view keeps the focus."""

import os
import subprocess
import time
import uuid

from app_harness import APP, AppTestCase, app_windows
from dbus_client import Client
from desktop import xdotool
from harness import DEMO_FAMILY, MAYA, PATIENCE, eventually, read_until
from keyboard import (FocusWatch, Keyboard, button_states, focused_accessibles, pointer, settle,
                      start_accessibility_bus)

# The signed-out demo page's controls, in the page's order.
SIGN_IN = ["Sign in as Sam (parent)", "View as Jordan (coach)"]
# The header bar's, as GTK orders them (Back is left out while there is
# nothing to go back to).
HEADER = ["Reload", "Menu"]


def sleep_link(timer_id):
    return "dreamsforlittles://families/%s/babies/%s/track/sleep?timer=%s" % (DEMO_FAMILY, MAYA, timer_id)


class KeyboardTestCase(AppTestCase):
    """The app on the accessibility bus, the keyboard to its window, and
    the pointer left alone."""

    notification_server = False
    # Whether the page's own controls are on the accessibility bus (GTK
    # 4.14 and later: Debian 13).
    page_on_the_bus = False
    # Whether GTK names the items of a menu made from a GMenu: GTK 4.8
    # names them by their label; GTK 4.18 leaves them unnamed on the bus,
    # their label included (a gap of GTK's, which the test records).
    menu_items_named = True

    def setUp(self):
        super().setUp()
        start_accessibility_bus(self.session)
        self.pointer_at_start = pointer(self.session)
        self.addCleanup(self.assert_pointer_never_moved)

    def assert_pointer_never_moved(self):
        self.assertEqual(pointer(self.session), self.pointer_at_start, "the pointer moved")

    def start_plain_app(self, *args):
        """The app as a person starts it, without WebDriver."""
        self.plain_app_log = os.path.join(self.session.root, "plain-app-%s.log" % uuid.uuid4().hex[:6])
        log = open(self.plain_app_log, "w")
        self.addCleanup(log.close)
        process = subprocess.Popen([APP, *args], env=self.session.env, stdout=log, stderr=log)
        self.session.processes.append(process)
        eventually(lambda: len(app_windows(self.session, process.pid)) == 1, what="the window")
        return process

    def loads(self):
        """How often the demo page loaded (it says so to the platform)."""
        return len(self.requests("POST", "/demo/events"))

    # ---- where the focus is

    def stop(self, accessible, pid):
        """What a focused accessible says the keyboard is on: ("page",
        NAME) for the page's control, ("page", None) for the web view or
        the page's document as a whole (and for every place in the page
        where the page is not on the bus), ("window", NAME) for the app's
        own controls."""
        if accessible["pid"] != pid:  # the page's own, from WebKit's web process
            return ("page", None if accessible["role"] == "document web" else accessible["name"])
        if self.is_web_view(accessible):
            return ("page", None)
        return ("window", accessible["name"])

    @staticmethod
    def is_web_view(accessible):
        # GTK 4.8 names it after its type; GTK 4.18 leaves it unnamed.
        return accessible["role"] in ("filler", "panel") and accessible["name"] in ("WebKitWebView", "")

    def assert_named(self, event, pid):
        """A control a screen reader can name: never GTK's or WebKit's type
        name, never an unnamed text box (the web view itself holds the
        page's controls)."""
        self.assertNotEqual(event["role"], "text", "the focus went to a text box: %r" % event)
        if event["pid"] == pid and self.is_web_view(event):
            return
        self.assertTrue(event["name"] and not event["name"].startswith("Gtk"), "an unnamed control: %r" % event)

    def tab_through(self, watch, keyboard, pid, key, expected, previous=("page", None)):
        """Presses `key` once for each stop in `expected`, from `previous`,
        and reads where the focus went (the deepest accessible whose state
        says it is focused); returns the stops seen, up to the first that
        was not the one expected. Every control that took the focus on the
        way is named."""
        seen = []
        for stop in expected:
            keyboard.press(key)
            if stop == previous:
                settle()  # a Tab inside the page where it is not on the bus: nothing to wait for
                found = self.focused(pid)
            else:
                found = self.focused_once(pid, stop)
            seen.append(found)
            for event in watch.pending():
                self.assert_named(event, pid)
            if found != stop:
                break  # the comparison of the stops says where it went instead
            previous = found
        return seen

    def focused(self, pid):
        shown = focused_accessibles(self.session)
        stop = self.stop(shown[-1], pid) if shown else None
        if stop and stop[0] == "page" and not self.page_on_the_bus:
            return ("page", None)
        return stop

    def focused_once(self, pid, expected):
        """Where the focus is once it is at `expected`, or where it stays
        instead, within the patience of a hang."""
        deadline = time.monotonic() + PATIENCE
        while True:
            found = self.focused(pid)
            if found == expected or time.monotonic() > deadline:
                return found
            time.sleep(0.1)

    def page_stops(self, names):
        return [("page", name if self.page_on_the_bus else None) for name in names]


class TabCycle(KeyboardTestCase):
    def started(self):
        process = self.start_plain_app()
        eventually(lambda: self.loads() == 1, what="the page to load")
        # Every case counts the header bar without Back. A start with a
        # page to go back to (seen under load, in parallel runs) fails
        # here, with the app's log, rather than as a tab order.
        back = button_states(self.session, process.pid, "Back")
        if any("sensitive" in states for states in back):
            with open(self.plain_app_log, errors="replace") as handle:
                log = handle.read()[-3000:]
            raise AssertionError("the app started with a page to go back to (Back's states %r); its log:\n%s"
                                 % (back, log))
        keyboard = Keyboard(self.session, app_windows(self.session, process.pid)[0])
        return process, keyboard, FocusWatch(self.session)

    def test_a_start_that_failed_and_recovered_offers_no_back(self):
        # The offline page, then the retry at the same address: WebKit keeps
        # both as pages of the history, and Back would only show the same page.
        self.platform.stop()
        process = self.start_plain_app()
        eventually(lambda: "Loading the web app again" in self.plain_log(), what="the offline page's retry")
        self.platform.start_again()
        eventually(lambda: self.loads() >= 1, timeout=2 * PATIENCE, what="the web app to load after the outage")
        eventually(lambda: button_states(self.session, process.pid, "Back"), what="Back on the accessibility bus")
        back = button_states(self.session, process.pid, "Back")
        self.assertFalse(any("sensitive" in states for states in back),
                         "Back's states %r after the outage; the app's log:\n%s" % (back, self.plain_log()))

    def plain_log(self):
        with open(self.plain_app_log, errors="replace") as handle:
            return handle.read()[-3000:]

    def test_twenty_tabs_visit_only_named_controls_and_come_round_to_the_header_bar_and_the_page(self):
        process, keyboard, watch = self.started()
        cycle = self.page_stops(SIGN_IN) + [("window", name) for name in HEADER]
        expected = (cycle * 5)[:20]
        self.assertEqual(self.tab_through(watch, keyboard, process.pid, "Tab", expected), expected)

    def test_twenty_shift_tabs_go_round_the_other_way(self):
        process, keyboard, watch = self.started()
        cycle = self.page_stops(reversed(SIGN_IN)) + [("window", name) for name in reversed(HEADER)]
        expected = (cycle * 5)[:20]
        self.assertEqual(self.tab_through(watch, keyboard, process.pid, "shift+Tab", expected), expected)

    def test_reload_by_its_button_f5_and_ctrl_r(self):
        process, keyboard, watch = self.started()
        # Tab past the page's two buttons to Reload, which Return presses.
        expected = self.page_stops(SIGN_IN) + [("window", "Reload")]
        self.assertEqual(self.tab_through(watch, keyboard, process.pid, "Tab", expected), expected)
        keyboard.press("Return")
        eventually(lambda: self.loads() == 2, what="Reload to load the page again")
        keyboard.press("F5")
        eventually(lambda: self.loads() == 3, what="F5 to load the page again")
        keyboard.press("ctrl+r")
        eventually(lambda: self.loads() == 4, what="Ctrl+R to load the page again")

    def test_back_by_its_button_and_alt_left(self):
        process, keyboard, watch = self.started()
        can_go_back = lambda: any("sensitive" in states for states in button_states(self.session, process.pid, "Back"))

        def went_back(what):
            """Waits until Back cannot be pressed; a timeout says Back's
            states, the page's loads and the app's log as last seen."""
            def seen(states):
                with open(self.plain_app_log, errors="replace") as handle:
                    log = handle.read()[-3000:]
                return "Back's states %r, the page loaded %d times, the app's log:\n%s" % (states, self.loads(), log)
            read_until(lambda: button_states(self.session, process.pid, "Back"),
                       lambda states: not any("sensitive" in each for each in states), what, describe=seen)
        # A link opens a timer's route: Back goes back to the start.
        self.open_route()
        eventually(can_go_back, what="Back to be pressable")
        # From the page's first control Shift+Tab goes to the header bar's
        # last, and on to Back, its first.
        expected = self.page_stops(SIGN_IN[:1])
        self.assertEqual(self.tab_through(watch, keyboard, process.pid, "Tab", expected), expected)
        expected = [("window", "Menu"), ("window", "Reload"), ("window", "Back")]
        self.assertEqual(self.tab_through(watch, keyboard, process.pid, "shift+Tab", expected, ("page", None)),
                         expected)
        keyboard.press("Return")
        went_back("Back to go back to the start")

        self.open_route()
        eventually(can_go_back, what="Back to be pressable again")
        keyboard.press("alt+Left")
        went_back("Alt+Left to go back to the start")

    def open_route(self):
        import dbus
        bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        try:
            proxy = bus.get_object("com.dreamsforlittles.DreamsForLittles", "/com/dreamsforlittles/DreamsForLittles")
            dbus.Interface(proxy, "org.freedesktop.Application").Open([sleep_link(str(uuid.uuid4()))], {})
        finally:
            bus.close()

    def test_the_menus_quit_by_the_keyboard(self):
        process, keyboard, watch = self.started()
        expected = self.page_stops(SIGN_IN) + [("window", name) for name in HEADER]
        self.assertEqual(self.tab_through(watch, keyboard, process.pid, "Tab", expected), expected)
        keyboard.press("Return")
        # GTK 4.18 gives a menu item no name of its own: its label shows it.
        # The menu opens on Sign out; Down goes to Start at login (a check
        # item), Down again to Quit.
        self.wait_for_menu_item("Sign out")
        keyboard.press("Down")
        keyboard.press("Down")
        self.wait_for_menu_item("Quit")
        keyboard.press("Return")
        self.assertEqual(process.wait(PATIENCE), 0)

    def wait_for_menu_item(self, label):
        item = [("menu item", label if self.menu_items_named else "")]
        focused = []
        try:
            eventually(lambda: focused.append([(a["role"], a["name"] or a["shows"])
                                               for a in focused_accessibles(self.session)])
                       or focused[-1] == item, what="%s to have the focus in the open menu" % label)
        except AssertionError:
            raise AssertionError("the focus in the open menu is on %r, not %r" % (focused[-1:], item)) from None

    def test_ctrl_q_leaves_the_app(self):
        process, keyboard, _ = self.started()
        keyboard.press("ctrl+q")
        self.assertEqual(process.wait(PATIENCE), 0)


class SetupPage(KeyboardTestCase):
    """With a configuration mistake the window names it: a page with
    nothing to press (the file's name is text, not a link), so Tab goes
    round the header bar's controls and nowhere else."""

    configuration_mistake = True

    def test_tabs_go_round_the_header_bar_and_ctrl_q_leaves(self):
        process = self.start_plain_app()
        eventually(lambda: any("sensitive" in s for s in button_states(self.session, process.pid, "Reload")),
                   what="the window on the accessibility bus")
        keyboard = Keyboard(self.session, app_windows(self.session, process.pid)[0])
        watch = FocusWatch(self.session)
        expected = [("window", name) for name in HEADER] * 3
        self.assertEqual(self.tab_through(watch, keyboard, process.pid, "Tab", expected), expected)
        keyboard.press("ctrl+q")
        self.assertEqual(process.wait(PATIENCE), 0)


class InThePage(KeyboardTestCase):
    """The page's own controls by the keyboard, its DOM read through
    WebDriver to know where the focus is (Tab stays in the page then)."""

    notification_server = True

    def tab_to(self, app, keyboard, script, what):
        """Tabs until `script` (given the focused element) holds."""
        for _ in range(12):
            keyboard.press("Tab")
            if app.wait("return document.activeElement !== null", "the page's focus"):
                if app.js("return (%s)(document.activeElement)" % script):
                    return
        raise AssertionError("Tab did not reach %s" % what)

    def test_f5_and_ctrl_r_reload_on_their_first_press_though_the_page_takes_every_key(self):
        # A page may take keys for itself (preventDefault on keydown), and
        # WebKit then reports them handled: the window's Reload comes first.
        app = self.start_app()
        app.wait_for_page()
        keyboard = Keyboard(self.session, app.windows()[0])
        eventually(lambda: self.loads() == 1, what="the page to load")
        for key, loads in (("F5", 2), ("ctrl+r", 3), ("F5", 4)):
            app.wait("return document.readyState === 'complete'", "the page to be loaded")
            app.js("window.addEventListener('keydown', event => event.preventDefault(), true)")
            keyboard.press(key)
            eventually(lambda: self.loads() == loads, what="the first %s to load the page again" % key)

    def test_the_whole_sleep_story(self):
        client = Client(self.session)
        self.addCleanup(client.close)
        app = self.start_app()
        app.wait_for_page()
        keyboard = Keyboard(self.session, app.windows()[0])

        self.tab_to(app, keyboard, "e => e.id === 'sign-in-parent'", "Sign in as Sam")
        keyboard.press("Return")
        app.wait("return !document.getElementById('family').hidden", "the family to show")

        self.tab_to(app, keyboard, "e => e.id === 'start-sleep-Maya'", "Maya's Start Sleep")
        keyboard.press("space")
        [timer_id] = app.wait("return [...document.querySelectorAll('#running li')].map(li => li.dataset.timerId)",
                              "the running timer in the page")
        eventually(lambda: any(t["timer_id"] == timer_id for t in client.list()), what="the agent's mirror")

        # Complete on the desktop's notification, by its keyboard too.
        popups = lambda: xdotool(self.session, "search", "--onlyvisible", "--class", "xfce4-notifyd").stdout.split()
        eventually(lambda: len(popups()) == 1, what="the notification")
        Keyboard(self.session, popups()[0]).press("Tab", "Return")  # Open has the focus; Complete is next
        [activity] = self.platform.wait_for_activities(1)
        self.assertEqual((activity["timerId"], activity["source"]), (timer_id, "native"))
        saved = app.wait("const li = document.querySelector('#saved li[data-activity-id]');"
                         "return li && li.textContent", "the page to show the saved sleep")
        self.assertTrue(saved.startswith("Saved from the desktop: Maya's sleep"), saved)

    def test_editing_keys_still_work_in_a_text_field(self):
        """WebKit reads GTK's editing key bindings (BackSpace, Left, Home)
        through the hidden text box the app took out of the focus chain."""
        app = self.start_app()
        app.wait_for_page()
        app.js("const field = document.createElement('input'); field.id = 'typed'; document.body.prepend(field);"
               "field.focus(); return true")
        Keyboard(self.session, app.windows()[0]).press("a", "b", "c", "BackSpace", "Left", "x", "Home", "y")
        app.wait("return document.getElementById('typed').value === 'yaxb'", "the typing to be edited")

    def test_the_offline_pages_link_tries_again(self):
        self.platform.stop()
        app = self.start_app()
        app.wait("return document.querySelector('h1') && "
                 "document.querySelector('h1').textContent === 'Dreams for Littles cannot be reached'",
                 "the offline page")
        # Late enough that the app's own next attempt is well away.
        eventually(lambda: "Loading the web app again in 8 s." in app.log(), what="the third attempt to fail")
        app.wait("return document.querySelector('h1') && document.getElementById('retry')", "the offline page again")
        keyboard = Keyboard(self.session, app.windows()[0])
        self.tab_to(app, keyboard, "e => e.tagName === 'A'", "the link that tries again")
        self.platform.start_again()
        before = len(app.log().splitlines())
        keyboard.press("Return")
        app.wait_for_page()
        # The app's own attempt would begin with its load, which it logs;
        # the link's navigation begins with the platform's certificate.
        after = app.log().splitlines()[before:]
        self.assertNotIn("Loading https://", after[0], "\n".join(after))
