#!/usr/bin/python3
"""A settings portal (org.freedesktop.portal.Settings at
org.freedesktop.portal.Desktop) that serves the colour scheme and the
contrast and, asked through its control interface, sends a burst of
SettingChanged signals (the contrast flipped COUNT times, ending high), or
paces them (one flip every INTERVAL ms, COUNT in all, ending high; Sent says
how many are out). It prints "ready" once it owns the name."""

import sys

import dbus
import dbus.service
from gi.repository import GLib

from portal_service import PATH, serve

SETTINGS = "org.freedesktop.portal.Settings"
CONTROL = "com.dreamsforlittles.Test.FloodingPortal"
APPEARANCE = "org.freedesktop.appearance"


class Portal(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.values = {(APPEARANCE, "color-scheme"): dbus.UInt32(0), (APPEARANCE, "contrast"): dbus.UInt32(0)}

    def value(self, namespace, key):
        try:
            return self.values[(str(namespace), str(key))]
        except KeyError:
            raise dbus.exceptions.DBusException("No such setting", name="org.freedesktop.portal.Error.NotFound")

    @dbus.service.method(SETTINGS, in_signature="ss", out_signature="v")
    def ReadOne(self, namespace, key):
        return self.value(namespace, key)

    @dbus.service.method(SETTINGS, in_signature="ss", out_signature="v")
    def Read(self, namespace, key):
        return dbus.types.Variant(self.value(namespace, key), variant_level=1)

    @dbus.service.signal(SETTINGS, signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass

    @dbus.service.method(CONTROL, in_signature="u", out_signature="u")
    def Flood(self, count):
        """`count` contrast flips, the last one to high contrast."""
        for number in range(count):
            value = dbus.UInt32(1 if (count - 1 - number) % 2 == 0 else 0)
            self.values[(APPEARANCE, "contrast")] = value
            self.SettingChanged(APPEARANCE, "contrast", value)
        return count

    @dbus.service.method(CONTROL, in_signature="uu", out_signature="")
    def Pace(self, count, interval):
        """`count` contrast flips, one every `interval` ms, the last one to
        high contrast; returns at once."""
        self.sent = 0

        def flip():
            self.sent += 1
            value = dbus.UInt32(1 if (count - self.sent) % 2 == 0 else 0)
            self.values[(APPEARANCE, "contrast")] = value
            self.SettingChanged(APPEARANCE, "contrast", value)
            return self.sent < count

        GLib.timeout_add(interval, flip)

    @dbus.service.method(CONTROL, in_signature="", out_signature="u")
    def Sent(self):
        return getattr(self, "sent", 0)


def main():
    serve(Portal)


if __name__ == "__main__":
    sys.exit(main())
