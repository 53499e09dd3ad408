#!/usr/bin/python3
"""Another program in the agent's place: it owns com.dreamsforlittles.SleepTimers1
while no agent does and answers List with one timer whose baby's name is
1 MiB of letters and control characters, far past what the agent's Mirror
accepts. Told through its own control interface, it says that timer's
sleep was saved (CompletionFinished, as the agent would), for a window to
announce. Every List is appended to a JSON-lines file.

It also answers the bridge's calls as an agent would (its Version, Mirror,
Remove, Reconcile, Purge), and appends each with everything it carried to
the same file, the token read from Mirror's descriptor among it: whatever
reached it is there to look for. With --queue it waits in the name's queue
behind the owner and takes the name when that one leaves.

Run as a program by Impostor (below), in a process of its own."""

import argparse
import json
import os
import signal
import subprocess
import time

NAME = "com.dreamsforlittles.DreamsForLittles.SleepTimers1"
# The interface kept its name when the bus name moved under the app id.
INTERFACE = "com.dreamsforlittles.SleepTimers1"
PATH = "/com/dreamsforlittles/SleepTimers1"
CONTROL = "com.dreamsforlittles.Test.Impostor"
TIMER_ID = "6f1c2a34-8b9d-4e5f-a012-3456789abcde"
# 1 MiB of UTF-8: letters, and an escape sequence, a bell, line breaks and
# C1 controls between them (D-Bus strings hold no NUL).
NAME_UNIT = "Maya\x1b[2J\x07\r\n\x7f\u0085"
BABY_NAME = (NAME_UNIT * (1 + (1 << 20) // len(NAME_UNIT)))[:1 << 20]


def serve(record_path, queue=False):
    import dbus
    import dbus.service
    from dbus.mainloop.glib import DBusGMainLoop
    from gi.repository import GLib

    class Impostor(dbus.service.Object):
        def __init__(self, bus):
            super().__init__(bus, PATH)
            self.record = open(record_path, "a", buffering=1)

        @dbus.service.method(INTERFACE, in_signature="", out_signature="aa{sv}")
        def List(self):
            self.record.write(json.dumps({"method": "List", "ns": time.time_ns()}) + "\n")
            return [{"timer_id": TIMER_ID, "baby_name": BABY_NAME, "state": "running",
                     "can_complete": dbus.Boolean(True)}]

        def note(self, method, **what):
            self.record.write(json.dumps(dict(what, method=method, ns=time.time_ns())) + "\n")

        @dbus.service.method(INTERFACE, in_signature="a{sv}", out_signature="")
        def Mirror(self, timer):
            entries = {}
            for key, value in timer.items():
                if isinstance(value, dbus.types.UnixFd):
                    descriptor = value.take()
                    with os.fdopen(descriptor, "rb") as handle:
                        value = handle.read().decode(errors="replace")
                entries[str(key)] = str(value)
            self.note("Mirror", timer=entries)

        @dbus.service.method(INTERFACE, in_signature="s", out_signature="b")
        def Remove(self, timer_id):
            self.note("Remove", args=[str(timer_id)])
            return True

        @dbus.service.method(INTERFACE, in_signature="sssas", out_signature="u")
        def Reconcile(self, origin, user, family, running):
            self.note("Reconcile", args=[str(origin), str(user), str(family), [str(i) for i in running]])
            return 0

        @dbus.service.method(INTERFACE, in_signature="sss", out_signature="u")
        def Purge(self, origin, user, family):
            self.note("Purge", args=[str(origin), str(user), str(family)])
            return 0

        @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
        def Get(self, interface, name):
            self.note("Get", args=[str(interface), str(name)])
            return "9.9.9"

        @dbus.service.signal(INTERFACE, signature="sss")
        def CompletionFinished(self, timer_id, outcome, activity_id):
            pass

        @dbus.service.method(CONTROL, in_signature="", out_signature="")
        def SaySaved(self):
            self.CompletionFinished(TIMER_ID, "created", "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")

        @dbus.service.method(CONTROL, in_signature="s", out_signature="")
        def SaySavedFor(self, timer_id):
            self.CompletionFinished(timer_id, "created", "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d")

    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    impostor = Impostor(bus)
    name = dbus.service.BusName(NAME, bus, do_not_queue=not queue)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    loop.run()
    del name, impostor


def dbus_daemon(bus):
    import dbus
    return dbus.Interface(bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus"), "org.freedesktop.DBus")


class Impostor:
    """This program in its own process on the session's bus."""

    def __init__(self, session, queue=False):
        """`queue`: wait behind the name's owner instead of owning it now."""
        from desktop import wait_for_name
        self.session = session
        self.record = os.path.join(session.root, "impostor-%d.jsonl" % time.monotonic_ns())
        self.process = subprocess.Popen(["/usr/bin/python3", os.path.abspath(__file__), "--record", self.record]
                                        + (["--queue"] if queue else []), env=session.env)
        session.processes.append(self.process)
        if queue:
            self.wait_in_queue()
            self.owner = None
        else:
            self.owner = wait_for_name(session, NAME)

    def wait_in_queue(self):
        import dbus
        from patience import eventually
        bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        try:
            daemon = dbus_daemon(bus)
            eventually(lambda: len(daemon.ListQueuedOwners(NAME)) >= 2, what="the impostor in the name's queue")
        finally:
            bus.close()

    def received(self, method=None):
        """What the bridge's calls carried to it (every record but List's)."""
        return [r for r in self.lists() if r["method"] != "List" and (method is None or r["method"] == method)]

    def lists(self):
        try:
            with open(self.record) as handle:
                return [json.loads(line) for line in handle if line.strip()]
        except FileNotFoundError:
            return []

    def say_saved(self, timer_id=None):
        """CompletionFinished(created), of its own timer or of `timer_id`."""
        import dbus
        bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        try:
            control = dbus.Interface(bus.get_object(self.process_name(bus), PATH), CONTROL)
            if timer_id is None:
                control.SaySaved()
            else:
                control.SaySavedFor(timer_id)
        finally:
            bus.close()

    def process_name(self, bus):
        """Its unique name: queued, it may not own the agent's name."""
        daemon = dbus_daemon(bus)
        return next(owner for owner in daemon.ListQueuedOwners(NAME)
                    if daemon.GetConnectionUnixProcessID(owner) == self.process.pid)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True)
    parser.add_argument("--queue", action="store_true")
    arguments = parser.parse_args()
    serve(arguments.record, queue=arguments.queue)
