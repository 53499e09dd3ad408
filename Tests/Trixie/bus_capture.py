"""What crossed the session bus around GNOME Shell, read from a dbus-monitor
capture (desktop.BusMonitor): the actions of each Notify call, the
activation tokens the Shell sent, and the app's
org.freedesktop.Application.Open calls with their platform data."""

import dbus

from desktop import BusMonitor


def string_value(line):
    """The text of a dbus-monitor line `string "..."` (or `variant string "..."`)."""
    return line.split('"', 1)[1][:-1] if '"' in line else None


class BusCapture(BusMonitor):
    def __init__(self, session):
        super().__init__(session)
        self.connection = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])

    def notify_actions(self, sender_pid=None):
        """The actions of every Notify call (of the process `sender_pid`
        only: the Shell's notification service passes each call on to the
        Shell), as (key, label) pairs: the strings of its first array."""
        return [list(zip(c["actions"][0::2], c["actions"][1::2])) for c in self.notify_calls()
                if sender_pid is None or self.pid_of(c["sender"]) == sender_pid]

    def activation_tokens(self):
        """The tokens of the ActivationToken signals (the Shell sends each
        twice: broadcast, and through its service to the notification's sender)."""
        return {string_value(args[1]) for header, args in self.messages()
                if header.startswith("signal") and "member=ActivationToken" in header and len(args) > 1}

    def open_calls(self):
        """The org.freedesktop.Application.Open calls: (uris, platform data)."""
        calls = []
        for header, args in self.messages():
            if header.startswith("method call") and "interface=org.freedesktop.Application" in header \
                    and "member=Open" in header:
                data = {string_value(line): string_value(args[index + 1]) for index, line in enumerate(args)
                        if line.startswith("string ") and index + 1 < len(args) and args[index + 1].startswith("variant")}
                uris = [string_value(line) for line in args if line.startswith('string "dreamsforlittles:')]
                calls.append((uris, data))
        return calls

    def pid_of(self, unique_name):
        try:
            return int(self.connection.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                     "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s",
                                                     (unique_name,)))
        except dbus.exceptions.DBusException:
            return None  # gone since

    def stop(self):
        self.connection.close()
        super().stop()
