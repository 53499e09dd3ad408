#!/usr/bin/python3
"""Soak run of dfl-sleep-agent: live timers shown with their elapsed time
updated on every minute boundary, for days of simulated time, under a clock
sped up by libfaketime. Prints the agent's memory, descriptors and store
size at the start, the middle and the end (and once a simulated day), and
exits non-zero when any grew beyond its bound:

- resident memory (VmRSS) at the end at most 10 % above the start;
- open descriptors at the end and in the middle equal to the start;
- the store (sleep-timers.sqlite3) holds only the live rows at the end, and
  the file does not grow past its size at the start by more than a few
  pages; its write-ahead log stays within SQLite's automatic checkpoint
  (1,000 pages) plus one transaction;
- every live timer's notification is updated once per simulated minute (at
  least 95 % of the simulated minutes, never twice for one minute): the
  proof that the faked clock drives the agent's minute-boundary timeouts.

The start is taken after a warm-up of a quarter of a simulated day (a fifth
of the run when shorter), when the first churn cycles have run.

Besides the live timers, one short-lived timer is mirrored and removed
every simulated hour (--churn-minutes), so that the store, the signals and
the notifications are exercised the whole time.

    /usr/bin/python3 Tests/Soak/soak.py --days 1     # about 1.5 minutes
    /usr/bin/python3 Tests/Soak/soak.py              # 14 days, about 15 minutes

How the clock is faked: libfaketime (Debian package faketime) is preloaded
into the agent with FAKETIME="+0 x<speed>". It fakes CLOCK_REALTIME (the
agent's wall clock) and CLOCK_MONOTONIC (GLib's timeouts) and divides the
timeouts of poll(), which GLib's main loop sleeps in, by the speed, so the
loop's timeouts fire at the simulated rate. It scales every timeout of the
process alike, though, including the 25 s that GDBus (inside libnotify)
waits for the notification server's answer, a process on real time: at
speed S the server must answer within 25/S s. At the default x1440 that is
17 ms; much faster speeds make updates fail with "Timeout was reached",
which the run reports.
"""

import argparse
import json
import os
import re
import signal
import sqlite3
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INTEGRATION = os.path.join(os.path.dirname(HERE), "Integration")
sys.path.insert(0, INTEGRATION)

import bus_probe  # noqa: E402
from dbus_client import Client  # noqa: E402
from desktop import RecordingServer  # noqa: E402
from harness import ORIGIN, PATIENCE, AgentProcess, Session, cpu_seconds, now_ms, timer_dict  # noqa: E402

FAKETIME_LIBRARIES = ("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
                      "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")
MINUTE_MS = 60 * 1000
DAY_MS = 24 * 60 * MINUTE_MS
# The agent accepts tokens that expire at most 30 days ahead.
TOKEN_LIFETIME_MS = 29 * DAY_MS
RSS_BOUND = 0.10
UPDATE_BOUND = 0.95
DB_SLACK_PAGES = 4
WAL_CHECKPOINT_PAGES = 1000
WAL_SLACK_PAGES = 100

def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=float, default=14.0, help="simulated days (default 14, at most 28)")
    parser.add_argument("--speed", type=int, default=1440,
                        help="simulated seconds per real second (default 1440: a day a minute)")
    parser.add_argument("--timers", type=int, default=5, help="live timers (default 5)")
    parser.add_argument("--churn-minutes", type=int, default=60,
                        help="mirror and remove a short-lived timer every this many simulated minutes (0: never)")
    parser.add_argument("--faketime", default=None, help="the libfaketime library to preload")
    args = parser.parse_args()
    if not 0 < args.days <= 28:
        parser.error("--days must be more than 0 and at most 28 (the tokens live 29 days)")
    if args.speed < 1:
        parser.error("--speed must be at least 1")
    if not 1 <= args.timers <= 50:
        parser.error("--timers must be 1 to 50")
    return args

def find_faketime(explicit):
    for path in ([explicit] if explicit else FAKETIME_LIBRARIES):
        if path and os.path.exists(path):
            return path
    sys.exit("soak: libfaketime is not installed (apt-get install faketime); looked for %s"
             % ", ".join([explicit] if explicit else FAKETIME_LIBRARIES))

class Updates:
    """The notification updates the recording server saw, read as they
    come: for each live timer, the elapsed minutes each update showed."""

    BODY = re.compile(r"· (?:(\d+) h)?\s*(?:(\d+) min)?$")

    def __init__(self, path, names):
        self.path = path
        self.names = names
        # Only what comes from now on.
        self.offset = os.path.getsize(path) if os.path.exists(path) else 0
        self.partial = b""
        self.minutes = {name: [] for name in names}
        self.updates = {name: 0 for name in names}
        self.duplicates = {name: 0 for name in names}
        self.skipped = {name: 0 for name in names}
        self.first = {}
        self.total = 0

    def read(self):
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self.offset)
                data = handle.read()
        except FileNotFoundError:
            return
        self.offset += len(data)
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            if not line.strip():
                continue
            call = json.loads(line)
            if call.get("method") != "Notify":
                continue
            self.total += 1
            name = call["summary"][:-len(" is asleep")] if call["summary"].endswith(" is asleep") else None
            if name not in self.minutes:
                continue
            match = self.BODY.search(call["body"])
            if not match:
                continue
            minutes = int(match.group(1) or 0) * 60 + int(match.group(2) or 0)
            seen = self.minutes[name]
            if seen:
                step = minutes - seen[-1]
                if step <= 0:
                    self.duplicates[name] += 1
                elif step > 1:
                    self.skipped[name] += step - 1
            else:
                self.first[name] = minutes
            if not seen or minutes > seen[-1]:
                self.updates[name] += 1
            seen[:] = [minutes]

    def shown(self):
        """The elapsed minutes each timer shows now."""
        return {name: (values[-1] if values else None) for name, values in self.minutes.items()}

    def simulated_minutes(self):
        """Simulated minutes since the faked agent started, as its own
        updates show them (the timer furthest on: one that stopped being
        updated shows in its own count)."""
        values = [self.minutes[name][-1] - self.first[name] for name in self.names if self.minutes[name]]
        return max(values) if values else 0

def store_rows(state_dir):
    """Rows of every table of the agent's store, read without writing."""
    path = os.path.join(state_dir, "sleep-timers.sqlite3")
    connection = sqlite3.connect("file:%s?mode=ro" % path, uri=True, timeout=PATIENCE)
    try:
        tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: connection.execute('SELECT count(*) FROM "%s"' % table).fetchone()[0] for table in tables}
    finally:
        connection.close()

def page_size(state_dir):
    with open(os.path.join(state_dir, "sleep-timers.sqlite3"), "rb") as handle:
        header = handle.read(100)
    size = int.from_bytes(header[16:18], "big")
    return 65536 if size == 1 else size

class Soak:
    def __init__(self, args):
        self.args = args
        self.preload = find_faketime(args.faketime)
        self.session = Session()
        self.samples = []
        self.failures = []
        self.timeouts = 0

    def close(self):
        self.session.close()

    def log(self, text):
        print(text, flush=True)

    # -- setting up

    def prepare(self):
        """Mirrors the live timers through an agent on real time, then
        stops it: the soak's agent starts with them in its store."""
        session = self.session
        session.write_config("[platform]\nallowed-origins=%s\n\n[app]\nurl-opener=%s\n\n"
                             "[notifications]\nlive-elapsed=on\n" % (ORIGIN, session.opener_path()))
        self.server = RecordingServer(session)
        agent = AgentProcess(session)
        client = Client(session)
        self.names = ["Baby %02d" % number for number in range(self.args.timers)]
        self.live = []
        for number, name in enumerate(self.names):
            # Started a few minutes ago, 7 s apart: the minute boundaries of
            # the timers fall at different moments.
            timer = timer_dict(baby_name=name, started_at_ms=now_ms() - (3 * 60 + 7 * number) * 1000,
                               token_expires_at_ms=now_ms() + TOKEN_LIFETIME_MS)
            client.mirror(timer)
            self.live.append(timer["timer_id"])
        client.close()
        if agent.terminate() != 0:
            sys.exit("soak: the preparing agent did not stop cleanly:\n" + agent.log())

    def start(self):
        env = {"LD_PRELOAD": self.preload, "FAKETIME": "+0 x%d" % self.args.speed}
        self.real_start = time.time()
        self.agent = AgentProcess(self.session, extra_env=env)
        self.client = Client(self.session)
        self.updates = Updates(self.server.record, self.names)

    def faked_now_ms(self):
        """The agent's clock, estimated from the moment it started."""
        return int((self.real_start + (time.time() - self.real_start) * self.args.speed) * 1000)

    # -- during the run

    def churn(self):
        """A short-lived timer: mirrored, listed, removed."""
        now = self.faked_now_ms()
        timer = timer_dict(baby_name="Churn", started_at_ms=now - 12 * 60 * MINUTE_MS,
                           token_expires_at_ms=now + 10 * DAY_MS)
        self.client.mirror(timer)
        if not any(t["timer_id"] == timer["timer_id"] for t in self.client.list()):
            self.failures.append("a churn timer was not listed after its Mirror")
        if not bool(self.client.timers.Remove(timer["timer_id"])):
            self.failures.append("a churn timer could not be removed")

    @staticmethod
    def steady_descriptors(pid):
        """The descriptors the agent holds for good: GDBus opens an eventfd
        for the length of each call it waits for, so the fewest of a few
        readings counts."""
        counts = []
        for _ in range(5):
            counts.append(len(bus_probe.descriptors(pid)))
            time.sleep(0.02)
        return min(counts)

    def sample(self, label, simulated_minutes):
        pid = self.agent.pid
        state_dir = self.session.state_dir
        self.client.list()
        self.client.properties.GetAll("com.dreamsforlittles.SleepTimers1")
        self.client.pump()
        self.client.signals.clear()
        sizes = bus_probe.state_size(state_dir)
        sample = {
            "label": label, "day": simulated_minutes / 1440.0, "real": time.time() - self.real_start,
            "rss": bus_probe.rss_kib(pid), "fds": self.steady_descriptors(pid),
            "db": sizes["db"], "wal": sizes["-wal"], "shm": sizes["-shm"], "rows": store_rows(state_dir),
            "updates": sum(self.updates.updates.values()), "cpu": cpu_seconds(pid),
        }
        self.samples.append(sample)
        rows = " ".join("%s=%d" % (table, count) for table, count in sorted(sample["rows"].items()))
        self.log("%-7s %7.2f %8.1f %9d %4d %10d %10d %9d %8.1f  %s" % (
            label, sample["day"], sample["real"], sample["rss"], sample["fds"], sample["db"], sample["wal"],
            sample["updates"], sample["cpu"], rows))
        return sample

    def run(self):
        args = self.args
        total_minutes = int(args.days * 1440)
        warm_up = min(360, total_minutes // 5)
        marks = [("start", warm_up), ("middle", total_minutes // 2), ("end", total_minutes)]
        marks += [("day", day * 1440) for day in range(1, int(args.days)) if day * 1440 not in
                  (warm_up, total_minutes // 2, total_minutes)]
        marks.sort(key=lambda mark: mark[1])
        self.log("soak: %d live timers, %g simulated days at x%d (a simulated minute every %.1f ms), "
                 "a churn timer every %d simulated minutes; libfaketime: %s" % (
                     args.timers, args.days, args.speed, 60000.0 / args.speed, args.churn_minutes, self.preload))
        self.log("%-7s %7s %8s %9s %4s %10s %10s %9s %8s  %s" % (
            "sample", "sim-day", "real-s", "RSS-KiB", "fds", "db-bytes", "wal-bytes", "updates", "cpu-s", "rows"))
        next_churn = args.churn_minutes
        while marks:
            if self.agent.process.poll() is not None:
                self.failures.append("the agent exited with status %s" % self.agent.process.returncode)
                break
            self.updates.read()
            # The simulated time is the agent's clock, estimated from the
            # real time since it started; its own updates show whether its
            # timeouts kept pace.
            simulated = (time.time() - self.real_start) * args.speed / 60.0
            if args.churn_minutes and simulated >= next_churn:
                self.churn()
                next_churn += args.churn_minutes
            if simulated >= marks[0][1]:
                label, _ = marks.pop(0)
                self.sample(label, simulated)
            else:
                time.sleep(0.2)
        self.simulated = (time.time() - self.real_start) * args.speed / 60.0
        self.updates.read()
        self.timeouts = self.agent.log().count("Timeout was reached")

    # -- the verdict

    def left_open(self):
        """Notification ids of churn timers that the server still shows:
        posted, and never closed after their timer was removed."""
        posted, closed = set(), set()
        for call in self.server.calls():
            if call["method"] == "Notify" and call["summary"].startswith("Churn "):
                posted.add(call["id"])
            elif call["method"] == "CloseNotification":
                closed.add(call["id"])
        return sorted(posted - closed)

    def verdict(self):
        by_label = {sample["label"]: sample for sample in self.samples}
        checks = []
        if not all(label in by_label for label in ("start", "middle", "end")):
            self.failures.append("the run ended before its last sample")
        else:
            start, middle, end = by_label["start"], by_label["middle"], by_label["end"]
            growth = (end["rss"] - start["rss"]) / start["rss"]
            checks.append(("RSS %d -> %d -> %d KiB (%+.1f %%, bound +%d %%)" % (
                start["rss"], middle["rss"], end["rss"], 100 * growth, 100 * RSS_BOUND), growth <= RSS_BOUND))
            checks.append(("descriptors %d -> %d -> %d (bound: equal)" % (start["fds"], middle["fds"], end["fds"]),
                           start["fds"] == middle["fds"] == end["fds"]))
            page = page_size(self.session.state_dir)
            checks.append(("store file %d -> %d bytes (bound: +%d pages of %d bytes)" % (
                start["db"], end["db"], DB_SLACK_PAGES, page), end["db"] <= start["db"] + DB_SLACK_PAGES * page))
            wal_bound = (WAL_CHECKPOINT_PAGES + WAL_SLACK_PAGES) * (page + 24) + 32
            largest = max(sample["wal"] for sample in self.samples)
            checks.append(("write-ahead log at most %d bytes (bound %d: the automatic checkpoint)" % (
                largest, wal_bound), largest <= wal_bound))
            live = {"timers": self.args.timers, "completions": 0, "notifications": self.args.timers}
            checks.append(("rows at the end %r (bound: the live rows %r)" % (end["rows"], live),
                           all(end["rows"].get(table, 0) <= count for table, count in live.items())))
        simulated = int(self.simulated)
        shown = self.updates.shown()
        for name in self.names:
            updates = self.updates.updates[name]
            text = "%s: %d updates in %d simulated minutes, %d skipped, %d repeated" % (
                name, updates, simulated, self.updates.skipped[name], self.updates.duplicates[name])
            if shown[name] is not None and self.updates.first[name] + simulated - shown[name] > 2:
                text += "; its notification stopped at %d min (its first update showed %d)" % (
                    shown[name], self.updates.first[name])
            checks.append((text, updates >= UPDATE_BOUND * simulated and self.updates.duplicates[name] == 0))
        rate = sum(self.updates.updates.values()) / simulated if simulated else 0.0
        real = time.time() - self.real_start
        agent_clock = self.updates.simulated_minutes()
        self.log("")
        self.log("simulated %.2f days in %.1f s of real time (x%d); the agent's own updates show %.2f days (x%.0f); "
                 "%.2f notification updates per simulated minute for %d timers; %d notification calls timed out "
                 "(each gives the server 25 s of the agent's clock: %.1f ms at x%d)" % (
                     simulated / 1440.0, real, self.args.speed, agent_clock / 1440.0,
                     agent_clock * 60.0 / real if real else 0, rate, self.args.timers, self.timeouts,
                     25000.0 / self.args.speed, self.args.speed))
        left = self.left_open()
        checks.append(("notifications of removed timers left on the server: %d (bound 0)" % len(left), not left))
        crash = bus_probe.crash_signs(self.agent.log())
        checks.append(("the agent still runs, same process, no crash in its log", self.agent.process.poll() is None
                       and not crash))
        if self.timeouts:
            self.log("note: after a failed Notify the agent forgets the notification (see 'Could not show the "
                     "notification' in its log): it is never updated or closed again, and its buttons do nothing.")
        for text, ok in checks:
            self.log("%s %s" % ("ok  " if ok else "FAIL", text))
        for failure in self.failures:
            self.log("FAIL %s" % failure)
        if crash:
            self.log("agent log:\n" + "\n".join(crash))
        return all(ok for _, ok in checks) and not self.failures

def main():
    args = parse_arguments()
    soak = Soak(args)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    try:
        soak.prepare()
        soak.start()
        soak.run()
        ok = soak.verdict()
    except KeyboardInterrupt:
        ok = False
    finally:
        soak.close()
    sys.exit(0 if ok else 1)

if __name__ == "__main__":
    main()
