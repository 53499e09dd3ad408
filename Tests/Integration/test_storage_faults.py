"""Storage faults under a running agent: a full disk and I/O errors during
a completion (injected into the store's writes), a real full file system, a
read-only state directory, a corrupt database and a corrupt WAL. The agent
reports each clearly, keeps serving what it can, and never loses a recorded
completion or invents one."""

import os
import re
import signal
import subprocess
import time
import unittest

import dbus

from harness import (ERROR, INTERFACE, LEO, PATIENCE, PlatformTestCase, cpu_seconds, eventually, iso_ms, now_ms,
                     timer_dict)

HERE = os.path.dirname(os.path.abspath(__file__))


def build_fault_library(directory):
    library = os.path.join(directory, "io-fault.so")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", library, os.path.join(HERE, "faults", "io-fault.c"), "-ldl"],
                   check=True)
    return library


class InjectedFaultTests(PlatformTestCase):
    # Half a minute waited for the retry that lands the completion: it runs
    # in the lane beside the workers (parallel.py), not in one of them.
    mostly_waits = True

    def setUp(self):
        super().setUp()
        self.trigger = os.path.join(self.session.root, "io-fault")
        self.start_agent(LD_PRELOAD=build_fault_library(self.session.root), DFL_IO_FAULT_FILE=self.trigger)

    def fault(self, mode):
        with open(self.trigger, "w") as handle:
            handle.write(mode)

    def test_a_full_disk_at_the_click_refuses_clearly_and_records_nothing(self):
        timer_id, _, _ = self.new_timer()
        self.fault("ENOSPC")
        with self.assertRaises(dbus.exceptions.DBusException) as refused:
            self.client.timers.Complete(timer_id, dbus.Int64(0))
        self.assertEqual(refused.exception.get_dbus_name(), ERROR + "StorageFailed")
        self.assertIn("full", refused.exception.get_dbus_message())
        # Reads still work, and nothing was recorded or sent.
        self.assertEqual(self.state(timer_id), "running")
        time.sleep(1)
        self.assertEqual(self.activities_of(timer_id), [])
        self.fault("")
        self.assertEqual(str(self.client.timers.Complete(timer_id, dbus.Int64(0))), "queued")
        eventually(lambda: self.state(timer_id) is None, what="the completion")
        self.assertEqual(len(self.activities_of(timer_id)), 1)

    def test_an_io_error_after_the_platform_answered_keeps_the_completion_and_lands_it_once(self):
        timer_id, _, _ = self.new_timer()
        clicked = now_ms() - 500
        self.platform.fault(route="complete", mode="latency", ms=1500, count=1)
        self.client.timers.Complete(timer_id, dbus.Int64(clicked))
        eventually(lambda: [r for r in self.platform.requests() if r["method"] == "POST"], what="the request")
        self.fault("EIO")
        eventually(lambda: "Could not record the outcome" in self.agent.log(), what="the failed write")
        self.assertEqual(len(self.activities_of(timer_id)), 1)
        # The entry is held, not resent in a tight loop.
        before = cpu_seconds(self.agent.pid)
        time.sleep(2)
        self.assertLess(cpu_seconds(self.agent.pid) - before, 0.5, "the agent spins while the disk fails")
        self.assertEqual(self.state(timer_id), "saving")
        self.fault("")
        eventually(lambda: self.state(timer_id) is None, timeout=60, what="the held completion to land")
        [activity] = self.activities_of(timer_id)
        self.assertEqual(iso_ms(activity["endedAt"]), clicked)
        posts = [r for r in self.platform.requests() if r["method"] == "POST"]
        self.assertEqual(len(posts), 2)
        self.assertEqual(posts[0]["body"], posts[1]["body"])


class FileSystemTests(PlatformTestCase):
    """Faults of a real file system: a small tmpfs for the state directory."""

    def mount(self, size):
        self.state_root = os.path.join(self.session.root, "state-fs")
        os.makedirs(self.state_root)
        result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s,mode=0700" % size, "tmpfs", self.state_root],
                                capture_output=True, text=True)
        if result.returncode != 0:
            self.skipTest("cannot mount a tmpfs here: " + result.stderr.strip())
        self.addCleanup(lambda: subprocess.run(["umount", "-l", self.state_root], check=False))
        self.session.env["XDG_STATE_HOME"] = self.state_root

    def test_a_really_full_disk_is_reported_and_survived(self):
        self.mount("1m")
        self.start_agent()
        survivor, _, _ = self.new_timer()
        filler = os.path.join(self.state_root, "filler")
        with open(filler, "wb") as handle:
            try:
                while True:
                    handle.write(b"\0" * 65536)
                    handle.flush()
            except OSError:
                pass
        refusals = []
        for index in range(300):
            try:
                self.client.mirror(timer_dict(api_origin=self.platform.origin, baby_name="Baby %d" % index))
            except dbus.exceptions.DBusException as error:
                refusals.append(error)
                break
        self.assertTrue(refusals, "the disk never filled up")
        self.assertEqual(refusals[0].get_dbus_name(), ERROR + "StorageFailed")
        self.assertIn(survivor, [t["timer_id"] for t in self.client.list()])  # still serving
        os.remove(filler)
        self.client.timers.Complete(survivor, dbus.Int64(0))
        eventually(lambda: self.state(survivor) is None, what="the completion after space came back")
        self.assertEqual(len(self.activities_of(survivor)), 1)

    def test_a_read_only_state_directory_is_said_on_the_bus(self):
        self.mount("4m")
        agent = self.start_agent()
        timer_id, _, _ = self.new_timer()
        agent.terminate()
        subprocess.run(["mount", "-o", "remount,ro", self.state_root], check=True)
        agent = self.start_agent()
        self.assertIn("Read-only file system", agent.log())
        self.assertIn("answers on the bus, saying so", agent.log())
        with self.assertRaises(dbus.exceptions.DBusException) as refused:
            self.client.list()
        self.assertEqual(refused.exception.get_dbus_name(), ERROR + "StorageFailed")
        self.assertIn("timer store", refused.exception.get_dbus_message())
        self.assertRegex(str(self.client.properties.Get(INTERFACE, "Version")), r"^\d")
        subprocess.run(["mount", "-o", "remount,rw", self.state_root], check=True)
        agent.terminate()
        self.start_agent()
        self.assertEqual([t["timer_id"] for t in self.client.list()], [timer_id])


class CorruptionTests(PlatformTestCase):
    def database(self):
        return os.path.join(self.session.state_dir, "sleep-timers.sqlite3")

    def test_a_corrupt_database_is_replaced_its_copy_wiped_and_the_agent_serves(self):
        agent = self.start_agent()
        self.new_timer()
        agent.terminate()
        with open(self.database(), "r+b") as handle:
            handle.seek(0)
            handle.write(b"this is not a database" * 200)
        agent = self.start_agent()
        log = agent.log()
        self.assertIn("was damaged", log)
        self.assertEqual(self.client.list(), [])
        # Moved aside under a name the log gives, then overwritten and
        # deleted, since it may hold tokens (test_token_wipe.py).
        copy = re.search(r"moved to (\S+?\.corrupt-\d+)", log).group(1)
        self.assertIn("The damaged copy %s was overwritten and deleted" % copy, log)
        self.assertEqual([name for name in os.listdir(self.session.state_dir) if ".corrupt-" in name], [])
        self.new_timer(baby=LEO)
        self.assertEqual(len(self.client.list()), 1)

    def test_a_corrupt_wal_tail_loses_no_recorded_completion_and_invents_none(self):
        agent = self.start_agent()
        timer_id, _, _ = self.new_timer()
        self.platform.stop()  # the completion stays pending
        clicked = now_ms()
        self.client.timers.Complete(timer_id, dbus.Int64(clicked))
        self.client.mirror(timer_dict(api_origin=self.platform.origin, baby_name="Later"))  # a later transaction
        os.kill(agent.pid, signal.SIGKILL)  # the WAL stays, not checkpointed
        agent.process.wait(PATIENCE)
        wal = self.database() + "-wal"
        with open(wal, "rb") as handle:
            frames = handle.read()
        # The WAL: a 32-byte header, then frames of a 24-byte header and a
        # page. The first frame that holds the later timer's name is the
        # later transaction's; damaged, it fails its checksum, and SQLite
        # drops it and every frame after it (the agent may have committed
        # more after the Mirror, a notification's record), never one before.
        later = frames.find(b"Later")
        self.assertGreater(later, 32, "the later transaction is in the WAL")
        frame = 24 + int.from_bytes(frames[8:12], "big")
        damaged = 32 + (later - 32) // frame * frame + 24
        with open(wal, "r+b") as handle:
            handle.seek(damaged)
            handle.write(b"\xde\xad\xbe\xef" * 100)
            handle.seek(0, 2)
            handle.write(b"torn write " * 300)
        self.platform.start_again()
        self.start_agent()
        eventually(lambda: self.state(timer_id) is None, what="the recorded completion to land")
        [activity] = self.activities_of(timer_id)
        self.assertEqual(iso_ms(activity["endedAt"]), clicked)
        self.assertNotIn("Later", [t["baby_name"] for t in self.client.list()])


if __name__ == "__main__":
    unittest.main()
