"""The keyboard-only tests of Tests/Integration (keyboard_cases.py) on
Debian 13, against the installed package: there GTK 4.18 puts the page on
the accessibility bus, so every control a Tab reaches inside the page is
heard by its name too, the web app's buttons as WebKit names them. GTK
4.18 leaves the items of the window's menu unnamed there (Quit is a
"menu item" with no name, its label included): the tests record it."""

import keyboard_cases


class TabCycleTests(keyboard_cases.TabCycle):
    page_on_the_bus = True
    menu_items_named = False


class SetupPageTests(keyboard_cases.SetupPage):
    page_on_the_bus = True


class InThePageTests(keyboard_cases.InThePage):
    page_on_the_bus = True
