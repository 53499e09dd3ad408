"""dfl-sleepctl against the running agent, as a person or a script uses it."""

import json
import os
import queue
import subprocess
import threading
import time
import unittest

import dbus
import dbus.lowlevel

import bus_probe
from dbus_client import Client
from harness import (ERROR, INTERFACE, OBJECT_PATH, ORIGIN, PATIENCE, SLEEPCTL, AgentProcess, AgentTestCase, Session,
                     now_ms, sleepctl, stop, timer_dict)


class SleepctlTests(AgentTestCase):
    def setUp(self):
        super().setUp()
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def test_list_in_words_and_in_json(self):
        self.assertEqual(sleepctl(self.session, "list").stdout, "No Sleep timers are mirrored on this desktop.\n")
        timer = timer_dict(baby_name="Maya", timezone="Etc/UTC", started_at_ms=now_ms() - 83 * 60 * 1000 - 5000)
        self.client.mirror(timer)
        words = sleepctl(self.session, "list")
        self.assertEqual(words.returncode, 0)
        self.assertIn("Maya: Asleep since ", words.stdout)
        self.assertIn("1 h 23 min [running, can complete]", words.stdout)
        self.assertIn(timer["timer_id"], words.stdout)
        listed = json.loads(sleepctl(self.session, "list", "--json").stdout)
        self.assertEqual([t["timer_id"] for t in listed], [timer["timer_id"]])
        self.assertNotIn("CANARY", words.stdout + json.dumps(listed))

    def test_complete_now_and_at_a_time(self):
        first, second = timer_dict(), timer_dict()
        self.client.mirror(first)
        self.client.mirror(second)
        done = sleepctl(self.session, "complete", first["timer_id"])
        self.assertEqual((done.returncode, done.stdout), (0, "queued\n"))
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now_ms() / 1000 - 60))
        self.assertEqual(sleepctl(self.session, "complete", second["timer_id"], "--at", at).returncode, 0)
        states = {t["timer_id"]: t["state"] for t in self.client.list()}
        self.assertEqual(states, {first["timer_id"]: "saving", second["timer_id"]: "saving"})

    def test_a_refusal_exits_1_with_the_agents_words(self):
        refused = sleepctl(self.session, "complete", "00000000-0000-4000-8000-000000000999")
        self.assertEqual(refused.returncode, 1)
        self.assertIn("No Sleep timer with this id", refused.stderr)

    def test_open(self):
        timer = timer_dict()
        self.client.mirror(timer)
        self.assertEqual(sleepctl(self.session, "open", timer["timer_id"]).returncode, 0)
        deadline = time.monotonic() + PATIENCE
        while not self.session.opened_urls() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual(self.session.opened_urls(), [self.client.list()[0]["deep_link"]])

    def test_status(self):
        self.client.mirror(timer_dict())
        status = sleepctl(self.session, "status")
        self.assertEqual(status.returncode, 0)
        self.assertIn("RunningCount: 1\n", status.stdout)
        self.assertIn("PendingCompletions: 0\n", status.stdout)
        self.assertEqual(json.loads(sleepctl(self.session, "status", "--json").stdout)["RunningCount"], 1)

    def test_status_names_the_origins_the_agent_accepts(self):
        status = sleepctl(self.session, "status")
        self.assertIn("AllowedOrigins: %s, http://127.0.0.1:1\n" % ORIGIN, status.stdout)
        self.assertEqual(json.loads(sleepctl(self.session, "status", "--json").stdout)["AllowedOrigins"],
                         [ORIGIN, "http://127.0.0.1:1"])

    def start_watch(self):
        """dfl-sleepctl watch, and a queue of the JSON lines it prints, once
        it is seen to print the agent's signals."""
        watcher = subprocess.Popen([SLEEPCTL, "watch"], env=self.session.env, stdout=subprocess.PIPE, text=True)
        self.addCleanup(stop, watcher)
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(json.loads(line)) for line in watcher.stdout], daemon=True).start()

        # The watcher subscribes after it has pinged the agent; mirror probe
        # timers until one is seen, so that nothing after it can be missed.
        seen = False
        for _ in range(int(PATIENCE / 0.5)):
            probe = timer_dict()
            self.client.mirror(probe)
            try:
                while True:
                    line = lines.get(timeout=0.5)
                    if line.get("timer", {}).get("timer_id") == probe["timer_id"]:
                        seen = True
                        break
            except queue.Empty:
                continue
            break
        self.assertTrue(seen, "watch printed nothing")
        self.client.timers.Purge(probe["api_origin"], probe["user_id"], "")
        return watcher, lines

    def lines_until_changed(self, lines, timer_id):
        """Every line up to the TimerChanged of `timer_id`."""
        received = []
        while not (received and received[-1]["signal"] == "TimerChanged"
                   and received[-1]["timer"]["timer_id"] == timer_id):
            received.append(lines.get(timeout=PATIENCE))
        return received

    def test_watch_prints_one_json_line_per_signal(self):
        watcher, lines = self.start_watch()

        timer = timer_dict()
        self.client.mirror(timer)
        received = []
        while not (received and received[-1]["signal"] == "PropertiesChanged"
                   and any(r["signal"] == "TimerChanged" for r in received)):
            received.append(lines.get(timeout=PATIENCE))
        removed = [r for r in received if r["signal"] == "TimerRemoved"]
        self.assertTrue(all(r["reason"] == "purged" for r in removed))
        changed = [r for r in received if r["signal"] == "TimerChanged"]
        self.assertEqual([(c["timer"]["timer_id"], c["timer"]["state"]) for c in changed], [(timer["timer_id"], "running")])
        self.assertEqual(received[-1], {"signal": "PropertiesChanged", "interface": "com.dreamsforlittles.SleepTimers1",
                                        "changed": {"RunningCount": 1}, "invalidated": []})
        self.assertNotIn("CANARY", json.dumps(received))
        watcher.terminate()
        self.assertEqual(watcher.wait(PATIENCE), 0)

    def test_watch_prints_no_signal_forged_by_another_connection(self):
        watcher, lines = self.start_watch()
        [watch_name] = bus_probe.connections_of(self.client.bus, watcher.pid)
        forger = bus_probe.private_connection(self.session)
        self.addCleanup(forger.close)
        for destination, forged_id in ((None, "forged-broadcast"), (watch_name, "forged-unicast")):
            for member, signature, args in (
                    ("CompletionFinished", "sss", (forged_id, "created", "forged-activity")),
                    ("TimerRemoved", "ss", (forged_id, "completed"))):
                message = dbus.lowlevel.SignalMessage(OBJECT_PATH, INTERFACE, member)
                message.append(*args, signature=signature)
                if destination:
                    message.set_destination(destination)
                forger.send_message(message)
        # A round trip through the bus daemon: the forgeries, sent before,
        # are on their way to the watcher ahead of anything the agent sends
        # after it.
        bus_probe.bus_daemon(forger).GetId()

        timer = timer_dict()
        self.client.mirror(timer)
        received = self.lines_until_changed(lines, timer["timer_id"])
        self.assertNotIn("forged", json.dumps(received), "watch printed a signal the agent never sent")

    def test_watch_follows_the_agent_to_its_next_owner(self):
        watcher, lines = self.start_watch()
        self.agent.terminate()
        self.agent = AgentProcess(self.session)
        timer = timer_dict()
        self.client.mirror(timer)
        received = self.lines_until_changed(lines, timer["timer_id"])
        self.assertEqual(received[-1]["timer"]["state"], "running")
        self.assertIsNone(watcher.poll())


class SleepctlExitCodeTests(unittest.TestCase):
    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)

    def test_usage_errors_exit_64(self):
        for arguments in ([], ["explode"], ["complete"], ["complete", "not-a-uuid"], ["list", "--yaml"],
                          ["complete", "00000000-0000-4000-8000-000000000001", "--at", "teatime"]):
            with self.subTest(arguments=arguments):
                result = sleepctl(self.session, *arguments)
                self.assertEqual(result.returncode, 64)
                self.assertIn("dfl-sleepctl:", result.stderr)

    def test_help(self):
        result = sleepctl(self.session, "--help")
        self.assertEqual(result.returncode, 0)
        self.assertIn("Usage: dfl-sleepctl", result.stdout)
        self.assertIn("--at TIME", sleepctl(self.session, "complete", "--help").stdout)

    def test_an_unreachable_agent_exits_69_and_says_what_to_do(self):
        for arguments in (["list"], ["status"], ["watch"], ["complete", "00000000-0000-4000-8000-000000000001"]):
            with self.subTest(arguments=arguments):
                result = sleepctl(self.session, *arguments)
                self.assertEqual(result.returncode, 69)
                self.assertIn("cannot be reached", result.stderr)
                self.assertIn("systemctl --user start dfl-sleep-agent", result.stderr)

    def test_no_session_bus_at_all_exits_69(self):
        env = dict(self.session.env, DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent/bus")
        result = subprocess.run([SLEEPCTL, "list"], env=env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(result.returncode, 69)


class NoConfigurationTests(AgentTestCase):
    """An agent started with no configuration file at all: it accepts
    timers from the platform's own API, and from no other origin."""

    start_agent = False

    def setUp(self):
        super().setUp()
        os.remove(os.path.join(self.session.config_dir, "sleep-agent.conf"))
        self.agent = AgentProcess(self.session)
        self.client = Client(self.session)
        self.addCleanup(self.client.close)

    def test_status_names_the_platforms_api_and_a_mirror_from_it_is_accepted(self):
        self.assertIn("No configuration file; using the defaults.", self.agent.log())
        self.assertIn("Timers are accepted from https://api.dreamsforlittles.com.", self.agent.log())
        self.assertNotIn("allowed-origins", self.agent.log())
        status = sleepctl(self.session, "status")
        self.assertEqual(status.returncode, 0, status.stderr)
        self.assertIn("AllowedOrigins: https://api.dreamsforlittles.com\n", status.stdout)
        self.assertEqual(json.loads(sleepctl(self.session, "status", "--json").stdout)["AllowedOrigins"],
                         ["https://api.dreamsforlittles.com"])
        timer = timer_dict(api_origin="https://api.dreamsforlittles.com")
        self.client.mirror(timer)
        self.assertEqual([t["api_origin"] for t in self.client.list()], ["https://api.dreamsforlittles.com"])
        with self.assertRaises(dbus.exceptions.DBusException) as refused:
            self.client.mirror(timer_dict())
        self.assertEqual(refused.exception.get_dbus_name(), ERROR + "OriginNotAllowed")
        self.assertIn("not one of the allowed API origins", refused.exception.get_dbus_message())
        self.assertEqual(len(self.client.list()), 1)


if __name__ == "__main__":
    unittest.main()
