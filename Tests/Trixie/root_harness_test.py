"""root.sh run leaves nothing on the host (red-team finding 8).

Run on the host, not in the root (Tests/Trixie/run.sh runs it before the
desktop tests; its name keeps it out of the discovery that runs inside):
a command that leaves processes behind in the background, one of them in a
session of its own, and a run stopped with SIGTERM while its command still
runs, each end with no process of the run alive, no overlay mounted, and
nothing new in /tmp or in the cache's folder (but the overlay of another
run still going). As root.
"""

import os
import secrets
import signal
import subprocess
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT_SH = os.path.join(HERE, "root.sh")
PATIENCE = 60


def processes_named(marker: str) -> list[str]:
    """The command lines of the host's processes that carry the marker."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as file:
                line = file.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in line:
            found.append(f"{pid}: {line.strip()}")
    return found


def another_runs_overlay(entry: str) -> bool:
    """Whether `entry` of the cache's folder is the overlay of a root.sh run
    still going: its name (overlay.PID.XXXXXX) names a live root.sh. make
    check builds the Flatpak in the root ahead, beside the desktop tests;
    the run under test has ended when this is asked."""
    parts = entry.split(".")
    if len(parts) != 3 or parts[0] != "overlay" or not parts[1].isdigit():
        return False
    try:
        with open(f"/proc/{parts[1]}/cmdline", "rb") as file:
            return b"root.sh" in file.read()
    except OSError:
        return False


def overlay_mounts(cache: str) -> list[str]:
    with open("/proc/self/mountinfo", encoding="utf-8") as file:
        return [line.strip() for line in file if cache in line or "trixie-overlay" in line]


class RootHarnessTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise AssertionError("root.sh enters the root with mounts and namespaces: run as root")
        cls.root = subprocess.run([ROOT_SH, "path"], capture_output=True, text=True, check=True).stdout.strip()
        cls.cache = os.path.dirname(cls.root)

    def snapshot(self) -> tuple[set[str], set[str]]:
        return set(os.listdir("/tmp")), set(os.listdir(self.cache))

    def assert_nothing_left(self, marker: str, before: tuple[set[str], set[str]]):
        deadline = time.monotonic() + PATIENCE
        # The kernel ends a PID namespace's processes as its first one exits;
        # their entries in /proc go a moment later.
        while processes_named(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        self.assertEqual(processes_named(marker), [], "processes of the run outlived it")
        self.assertEqual(overlay_mounts(self.cache), [], "a mount of the run is left")
        tmp, cache = self.snapshot()
        self.assertEqual(sorted(tmp - before[0]), [], "new entries in /tmp")
        left = [entry for entry in sorted(cache - before[1]) if not another_runs_overlay(entry)]
        self.assertEqual(left, [], "new entries in the cache's folder")

    def test_background_processes_end_with_the_run(self):
        marker = "dfl-harness-" + secrets.token_hex(6)
        before = self.snapshot()
        script = (f"(exec -a {marker}-child sleep 600) & "
                  f"setsid -f bash -c 'exec -a {marker}-session sleep 600'; "
                  f"nohup bash -c 'exec -a {marker}-nohup sleep 600' >/dev/null 2>&1 & "
                  "sleep 1; echo started")
        done = subprocess.run([ROOT_SH, "run", "/bin/bash", "-c", script],
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("started", done.stdout)
        self.assert_nothing_left(marker, before)

    def test_a_stopped_run_ends_its_command(self):
        marker = "dfl-harness-" + secrets.token_hex(6)
        before = self.snapshot()
        run = subprocess.Popen([ROOT_SH, "run", "/bin/bash", "-c",
                                f"(exec -a {marker}-child sleep 600) & echo started; wait"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            self.assertEqual(run.stdout.readline().strip(), "started", "the command in the root did not start")
            self.assertTrue(processes_named(marker), "the command's child is not seen running")
            run.send_signal(signal.SIGTERM)
            run.wait(timeout=PATIENCE)
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
            run.stdout.close()
            run.stderr.close()
        self.assertNotEqual(run.returncode, 0)
        self.assert_nothing_left(marker, before)


if __name__ == "__main__":
    unittest.main()
