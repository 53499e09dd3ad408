"""The desktop's style on Debian 13: the Debian 12 style tests (the classes
of Tests/Integration, subclassed) against the installed package, with the
root's xdg-desktop-portal 1.20 and xdg-desktop-portal-gtk 1.15. Here the
portal has version 2 of its Settings (ReadOne) and serves
`org.freedesktop.appearance contrast`, and WebKitGTK tells the page
prefers-contrast from GTK's high-contrast theme, so the app's own pages
take their high-contrast style: black on white, white on black when dark
too."""

import unittest

import test_app_styles


class Debian13:
    webkit_tells_contrast = True


class SetupPageStyleTests(Debian13, test_app_styles.SetupPageStyleTests):
    pass


class OfflinePageStyleTests(Debian13, test_app_styles.OfflinePageStyleTests):
    pass


class PortalTests(test_app_styles.PortalTests):
    """Debian 13's portal (1.20, -gtk 1.15): version 2, with ReadOne, and
    `contrast` served from GNOME's high-contrast."""

    read_one = True
    contrast = True


if __name__ == "__main__":
    unittest.main()
