#!/usr/bin/python3
"""One client of the load test in its own process with its own bus
connection: connects, waits for a line on standard input (so that every
worker starts at once), makes its calls one after the other, and prints a
JSON summary. Every answer is checked, not just that one came."""

import argparse
import json
import sys
import time
import uuid

import dbus
import dbus.bus
import dbus.mainloop

from harness import BABY_ID, BUS_NAME, INTERFACE, OBJECT_PATH, USER_ID, now_ms

TIMERS_PER_WORKER = 3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--origin", required=True)
    parser.add_argument("--index", type=int, required=True)
    parser.add_argument("--calls", type=int, required=True)
    args = parser.parse_args()

    bus = dbus.bus.BusConnection(args.address, mainloop=dbus.mainloop.NULL_MAIN_LOOP)
    proxy = bus.get_object(BUS_NAME, OBJECT_PATH, introspect=False)
    timers = dbus.Interface(proxy, INTERFACE)
    properties = dbus.Interface(proxy, "org.freedesktop.DBus.Properties")
    ids = [str(uuid.uuid4()) for _ in range(TIMERS_PER_WORKER)]
    # A family of its own: the agent holds at most 16 timers of one family,
    # and each worker holds one at a time, fifty in all, within the 64.
    family = str(uuid.uuid4())
    started = now_ms() - 10 * 60 * 1000
    expires = now_ms() + 12 * 3600 * 1000

    print("connected", flush=True)
    sys.stdin.readline()
    counts = {"Mirror": 0, "List": 0, "GetAll": 0, "Remove": 0}
    failures = []
    begin = time.monotonic()
    for call in range(args.calls):
        step, timer = call % 4, ids[(call // 4) % TIMERS_PER_WORKER]
        name = "Worker %d call %d" % (args.index, call - step)
        try:
            if step == 0:
                timers.Mirror(dbus.Dictionary({
                    "timer_id": timer, "api_origin": args.origin, "user_id": USER_ID,
                    "family_subject_id": family, "baby_id": BABY_ID, "baby_name": name,
                    "activity_type": "sleep", "actor_mode": "self", "started_at_ms": dbus.Int64(started),
                    "timezone": "Europe/Berlin", "action_token": "dflnat_LOAD_" + uuid.uuid4().hex,
                    "token_expires_at_ms": dbus.Int64(expires), "revision": dbus.Int64(call)}, signature="sv"),
                    timeout=120)
                counts["Mirror"] += 1
            elif step == 1:
                listed = timers.List(timeout=120)
                if any("dflnat_" in repr(t) for t in listed):
                    failures.append("call %d: List shows a token" % call)
                mine = [t for t in listed if str(t["timer_id"]) == timer]
                if len(mine) != 1 or str(mine[0]["baby_name"]) != name or str(mine[0]["state"]) != "running":
                    failures.append("call %d: List does not show the timer just mirrored: %r" % (call, mine))
                counts["List"] += 1
            elif step == 2:
                everything = properties.GetAll(INTERFACE, timeout=120)
                names = {"Version", "RunningCount", "PendingCompletions", "NotificationServer", "AllowedOrigins"}
                if set(map(str, everything)) != names or int(everything["RunningCount"]) < 1:
                    failures.append("call %d: GetAll answered %r" % (call, everything))
                counts["GetAll"] += 1
            else:
                if not bool(timers.Remove(timer, timeout=120)):
                    failures.append("call %d: Remove of a mirrored timer answered false" % call)
                counts["Remove"] += 1
        except dbus.exceptions.DBusException as error:
            failures.append("call %d: %s: %s" % (call, error.get_dbus_name(), error.get_dbus_message()))
    for timer in ids:
        try:
            timers.Remove(timer, timeout=120)
        except dbus.exceptions.DBusException as error:
            failures.append("final Remove: %s: %s" % (error.get_dbus_name(), error.get_dbus_message()))
    print(json.dumps({"index": args.index, "calls": sum(counts.values()), "counts": counts,
                      "failures": failures[:20], "failure_count": len(failures),
                      "seconds": time.monotonic() - begin}), flush=True)


if __name__ == "__main__":
    main()
