"""The .deb and the Flatpak installed side by side for one user, as the
README's "Both installed" describes them: their agents share one name, so
one runs at a time, and the other app's Sleeps are not mirrored meanwhile,
its bridge's log saying why. One Sleep in each app, each mirrored to its
own agent, each completed once; each token only in its own store (the
host's ~/.local/state/dreamsforlittles, the Flatpak's under
~/.var/app/com.dreamsforlittles.DreamsForLittles) and in no bus message.

Run in the Debian 13 root (Tests/Flatpak/run.sh): the package that `make
package` left in build/package installed with dpkg -i into the root's
throwaway overlay (and purged after, for the modules that follow), the
Flatpak installed for the session's user (installed.py), the reference
platform over TLS on loopback, each installation's own bridge spoken to on
its stdin, and dbus-monitor over the whole bus."""

import glob
import os
import re
import subprocess
import unittest

import dbus

from dbus_client import Client
from desktop import BusMonitor
from harness import BUS_NAME, DEMO_FAMILY, LEO, REPO, Platform, Session, eventually, stop
from installed import AGENT_NAME, Installation
from test_impostor_flatpak import MIRRORED, NOT_MIRRORED, TOKEN_PREFIX, WHY, tokens_under
from test_webview_bridge import Bridge, sleep_timer

PACKAGE = "dreamsforlittles-desktop"
HOST_AGENT = "/usr/bin/dfl-sleep-agent"
HOST_BRIDGE = "/usr/bin/dfl-webview-bridge"


def the_package():
    """The newest package `make package` left, as Tests/Trixie/run.sh finds it."""
    debs = sorted(glob.glob(os.path.join(REPO, "build", "package", PACKAGE + "_*.deb")), key=os.path.getmtime)
    if not debs:
        raise AssertionError("build/package/%s_*.deb is missing: run make package first" % PACKAGE)
    return debs[-1]


def in_throwaway_root():
    """Whether / is an overlay, as Tests/Trixie/root.sh run mounts it: a
    package installed there is gone when the run ends."""
    with open("/proc/self/mounts") as handle:
        roots = [line.split()[2] for line in handle if line.split()[1] == "/"]
    return bool(roots) and roots[-1] == "overlay"


class DebBesideFlatpakTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not in_throwaway_root():
            raise AssertionError("run it with Tests/Flatpak/run.sh: it installs the .deb into the Debian 13 "
                                 "root's throwaway overlay, never into this system")
        done = subprocess.run(["dpkg", "-i", the_package()], capture_output=True, text=True)
        if done.returncode != 0:
            raise AssertionError("dpkg -i failed:\n%s%s" % (done.stdout, done.stderr))
        cls.addClassCleanup(subprocess.run, ["dpkg", "--purge", PACKAGE], capture_output=True, check=True)
        cls.session = Session()
        cls.addClassCleanup(cls.session.close)
        cls.installation = Installation(cls.session)

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

    def connection_of(self, pid):
        """The unique name of the process `pid`'s connection."""
        for name in self.daemon.ListNames():
            if name.startswith(":"):
                try:
                    if int(self.daemon.GetConnectionUnixProcessID(name)) == pid:
                        return str(name)
                except dbus.exceptions.DBusException:
                    pass
        return None

    def start_host_agent(self):
        self.host_agent_log = os.path.join(self.session.root, "host-agent.log")
        with open(self.host_agent_log, "w") as output:
            agent = subprocess.Popen([HOST_AGENT], env=self.session.env, stdout=output, stderr=output)
        self.session.processes.append(agent)
        eventually(lambda: self.owner() and int(self.daemon.GetConnectionUnixProcessID(self.owner())) == agent.pid,
                   what="the .deb's agent to own %s" % AGENT_NAME)
        return agent

    def bridge(self, command, platform):
        bridge = Bridge(self.session, command=command)
        self.addCleanup(lambda: bridge.process.poll() is None and bridge.close())
        bridge.result("session.set", {
            "apiOrigin": platform.origin, "userId": platform.parent["id"],
            "accessToken": platform.parent["accessToken"], "actor": {"mode": "self", "familySubjectId": DEMO_FAMILY}})
        return bridge

    def test_one_sleep_in_each_app_completed_once_each_token_only_in_its_own_store(self):
        platform = Platform(self.session)
        self.addCleanup(platform.stop)
        platform.configure()
        self.installation.configure(platform, web_origin=False)
        monitor = BusMonitor(self.session)
        self.addCleanup(monitor.stop)
        host_store = self.session.state_dir
        flatpak_store = os.path.join(self.installation.data, ".local", "state", "dreamsforlittles")
        client = Client(self.session)
        self.addCleanup(client.close)

        # The .deb's agent first, as at a login that starts it: the
        # Flatpak's, started then, leaves, saying why.
        host_agent = self.start_host_agent()
        host_agent_name = self.owner()
        refused_log = os.path.join(self.session.root, "flatpak-agent-refused.log")
        refused = self.installation.start("dfl-sleep-agent", log=refused_log)
        eventually(lambda: refused.poll() is not None, what="the Flatpak's agent to leave")
        with open(refused_log, errors="replace") as handle:
            self.assertIn("Another program already owns %s" % AGENT_NAME, handle.read())
        self.assertEqual(self.owner(), host_agent_name)

        host_bridge = self.bridge([HOST_BRIDGE], platform)
        flatpak_bridge = self.bridge(self.installation.run_command("dfl-webview-bridge"), platform)
        maya, leo = sleep_timer(), sleep_timer(baby=LEO, name="Leo")
        self.assertEqual(host_bridge.result("sleepTimer.upsert", {"timer": maya})["native"], MIRRORED)
        # The Flatpak app's Sleep is saved on the platform, not mirrored,
        # and its bridge's log says why.
        self.assertEqual(flatpak_bridge.result("sleepTimer.upsert", {"timer": leo})["native"], NOT_MIRRORED)
        self.assertIn(WHY, flatpak_bridge.log())
        self.assertEqual([t["timer_id"] for t in client.list()], [maya["id"]])
        [maya_token] = tokens_under(host_store)
        self.assertEqual(tokens_under(flatpak_store), set())
        client.timers.Complete(maya["id"], dbus.Int64(0))
        eventually(lambda: self.activities_of(platform, maya["id"]), what="the platform to record Maya's Sleep")
        eventually(lambda: client.list() == [], what="the completed timer to leave the .deb's agent's list")

        # The .deb's agent ends; the Flatpak's agent takes the name, and the
        # roles turn.
        stop(host_agent)
        eventually(lambda: self.owner() is None, what="the .deb's agent to give its name back")
        flatpak_agent = self.installation.start("dfl-sleep-agent",
                                                log=os.path.join(self.session.root, "flatpak-agent.log"))
        self.addCleanup(stop, flatpak_agent)
        eventually(lambda: self.owner(), what="the Flatpak's agent to own %s" % AGENT_NAME)
        flatpak_agent_name = self.owner()
        self.assertNotEqual(self.installation.sandbox_pids("dfl-sleep-agent"), [])
        self.assertEqual(flatpak_bridge.result("sleepTimer.upsert", {"timer": leo})["native"], MIRRORED)
        self.assertEqual(host_bridge.result("sleepTimer.upsert", {"timer": sleep_timer(name="Maya")})["native"],
                         NOT_MIRRORED)
        self.assertIn("this installation's agent has published no bus name", host_bridge.log())
        self.assertEqual([t["timer_id"] for t in client.list()], [leo["id"]])
        [leo_token] = tokens_under(flatpak_store)
        self.assertNotEqual(leo_token, maya_token)
        client.timers.Complete(leo["id"], dbus.Int64(0))
        eventually(lambda: self.activities_of(platform, leo["id"]), what="the platform to record Leo's Sleep")
        eventually(lambda: client.list() == [], what="the completed timer to leave the Flatpak's agent's list")

        # Each completed once.
        for timer in (maya, leo):
            self.assertEqual(len(self.activities_of(platform, timer["id"])), 1)
            completions = [r for r in platform.requests() if r["method"] == "POST"
                           and r["path"] == "/native/sleep-timers/%s/complete" % timer["id"]]
            self.assertEqual(len(completions), 1, completions)
        # Each token only in its own store: never in the other's.
        self.assertNotIn(maya_token, tokens_under(flatpak_store))
        self.assertNotIn(leo_token, tokens_under(host_store))
        for store in (host_store, flatpak_store):
            self.assertTrue(glob.glob(os.path.join(store, "*.sqlite*")) or glob.glob(os.path.join(store, "*.db*")),
                            os.listdir(store))
        # No token in any bus message; each bridge's Mirror went to its own
        # agent only.
        self.assertNotIn(TOKEN_PREFIX, monitor.text())
        host_bridge_name = self.connection_of(host_bridge.process.pid)
        self.assertIsNotNone(host_bridge_name)
        mirrors = [dict(re.findall(r"(sender|destination)=(\S+)", header)) for header, _ in monitor.messages()
                   if header.startswith("method call") and "member=Mirror" in header]
        self.assertTrue(mirrors)
        for mirror in mirrors:
            own = host_agent_name if mirror["sender"] == host_bridge_name else flatpak_agent_name
            self.assertEqual(mirror["destination"], own, mirrors)
        self.assertEqual({m["destination"] for m in mirrors}, {host_agent_name, flatpak_agent_name}, mirrors)
        for bridge in (host_bridge, flatpak_bridge):
            self.assertNotIn(TOKEN_PREFIX, bridge.log())

    def activities_of(self, platform, timer_id):
        return [a for a in platform.activities() if a["timerId"] == timer_id]


if __name__ == "__main__":
    unittest.main()
