"""The agent's start, memory and idle wake-ups under a real GNOME Shell,
measured the same way on Debian 12 (GNOME 43) and in the Debian 13 root
(GNOME 48), for docs/BENCHMARKS.md's section on Debian 13.

    measure_agent.py [--starts N] [--idle-seconds S] [--output FILE]

It is a measurement, not a test: it judges nothing and prints a Markdown
table (to FILE too). Each figure is what dfl-bench calls the same thing:
  - start to bus name: from the spawn to the name's owner appearing, the
    median of N starts (the store made once before, unmeasured);
  - RSS after start: VmRSS one second after the name, the median of the
    starts;
  - idle wake-ups: the voluntary context switches of all the agent's
    threads over S seconds, once with no timer and once with one timer
    shown on the Shell, after the start-up settled.
The Shell runs for the whole measurement, as at a login, so the agent sees
its notification server from its start."""

import argparse
import os
import platform as host
import statistics
import sys
import time

import dbus

from proc_accounting import rss_kib
from gnome_shell import GnomeShell
from harness import (AGENT, BUS_NAME, PATIENCE, REPO, AgentProcess, Platform, Session, voluntary_switches,
                     wait_until_settled)


def release():
    """The release's name and version, from os-release."""
    fields = {}
    with open("/etc/os-release") as handle:
        for line in handle:
            key, _, value = line.strip().partition("=")
            fields[key] = value.strip('"')
    return fields.get("PRETTY_NAME", "unknown")


def program():
    """The agent measured, named within the checkout where it is there."""
    inside = os.path.relpath(AGENT, REPO)
    return AGENT if inside.startswith("..") else inside


def start_once(session, bus):
    """One start: milliseconds to the name, RSS 1 s after it (KiB)."""
    before = time.monotonic_ns()
    agent = AgentProcess(session, wait=False)
    deadline = time.monotonic() + PATIENCE
    while not bus.name_has_owner(BUS_NAME):
        if agent.process.poll() is not None or time.monotonic() > deadline:
            raise AssertionError("the agent did not take its name:\n" + agent.log())
        time.sleep(0.0005)
    named = (time.monotonic_ns() - before) / 1e6
    time.sleep(1)
    rss = rss_kib(agent.pid)
    agent.terminate()
    deadline = time.monotonic() + PATIENCE
    while bus.name_has_owner(BUS_NAME):
        if time.monotonic() > deadline:
            raise AssertionError("the agent did not give its name up")
        time.sleep(0.01)
    return named, rss


def idle_switches(agent, seconds):
    wait_until_settled(agent.pid)
    before = voluntary_switches(agent.pid)
    time.sleep(seconds)
    return voluntary_switches(agent.pid) - before


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--idle-seconds", type=int, default=60)
    parser.add_argument("--output")
    options = parser.parse_args()

    session = Session()
    platform = Platform(session)
    shell = None
    try:
        platform.configure()
        shell = GnomeShell(session)
        version = shell.version
        bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
        start_once(session, bus)  # makes the store, unmeasured
        starts = [start_once(session, bus) for _ in range(options.starts)]
        agent = AgentProcess(session)
        quiet = idle_switches(agent, options.idle_seconds)
        from dbus_client import Client
        client = Client(session)
        timer_id, reply = platform.start_sleep()
        platform.mirror(client, timer_id, reply)
        deadline = time.monotonic() + PATIENCE
        while not [n for n in shell.notifications() if n["title"] == "Maya is asleep"]:
            if time.monotonic() > deadline:
                raise AssertionError("the Shell never showed the timer")
            time.sleep(0.1)
        shown = idle_switches(agent, options.idle_seconds)
        client.close()
        agent.terminate()
        bus.close()
    finally:
        if shell:
            shell.stop()
        platform.stop()
        session.close()

    named = statistics.median(s[0] for s in starts)
    rss = statistics.median(s[1] for s in starts)
    lines = [
        "Measured once: %s, GNOME Shell %s, kernel %s, %s; the agent %s."
        % (release(), version, host.release(), time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), program()),
        "",
        "| Figure | Value |",
        "|---|---|",
        "| Start to bus name, median of %d | %.1f ms (%.1f–%.1f) |"
        % (len(starts), named, min(s[0] for s in starts), max(s[0] for s in starts)),
        "| RSS 1 s after the name, median | %.1f MiB |" % (rss / 1024),
        "| Voluntary switches, all threads, %d s idle, no timer | %d |" % (options.idle_seconds, quiet),
        "| Voluntary switches, all threads, %d s idle, one timer shown | %d |" % (options.idle_seconds, shown),
    ]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if options.output:
        os.makedirs(os.path.dirname(os.path.abspath(options.output)), exist_ok=True)
        with open(options.output, "w") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
