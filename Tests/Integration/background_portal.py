#!/usr/bin/python3
"""A Background portal (org.freedesktop.portal.Background at
org.freedesktop.portal.Desktop) that does with the autostart entry what
xdg-desktop-portal does: RequestBackground with autostart true writes
$XDG_CONFIG_HOME/autostart/APPID.desktop afresh (an entry the person had
disabled is enabled again), with autostart false removes it; the Response
allows running in the background. Each request's autostart is printed as a
line, "autostart true" or "autostart false". It prints "ready" once it owns
the name."""

import os
import sys

import dbus
import dbus.service
from gi.repository import GLib

from portal_service import PATH, serve

BACKGROUND = "org.freedesktop.portal.Background"
REQUEST = "org.freedesktop.portal.Request"
APP_ID = "com.dreamsforlittles.DreamsForLittles"


class Request(dbus.service.Object):
    @dbus.service.signal(REQUEST, signature="ua{sv}")
    def Response(self, response, results):
        pass


class Portal(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.bus = bus

    @dbus.service.method(BACKGROUND, in_signature="sa{sv}", out_signature="o", sender_keyword="sender")
    def RequestBackground(self, parent_window, options, sender):
        token = str(options.get("handle_token", "t"))
        path = "%s/request/%s/%s" % (PATH, sender[1:].replace(".", "_"), token)
        autostart = bool(options.get("autostart", False))
        entry = os.path.join(os.environ["XDG_CONFIG_HOME"], "autostart", APP_ID + ".desktop")
        if autostart:
            os.makedirs(os.path.dirname(entry), exist_ok=True)
            command = " ".join(str(word) for word in options.get("commandline", []))
            with open(entry, "w") as handle:
                handle.write("[Desktop Entry]\nType=Application\nName=%s\nExec=flatpak run --command=%s %s\n"
                             "X-Flatpak=%s\n" % (APP_ID, command, APP_ID, APP_ID))
        elif os.path.exists(entry):
            os.remove(entry)
        print("autostart %s" % ("true" if autostart else "false"), flush=True)
        request = Request(self.bus, path)

        def answer():
            request.Response(dbus.UInt32(0), {"background": True, "autostart": autostart})
            request.remove_from_connection()
            return False

        GLib.timeout_add(50, answer)
        return dbus.ObjectPath(path)


def main():
    serve(Portal)


if __name__ == "__main__":
    sys.exit(main())
