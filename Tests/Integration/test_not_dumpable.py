"""The agent holds action tokens in its memory and makes itself non-dumpable
(PR_SET_DUMPABLE 0): another process of the same user can neither trace it
nor read its /proc files. Checked from outside, as that other process, with
no debugger calling into the agent: the agent and a reader run under an
unprivileged uid of their own, and the same reader, given a dumpable
program of that uid (and a copy of the agent whose PR_SET_DUMPABLE is made
a no-op), traces it and reads its environment, so the check can fail."""

import errno
import json
import os
import shutil
import subprocess
import sys
import unittest

from harness import AGENT
from unprivileged import HERE, UnprivilegedSession

# A dumpable program of the same uid that says READY=1 as the agent does.
DUMPABLE = ("import os, socket, time\n"
            "socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b'READY=1', os.environ['NOTIFY_SOCKET'])\n"
            "time.sleep(600)\n")


class NotDumpableTests(unittest.TestCase):
    def setUp(self):
        self.session = UnprivilegedSession()
        self.addCleanup(self.session.close)
        self.reader = self.session.shared_copy(os.path.join(HERE, "ptrace_reader.py"))
        self.session.shared_copy(os.path.join(HERE, "patience.py"))  # the reader's PATIENCE

    def read(self, *program):
        """The reader's summary of what it could do to `program`."""
        output, log = self.session.run([sys.executable, self.reader, *program], "reader.log")
        self.assertTrue(output, "the reader printed nothing: " + log)
        summary = json.loads(output)
        self.assertEqual(summary["uid"], self.session.uid)
        self.assertTrue(summary["ready"], "the program did not say READY=1: " + log)
        return summary, log

    def test_another_process_of_the_user_can_neither_trace_the_agent_nor_read_its_environment(self):
        summary, log = self.read(self.session.shared_copy(AGENT))
        self.assertEqual(summary["attach"], os.strerror(errno.EPERM), "PTRACE_ATTACH to the agent: " + log)
        self.assertEqual(summary["environ"], os.strerror(errno.EACCES), "the agent's /proc/PID/environ: " + log)
        self.assertEqual(summary["status"], 0, "the agent did not stop cleanly on SIGTERM: " + log)

    def test_the_same_reader_traces_and_reads_a_dumpable_program_of_that_uid(self):
        summary, log = self.read(sys.executable, "-c", DUMPABLE)
        self.assertEqual(summary["attach"], "attached", log)
        self.assertEqual(summary["environ"], "read", log)

    def test_the_same_reader_traces_and_reads_a_copy_of_the_agent_that_leaves_itself_dumpable(self):
        if shutil.which("gcc") is None:
            raise AssertionError("gcc is missing: install the Debian package gcc")
        library = os.path.join(self.session.root, "keep-dumpable.so")
        source = os.path.join(HERE, "faults", "keep-dumpable.c")
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"], check=True, timeout=60)
        os.chmod(library, 0o755)
        summary, log = self.read("/usr/bin/env", "LD_PRELOAD=" + library, self.session.shared_copy(AGENT))
        self.assertEqual(summary["attach"], "attached", log)
        self.assertEqual(summary["environ"], "read", log)


if __name__ == "__main__":
    unittest.main()
