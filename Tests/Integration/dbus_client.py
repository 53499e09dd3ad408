"""A python3-dbus client of the agent, as another app written in Python
would be, collecting the agent's signals in order."""

import dbus
import dbus.bus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

from harness import BUS_NAME, INTERFACE, OBJECT_PATH, PATIENCE

DBusGMainLoop(set_as_default=True)

INT64_KEYS = {"started_at_ms", "token_expires_at_ms", "revision", "platform_clock_offset_ms"}


def typed(key, value):
    """Python values as the D-Bus types of the Mirror dictionary."""
    if isinstance(value, bool):
        return dbus.Boolean(value)
    if hasattr(value, "descriptor"):
        return dbus.types.UnixFd(value.descriptor)
    if isinstance(value, int):
        return dbus.Int64(value) if key in INT64_KEYS else dbus.Int32(value)
    return value


def plain(value):
    """D-Bus values back to plain Python values."""
    if isinstance(value, dbus.Dictionary):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (dbus.Array, list)):
        return [plain(v) for v in value]
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath, dbus.Signature)):
        return str(value)
    if isinstance(value, (dbus.Int16, dbus.Int32, dbus.Int64, dbus.UInt16, dbus.UInt32, dbus.UInt64, dbus.Byte)):
        return int(value)
    return value


class Client:
    def __init__(self, session):
        self.bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
        # Follows the name to a restarted agent, as a long-lived app would.
        self.proxy = self.bus.get_object(BUS_NAME, OBJECT_PATH, introspect=False, follow_name_owner_changes=True)
        self.timers = dbus.Interface(self.proxy, INTERFACE)
        self.properties = dbus.Interface(self.proxy, "org.freedesktop.DBus.Properties")
        self.signals = []
        self._waiting = None
        self.bus.add_signal_receiver(
            self._record, bus_name=BUS_NAME, path=OBJECT_PATH, member_keyword="member",
            interface_keyword="interface")

    def close(self):
        self.bus.close()

    def _record(self, *args, member=None, interface=None):
        self.signals.append((member, [plain(a) for a in args]))
        if self._waiting:
            self._waiting()

    def mirror(self, timer):
        return self.timers.Mirror(dbus.Dictionary({k: typed(k, v) for k, v in timer.items()}, signature="sv"))

    def list(self):
        return plain(self.timers.List())

    def pump(self):
        """Delivers the signals that have already arrived."""
        context = GLib.MainContext.default()
        while context.pending():
            context.iteration(False)

    def wait_for(self, predicate, timeout=PATIENCE):
        """Runs the loop until `predicate()` holds, or gives up after
        `timeout` (a bound for a hung agent, not a timing assertion)."""
        self.pump()
        if predicate():
            return True
        loop = GLib.MainLoop()

        def check():
            if predicate():
                loop.quit()

        self._waiting = check
        source = GLib.timeout_add(int(timeout * 1000), loop.quit)
        loop.run()
        self._waiting = None
        if predicate():
            GLib.source_remove(source)
            return True
        return False

    def members(self):
        return [member for member, _ in self.signals]
