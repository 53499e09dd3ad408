"""Runs a test's stand-in portal: an object on the session bus at
org.freedesktop.portal.Desktop, served by GLib's main loop until the
process is ended. It prints "ready" once it owns the name, which the test
reads before it goes on."""

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"


def serve(make_portal):
    """Makes the portal object with `make_portal(bus)`, takes the name and
    runs the loop."""
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    portal = make_portal(bus)
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    print("ready", flush=True)
    loop = GLib.MainLoop()
    try:
        loop.run()
    finally:
        del name, portal
