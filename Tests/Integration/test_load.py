"""The agent under load: 50 clients, each its own process with its own bus
connection, make 1,000 calls each (Mirror of their own timers with rising
revisions, List, Properties.GetAll, Remove) while real completions run
against a slow reference platform (200 ms on every completion). Every call
is answered without error, every completion lands exactly once, and the
agent's memory stays flat.

DFL_LOAD_WORKERS and DFL_LOAD_CALLS change the size (default 50 and 1,000):
`make check` runs it with 200 calls per client, `make load` at full size."""

import json
import os
import subprocess
import sys
import time
import unittest

import dbus
import dbus.bus
import dbus.lowlevel

import bus_probe
import proc_accounting
from dbus_client import plain, typed
from harness import BUS_NAME, INTERFACE, LEO, MAYA, OBJECT_PATH, PATIENCE, AgentProcess, Platform, Session, cpu_seconds

HERE = os.path.dirname(os.path.abspath(__file__))
WORKERS = int(os.environ.get("DFL_LOAD_WORKERS", "50"))
CALLS = int(os.environ.get("DFL_LOAD_CALLS", "1000"))
WARM_UP_CALLS = 100
# Real completions during the load: one per baby at a time (the platform
# allows one running Sleep timer per baby), a new one per baby every few
# seconds at most, so that they spread over the whole load.
COMPLETIONS = 60
COMPLETION_INTERVAL = 3.0
PLATFORM_LATENCY_MS = 200
# The agent's resident memory after the load may exceed what it was after
# the warm-up by this much at most.
RSS_GROWTH = 0.10


class Caller:
    """The test's own connection to the agent. It listens to
    CompletionFinished only: the load makes some 50,000 other signals."""

    def __init__(self, session):
        self.bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
        proxy = self.bus.get_object(BUS_NAME, OBJECT_PATH, introspect=False)
        self.timers = dbus.Interface(proxy, INTERFACE)
        self.properties = dbus.Interface(proxy, "org.freedesktop.DBus.Properties")
        self.finished = []
        self.bus.add_signal_receiver(lambda *args: self.finished.append([plain(a) for a in args]),
                                     signal_name="CompletionFinished", dbus_interface=INTERFACE, path=OBJECT_PATH)

    def mirror(self, timer):
        return self.timers.Mirror(dbus.Dictionary({k: typed(k, v) for k, v in timer.items()}, signature="sv"))

    def list(self):
        return plain(self.timers.List())

    def pending(self):
        return int(self.properties.Get(INTERFACE, "PendingCompletions"))

    def pump(self):
        from gi.repository import GLib
        context = GLib.MainContext.default()
        while context.pending():
            context.iteration(False)

    def close(self):
        self.bus.close()


class Completions:
    """A series of real completions: for each baby in turn, a Sleep timer
    started on the platform with a native action token, mirrored to the
    agent through a pipe, and completed through the agent; the next one for
    that baby only once the platform has the previous one's activity."""

    def __init__(self, platform, caller):
        self.platform = platform
        self.caller = caller
        self.completed = []
        self.in_flight = {}
        self.last_start = {}

    def step(self, limit, interval=0.0):
        """Starts what may start now; returns how many have been started."""
        if self.in_flight:
            landed = {a["timerId"] for a in self.platform.activities()}
            for baby, timer_id in list(self.in_flight.items()):
                if timer_id in landed:
                    del self.in_flight[baby]
        for baby in (MAYA, LEO):
            if baby in self.in_flight or len(self.completed) >= limit:
                continue
            if time.monotonic() - self.last_start.get(baby, -interval) < interval:
                continue
            self.last_start[baby] = time.monotonic()
            timer_id, reply = self.platform.start_sleep(baby=baby, started_ago_s=40 * 60)
            self.platform.mirror(self.caller, timer_id, reply, baby=baby)
            status = str(self.caller.timers.Complete(timer_id, dbus.Int64(0), timeout=PATIENCE))
            if status != "queued":
                raise AssertionError("Complete of %s answered %r" % (timer_id, status))
            self.in_flight[baby] = timer_id
            self.completed.append(timer_id)
        return len(self.completed)


class LoadTests(unittest.TestCase):
    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        self.platform = Platform(self.session)
        self.addCleanup(self.platform.stop)
        self.platform.configure()
        self.agent = AgentProcess(self.session)
        self.caller = Caller(self.session)
        self.addCleanup(self.caller.close)
        self.platform.fault(route="complete", mode="latency", ms=PLATFORM_LATENCY_MS)

    def start_workers(self, calls):
        workers = []
        for index in range(WORKERS):
            worker = subprocess.Popen(
                ["/usr/bin/python3", os.path.join(HERE, "load_worker.py"), "--address",
                 self.session.env["DBUS_SESSION_BUS_ADDRESS"], "--origin", self.platform.origin,
                 "--index", str(index), "--calls", str(calls)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=dict(self.session.env, PYTHONPATH=HERE))
            self.session.processes.append(worker)
            workers.append(worker)
        for worker in workers:
            self.assertEqual(worker.stdout.readline().strip(), "connected")
        for worker in workers:
            worker.stdin.write("go\n")
            worker.stdin.flush()
        return workers

    def finish_workers(self, workers, calls):
        results = []
        for worker in workers:
            line = worker.stdout.readline()
            self.assertTrue(line, "a worker ended without its summary")
            results.append(json.loads(line))
            worker.wait(PATIENCE)
        failures = [failure for result in results for failure in result["failures"]]
        self.assertEqual(failures, [], "%d calls failed" % sum(r["failure_count"] for r in results))
        self.assertEqual([r["calls"] for r in results], [calls] * WORKERS)
        return results

    def run_load(self, calls, completions, limit):
        workers = self.start_workers(calls)
        while any(worker.poll() is None for worker in workers):
            completions.step(limit, COMPLETION_INTERVAL)
            time.sleep(0.25)
        self.finish_workers(workers, calls)

    def settle(self, completions):
        """Until every completion has landed and nothing is pending."""
        deadline = time.monotonic() + 4 * PATIENCE
        while time.monotonic() < deadline:
            self.caller.pump()
            if self.caller.pending() == 0 and not any(
                    t["timer_id"] in completions.completed for t in self.caller.list()):
                return
            time.sleep(0.1)
        self.fail("completions still pending: %d" % self.caller.pending())

    def test_fifty_clients_and_completions_against_a_slow_platform(self):
        completions = Completions(self.platform, self.caller)

        # Warm-up: every worker connects and makes a few calls; a first
        # completion per baby.
        self.run_load(WARM_UP_CALLS, completions, limit=2)
        while completions.step(limit=2) < 2:
            time.sleep(0.1)
        self.settle(completions)
        self.assertEqual(self.caller.list(), [])
        warm_rss = proc_accounting.rss_kib(self.agent.pid)
        warm_descriptors = len(proc_accounting.descriptors(self.agent.pid))

        begin = time.monotonic()
        cpu_before = cpu_seconds(self.agent.pid)
        self.run_load(CALLS, completions, limit=COMPLETIONS)
        load_seconds = time.monotonic() - begin
        during_load = len(completions.completed) - 2
        self.settle(completions)
        agent_cpu = cpu_seconds(self.agent.pid) - cpu_before

        # Every recorded completion landed, exactly once, as the agent said.
        activities = self.platform.activities()
        for timer_id in completions.completed:
            mine = [a for a in activities if a["timerId"] == timer_id]
            self.assertEqual(len(mine), 1, "timer %s has %d activities" % (timer_id, len(mine)))
            self.assertEqual(mine[0]["source"], "native")
        self.assertEqual(len(activities), len(completions.completed))
        self.caller.pump()
        outcomes = {}
        for timer_id, outcome, activity_id in self.caller.finished:
            outcomes.setdefault(timer_id, []).append((outcome, activity_id))
        self.assertEqual(outcomes, {a["timerId"]: [("created", a["id"])] for a in activities})
        self.assertGreaterEqual(during_load, 2, "too few completions ran during the load")
        posts = len([r for r in self.platform.requests() if r["method"] == "POST"])

        # The agent is the same process, holds what it held, and its
        # memory is flat.
        self.assertIsNone(self.agent.process.poll())
        self.assertEqual(self.caller.list(), [])
        self.assertEqual(bus_probe.crash_signs(self.agent.log()), [])
        rss = proc_accounting.rss_kib(self.agent.pid)
        descriptor_count = len(proc_accounting.descriptors(self.agent.pid))
        sys.stderr.write(
            "\nload: %d clients x %d calls in %.1f s (%.0f calls/s, agent CPU %.1f s); %d completions during the load "
            "(%d sent in %d requests); "
            "agent RSS %d KiB after the warm-up, %d KiB after the load (%+.1f %%); descriptors %d, %d\n" % (
                WORKERS, CALLS, load_seconds, WORKERS * CALLS / load_seconds, agent_cpu, during_load,
                len(completions.completed), posts, warm_rss, rss, 100.0 * (rss - warm_rss) / warm_rss,
                warm_descriptors, descriptor_count))
        self.assertLessEqual(rss, warm_rss * (1 + RSS_GROWTH),
                             "RSS grew from %d KiB to %d KiB" % (warm_rss, rss))
        self.assertLessEqual(descriptor_count, warm_descriptors + 2)


if __name__ == "__main__":
    unittest.main()
