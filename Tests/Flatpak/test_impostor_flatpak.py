"""The red team's finding, with real Flatpaks: a second Flatpak whose one
permission is --own-name of the agent's public name waits in that name's
queue, the sandboxed agent is killed and the impostor owns the name. The
sandboxed bridge, asked for a Sleep's token then, hands it nothing (its
log says why) and the platform records nothing; the agent started again
while the impostor holds the name leaves, saying so, and still nothing
reaches the impostor; with the impostor gone, the agent is back and the
Sleep is completed once.

Run in the Debian 13 root (Tests/Flatpak/run.sh): the installed Flatpak
(installed.py), the impostor built and installed beside it (name_queue.py),
the reference platform over TLS on loopback, the real bridge run with
`flatpak run --command=dfl-webview-bridge` and spoken to on its stdin as
the app does, and dbus-monitor over the whole bus."""

import json
import os
import re
import signal
import unittest
import uuid

import dbus

from dbus_client import Client
from desktop import BusMonitor
from harness import BUS_NAME, DEMO_FAMILY, INTERFACE, LEO, OBJECT_PATH, Platform, Session, eventually, stop
from installed import AGENT_NAME, Installation
from name_queue import NameQueueApp
from test_webview_bridge import Bridge, sleep_timer

TOKEN = re.compile(rb"dflnat_[A-Za-z0-9_-]+")
TOKEN_PREFIX = "dflnat_"
WHY = "Nothing is handed to the program at " + BUS_NAME
NOT_MIRRORED = {"mirrored": False, "reason": "agent-unavailable"}
MIRRORED = {"mirrored": True, "reason": "mirrored"}
# What a bridge may send the name's owner before it trusts it: the ping
# whose reply names the owner.
PING = ("org.freedesktop.DBus.Peer", "Ping")


def tokens_under(folder):
    """Every action token in the files under `folder`, as text."""
    found = set()
    for directory, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(directory, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    found.update(match.decode() for match in TOKEN.findall(handle.read()))
    return found


class ImpostorFlatpakTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.session = Session()
        try:
            cls.installation = Installation(cls.session)
            cls.impostor = NameQueueApp(cls.installation)
        except BaseException:
            cls.session.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.session.close()

    def setUp(self):
        self.bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(self.bus.close)
        self.daemon = dbus.Interface(self.bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus"),
                                     "org.freedesktop.DBus")

    def owner(self):
        try:
            return str(self.daemon.GetNameOwner(AGENT_NAME))
        except dbus.exceptions.DBusException:
            return None

    def test_its_one_permission_is_to_own_the_agents_name(self):
        # What the finding needs and no more: any Flatpak may ask for it.
        self.assertEqual(self.impostor.permissions(), {"Session Bus Policy": {AGENT_NAME: {"own"}}})

    def test_queued_behind_a_killed_agent_it_gets_no_token_and_the_sleep_is_completed_once(self):
        platform = Platform(self.session)
        self.addCleanup(platform.stop)
        self.installation.configure(platform)
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        root = self.session.root
        agent_log = os.path.join(root, "agent-first.log")
        agent = self.installation.start("dfl-sleep-agent", log=agent_log)
        eventually(lambda: self.owner(), what="the sandboxed agent to own %s" % AGENT_NAME)
        agent_name = self.owner()
        store = os.path.join(self.installation.data, ".local", "state", "dreamsforlittles")
        published = os.path.join(store, "sleep-agent.bus-name")
        bridge = Bridge(self.session, command=self.installation.run_command("dfl-webview-bridge"))
        self.addCleanup(lambda: bridge.process.poll() is None and bridge.close())
        bridge.result("session.set", {
            "apiOrigin": platform.origin, "userId": platform.parent["id"],
            "accessToken": platform.parent["accessToken"],
            "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})
        timer = sleep_timer()
        self.assertEqual(bridge.result("sleepTimer.upsert", {"timer": timer})["native"], MIRRORED)
        [first_token] = tokens_under(store)

        # The impostor waits behind the agent, then the agent is killed: its
        # published name stays behind, and the impostor takes the name.
        self.impostor.start()
        self.addCleanup(self.impostor.stop)
        self.assertEqual(self.impostor.request_reply(), 2, "RequestName: 2 is in the queue")
        impostor_name = self.impostor.unique_name()
        self.assertEqual([str(n) for n in self.daemon.ListQueuedOwners(AGENT_NAME)], [agent_name, impostor_name])
        [agent_pid] = self.installation.sandbox_pids("dfl-sleep-agent")
        os.kill(agent_pid, signal.SIGKILL)
        eventually(lambda: self.owner() == impostor_name, what="the impostor to own %s" % AGENT_NAME)
        stop(agent)
        self.assertTrue(os.path.exists(published), "the killed agent's published name is left behind")
        self.assert_recording_holds_what_it_is_handed()

        # Asked for a new Sleep's token and the first one's renewal, the
        # bridge hands nothing over and asks the platform for no token.
        puts = len(self.put_bodies(platform))
        self.assertEqual(bridge.result("sleepTimer.upsert", {"timer": sleep_timer(baby=LEO, name="Leo")})["native"],
                         NOT_MIRRORED)
        self.assertEqual(bridge.result("sleepTimer.upsert", {"timer": dict(timer, note="again")})["native"],
                         NOT_MIRRORED)
        self.assertIs(bridge.result("bridge.getCapabilities")["nativeSleepTimer"], False)
        self.assertTrue(all("requestNativeActionToken" not in body for body in self.put_bodies(platform)[puts:]))
        self.assertIn(WHY, bridge.log())
        self.assert_impostor_got_nothing(first_token)
        self.assertEqual((self.completions(platform), platform.activities()), ([], []))

        # The agent started again while the impostor holds the name leaves,
        # saying why, and takes its published name with it.
        again_log = os.path.join(root, "agent-again.log")
        again = self.installation.start("dfl-sleep-agent", log=again_log)
        eventually(lambda: again.poll() is not None, what="the second agent to leave")
        self.assertNotEqual(again.returncode, 0)
        with open(again_log, errors="replace") as handle:
            self.assertIn("Another program already owns %s" % AGENT_NAME, handle.read())
        self.assertEqual(self.owner(), impostor_name)
        self.assertFalse(os.path.exists(published))
        self.assertEqual(bridge.result("sleepTimer.upsert", {"timer": dict(timer, note="once more")})["native"],
                         NOT_MIRRORED)
        self.assertIn("this installation's agent has published no bus name", bridge.log())
        self.assert_impostor_got_nothing(first_token)

        # The impostor gone, the agent is back with the Sleep it kept; the
        # bridge renews its token there, and the Sleep is completed once.
        self.impostor.stop()
        back = self.installation.start("dfl-sleep-agent", log=os.path.join(root, "agent-back.log"))
        self.addCleanup(stop, back)
        eventually(lambda: self.owner() not in (None, impostor_name), what="the agent to own its name again")
        self.assertEqual(bridge.result("sleepTimer.upsert", {"timer": dict(timer, note="back")})["native"], MIRRORED)
        self.assertIs(bridge.result("bridge.getCapabilities")["nativeSleepTimer"], True)
        [renewed] = tokens_under(store)
        self.assertNotEqual(renewed, first_token)
        client = Client(self.session)
        self.addCleanup(client.close)
        self.assertEqual([t["timer_id"] for t in client.list()], [timer["id"]])
        client.timers.Complete(timer["id"], dbus.Int64(0))
        eventually(lambda: platform.activities(), what="the platform to record the completion")
        eventually(lambda: timer["id"] not in {t["timer_id"] for t in client.list()},
                   what="the completed timer to leave the agent's list")
        [activity] = platform.activities()
        self.assertEqual((activity["timerId"], activity["source"]), (timer["id"], "native"))
        self.assertEqual(len(self.completions(platform)), 1)

        # Nothing reached the impostor, and no token crossed the bus.
        self.assert_impostor_got_nothing(first_token, renewed)
        bus_text = monitor.text()
        self.assertNotIn(TOKEN_PREFIX, bus_text)
        # Each of the bridge's Mirror calls went to the agent's unique name:
        # the killed one's, then the one back's (a renewal may add more).
        back_name = self.owner()
        mirrors = [re.search(r"destination=(\S+)", header).group(1) for header, _ in monitor.messages()
                   if header.startswith("method call") and "member=Mirror" in header
                   and "sender=%s " % self.bus.get_unique_name() not in header]
        self.assertEqual(mirrors[:2], [agent_name, back_name], mirrors)
        self.assertEqual(set(mirrors), {agent_name, back_name}, mirrors)
        self.assertNotIn(TOKEN_PREFIX, bridge.log())

    def put_bodies(self, platform):
        return [r["body"] for r in platform.requests() if r["method"] == "PUT"]

    def completions(self, platform):
        return [r for r in platform.requests() if r["method"] == "POST" and r["path"].endswith("/complete")]

    def assert_recording_holds_what_it_is_handed(self):
        """What a caller hands the impostor through a descriptor is in its
        files: a canary of the test's own, from the test's own connection."""
        canary = "CANARY-" + uuid.uuid4().hex
        read_end, write_end = os.pipe()
        os.write(write_end, canary.encode())
        os.close(write_end)
        try:
            self.bus.call_blocking(AGENT_NAME, OBJECT_PATH, INTERFACE, "Mirror", "a{sv}",
                                   ({"action_token_fd": dbus.types.UnixFd(read_end)},))
        finally:
            os.close(read_end)
        self.assertNotEqual(self.impostor.files_holding(canary), [])

    def assert_impostor_got_nothing(self, *tokens):
        """The impostor was sent the bridge's ping, which names the owner,
        and nothing else but the test's own canary; no token is in any of
        its files."""
        calls = [c for c in self.impostor.calls() if c["sender"] != self.bus.get_unique_name()]
        self.assertIn(PING, {(c["interface"], c["member"]) for c in calls}, self.impostor.lines())
        self.assertEqual({(c["interface"], c["member"]) for c in calls} - {PING}, set(), json.dumps(calls, indent=1))
        for needle in (TOKEN_PREFIX, *tokens):
            self.assertEqual(self.impostor.files_holding(needle), [], needle)


if __name__ == "__main__":
    unittest.main()
