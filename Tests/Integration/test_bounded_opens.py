"""Opens are bounded and refusals are logged within a budget (red-team
findings 5 and 7): one dbusmenu EventGroup of a thousand clicks on Open runs
the configured url-opener once; a thousand Open calls from one connection
run it at most a burst (a few, then one a second), and so do a thousand
spread over 300 connections of one process (the caller is the process, not
the connection: red team 4, finding 2), while a thousand from 30 processes
run it at most the bound of all callers together; a bus that refuses to
start the app (dbus-daemon's own limit on pending service starts) is no
failure of the app, and no second program runs; ten thousand refused
Completes from two connections of one process write one line."""

import os
import re
import subprocess
import sys
import time
import unittest

import dbus
import dbus.lowlevel

import bus_probe
from dbus_client import Client
from harness import (INTERFACE, OBJECT_PATH, BUS_NAME, ORIGIN, PATIENCE, AgentProcess, Session, eventually,
                     timer_dict)
from session import with_bus_limits
from test_indicator import IndicatorTestCase

# The agent's allowance of opens per caller: a burst of three, then one a
# second (SleepTimerCore's CallerRateLimitMachine.Settings.opens).
BURST = 3
REFILL_S = 1.0
# All callers together: a burst of six, then two a second
# (CallerRateLimitMachine.Settings.opens's allCallers).
ALL_BURST = 6
ALL_REFILL_S = 0.5
# The refusals' lines of all callers together: ten at once, then one each
# six seconds (LogBudgetMachine.Settings.refusals's linesInAll).
ALL_LINES = 10
ALL_LINES_REFILL_S = 6.0

# One process of the 30: connects, says so, waits for the word, sends its
# Opens pipelined, then waits for List (answered after them, in order).
OPENING_PROCESS = """
import sys
import dbus, dbus.bus, dbus.lowlevel, dbus.mainloop
bus = dbus.bus.BusConnection(sys.argv[1], mainloop=dbus.mainloop.NULL_MAIN_LOOP)
print("ready", flush=True)
sys.stdin.readline()
for _ in range(int(sys.argv[3])):
    message = dbus.lowlevel.MethodCallMessage(%r, %r, %r, "Open")
    message.append(sys.argv[2], signature="s")
    bus.send_message(message)
bus.send_message_with_reply_and_block(dbus.lowlevel.MethodCallMessage(%r, %r, %r, "List"), %d)
""" % (BUS_NAME, OBJECT_PATH, INTERFACE, BUS_NAME, OBJECT_PATH, INTERFACE, 10 * PATIENCE)


def settled_count(read, what):
    """The count `read()` gives once it has stopped moving for two seconds
    (spawned openers write their line after the agent has moved on), within
    a generous bound."""
    deadline = time.monotonic() + 10 * PATIENCE
    last, since = read(), time.monotonic()
    while time.monotonic() - since < 2:
        if time.monotonic() > deadline:
            raise AssertionError("%s kept changing; last seen %d" % (what, last))
        time.sleep(0.1)
        now = read()
        if now != last:
            last, since = now, time.monotonic()
    return last


class MenuClickTests(IndicatorTestCase):
    def test_a_thousand_clicks_on_open_in_one_event_group_run_the_opener_once(self):
        self.new_sleep()
        open_app = self.panel.id_of("Open Dreams for Littles")
        open_maya = self.panel.id_of("Open Maya's sleep")
        self.assertEqual(self.panel.control.ClickGroup([open_app] * 999 + [open_maya]), '{"reply": [[]]}')
        eventually(lambda: self.session.opened_urls(), what="the opener to run")
        count = settled_count(lambda: len(self.session.opened_urls()), "the opener's runs")
        self.assertEqual(count, 1, self.session.opened_urls()[:5])
        self.assertEqual(self.session.opened_urls(), ["dreamsforlittles://"])


class OpenCallTests(unittest.TestCase):
    """An agent on a bus with a desktop's limits (so that a thousand calls
    may be pending at once), with the recording url-opener."""

    def setUp(self):
        self.session = bus_probe.session_with_desktop_limits()
        self.addCleanup(self.session.close)
        self.agent = AgentProcess(self.session)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def test_a_thousand_open_calls_run_the_opener_at_most_a_burst_and_log_one_line(self):
        timer = timer_dict()
        self.client.mirror(timer)
        flooder = bus_probe.private_connection(self.session)
        self.addCleanup(flooder.close)
        started = time.monotonic()
        for _ in range(1000):
            message = dbus.lowlevel.MethodCallMessage(BUS_NAME, OBJECT_PATH, INTERFACE, "Open")
            message.append(timer["timer_id"], signature="s")
            flooder.send_message(message)
        # Answered in order on one connection: when List is answered, every
        # Open before it has been handled.
        bus_probe.call(flooder, "List", timeout=10 * PATIENCE)
        elapsed = time.monotonic() - started
        count = settled_count(lambda: len(self.session.opened_urls()), "the opener's runs")
        # The allowance refills one a second: a flood slowed down by a busy
        # machine may have earned one more open for each second it took.
        self.assertGreaterEqual(count, 1)
        self.assertLessEqual(count, BURST + int(elapsed / REFILL_S),
                             "%d opens for 1,000 calls in %.1f s" % (count, elapsed))
        refused = [line for line in self.agent.log().splitlines() if "Refused Open from" in line]
        self.assertLessEqual(len(refused), 1 + int(elapsed / 60), refused[:3])

    def open_message(self, timer_id):
        message = dbus.lowlevel.MethodCallMessage(BUS_NAME, OBJECT_PATH, INTERFACE, "Open")
        message.append(timer_id, signature="s")
        return message

    def test_a_thousand_open_calls_over_300_connections_of_one_process_run_the_opener_at_most_one_callers_bound(self):
        timer = timer_dict()
        self.client.mirror(timer)
        connections = [bus_probe.private_connection(self.session) for _ in range(300)]
        for connection in connections:
            self.addCleanup(connection.close)
        started = time.monotonic()
        for number in range(1000):
            connections[number % len(connections)].send_message(self.open_message(timer["timer_id"]))
        for connection in connections:
            bus_probe.call(connection, "List", timeout=10 * PATIENCE)
        elapsed = time.monotonic() - started
        count = settled_count(lambda: len(self.session.opened_urls()), "the opener's runs")
        self.assertGreaterEqual(count, 1)
        # One process is one caller: its bound, however many connections.
        self.assertLessEqual(count, BURST + int(elapsed / REFILL_S),
                             "%d opens for 1,000 calls over 300 connections in %.1f s" % (count, elapsed))
        refused = [line for line in self.agent.log().splitlines() if "Refused Open from" in line]
        self.assertLessEqual(len(refused), 1 + int(elapsed / 60), refused[:3])

    def test_a_thousand_open_calls_from_30_processes_run_the_opener_at_most_the_bound_of_all_callers(self):
        timer = timer_dict()
        self.client.mirror(timer)
        address = self.session.env["DBUS_SESSION_BUS_ADDRESS"]
        here = os.path.dirname(os.path.abspath(__file__))
        processes = []
        for number in range(30):
            share = 1000 // 30 + (1 if number < 1000 % 30 else 0)
            process = subprocess.Popen(
                [sys.executable, "-c", OPENING_PROCESS, address, timer["timer_id"], str(share)], cwd=here,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.addCleanup(process.kill)
            processes.append(process)
        for process in processes:
            self.assertEqual(process.stdout.readline().strip(), "ready")
        started = time.monotonic()
        for process in processes:
            process.stdin.write("go\n")
            process.stdin.flush()
        for process in processes:
            self.assertEqual(process.wait(timeout=10 * PATIENCE), 0)
        elapsed = time.monotonic() - started
        count = settled_count(lambda: len(self.session.opened_urls()), "the opener's runs")
        self.assertGreaterEqual(count, 1)
        self.assertLessEqual(count, ALL_BURST + int(elapsed / ALL_REFILL_S),
                             "%d opens for 1,000 calls from 30 processes in %.1f s" % (count, elapsed))
        # Thirty callers each have a line a minute of their own, but all
        # together write no more than the budget of all callers.
        refused = [line for line in self.agent.log().splitlines() if "Refused Open from" in line]
        self.assertLessEqual(len(refused), ALL_LINES + int(elapsed / ALL_LINES_REFILL_S), refused[:3])

    def test_ten_thousand_refused_completes_write_one_line_per_caller(self):
        flooders = [bus_probe.private_connection(self.session) for _ in range(2)]
        for flooder in flooders:
            self.addCleanup(flooder.close)
        started = time.monotonic()
        for flooder in flooders:
            for number in range(5000):
                message = dbus.lowlevel.MethodCallMessage(BUS_NAME, OBJECT_PATH, INTERFACE, "Complete")
                message.append("not-an-id-%d" % number, dbus.Int64(0), signature="sx")
                flooder.send_message(message)
        for flooder in flooders:
            with self.assertRaises(dbus.exceptions.DBusException):
                bus_probe.call(flooder, "Complete", "sx", "the last bad id", dbus.Int64(0), timeout=10 * PATIENCE)
        elapsed = time.monotonic() - started
        refused = [line for line in self.agent.log().splitlines() if "Refused Complete from" in line]
        # Both connections are this process's: one caller, as a person counts.
        self.assertEqual({re.search(r"Refused Complete from ([^:]+):", line).group(1) for line in refused},
                         {"process %d" % os.getpid()}, refused[:4])
        self.assertLessEqual(len(refused), 1 + int(elapsed / 60), refused[:4])


# A bus that allows one pending service start, and waits long for it.
ONE_PENDING_START = """  <limit name="max_pending_service_starts">1</limit>
  <limit name="service_start_timeout">300000</limit>
</busconfig>
"""


class RefusedActivationTests(unittest.TestCase):
    """No url-opener: a timer's link goes to the app, which the bus starts.
    Another service's start is pending and the bus allows one, so the bus
    refuses to start the app (LimitsExceeded)."""

    def setUp(self):
        self.session = Session(bus_config=with_bus_limits(ONE_PENDING_START))
        self.addCleanup(self.session.close)
        self.session.write_config("[platform]\nallowed-origins=%s\n" % ORIGIN)
        # xdg-open, first on the agent's PATH, records each run.
        self.bin = os.path.join(self.session.root, "bin")
        os.makedirs(self.bin)
        self.runs = os.path.join(self.session.root, "fallback-runs")
        for program in ("xdg-open", "gio"):
            path = os.path.join(self.bin, program)
            with open(path, "w") as handle:
                handle.write('#!/bin/sh\necho "%s $1" >> "%s"\n' % (program, self.runs))
            os.chmod(path, 0o755)
        # Two services that start and never take their names: a start of
        # the first stays pending; the app's would too.
        for name in ("com.example.SlowToStart", "com.dreamsforlittles.DreamsForLittles"):
            with open(os.path.join(self.session.services, name + ".service"), "w") as handle:
                handle.write("[D-BUS Service]\nName=%s\nExec=/bin/sleep 600\n" % name)
        self.agent = AgentProcess(self.session, extra_env={"PATH": self.bin + ":" + os.environ.get("PATH", "/usr/bin:/bin")})
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def fallback_runs(self):
        try:
            with open(self.runs) as handle:
                return handle.read().splitlines()
        except FileNotFoundError:
            return []

    def test_a_refused_start_of_the_app_runs_no_other_program(self):
        timer = timer_dict()
        self.client.mirror(timer)
        starter = bus_probe.private_connection(self.session)
        self.addCleanup(starter.close)
        bus_daemon = dbus.lowlevel.MethodCallMessage(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "StartServiceByName")
        bus_daemon.append("com.example.SlowToStart", dbus.UInt32(0), signature="su")
        starter.send_message(bus_daemon)
        # The bus's own answer to a start while the other is pending.
        with self.assertRaises(dbus.exceptions.DBusException) as raised:
            bus_probe.call(self.client.bus, "StartServiceByName", "su", "com.dreamsforlittles.DreamsForLittles", dbus.UInt32(0),
                           interface="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                           destination="org.freedesktop.DBus")
        self.assertEqual(raised.exception.get_dbus_name(), "org.freedesktop.DBus.Error.LimitsExceeded")
        for _ in range(5):
            self.client.timers.Open(timer["timer_id"])
        try:
            eventually(lambda: "The bus refused to start the app" in self.agent.log(), what="the agent to say the bus refused")
        except AssertionError as error:
            raise AssertionError("%s; its log ends: %s" % (error, self.agent.log()[-800:])) from None
        time.sleep(2)
        self.assertEqual(self.fallback_runs(), [])
        self.assertNotIn("asking the desktop", self.agent.log())


if __name__ == "__main__":
    unittest.main()
