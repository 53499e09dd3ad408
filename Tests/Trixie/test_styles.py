"""The desktop's style on Debian 13 and on Debian testing: the Debian 12
style tests (the classes of Tests/Integration, subclassed) against the
installed package, with the root's xdg-desktop-portal (1.20 and 1.22) and
xdg-desktop-portal-gtk. Here the portal has version 2 of its Settings
(ReadOne) and serves `org.freedesktop.appearance contrast`, and the app's
own pages take their high-contrast style: black on white, white on black
when dark too. WebKitGTK tells a page prefers-contrast from GTK's
high-contrast theme from 2.54 on (Debian 13 has 2.54 by its updates);
testing still has 2.52, which tells it not, so there only the app's own
pages and the header bar change (README.md, "Styles"). On testing's GTK
4.24 the dark header bar must turn light again when the desktop goes back
to its default."""

import subprocess
import unittest

import test_app_styles


def webkit_version():
    shown = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libwebkitgtk-6.0-4"],
                           capture_output=True, text=True, check=True).stdout
    return tuple(int(part) for part in shown.split("-")[0].split(".")[:2])


class Debian13:
    webkit_tells_contrast = webkit_version() >= (2, 54)


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
