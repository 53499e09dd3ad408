#!/usr/bin/python3
"""A notification server for tests: implements org.freedesktop.Notifications
on the session bus as the specification describes, and appends every call
(with its arrival time in ns since the epoch) to a JSON-lines file. It can
be told to invoke an action or close a notification like a user would, by
calling its com.dreamsforlittles.Test.Notifications interface, or to answer
Notify with an error. With --refuse-repeats it refuses, as Plasma does, a
notification identical to the one it took less than a second before."""

import argparse
import json
import signal
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

from dbus_client import plain

PATH = "/org/freedesktop/Notifications"
INTERFACE = "org.freedesktop.Notifications"
CONTROL = "com.dreamsforlittles.Test.Notifications"
# Plasma's answer to a notification identical to one it took within a second.
EXCESS = "org.freedesktop.Notifications.Error.ExcessNotificationGeneration"


class Server(dbus.service.Object):
    def __init__(self, bus, record, capabilities, name, refuse_repeats=False, version="1.0"):
        super().__init__(bus, PATH)
        self.record = open(record, "a", buffering=1)
        self.capabilities = capabilities
        self.name = name
        self.version = version
        self.refuse_repeats = refuse_repeats
        self.refusals = 0
        self.last = None
        self.next_id = 1
        self.open = {}

    def log(self, **entry):
        entry["ns"] = time.time_ns()
        self.record.write(json.dumps(entry) + "\n")

    @dbus.service.method(INTERFACE, in_signature="", out_signature="as")
    def GetCapabilities(self):
        self.log(method="GetCapabilities")
        return self.capabilities

    @dbus.service.method(INTERFACE, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        self.log(method="GetServerInformation")
        return (self.name, "Dreams for Littles tests", self.version, "1.2")

    @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u", sender_keyword="sender")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout, sender=None):
        same = (str(app_name), str(app_icon), str(summary), str(body))
        repeat = self.refuse_repeats and self.last is not None and self.last[0] == same \
            and time.monotonic() - self.last[1] < 1
        if self.refusals or repeat:
            self.refusals = max(0, self.refusals - 1)
            self.log(method="Refused", replaces_id=int(replaces_id), summary=str(summary), body=str(body),
                     repeat=repeat)
            raise dbus.exceptions.DBusException("Created too many similar notifications in quick succession",
                                                name=EXCESS)
        self.last = (same, time.monotonic())
        notification_id = int(replaces_id) if int(replaces_id) in self.open else self.next_id
        if notification_id == self.next_id:
            self.next_id += 1
        self.open[notification_id] = str(sender)
        self.log(method="Notify", id=notification_id, app_name=str(app_name), app_icon=str(app_icon), replaces_id=int(replaces_id),
                 summary=str(summary), body=str(body), actions=plain(actions), hints=plain(hints),
                 expire_timeout=int(expire_timeout), sender=str(sender))
        return dbus.UInt32(notification_id)

    @dbus.service.method(INTERFACE, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        self.log(method="CloseNotification", id=int(notification_id))
        if int(notification_id) in self.open:
            del self.open[int(notification_id)]
            self.NotificationClosed(notification_id, dbus.UInt32(3))

    @dbus.service.signal(INTERFACE, signature="uu")
    def NotificationClosed(self, notification_id, reason):
        pass

    @dbus.service.signal(INTERFACE, signature="us")
    def ActionInvoked(self, notification_id, action):
        pass

    @dbus.service.signal(INTERFACE, signature="us")
    def ActivationToken(self, notification_id, token):
        pass

    # What a person does, on request of the test.

    @dbus.service.method(CONTROL, in_signature="uss", out_signature="")
    def Invoke(self, notification_id, action, activation_token):
        self.log(method="Invoke", id=int(notification_id), action=str(action))
        if activation_token:
            self.ActivationToken(notification_id, activation_token)
        self.ActionInvoked(notification_id, action)

    @dbus.service.method(CONTROL, in_signature="u", out_signature="")
    def RefuseNext(self, count):
        """Answers the next `count` Notify calls with Plasma's error."""
        self.refusals = int(count)

    @dbus.service.method(CONTROL, in_signature="u", out_signature="")
    def Dismiss(self, notification_id):
        self.log(method="Dismiss", id=int(notification_id))
        self.open.pop(int(notification_id), None)
        self.NotificationClosed(notification_id, dbus.UInt32(2))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True)
    parser.add_argument("--capabilities", default="actions,body,body-markup")
    parser.add_argument("--name", default="recorder")
    parser.add_argument("--version", default="1.0")
    parser.add_argument("--refuse-repeats", action="store_true")
    args = parser.parse_args()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    server = Server(bus, args.record, [c for c in args.capabilities.split(",") if c], args.name, args.refuse_repeats,
                    args.version)
    name = dbus.service.BusName("org.freedesktop.Notifications", bus, do_not_queue=True)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    loop.run()
    del name, server


if __name__ == "__main__":
    main()
