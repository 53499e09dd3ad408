"""One agent per store: a user with two session buses (two logins, a remote
session beside the local one, dbus-run-session) and one home runs one
agent. The second, started by hand or by D-Bus activation on the second
bus, leaves the store alone and says where the agent runs, and the first
goes on completing."""

import glob
import os
import pty
import subprocess

import dbus
import dbus.bus

from harness import (AGENT, BUS_CONFIG, BUS_NAME, DEMO_FAMILY, ERROR, INTERFACE, OBJECT_PATH, PATIENCE, SLEEPCTL,
                     PlatformTestCase, eventually)

STORE_IN_USE = ERROR + "StoreInUse"


class SecondBus:
    """A second session bus of the same user: the same HOME and XDG
    directories, its own socket, and (with `activation`) the agent's D-Bus
    service file, as the package installs it."""

    def __init__(self, session, activation=False):
        self.services = os.path.join(session.root, "services-second")
        os.makedirs(self.services)
        if activation:
            with open(os.path.join(self.services, BUS_NAME + ".service"), "w") as handle:
                handle.write("[D-BUS Service]\nName=%s\nExec=%s\n" % (BUS_NAME, AGENT))
        config = os.path.join(session.root, "second-bus.conf")
        with open(config, "w") as handle:
            handle.write(BUS_CONFIG.format(socket=os.path.join(session.runtime, "second-bus"), services=self.services))
        env = {key: value for key, value in session.env.items() if key != "DBUS_SESSION_BUS_ADDRESS"}
        self.log = open(os.path.join(session.root, "second-bus.log"), "w")
        self.process = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
                                        stdout=subprocess.PIPE, stderr=self.log, env=env, text=True)
        session.processes.append(self.process)
        self.env = dict(env, DBUS_SESSION_BUS_ADDRESS=self.process.stdout.readline().strip())

    def close(self):
        self.log.close()


class OneAgentPerStoreTests(PlatformTestCase):
    def setUp(self):
        super().setUp()
        self.start_agent()
        self.timer_id, _, _ = self.new_timer()
        self.store_before = self.store_bytes()

    def second_bus(self, activation=False):
        bus = SecondBus(self.session, activation)
        self.addCleanup(bus.close)
        return bus

    def store_bytes(self):
        """The store's files, byte for byte: the database and its WAL."""
        found = {}
        for path in sorted(glob.glob(os.path.join(self.session.state_dir, "sleep-timers.sqlite3*"))):
            if not path.endswith("-shm"):  # the first agent's shared-memory index, not the store
                with open(path, "rb") as handle:
                    found[os.path.basename(path)] = handle.read()
        return found

    def check_first_agent_completes(self):
        self.assertEqual(self.store_bytes(), self.store_before, "the second agent changed the store")
        self.assertEqual(self.state(self.timer_id), "running")
        self.client.timers.Complete(self.timer_id, dbus.Int64(0))
        self.platform.wait_for_activities(1)
        self.assertEqual(len(self.activities_of(self.timer_id)), 1)

    def test_a_second_agent_on_another_bus_exits_at_once_saying_which_agent_holds_the_store(self):
        bus = self.second_bus()
        second = subprocess.run([AGENT], env=bus.env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(second.returncode, 75, second.stderr)
        self.assertIn("Another dfl-sleep-agent, process %d, holds the timer store in %s; this session's notifications "
                      "are shown by that one." % (self.agent.pid, self.session.state_dir), second.stderr)
        self.assertNotIn("serves " + BUS_NAME, second.stderr)
        self.check_first_agent_completes()

    def test_started_by_hand_in_a_terminal_it_says_so_in_the_readers_language(self):
        from test_translations import CATALOGS, require_catalogs
        require_catalogs()
        bus = self.second_bus()
        main, terminal = pty.openpty()
        env = dict(bus.env, LANG="de_DE.UTF-8", LANGUAGE="de", DFL_LOCALEDIR=CATALOGS)
        try:
            status = subprocess.run([AGENT], env=env, stdout=subprocess.DEVNULL, stderr=terminal, timeout=PATIENCE)
            os.close(terminal)
            said = b""
            while True:
                try:
                    chunk = os.read(main, 4096)
                except OSError:
                    break  # the terminal's other end is closed: all is read
                if not chunk:
                    break
                said += chunk
        finally:
            os.close(main)
        self.assertEqual(status.returncode, 75)
        text = " ".join(said.decode().split())
        self.assertIn("ein anderer dfl-sleep-agent, Prozess %d, hält die gespeicherten Timer" % self.agent.pid, text)
        self.check_first_agent_completes()

    def test_a_purge_through_the_second_bus_is_refused_saying_where_the_agent_runs(self):
        bus = self.second_bus(activation=True)
        connection = dbus.bus.BusConnection(bus.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(connection.close)
        with self.assertRaises(dbus.exceptions.DBusException) as refused:
            # A call by name, which the bus answers by starting the agent.
            connection.call_blocking(BUS_NAME, OBJECT_PATH, INTERFACE, "Purge", "sss", (
                self.platform.origin, self.platform.parent["id"], DEMO_FAMILY), timeout=PATIENCE)
        self.assertEqual(refused.exception.get_dbus_name(), STORE_IN_USE, refused.exception.get_dbus_message())
        self.assertIn("process %d" % self.agent.pid, refused.exception.get_dbus_message())
        eventually(lambda: not connection.name_has_owner(BUS_NAME), what="the refusing agent to leave the bus")
        self.check_first_agent_completes()

    def test_sleepctl_in_the_second_session_says_where_the_agent_runs(self):
        bus = self.second_bus(activation=True)
        status = subprocess.run([SLEEPCTL, "status"], env=bus.env, capture_output=True, text=True, timeout=PATIENCE)
        self.assertEqual(status.returncode, 69, status.stdout + status.stderr)
        self.assertIn("runs in another session of yours (process %d)" % self.agent.pid, status.stderr)
        self.check_first_agent_completes()
