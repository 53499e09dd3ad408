#!/usr/bin/python3
"""What the desktop app costs with its window closed, beside the same app
with its window shown, and beside WebKitGTK's MiniBrowser showing the same
page, shown and with its window unmapped: the memory of each process tree
(PSS), and its CPU seconds and wake-ups in an idle minute, the wake-ups
also thread by thread.

The rest is real, as in the integration tests: a private session bus, the
agent, the reference platform over TLS serving the demo web app, Xvfb. The
app is signed in with real keys and mirrors a running Sleep (started on
"the phone", handed over by its page), so that closing its window keeps it
running; the window is closed as a window manager closes it.

Writes the section "## The app with its window closed" into
docs/BENCHMARKS.md (after the hand-written reading, which `make bench`
keeps), or prints it with --print. Run it with Debian's python3 (it needs
python3-dbus); DFL_BUILD_DIR chooses the binaries, as for the tests.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Integration"))

from app_harness import APP, WEBAPP, app_windows  # noqa: E402
from desktop import Display, xdotool  # noqa: E402
from bus_probe import process_tree  # noqa: E402
from harness import BUILD, AgentProcess, Platform, Session, eventually, stop  # noqa: E402
from window_close import request_close  # noqa: E402

HEADING = "## The app with its window closed"
MINIBROWSER = [p + "/webkitgtk-6.0/MiniBrowser" for p in
               ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib")]
SETTLE_S = 15
IDLE_S = 60


def pss_kib(pids):
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/smaps_rollup" % pid) as handle:
                total += next(int(line.split()[1]) for line in handle if line.startswith("Pss:"))
        except (OSError, StopIteration):
            pass
    return total


def cpu_ticks(pids):
    """utime + stime of each process (its exited threads included)."""
    ticks = {}
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            ticks[pid] = int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return ticks


def switches(pids):
    """Voluntary context switches of every thread, by (pid, tid): each is a
    sleep, so something woke the thread."""
    found = {}
    for pid in pids:
        try:
            tasks = os.listdir("/proc/%d/task" % pid)
        except OSError:
            continue
        for task in tasks:
            try:
                with open("/proc/%d/task/%s/status" % (pid, task)) as handle:
                    for line in handle:
                        if line.startswith("voluntary_ctxt_switches"):
                            found[(pid, task)] = int(line.split()[1])
            except OSError:
                pass
    return found


def name(pid, task=None):
    """A process's name, or one of its threads' (as WebKit and GLib name
    them: "JSC Heap Collector", "gmain"...)."""
    path = "/proc/%d/comm" % pid if task is None else "/proc/%d/task/%s/comm" % (pid, task)
    try:
        with open(path) as handle:
            return handle.read().strip()
    except OSError:
        return "?"


def idle_minute(root):
    """(PSS KiB at the end, CPU s, wake-ups, wake-ups by process name,
    wake-ups by process and thread name) of the tree of `root` over
    IDLE_S. Threads of one name in one process are counted together (a
    pool's workers); the main thread is "main", and a thread its program
    did not name has the process's name."""
    pids = process_tree(root)
    cpu_before, switches_before = cpu_ticks(pids), switches(pids)
    time.sleep(IDLE_S)
    pids = process_tree(root)
    cpu_after, switches_after = cpu_ticks(pids), switches(pids)
    cpu = sum(t - cpu_before.get(pid, 0) for pid, t in cpu_after.items()) / os.sysconf("SC_CLK_TCK")
    by_process, by_thread = {}, {}
    for key, n in switches_after.items():
        label, woken = name(key[0]), n - switches_before.get(key, 0)
        by_process[label] = by_process.get(label, 0) + woken
        thread = (label, "main" if str(key[0]) == key[1] else name(*key))
        by_thread[thread] = by_thread.get(thread, 0) + woken
    return pss_kib(pids), cpu, sum(by_process.values()), by_process, by_thread


class Run:
    def __init__(self):
        self.session = Session()
        self.platform = Platform(self.session, extra_args=("--webapp", WEBAPP))
        self.display = Display(self.session)
        self.session.env.update(GTK_A11Y="none", NO_AT_BRIDGE="1", PATH=BUILD + os.pathsep + self.session.env["PATH"])
        origin = self.platform.origin
        self.session.write_config("[platform]\nallowed-origins=%s\nca-file=%s\n\n[app]\nweb-origin=%s\n" % (
            origin, os.path.join(str(self.platform.certs), "ca.pem"), origin))
        self.agent = AgentProcess(self.session)

    def close(self):
        self.agent.terminate()
        self.platform.stop()
        self.session.close()

    def app_with_a_sleep(self):
        self.platform.start_sleep()
        loads = len(self.events())
        process = subprocess.Popen([APP], env=self.session.env, stdout=subprocess.DEVNULL,
                                   stderr=open(os.environ.get("BENCH_APP_LOG", os.devnull), "w"))
        self.session.processes.append(process)
        eventually(lambda: len(app_windows(self.session, process.pid)) == 1, what="the window")
        [window] = app_windows(self.session, process.pid)
        eventually(lambda: len(self.events()) > loads, what="the page to load")
        xdotool(self.session, "windowfocus", "--sync", window)
        xdotool(self.session, "key", "--window", window, "Tab")  # Sign in as Sam (parent)
        xdotool(self.session, "key", "--window", window, "Return")
        eventually(lambda: self.mirrored(), what="the page to hand the sleep to the desktop")
        return process, window

    def mirrored(self):
        return any(r["method"] == "PUT" and (r["body"] or {}).get("requestNativeActionToken") and r["hasAuthorization"]
                   for r in self.platform.requests())

    def events(self):
        return [r for r in self.platform.requests() if r["path"] == "/demo/events"]

    def measure_app(self):
        process, window = self.app_with_a_sleep()
        time.sleep(SETTLE_S)
        shown = idle_minute(process.pid)
        request_close(self.session, window)
        eventually(lambda: app_windows(self.session, process.pid) == [], what="the window to hide")
        time.sleep(SETTLE_S)
        hidden = idle_minute(process.pid)
        if process.poll() is not None:
            raise AssertionError("the app ended with its window closed")
        stop(process)
        return shown, hidden

    def measure_minibrowser(self):
        program = next((p for p in MINIBROWSER if os.access(p, os.X_OK)), None)
        if program is None:
            raise AssertionError("MiniBrowser is missing: install the Debian package libwebkitgtk-6.0-4")
        loads = len(self.events())
        process = subprocess.Popen([program, "--ignore-tls-errors", self.platform.origin + "/"], env=self.session.env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.session.processes.append(process)
        eventually(lambda: len(self.events()) > loads, what="MiniBrowser to load the page")
        time.sleep(SETTLE_S)
        shown = idle_minute(process.pid)
        # MiniBrowser keeps running when its window is unmapped (there is no
        # window manager to minimize it): GTK marks the window minimized, so
        # WebKit marks the page hidden, as for the app's closed window.
        windows = xdotool(self.session, "search", "--onlyvisible", "--pid", str(process.pid)).stdout.split()
        for window in windows:
            xdotool(self.session, "windowunmap", "--sync", window)
        time.sleep(SETTLE_S)
        hidden = idle_minute(process.pid)
        stop(process)
        return shown, hidden


# What each thread that wakes is, from WebKit's sources and an strace of
# each (the rows of the table by thread).
THREAD_NOTES = [
    "`main` of the UI process (dreamsforlittle), the web process and the network process: their GLib main "
    "loops, woken by the IPC messages their ReceiveQueue threads hand them and by their own timers (the web "
    "process's memory-pressure handler measures its footprint every 30 s; JavaScriptCore's garbage "
    "collector and sweeper run after the page has run).",
    "`ReceiveQueue`: WebKit's IPC receive threads, one per connection; each message between the UI, web "
    "and network processes wakes one, then the main thread it is for.",
    "`PressureMonitor` (the UI process's MemoryPressureMonitor): reads /proc/meminfo, /proc/zoneinfo, "
    "/proc/self/cgroup and the cgroup's memory files every 5 s (every 1 s when the system's memory is over "
    "85 % used), a constant in WebKit; only the environment variable WEBKIT_DISABLE_MEMORY_PRESSURE_MONITOR=1 "
    "stops it, which also turns off the web and network processes' response to memory pressure.",
    "The threads with their process's name and none of their own (`dreamsforlittle`, `WebKitWebProces`): "
    "with the window closed the one that wakes is libpas's scavenger (bmalloc), which returns freed memory to the system every "
    "100 ms while there is some, and sleeps (10 s, then until memory is freed) when there is none; its "
    "period is a compiled constant, with no environment variable or API. It wakes after the page has run.",
    "`JITWorker`, `HeapHelper`: JavaScriptCore's compiler and collector helpers, started when the page runs "
    "and ended when idle.",
]


def section(rounds):
    def column(samples, index, unit, digits=0):
        values = [sample[index] for sample in samples]
        text = " · ".join(("%.*f" % (digits, v)) for v in values)
        return ("%s %s (median %.*f)" % (text, unit, digits, statistics.median(values))).replace("  ", " ")

    def median_of(samples, key):
        return statistics.median([sample[4].get(key, 0) for sample in samples])

    shown = [r[0] for r in rounds]
    hidden = [r[1] for r in rounds]
    browser = [r[2][0] for r in rounds]
    browser_hidden = [r[2][1] for r in rounds]
    columns = (shown, hidden, browser, browser_hidden)
    lines = [
        HEADING, "",
        "Measured by `scripts/bench_background.py` (%s, %d round%s, %s binaries). Each round: the app "
        "signed in, a Sleep mirrored, its window shown, %d s to settle, then an idle minute; the window "
        "closed as a window manager closes it (WM_DELETE_WINDOW), %d s to settle, another idle minute; then "
        "MiniBrowser showing the demo web app's start page (not signed in: it has no desktop bridge), "
        "%d s to settle and an idle minute, and the same with its window unmapped (`xdotool windowunmap`)." % (
            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), len(rounds), "" if len(rounds) == 1 else "s",
            "debug" if "debug" in BUILD else "release", SETTLE_S, SETTLE_S, SETTLE_S),
        "",
        "| Figure | App, window shown | App, window closed | MiniBrowser, shown | MiniBrowser, unmapped |",
        "|---|---|---|---|---|",
        "| PSS of the process tree at the minute's end | %s |" % " | ".join(column(c, 0, "KiB") for c in columns),
        "| CPU time of the tree in the idle minute | %s |" % " | ".join(column(c, 1, "s", 2) for c in columns),
        "| Wake-ups of the tree in the idle minute | %s |" % " | ".join(column(c, 2, "") for c in columns),
        "",
        "Wake-ups in the idle minute by process and thread (median of the rounds; threads of one name in one "
        "process together, rows under 1 left out):",
        "",
        "| Process | Thread | App, shown | App, closed | MiniBrowser, shown | MiniBrowser, unmapped |",
        "|---|---|---|---|---|---|",
    ]
    keys = {k for c in columns for sample in c for k in sample[4]}
    for key in sorted(keys, key=lambda k: (-median_of(hidden, k), -median_of(shown, k), k)):
        figures = [median_of(c, key) for c in columns]
        if max(figures) >= 1:
            lines.append("| %s | %s | %s |" % (key[0], key[1], " | ".join("%g" % f for f in figures)))
    lines += [""] + ["- " + note for note in THREAD_NOTES] + [
        "- The tree is the program and every process descended from it: WebKit's network and web processes, "
        "their sandbox helpers, and the app's dfl-webview-bridge. PSS counts a page shared by several of them "
        "once; a wake-up is a voluntary context switch of a thread (a sleep, so something woke it).",
        "- With the window closed the view is unmapped, so WebKit marks the page hidden "
        "(`document.visibilityState` is `hidden`) and throttles its timers and painting. The demo page fetches "
        "the family's timers while one runs every 15 s when shown; hidden it runs no timer and waits on the "
        "reference platform's change feed (the stand-in for realtime updates), a long poll answered when the "
        "store changes or after 45 s. MiniBrowser's page, with no one signed in, waits on the same feed and "
        "fetches nothing.",
        "",
    ]
    return "\n".join(lines)


def write(text, path):
    with open(path) as handle:
        current = handle.read()
    start = current.find("\n" + HEADING + "\n")
    if start >= 0:
        rest = current.find("\n## ", start + 1)
        current = current[:start + 1] + text.rstrip("\n") + "\n\n" + (current[rest + 1:] if rest >= 0 else "")
    else:
        current = current.rstrip("\n") + "\n\n" + text
    with open(path, "w") as handle:
        handle.write(current)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--print", action="store_true", help="print the section instead of writing it")
    parser.add_argument("--output", default=os.path.join(HERE, "..", "docs", "BENCHMARKS.md"))
    arguments = parser.parse_args()
    rounds = []
    for _ in range(arguments.rounds):
        run = Run()
        try:
            shown, hidden = run.measure_app()
            browser = run.measure_minibrowser()
        finally:
            run.close()
        rounds.append((shown, hidden, browser))
    text = section(rounds)
    if arguments.print:
        print(text)
    else:
        write(text, arguments.output)
        print(text)


if __name__ == "__main__":
    main()
