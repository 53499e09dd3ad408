#!/usr/bin/python3
"""A GlobalShortcuts portal (org.freedesktop.portal.GlobalShortcuts at
org.freedesktop.portal.Desktop, version 1, with the host registry of
xdg-desktop-portal 1.21) that answers CreateSession and BindShortcuts
through their Request's Response as xdg-desktop-portal does, the Response
sent after the call's reply, and, asked through its control interface,
sends Activated for a shortcut of a session it made. Run with `hold`, it
takes CreateSession and never answers it, as a portal whose dialog is
still open. It prints "ready" once it owns the name.

Plasma 6.3's portal and kglobalacceld, the real ones, are tested in
Tests/Trixie/test_plasma6_shortcuts.py; this one lets the Debian 12 tests
reach the agent's side of every step."""

import sys

import dbus
import dbus.lowlevel
import dbus.service
from gi.repository import GLib

from portal_service import PATH, serve

SHORTCUTS = "org.freedesktop.portal.GlobalShortcuts"
REGISTRY = "org.freedesktop.host.portal.Registry"
PROPERTIES = "org.freedesktop.DBus.Properties"
REQUEST = "org.freedesktop.portal.Request"
CONTROL = "com.dreamsforlittles.Test.ShortcutsPortal"
TRIGGERS = {"complete-running-sleep": "Ctrl+Alt+Shift+S", "open-running-sleep": "Ctrl+Alt+Shift+O"}


class Portal(dbus.service.Object):
    def __init__(self, bus, hold=False):
        super().__init__(bus, PATH)
        self.bus = bus
        self.hold = hold
        self.sessions = []
        self.registered = []

    def request_path(self, sender, options):
        return "%s/request/%s/%s" % (PATH, sender[1:].replace(".", "_"), options["handle_token"])

    def respond(self, path, results):
        """The Response at `path`, sent from the loop: after the reply to
        the call that made the Request."""
        def send():
            message = dbus.lowlevel.SignalMessage(path, REQUEST, "Response")
            message.append(dbus.UInt32(0), dbus.Dictionary(results, signature="sv"), signature="ua{sv}")
            self.bus.send_message(message)
            return False

        GLib.idle_add(send)

    @dbus.service.method(REGISTRY, in_signature="sa{sv}", out_signature="")
    def Register(self, app_id, options):
        self.registered.append(str(app_id))

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if (str(interface), str(name)) != (SHORTCUTS, "version"):
            raise dbus.exceptions.DBusException("No such property", name="org.freedesktop.DBus.Error.UnknownProperty")
        return dbus.UInt32(1)

    @dbus.service.method(SHORTCUTS, in_signature="a{sv}", out_signature="o", sender_keyword="sender")
    def CreateSession(self, options, sender=None):
        path = self.request_path(sender, options)
        if not self.hold:
            session = "%s/session/%s/%s" % (PATH, sender[1:].replace(".", "_"), options["session_handle_token"])
            self.sessions.append(session)
            self.respond(path, {"session_handle": dbus.String(session)})
        return dbus.ObjectPath(path)

    @dbus.service.method(SHORTCUTS, in_signature="oa(sa{sv})sa{sv}", out_signature="o", sender_keyword="sender")
    def BindShortcuts(self, session, shortcuts, parent_window, options, sender=None):
        path = self.request_path(sender, options)
        bound = [dbus.Struct((name, dbus.Dictionary({"trigger_description": dbus.String(TRIGGERS.get(str(name), ""))},
                                                   signature="sv")), signature="sa{sv}")
                 for name, _ in shortcuts]
        self.respond(path, {"shortcuts": dbus.Array(bound, signature="(sa{sv})")})
        return dbus.ObjectPath(path)

    @dbus.service.signal(SHORTCUTS, signature="osta{sv}")
    def Activated(self, session_handle, shortcut_id, timestamp, options):
        pass

    @dbus.service.method(CONTROL, in_signature="s", out_signature="")
    def Press(self, shortcut_id):
        """Activated for `shortcut_id` in the session last made."""
        self.Activated(dbus.ObjectPath(self.sessions[-1]), shortcut_id, dbus.UInt64(0),
                       dbus.Dictionary({}, signature="sv"))

    @dbus.service.method(CONTROL, in_signature="", out_signature="ao")
    def Sessions(self):
        return self.sessions

    @dbus.service.method(CONTROL, in_signature="", out_signature="as")
    def Registered(self):
        return self.registered


def main():
    hold = sys.argv[1:] == ["hold"]
    serve(lambda bus: Portal(bus, hold=hold))


if __name__ == "__main__":
    sys.exit(main())
