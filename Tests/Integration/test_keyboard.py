"""The app by the keyboard alone, on Debian 12 (keyboard_cases.py holds
the tests, which Tests/Trixie/test_keyboard_trixie.py runs on Debian 13
too). Debian 12's GTK 4.8 cannot put the page on the accessibility bus
(README says so): inside the page the tests hear only that the web view
keeps the focus."""

import keyboard_cases


class TabCycleTests(keyboard_cases.TabCycle):
    page_on_the_bus = False
    menu_items_named = True


class SetupPageTests(keyboard_cases.SetupPage):
    page_on_the_bus = False


class InThePageTests(keyboard_cases.InThePage):
    page_on_the_bus = False
