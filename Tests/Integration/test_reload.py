"""SIGHUP reloads the configuration, and the agent tells its service
manager what it holds (STATUS=)."""

import os
import signal
import unittest

import dbus

from dbus_client import Client
from desktop import RecordingServer
from harness import AgentProcess, AgentTestCase, eventually, now_ms, timer_dict


class ReloadTests(AgentTestCase):
    start_agent = False

    def setUp(self):
        super().setUp()
        self.server = RecordingServer(self.session)
        self.addCleanup(self.server.stop)
        self.config = os.path.join(self.session.config_dir, "sleep-agent.conf")
        with open(self.config) as handle:
            self.base = handle.read()

    def write(self, text):
        with open(self.config, "w") as handle:
            handle.write(text)

    def test_a_changed_live_elapsed_takes_effect_without_a_restart(self):
        agent = AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        client.mirror(timer_dict(started_at_ms=now_ms() - 83 * 60_000))
        self.assertTrue(self.server.wait_for(lambda calls: any("·" in n["body"] for n in self.server.notifies())))
        self.write(self.base + "\n[notifications]\nlive-elapsed=off\n")
        agent.process.send_signal(signal.SIGHUP)
        self.assertTrue(self.server.wait_for(
            lambda calls: self.server.notifies()[-1]["body"].startswith("Asleep since")
            and "·" not in self.server.notifies()[-1]["body"]), self.server.notifies()[-1:])
        eventually(lambda: "applied: [notifications] live-elapsed" in agent.log(), what="the log of the reload")
        self.assertEqual(agent.process.poll(), None)

    def test_an_invalid_file_on_reload_is_refused_with_its_line_and_key_and_the_old_one_stays(self):
        agent = AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        self.write(self.base + "\n[notifications]\nlive-elapsed=sometimes\n")
        agent.process.send_signal(signal.SIGHUP)
        eventually(lambda: "the old one stays in force" in agent.log(), what="the refusal in the log")
        line = [l for l in agent.log().splitlines() if "old one stays in force" in l][0]
        self.assertIn("sleep-agent.conf:", line)
        self.assertIn("[notifications] live-elapsed", line)
        # The allowed origins of the old configuration still hold.
        client.mirror(timer_dict())
        self.assertEqual(len(client.list()), 1)

    def test_a_setting_that_needs_a_restart_is_named(self):
        agent = AgentProcess(self.session)
        self.write(self.base + "\n[indicator]\nshow=never\n")
        agent.process.send_signal(signal.SIGHUP)
        eventually(lambda: "take effect when the agent restarts: [indicator] show" in agent.log(),
                   what="the restart-needed note")

    def test_status_lines_say_what_the_agent_holds(self):
        agent = AgentProcess(self.session)
        client = Client(self.session)
        self.addCleanup(client.close)
        client.mirror(timer_dict())
        client.mirror(timer_dict())
        lines = []
        eventually(lambda: lines.append(agent.notify.receive()) or "STATUS=2 timers mirrored" in lines[-1],
                   what="a STATUS= line for two timers")
        client.timers.Complete(client.list()[0]["timer_id"], dbus.Int64(0))
        eventually(lambda: lines.append(agent.notify.receive()) or "1 completion waiting" in lines[-1],
                   what="a STATUS= line with the waiting completion")


if __name__ == "__main__":
    unittest.main()
