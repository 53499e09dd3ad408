"""The app by the keyboard alone, on Debian 12 (keyboard_cases.py holds
the tests, which Tests/Trixie/test_keyboard.py runs on Debian 13 too). In
the Debian 13 root, where this module is found first by its name, it
expects what that one does."""

import os

import keyboard_cases

# GTK 4.14 and later (Debian 13) put the page on the accessibility bus;
# Debian 12's GTK 4.8 cannot (README says so).
PAGE_ON_THE_BUS = os.environ.get("DFL_RELEASE") == "trixie"


class TabCycleTests(keyboard_cases.TabCycle):
    page_on_the_bus = PAGE_ON_THE_BUS
    menu_items_named = not PAGE_ON_THE_BUS


class SetupPageTests(keyboard_cases.SetupPage):
    page_on_the_bus = PAGE_ON_THE_BUS


class InThePageTests(keyboard_cases.InThePage):
    page_on_the_bus = PAGE_ON_THE_BUS
