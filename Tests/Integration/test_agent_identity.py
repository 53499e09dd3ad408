"""Each installation's tokens reach only its own agent. The agent publishes
its unique bus name in its own state directory before it takes the
agent's name; the bridge, which runs in the same installation (the same
XDG_STATE_HOME), hands a token, a purge or a removal only to the owner of
the name that file names on this bus. Here another program owns the name:
an impostor, one that waited in the name's queue behind a killed agent, or
the agent of another installation (the .deb beside the Flatpak) on the same
bus. The real bridge, the real agents, the reference platform over TLS."""

import json
import os
import shutil
import stat
import time
import unittest

import dbus

from desktop import wait_for_name
from harness import BUS_NAME, DEMO_FAMILY, LEO, AgentProcess, eventually
from impostor_agent import Impostor
from test_webview_bridge import Bridge, BridgeTestCase, sleep_timer

PUBLISHED = "sleep-agent.bus-name"
# Every action token of the reference platform starts so.
TOKEN_PREFIX = "dflnat_"
WHY = "Nothing is handed to the program at " + BUS_NAME


def other_installation(session):
    """The environment of another installation of the same user: its own
    state directory, as a Flatpak's is under ~/.var/app."""
    state = os.path.join(session.home, ".var", "app", "com.dreamsforlittles.DreamsForLittles", ".local", "state")
    os.makedirs(state, mode=0o700)
    return {"XDG_STATE_HOME": state}


def published_path(env):
    return os.path.join(env["XDG_STATE_HOME"], "dreamsforlittles", PUBLISHED)


def bus_id(session):
    bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
    try:
        return str(bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus").GetId(
            dbus_interface="org.freedesktop.DBus"))
    finally:
        bus.close()


class AgentIdentityTestCase(BridgeTestCase):
    def upsert_is_refused(self, bridge, timer=None):
        """An upsert through `bridge` is saved on the platform, asks for no
        token, and mirrors nothing: the agent it would reach is not its own."""
        answer = bridge.result("sleepTimer.upsert", {"timer": timer or sleep_timer()})
        self.assertEqual(answer["native"], {"mirrored": False, "reason": "agent-unavailable"})
        self.assertNotIn("requestNativeActionToken", self.put_bodies()[-1])
        return answer

    def assert_impostor_got_nothing(self, impostor):
        self.assertEqual(impostor.received(), [])
        with open(impostor.record) as handle:
            self.assertNotIn(TOKEN_PREFIX, handle.read())


class PublishedNameTests(AgentIdentityTestCase):
    def test_the_agent_publishes_its_unique_name_privately_and_takes_it_back_when_it_ends(self):
        path = published_path(self.session.env)
        status = os.lstat(path)
        self.assertTrue(stat.S_ISREG(status.st_mode))
        self.assertEqual(stat.S_IMODE(status.st_mode), 0o600)
        self.assertEqual(stat.S_IMODE(os.lstat(os.path.dirname(path)).st_mode), 0o700)
        with open(path) as handle:
            self.assertEqual(handle.read(), "%s %s\n" % (bus_id(self.session), wait_for_name(self.session, BUS_NAME)))
        self.agent.terminate()
        self.assertFalse(os.path.exists(path))


class ImpostorTests(AgentIdentityTestCase):
    def test_an_impostor_at_the_name_gets_no_token_no_purge_and_no_removal(self):
        # An agent of another store publishes there; its file is copied
        # into this installation's store, then it leaves and an impostor
        # takes the name: the file names an agent, just not the owner.
        self.agent.terminate()
        other = other_installation(self.session)
        elsewhere = AgentProcess(self.session, extra_env=other)
        shutil.copy(published_path(other), published_path(self.session.env))
        os.chmod(published_path(self.session.env), 0o600)
        elsewhere.terminate()
        impostor = Impostor(self.session)
        self.self_session()
        self.upsert_is_refused(self.bridge)
        self.assertIs(self.bridge.result("bridge.getCapabilities")["nativeSleepTimer"], False)
        for method, params in (("sleepTimer.remove", {"timerId": sleep_timer()["id"]}),
                               ("sleepTimers.reconcile", {"runningTimerIds": []})):
            error = self.bridge.call(method, params)["error"]
            self.assertEqual((error["code"], error["data"]["code"]), (-32003, "agent_unavailable"))
        self.assertEqual(self.bridge.result("session.clear"), {"purged": 0, "agentUnavailable": True})
        self.bridge.close()
        self.assert_impostor_got_nothing(impostor)
        log = self.bridge.log()
        self.assertIn(WHY, log)
        self.assertIn("not by this installation's agent", log)
        self.assertNotIn(TOKEN_PREFIX, log)

    def test_an_impostor_queued_behind_a_killed_agent_gets_no_token(self):
        self.self_session()
        first = sleep_timer()
        self.assertEqual(self.bridge.result("sleepTimer.upsert", {"timer": first})["native"],
                         {"mirrored": True, "reason": "mirrored"})
        impostor = Impostor(self.session, queue=True)
        agent_name = wait_for_name(self.session, BUS_NAME)
        # Killed: its published name stays behind, and the impostor takes
        # the agent's name from the queue.
        self.agent.terminate(sig=9)
        eventually(lambda: wait_for_name(self.session, BUS_NAME) != agent_name, what="the impostor to take the name")
        self.upsert_is_refused(self.bridge, dict(first, note="again"))
        self.upsert_is_refused(self.bridge, sleep_timer(baby=LEO, name="Leo"))
        # The name's owner now, but not this installation's agent: its
        # "saved" of the bridge's own timer does not reach the page.
        impostor.say_saved(first["id"])
        time.sleep(0.5)
        self.bridge.result("bridge.getCapabilities")
        self.assertNotIn("sleepTimer.completedNatively", json.dumps(self.bridge.notifications))
        self.bridge.close()
        self.assert_impostor_got_nothing(impostor)
        self.assertIn(WHY, self.bridge.log())
        self.assertNotIn(TOKEN_PREFIX, self.bridge.log())


class TwoInstallationsTests(AgentIdentityTestCase):
    """Two installations of one user on one bus (the .deb and the Flatpak),
    each with its own state directory; one agent owns the name at a time."""

    def setUp(self):
        super().setUp()
        self.other = other_installation(self.session)
        self.other_bridge = Bridge(self.session, extra_env=self.other)
        self.addCleanup(lambda: self.other_bridge.process.poll() is None and self.other_bridge.close())

    def test_each_bridge_hands_its_tokens_to_its_own_agent_only(self):
        # This installation's agent owns the name: the other's bridge hands
        # it nothing, this one's works as ever.
        self.self_session()
        self.other_bridge.result("session.set", {
            "apiOrigin": self.platform.origin, "userId": self.platform.parent["id"],
            "accessToken": self.platform.parent["accessToken"],
            "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})
        other_timer = sleep_timer()
        self.upsert_is_refused(self.other_bridge, other_timer)
        self.assertEqual(self.client.list(), [])
        timer = sleep_timer(baby=LEO, name="Leo")
        self.assertEqual(self.bridge.result("sleepTimer.upsert", {"timer": timer})["native"],
                         {"mirrored": True, "reason": "mirrored"})
        self.assertEqual([t["timer_id"] for t in self.client.list()], [timer["id"]])
        # Signing out of the other installation purges nothing here.
        self.assertEqual(self.other_bridge.result("session.clear"), {"purged": 0, "agentUnavailable": True})
        self.assertEqual(len(self.client.list()), 1)
        self.assertIn("this installation's agent has published no bus name", self.other_bridge.log())
        # Now the other installation's agent owns the name: the roles turn.
        self.agent.terminate()
        self.agent = AgentProcess(self.session, extra_env=self.other)
        self.upsert_is_refused(self.bridge, timer)
        self.assertEqual(self.client.list(), [])
        self.other_bridge.result("session.set", {
            "apiOrigin": self.platform.origin, "userId": self.platform.parent["id"],
            "accessToken": self.platform.parent["accessToken"],
            "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})
        self.assertEqual(self.other_bridge.result("sleepTimer.upsert", {"timer": other_timer})["native"],
                         {"mirrored": True, "reason": "mirrored"})
        self.assertEqual([t["timer_id"] for t in self.client.list()], [other_timer["id"]])
        # This installation's agent ended cleanly: it took its name back.
        self.assertIn("this installation's agent has published no bus name", self.bridge.log())
        for bridge in (self.bridge, self.other_bridge):
            self.assertNotIn(TOKEN_PREFIX, bridge.log())
        self.assertNotIn(TOKEN_PREFIX, json.dumps(self.client.list()))


if __name__ == "__main__":
    unittest.main()
