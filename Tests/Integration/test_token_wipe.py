"""A token the agent has let go of is gone from its files: after a
completion, a Remove, a Purge, a SIGKILL and a damaged store, no byte of it
is left under the state directory (the database, its WAL and shared memory,
and any damaged copy moved aside)."""

import os
import signal
import time
import unittest

import dbus

from harness import DEMO_FAMILY, INTERFACE, LEO, PlatformTestCase, eventually

# The promise: no byte of a gone token is left "within a second". The store
# wipes before the agent answers, so the first look already finds nothing;
# the second is slack for a busy machine.
WITHIN = 1.0


class TokenWipeTests(PlatformTestCase):
    def files_holding(self, token):
        """The files under the state directory whose bytes contain `token`."""
        needle = token.encode()
        found = []
        for directory, _, names in os.walk(self.session.state_dir):
            for name in names:
                path = os.path.join(directory, name)
                if os.path.isfile(path) and not os.path.islink(path):
                    with open(path, "rb") as handle:
                        if needle in handle.read():
                            found.append(os.path.relpath(path, self.session.state_dir))
        return sorted(found)

    def assertOnDisk(self, token):
        self.assertNotEqual(self.files_holding(token), [], "the search does not find a token the store holds")

    def assertGone(self, token, what):
        deadline = time.monotonic() + WITHIN
        while self.files_holding(token) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(self.files_holding(token), [], "a token of a %s timer is still on disk" % what)

    def test_completed_removed_and_purged_tokens_leave_no_byte_on_disk(self):
        self.start_agent()
        completed, completed_token, _ = self.new_timer()
        removed, removed_token, _ = self.new_timer(baby=LEO)
        for token in (completed_token, removed_token):
            self.assertOnDisk(token)

        self.client.timers.Complete(completed, dbus.Int64(0))
        eventually(lambda: self.timer(completed) is None, what="the completion")
        self.assertEqual(len(self.activities_of(completed)), 1)
        self.assertGone(completed_token, "completed")
        self.assertOnDisk(removed_token)

        # The platform runs one Sleep timer per baby: the next is Maya's.
        purged, purged_token, _ = self.new_timer()
        self.assertOnDisk(purged_token)

        self.client.timers.Remove(removed)
        self.assertGone(removed_token, "removed")
        self.assertOnDisk(purged_token)

        self.client.timers.Purge(self.platform.origin, self.platform.parent["id"], DEMO_FAMILY)
        self.assertEqual(self.client.list(), [])
        self.assertGone(purged_token, "purged")

        # A timer that is still running keeps its token; a kill leaves the
        # files as they are, and none of the gone tokens in them.
        timer_id, reply = self.platform.start_sleep(timer_id=purged)
        running_token = self.platform.mirror(self.client, timer_id, reply)
        self.assertNotEqual(running_token, purged_token)
        self.agent.terminate(signal.SIGKILL)
        self.assertOnDisk(running_token)
        for token, what in ((completed_token, "completed"), (removed_token, "removed"), (purged_token, "purged")):
            self.assertGone(token, what + " (after SIGKILL)")

    def test_a_damaged_store_leaves_no_copy_of_its_tokens(self):
        self.start_agent()
        _, token, _ = self.new_timer()
        self.agent.terminate()
        database = os.path.join(self.session.state_dir, "sleep-timers.sqlite3")
        self.assertIn("sleep-timers.sqlite3", self.files_holding(token))
        # A damaged header: the file is no longer a database, and every page
        # with the token in it is still there to be read.
        with open(database, "r+b") as handle:
            handle.write(b"\x5a" * 100)
        self.start_agent()
        self.assertEqual(self.client.list(), [])
        self.assertGone(token, "damaged store's")
        self.assertEqual([n for n in os.listdir(self.session.state_dir) if "corrupt" in n], [])
        log = self.agent.log()
        self.assertIn("was damaged", log)
        self.assertIn("overwritten and deleted", log)
        self.assertEqual(int(self.client.properties.Get(INTERFACE, "RunningCount")), 0)


if __name__ == "__main__":
    unittest.main()
