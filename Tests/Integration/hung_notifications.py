#!/usr/bin/python3
"""A notification server that has stopped answering: it owns
org.freedesktop.Notifications and says what it can do (so a client takes it
for a working server with buttons), then takes every Notify and
CloseNotification call and never answers it. Each such call waits until
the client gives up (libnotify: 25 s) or this process goes away (the bus
then answers NoReply for it). Every call is appended to a JSON-lines file
with its arrival time, so a test can see what is stuck here.

Run as a program by HungServer (below), in a process of its own."""

import argparse
import json
import os
import signal
import subprocess
import time

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def serve(record_path):
    import dbus
    import dbus.service
    from dbus.mainloop.glib import DBusGMainLoop
    from gi.repository import GLib

    class Server(dbus.service.Object):
        def __init__(self, bus):
            super().__init__(bus, PATH)
            self.record = open(record_path, "a", buffering=1)
            # Kept, never called: the callers wait for an answer that never comes.
            self.unanswered = []

        def log(self, **entry):
            entry["ns"] = time.time_ns()
            self.record.write(json.dumps(entry) + "\n")

        @dbus.service.method(NAME, in_signature="", out_signature="as")
        def GetCapabilities(self):
            self.log(method="GetCapabilities")
            return ["actions", "body", "body-markup", "persistence"]

        @dbus.service.method(NAME, in_signature="", out_signature="ssss")
        def GetServerInformation(self):
            self.log(method="GetServerInformation")
            return ("hung", "Dreams for Littles tests", "1.0", "1.2")

        @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u",
                             async_callbacks=("reply", "error"))
        def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, timeout, reply, error):
            self.log(method="Notify", summary=str(summary), replaces_id=int(replaces_id))
            self.unanswered.append((reply, error))

        @dbus.service.method(NAME, in_signature="u", out_signature="", async_callbacks=("reply", "error"))
        def CloseNotification(self, notification_id, reply, error):
            self.log(method="CloseNotification", id=int(notification_id))
            self.unanswered.append((reply, error))

    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    server = Server(bus)
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    loop.run()
    del name, server


class HungServer:
    """This program in its own process on the session's bus."""

    def __init__(self, session):
        from desktop import wait_for_name
        self.record = os.path.join(session.root, "hung-%d.jsonl" % time.monotonic_ns())
        self.process = subprocess.Popen(["/usr/bin/python3", os.path.abspath(__file__), "--record", self.record],
                                        env=session.env)
        session.processes.append(self.process)
        self.owner = wait_for_name(session, NAME)

    def calls(self):
        try:
            with open(self.record) as handle:
                return [json.loads(line) for line in handle if line.strip()]
        except FileNotFoundError:
            return []

    def stop(self):
        """Goes away as a hung process does when killed: the bus answers its
        waiting callers with an error."""
        from harness import stop
        stop(self.process, signal.SIGKILL)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", required=True)
    serve(parser.parse_args().record)
