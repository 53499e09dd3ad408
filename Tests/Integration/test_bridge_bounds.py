"""dfl-webview-bridge stays bounded under pipelined calls: only the web app's
page writes to it, but a page that writes faster than the agent answers
must not grow the bridge without limit. A real pipe, the real agent on a
private bus."""

import json
import os
import subprocess
import threading
import time
import unittest
import uuid

from proc_accounting import rss_kib
from harness import BUILD, PATIENCE, AgentProcess, Session

BRIDGE = os.path.join(BUILD, "dfl-webview-bridge")
CALLS = 100_000
# The growth allowed: the calls in flight (64) and one read's worth of
# lines waiting, with room for the allocator.
BOUND_KB = 10 * 1024


class PipelinedCallTests(unittest.TestCase):
    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)
        self.agent = AgentProcess(self.session)
        self.stderr_path = os.path.join(self.session.root, "bridge-%s.log" % uuid.uuid4().hex[:6])
        stderr = open(self.stderr_path, "w")
        self.addCleanup(stderr.close)
        self.bridge = subprocess.Popen([BRIDGE], env=self.session.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=stderr)
        self.session.processes.append(self.bridge)

    def test_100000_pipelined_calls_that_ask_the_agent_are_all_answered_within_10_mb(self):
        # bridge.getCapabilities asks the agent for its version: each call
        # waits for the agent.
        first = b'{"jsonrpc":"2.0","method":"bridge.getCapabilities","id":0}\n'
        self.bridge.stdin.write(first)
        self.bridge.stdin.flush()
        self.assertIn(b'"nativeSleepTimer":true', self.bridge.stdout.readline())
        baseline = rss_kib(self.bridge.pid)
        answered = {}
        refused = []

        def write():
            lines = b"".join(b'{"jsonrpc":"2.0","method":"bridge.getCapabilities","id":%d}\n' % n
                             for n in range(1, CALLS + 1))
            self.bridge.stdin.write(lines)
            self.bridge.stdin.close()

        def read():
            for line in self.bridge.stdout:
                message = json.loads(line)
                if "id" not in message:
                    continue  # a notification of the agent's
                if "result" not in message or message["result"].get("nativeSleepTimer") is not True:
                    refused.append(message)
                answered[message["id"]] = message

        writer = threading.Thread(target=write, daemon=True)
        reader = threading.Thread(target=read, daemon=True)
        writer.start()
        reader.start()
        peak = baseline
        deadline = time.monotonic() + 10 * PATIENCE
        while reader.is_alive() and time.monotonic() < deadline:
            try:
                peak = max(peak, rss_kib(self.bridge.pid))
            except (FileNotFoundError, ProcessLookupError, AssertionError):
                break  # it has exited: the end of input
            time.sleep(0.02)
        reader.join(PATIENCE)
        self.assertFalse(reader.is_alive(), "the bridge did not answer every call (%d of %d)" % (len(answered), CALLS))
        self.assertEqual(self.bridge.wait(PATIENCE), 0)
        self.assertEqual(len(answered), CALLS, "calls without an answer")
        self.assertLessEqual(peak - baseline, BOUND_KB,
                             "the bridge grew from %d kB to %d kB under %d pipelined calls" % (baseline, peak, CALLS))
        # The page's writes waited in the pipe; no call was refused or lost the agent.
        self.assertEqual(refused[:3], [])


if __name__ == "__main__":
    unittest.main()
