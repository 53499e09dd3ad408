#!/usr/bin/python3
"""A flooding client of the agent in its own process: sends COUNT calls
pipelined on one connection without waiting for any answer, then collects
the answers, and prints a JSON summary on standard output.

Most calls are bad ones of every method (each must be refused with a
documented error); every 10th, and the very last, is a valid Mirror of one
marker timer whose baby_name is "Flood <n>": a List answered with that name
proves it was served after call n of the flood and before the next marker,
that is, while the flood was still in progress."""

import argparse
import json
import sys
import time
import uuid

import dbus
import dbus.bus
import dbus.lowlevel
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

from harness import BUS_NAME, INTERFACE, OBJECT_PATH, ORIGIN, canary_token, now_ms

DBusGMainLoop(set_as_default=True)
PROPERTIES = "org.freedesktop.DBus.Properties"


def call(interface, member, signature=None, *args):
    message = dbus.lowlevel.MethodCallMessage(BUS_NAME, OBJECT_PATH, interface, member)
    if signature is not None:
        message.append(*args, signature=signature)
    return message


def marker(timer_id, number):
    return call(INTERFACE, "Mirror", "a{sv}", dbus.Dictionary({
        "timer_id": timer_id, "api_origin": ORIGIN, "user_id": "9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f",
        "family_subject_id": "c56a4180-65aa-42ec-a945-5fd21dec0538",
        "baby_id": "7d444840-9dc0-11d1-b245-5ffdce74fad2", "baby_name": "Flood %d" % number,
        "activity_type": "sleep", "actor_mode": "self", "started_at_ms": dbus.Int64(now_ms() - 600000),
        "timezone": "Europe/Berlin", "action_token": canary_token(),
        "token_expires_at_ms": dbus.Int64(now_ms() + 3600000), "revision": dbus.Int64(number)}, signature="sv"))


def bad_call(number, canary):
    """One refused call; the kinds cycle through every method."""
    kinds = [
        lambda: call(INTERFACE, "Remove", "s", ""),
        lambda: call(INTERFACE, "Complete", "sx", str(uuid.uuid4()), dbus.Int64(0)),
        lambda: call(INTERFACE, "Open", "s", canary),
        lambda: call(INTERFACE, "Mirror", "a{sv}", dbus.Dictionary({"baby_name": canary}, signature="sv")),
        lambda: call(INTERFACE, "Purge", "sss", "ftp://x", canary, ""),
        lambda: call(INTERFACE, "Reconcile", "sssas", ORIGIN, "nope", "", dbus.Array([canary], signature="s")),
        lambda: call(INTERFACE, "List", "s", canary),
        lambda: call(PROPERTIES, "Get", "ss", INTERFACE, "Colour"),
        lambda: call(PROPERTIES, "Set", "ssv", INTERFACE, "Version", "9.9.9"),
        lambda: call(INTERFACE, "Explode"),
    ]
    return kinds[number % len(kinds)]()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--timer-id", required=True)
    parser.add_argument("--canary", required=True)
    args = parser.parse_args()

    bus = dbus.bus.BusConnection(args.address)
    loop = GLib.MainLoop()
    summary = {"sent": 0, "replies": 0, "ok": 0, "errors": {}, "unclear": [], "marker_failures": []}
    markers = set()

    def answered(number):
        def handler(reply):
            summary["replies"] += 1
            if isinstance(reply, dbus.lowlevel.ErrorMessage):
                name = reply.get_error_name()
                summary["errors"][name] = summary["errors"].get(name, 0) + 1
                text = reply.get_args_list()[0] if reply.get_args_list() else ""
                if not (text and text[0].isalpha()) or args.canary in text:
                    summary["unclear"].append("%s: %r" % (name, text[:200]))
                if number in markers:
                    summary["marker_failures"].append("%s: %s" % (name, text))
            else:
                summary["ok"] += 1
            if summary["replies"] == args.count:
                loop.quit()
        return handler

    print("connected", flush=True)
    begin = time.monotonic()
    for number in range(args.count):
        if number % 10 == 0 or number == args.count - 1:
            markers.add(number)
            message = marker(args.timer_id, number)
        else:
            message = bad_call(number, args.canary)
        bus.send_message_with_reply(message, answered(number), 300)
        summary["sent"] += 1
    bus.flush()
    summary["sent_seconds"] = time.monotonic() - begin
    GLib.timeout_add_seconds(300, loop.quit)
    loop.run()
    summary["seconds"] = time.monotonic() - begin
    summary["markers"] = len(markers)
    print(json.dumps(summary), flush=True)
    bus.close()
    sys.exit(0)


if __name__ == "__main__":
    main()
