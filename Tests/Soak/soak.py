#!/usr/bin/python3
"""Soak run of dfl-sleep-agent: the Sleep timers of a family's babies over
days of simulated time, as the app drives them, shown with their elapsed
time updated on every minute boundary, under a clock sped up by
libfaketime. Prints the agent's memory, descriptors and store size at the
start, the middle and the end (and once a simulated day), and exits non-zero
when any grew beyond its bound:

- resident memory (VmRSS) at the end at most 10 % above the start;
- open descriptors at the end and in the middle equal to the start;
- the store (sleep-timers.sqlite3) holds only the live rows at the end, and
  the file does not grow past its size at the start by more than a few
  pages; its write-ahead log stays within SQLite's automatic checkpoint
  (1,000 pages) plus one transaction;
- every sleep's notification is updated once per simulated minute while it
  runs (at least 95 % of its minutes, never twice for one minute): the
  proof that the faked clock drives the agent's minute-boundary timeouts;
- every token is renewed before it expires: no sleep ever shows
  token-expired;
- no notification of a finished sleep is left on the server.

What the app does, for each baby (--timers of them, one family): a sleep
starts and is mirrored with an action token of a few hours (the platform
issues tokens for hours, the agent takes at most a day); when the agent
announces TokenExpiring, the app mirrors the timer again with a fresh token
and the next revision, as the WebView bridge does; after 40 minutes to 11
hours the sleep is saved in the app, which removes its mirror; after a wake
window of 45 minutes to 3 hours the next sleep starts, as a new timer. The
lengths come from a seeded random generator (--seed), so a run can be
repeated. Besides, one short-lived timer is mirrored and removed every
simulated hour (--churn-minutes).

The start is taken after a warm-up of a quarter of a simulated day (a fifth
of the run when shorter), when the first churn cycles have run.

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
import random
import re
import signal
import sqlite3
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
INTEGRATION = os.path.join(os.path.dirname(HERE), "Integration")
sys.path.insert(0, INTEGRATION)

import dbus  # noqa: E402

import bus_probe  # noqa: E402
from dbus_client import Client  # noqa: E402
from desktop import RecordingServer  # noqa: E402
from harness import (ORIGIN, PATIENCE, AgentProcess, Session, canary_token, cpu_seconds, now_ms,  # noqa: E402
                     timer_dict)

FAKETIME_LIBRARIES = ("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
                      "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")
MINUTE_MS = 60 * 1000
DAY_MS = 24 * 60 * MINUTE_MS
# The platform issues action tokens for hours; the agent takes at most a day.
TOKEN_LIFETIME_MS = 6 * 60 * MINUTE_MS
# A sleep lasts this long (minutes), and the next starts after a wake window.
SLEEP_MINUTES = (40, 11 * 60)
WAKE_MINUTES = (45, 3 * 60)
# The agent allows 16 timers per family; the churn timer is one of them.
MAXIMUM_BABIES = 15
RSS_BOUND = 0.10
UPDATE_BOUND = 0.95
DB_SLACK_PAGES = 4
WAL_CHECKPOINT_PAGES = 1000
WAL_SLACK_PAGES = 100

def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=float, default=14.0, help="simulated days (default 14, at most 60)")
    parser.add_argument("--speed", type=int, default=1440,
                        help="simulated seconds per real second (default 1440: a day a minute)")
    parser.add_argument("--timers", type=int, default=5,
                        help="babies of the family, each with a Sleep timer of its own (default 5, at most %d)"
                        % MAXIMUM_BABIES)
    parser.add_argument("--churn-minutes", type=int, default=60,
                        help="mirror and remove a short-lived timer every this many simulated minutes (0: never)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the sleeps' and wake windows' lengths")
    parser.add_argument("--faketime", default=None, help="the libfaketime library to preload")
    args = parser.parse_args()
    if not 0 < args.days <= 60:
        parser.error("--days must be more than 0 and at most 60")
    if args.speed < 1:
        parser.error("--speed must be at least 1")
    if not 1 <= args.timers <= MAXIMUM_BABIES:
        parser.error("--timers must be 1 to %d (the agent allows 16 timers per family, the churn timer among them)"
                     % MAXIMUM_BABIES)
    return args

def find_faketime(explicit):
    for path in ([explicit] if explicit else FAKETIME_LIBRARIES):
        if path and os.path.exists(path):
            return path
    sys.exit("soak: libfaketime is not installed (apt-get install faketime); looked for %s"
             % ", ".join([explicit] if explicit else FAKETIME_LIBRARIES))

class Updates:
    """The notification updates the recording server saw, read as they
    come: for each sleep's notification (by its id), the elapsed minutes
    its updates showed."""

    BODY = re.compile(r"· (?:(\d+) h)?\s*(?:(\d+) min)?$")

    def __init__(self, path):
        self.path = path
        # Only what comes from now on.
        self.offset = os.path.getsize(path) if os.path.exists(path) else 0
        self.partial = b""
        self.first = {}
        self.last = {}
        self.updates = {}
        self.duplicates = {}
        self.skipped = {}
        self.names = {}
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
            if line.strip():
                self.take(json.loads(line))

    def take(self, call):
        if call.get("method") != "Notify":
            return
        self.total += 1
        if not call["summary"].endswith(" is asleep") or call["summary"].startswith("Churn "):
            return
        match = self.BODY.search(call["body"])
        if not match:
            return
        minutes = int(match.group(1) or 0) * 60 + int(match.group(2) or 0)
        notification = call["id"]
        self.names[notification] = call["summary"][:-len(" is asleep")]
        if notification not in self.first:
            self.first[notification] = minutes
            self.updates[notification] = 1
            self.duplicates[notification] = 0
            self.skipped[notification] = 0
        else:
            step = minutes - self.last[notification]
            if step <= 0:
                self.duplicates[notification] += 1
            else:
                self.updates[notification] += 1
                self.skipped[notification] += step - 1
        self.last[notification] = max(minutes, self.last.get(notification, minutes))

    def span(self, notification):
        """The minutes from its first update to its last, both counted."""
        return self.last[notification] - self.first[notification] + 1

    def latest(self, name):
        """The newest notification of a baby's sleeps."""
        return max((notification for notification, shown in self.names.items() if shown == name), default=None)


class Babies:
    """The app's side: each baby's sleeps one after another, mirrored,
    renewed and removed as the app does (see the module's description)."""

    def __init__(self, count, seed):
        self.random = random.Random(seed)
        self.slots = [{"name": "Baby %02d" % number, "timer": None, "ends_at": None, "starts_at": None,
                       "baby_id": str(uuid.UUID(int=self.random.getrandbits(128), version=4)), "count": 0}
                      for number in range(count)]
        # Each sleep is named after its baby and its number ("Baby 03 s7"),
        # so that its notification tells which sleep it shows.
        self.sleep_names = {}
        self.sleeps = 0
        self.renewals = 0
        self.finished = 0
        self.failures = []

    def minutes(self, bounds):
        return self.random.randint(*bounds) * MINUTE_MS

    def mirror(self, client, timer, what):
        try:
            client.mirror(timer)
            return True
        except dbus.exceptions.DBusException as error:
            self.failures.append("the Mirror of %s was refused: %s" % (what, error.get_dbus_message()))
            return False

    def fall_asleep(self, client, slot, now, ago_ms):
        """A new sleep, started `ago_ms` before `now`, as a new timer."""
        slot["count"] += 1
        timer = timer_dict(baby_name="%s s%d" % (slot["name"], slot["count"]), baby_id=slot["baby_id"],
                           started_at_ms=now - ago_ms, token_expires_at_ms=now + TOKEN_LIFETIME_MS, revision=1)
        self.sleep_names[timer["timer_id"]] = timer["baby_name"]
        if self.mirror(client, timer, "a new sleep"):
            slot["timer"] = timer
            slot["ends_at"] = timer["started_at_ms"] + self.minutes(SLEEP_MINUTES)
            self.sleeps += 1
        else:
            slot["starts_at"] = now + self.minutes(WAKE_MINUTES)

    def begin(self, client, now):
        """Every baby asleep for a few minutes, 7 s apart, so that the
        minute boundaries of the timers fall at different moments."""
        for number, slot in enumerate(self.slots):
            self.fall_asleep(client, slot, now, (3 * 60 + 7 * number) * 1000)

    def act(self, client, now):
        """Ends the sleeps whose time has come and starts the next ones."""
        for slot in self.slots:
            if slot["timer"] is not None and now >= slot["ends_at"]:
                if not bool(client.timers.Remove(slot["timer"]["timer_id"])):
                    self.failures.append("a finished sleep was no longer mirrored when the app removed it")
                slot["timer"] = None
                slot["starts_at"] = now + self.minutes(WAKE_MINUTES)
                self.finished += 1
            elif slot["timer"] is None and now >= slot["starts_at"]:
                self.fall_asleep(client, slot, now, self.random.randint(60, 10 * 60) * 1000)

    def renew(self, client, timer_id, now):
        """TokenExpiring: the timer mirrored again, with a fresh token and
        the next revision."""
        slot = next((slot for slot in self.slots if slot["timer"] and slot["timer"]["timer_id"] == timer_id), None)
        if slot is None:
            return
        timer = dict(slot["timer"], action_token=canary_token(), token_expires_at_ms=now + TOKEN_LIFETIME_MS,
                     revision=slot["timer"]["revision"] + 1)
        if self.mirror(client, timer, "a renewal"):
            slot["timer"] = timer
            self.renewals += 1

    def live(self):
        return [slot["timer"] for slot in self.slots if slot["timer"] is not None]


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
        self.babies = Babies(args.timers, args.seed)
        self.expired = set()

    def close(self):
        self.session.close()

    def log(self, text):
        print(text, flush=True)

    # -- setting up

    def prepare(self):
        """Mirrors the first sleeps through an agent on real time, then
        stops it: the soak's agent starts with them in its store."""
        session = self.session
        session.write_config("[platform]\nallowed-origins=%s\n\n[app]\nurl-opener=%s\n\n"
                             "[notifications]\nlive-elapsed=on\n" % (ORIGIN, session.opener_path()))
        self.server = RecordingServer(session)
        agent = AgentProcess(session)
        client = Client(session)
        self.babies.begin(client, now_ms())
        # Stopped only once every notification is shown and its id kept in
        # the store, so that the soak's agent replaces them rather than
        # showing each a second time.
        deadline = time.monotonic() + PATIENCE
        while store_rows(session.state_dir).get("notifications", 0) < len(self.babies.live()):
            if time.monotonic() > deadline:
                sys.exit("soak: the preparing agent did not show every sleep:\n" + agent.log())
            time.sleep(0.05)
        client.close()
        if agent.terminate() != 0:
            sys.exit("soak: the preparing agent did not stop cleanly:\n" + agent.log())

    def start(self):
        env = {"LD_PRELOAD": self.preload, "FAKETIME": "+0 x%d" % self.args.speed}
        self.real_start = time.time()
        self.agent = AgentProcess(self.session, extra_env=env)
        self.client = Client(self.session)
        self.updates = Updates(self.server.record)

    def faked_now_ms(self):
        """The agent's clock, estimated from the moment it started: a little
        ahead of it, by the time the agent took to start."""
        return int((self.real_start + (time.time() - self.real_start) * self.args.speed) * 1000)

    def handle_signals(self):
        """The app's answer to TokenExpiring (a renewal), and a note of any
        sleep whose token ran out before it."""
        self.client.pump()
        signals = list(self.client.signals)
        self.client.signals.clear()
        for member, args in signals:
            if member == "TokenExpiring":
                self.babies.renew(self.client, args[0], self.faked_now_ms())
            elif member == "TimerChanged" and args[0].get("state") == "token-expired":
                self.expired.add(args[0]["timer_id"])

    # -- during the run

    def churn(self):
        """A short-lived timer: mirrored, listed, removed."""
        now = self.faked_now_ms()
        timer = timer_dict(baby_name="Churn", started_at_ms=now - 12 * 60 * MINUTE_MS,
                           token_expires_at_ms=now + TOKEN_LIFETIME_MS)
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
        self.handle_signals()
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
        self.log("soak: %d babies' sleeps, %g simulated days at x%d (a simulated minute every %.1f ms), tokens of "
                 "%d h, a churn timer every %d simulated minutes; libfaketime: %s" % (
                     args.timers, args.days, args.speed, 60000.0 / args.speed, TOKEN_LIFETIME_MS // (60 * MINUTE_MS),
                     args.churn_minutes, self.preload))
        self.log("%-7s %7s %8s %9s %4s %10s %10s %9s %8s  %s" % (
            "sample", "sim-day", "real-s", "RSS-KiB", "fds", "db-bytes", "wal-bytes", "updates", "cpu-s", "rows"))
        next_churn = args.churn_minutes
        while marks:
            if self.agent.process.poll() is not None:
                self.failures.append("the agent exited with status %s" % self.agent.process.returncode)
                break
            self.updates.read()
            self.handle_signals()
            self.babies.act(self.client, self.faked_now_ms())
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
                time.sleep(0.1)
        self.handle_signals()
        self.simulated = (time.time() - self.real_start) * args.speed / 60.0
        self.updates.read()
        self.timeouts = self.agent.log().count("Timeout was reached")

    # -- the verdict

    def left_open(self):
        """Notification ids the server still shows: posted, and never
        closed. Only the live sleeps' may be among them."""
        posted, closed = set(), set()
        for call in self.server.calls():
            if call["method"] == "Notify":
                posted.add(call["id"])
            elif call["method"] in ("CloseNotification", "Dismiss"):
                closed.add(call["id"])
        return sorted(posted - closed)

    def lost_sleeps(self):
        """The sleeps whose notification the agent gave up on after a call
        timed out (see the timeouts above): an artefact of the faked clock,
        which gives the server 25/speed s to answer."""
        lost = set()
        for match in re.finditer(r"Could not show the notification of timer (\S+): (.*)", self.agent.log()):
            if "Timeout was reached" in match.group(2) and match.group(1) in self.babies.sleep_names:
                lost.add(self.babies.sleep_names[match.group(1)])
        return lost

    def update_checks(self):
        """Every sleep's notification updated once per minute while it ran,
        and the live sleeps' still now; the sleeps lost to a timed-out call
        are counted apart, at most one per timeout."""
        updates = self.updates
        lost = self.lost_sleeps()
        sleeps = [n for n in updates.first if updates.names[n] not in lost]
        spans = sum(updates.span(n) for n in sleeps)
        advanced = sum(updates.updates[n] for n in sleeps)
        skipped = sum(updates.skipped[n] for n in sleeps)
        repeated = sum(updates.duplicates[n] for n in sleeps)
        checks = [("%d sleeps shown over %d simulated minutes in all: %d updates, %d minutes skipped, %d repeated "
                   "(bound: at least %d %%, none repeated)" % (
                       len(sleeps), spans, advanced, skipped, repeated, 100 * UPDATE_BOUND),
                   sleeps and advanced >= UPDATE_BOUND * spans and repeated == 0)]
        checks.append(("sleeps whose notification was given up after a timed-out call: %d (bound: the timeouts, %d)%s"
                       % (len(lost), self.timeouts, ": " + ", ".join(sorted(lost)) if lost else ""),
                       len(lost) <= self.timeouts))
        now = self.faked_now_ms()
        for timer in self.babies.live():
            if timer["baby_name"] in lost:
                continue
            notification = updates.latest(timer["baby_name"])
            elapsed = (now - timer["started_at_ms"]) // MINUTE_MS
            shown = updates.last.get(notification)
            checks.append(("%s asleep for %d min shows %s" % (timer["baby_name"], elapsed, shown),
                           shown is not None and elapsed - 3 <= shown <= elapsed + 1))
        return checks

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
            live = len(self.babies.live())
            bound = {"timers": live, "completions": 0, "notifications": live}
            checks.append(("rows at the end %r (bound: the live rows %r)" % (end["rows"], bound),
                           all(end["rows"].get(table, 0) <= count for table, count in bound.items())))
        checks += self.update_checks()
        simulated = int(self.simulated)
        babies = self.babies
        checks.append(("%d sleeps started, %d finished and removed, %d tokens renewed on TokenExpiring; sleeps whose "
                       "token ran out: %d (bound 0)" % (babies.sleeps, babies.finished, babies.renewals,
                                                         len(self.expired)),
                       babies.renewals > 0 and not self.expired))
        rate = self.updates.total / simulated if simulated else 0.0
        real = time.time() - self.real_start
        self.log("")
        self.log("simulated %.2f days in %.1f s of real time (x%d); %.2f notification calls per simulated minute; "
                 "%d notification calls timed out (each gives the server 25 s of the agent's clock: %.1f ms at x%d)"
                 % (simulated / 1440.0, real, self.args.speed, rate, self.timeouts, 25000.0 / self.args.speed,
                    self.args.speed))
        # Each live sleep shows one notification. A Notify whose answer the
        # agent waited for in vain (see the timeouts above) was shown by the
        # server all the same, under an id the agent never learnt: it may be
        # left over, one per timeout, and nothing else may. A sleep removed
        # in the run's last moments may still be closing.
        live = len(self.babies.live())
        deadline = time.monotonic() + PATIENCE
        left = self.left_open()
        while len(left) > live + self.timeouts and time.monotonic() < deadline:
            time.sleep(0.1)
            left = self.left_open()
        summaries = {call["id"]: call["summary"] for call in self.server.calls() if call["method"] == "Notify"}
        shown = {summaries[n][:-len(" is asleep")] for n in left}
        lost = self.lost_sleeps()
        checks.append(("notifications left on the server: %d (bound: one per live sleep, %d, and one per timed-out "
                       "call, %d): %s" % (len(left), live, self.timeouts, ", ".join(summaries[n] for n in left)),
                       len(left) <= live + self.timeouts
                       and all(timer["baby_name"] in shown or timer["baby_name"] in lost
                               for timer in self.babies.live())))
        crash = bus_probe.crash_signs(self.agent.log())
        checks.append(("the agent still runs, same process, no crash in its log", self.agent.process.poll() is None
                       and not crash))
        if self.timeouts:
            self.log("note: after a failed Notify the agent forgets the notification (see 'Could not show the "
                     "notification' in its log): it is never updated or closed again, and its buttons do nothing.")
        for text, ok in checks:
            self.log("%s %s" % ("ok  " if ok else "FAIL", text))
        for failure in self.failures + self.babies.failures:
            self.log("FAIL %s" % failure)
        if crash:
            self.log("agent log:\n" + "\n".join(crash))
        return all(ok for _, ok in checks) and not self.failures and not self.babies.failures

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
