"""The agent's one bus name, com.dreamsforlittles.DreamsForLittles.SleepTimers1,
under the app id: the .deb's agent owns it on the host, and the Flatpak's
inside the sandbox, where D-Bus activation starts it by that name.

"Inside" is made as the agent reads it, by the file every Flatpak sandbox
has: the agent runs chrooted into an overlay of the root that adds
/.flatpak-info (with the bus, /tmp and the build bind-mounted through), so
it takes RunningPlace.flatpak from the same code as in a real sandbox. The
real sandbox is exercised by the Flatpak's own tests."""

import os
import subprocess
import unittest

import dbus

from harness import AGENT, BUS_NAME, INTERFACE, OBJECT_PATH, PATIENCE, AgentProcess, Session, eventually


# Runs its arguments with /.flatpak-info present: a private mount
# namespace, the root as an overlay's lower layer, the live trees bound in.
SANDBOX = r"""#!/bin/sh
set -e
exec unshare --mount --propagation private sh -c '
set -e
mount -t tmpfs dfl-sandbox /mnt
mkdir /mnt/upper /mnt/work /mnt/root
mount -t overlay overlay -o lowerdir=/,upperdir=/mnt/upper,workdir=/mnt/work /mnt/root
for d in proc dev sys tmp run %(tree)s; do [ -d "$d" ] || [ -d "/$d" ] || continue; mount --rbind "/${d#/}" "/mnt/root/${d#/}"; done
printf "[Application]\nname=com.dreamsforlittles.DreamsForLittles\n" > /mnt/root/.flatpak-info
cd /mnt/root
exec chroot /mnt/root "$@"' sh "$@"
"""


def sandbox_wrapper(session):
    """A command that runs the program it is given as inside a Flatpak."""
    path = os.path.join(session.root, "as-in-a-flatpak")
    if not os.path.exists(path):
        tree = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(AGENT))))
        with open(path, "w") as handle:
            handle.write(SANDBOX % {"tree": tree})
        os.chmod(path, 0o755)
    return (path,)


def owner(session, name):
    """The name's owner, or None; asked once, so that an owner leaving
    between two questions is not an error."""
    bus = dbus.bus.BusConnection(session.env["DBUS_SESSION_BUS_ADDRESS"])
    try:
        return bus.get_name_owner(name)
    except dbus.exceptions.DBusException as error:
        if error.get_dbus_name() == "org.freedesktop.DBus.Error.NameHasNoOwner":
            return None
        raise
    finally:
        bus.close()


def list_at(session, name):
    result = subprocess.run(
        ["gdbus", "call", "--session", "--dest", name, "--object-path", OBJECT_PATH, "--method", INTERFACE + ".List"],
        env=session.env, capture_output=True, text=True, timeout=PATIENCE)
    return result


class NamesTests(unittest.TestCase):
    def setUp(self):
        self.session = Session()
        self.addCleanup(self.session.close)

    def test_the_name_is_under_the_app_id(self):
        self.assertEqual(BUS_NAME, "com.dreamsforlittles.DreamsForLittles.SleepTimers1")

    def test_inside_the_agent_answers_at_its_one_name(self):
        agent = AgentProcess(self.session, wrapper=sandbox_wrapper(self.session))
        self.assertIsNotNone(owner(self.session, BUS_NAME))
        self.assertIsNone(owner(self.session, "com.dreamsforlittles.SleepTimers1"))
        result = list_at(self.session, BUS_NAME)
        self.assertEqual((result.returncode, result.stdout.strip()), (0, "(@aa{sv} [],)"))
        self.assertIn("serves %s" % BUS_NAME, agent.log())
        self.assertEqual(agent.terminate(), 0)
        eventually(lambda: owner(self.session, BUS_NAME) is None, what="the name to be released")

    def test_on_the_host_the_agent_owns_the_same_name(self):
        AgentProcess(self.session)
        self.assertIsNotNone(owner(self.session, BUS_NAME))
        self.assertIsNone(owner(self.session, "com.dreamsforlittles.SleepTimers1"))

    def test_a_call_to_the_name_starts_the_sandboxed_agent_by_activation(self):
        with open(os.path.join(self.session.services, BUS_NAME + ".service"), "w") as handle:
            handle.write("[D-BUS Service]\nName=%s\nExec=%s %s\n" % (BUS_NAME, sandbox_wrapper(self.session)[0], AGENT))
        result = list_at(self.session, BUS_NAME)
        self.assertEqual((result.returncode, result.stdout.strip()), (0, "(@aa{sv} [],)"), result.stderr)
        pid = int(subprocess.run(
            ["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
             "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", BUS_NAME],
            env=self.session.env, capture_output=True, text=True, timeout=PATIENCE, check=True).stdout.split()[1].rstrip(",)"))
        os.kill(pid, 15)
        eventually(lambda: owner(self.session, BUS_NAME) is None, what="the activated agent to leave")

    def test_a_name_already_owned_stops_the_sandboxed_agent(self):
        # Another installation's agent (the .deb's, say) on the same bus,
        # with its own store, as a sandbox's is: the name decides.
        AgentProcess(self.session)
        host = owner(self.session, BUS_NAME)
        other_state = os.path.join(self.session.root, "sandbox-state")
        second = AgentProcess(self.session, extra_env={"XDG_STATE_HOME": other_state}, wait=False,
                              wrapper=sandbox_wrapper(self.session))
        self.assertEqual(second.process.wait(PATIENCE), 1)
        self.assertIn("Another program already owns %s" % BUS_NAME, second.log())
        self.assertEqual(owner(self.session, BUS_NAME), host)

    def test_a_second_sandboxed_agent_on_the_same_store_leaves_the_name_to_the_first(self):
        AgentProcess(self.session, wrapper=sandbox_wrapper(self.session))
        first = owner(self.session, BUS_NAME)
        second = AgentProcess(self.session, wait=False, wrapper=sandbox_wrapper(self.session))
        self.assertEqual(second.process.wait(PATIENCE), 75)
        self.assertEqual(owner(self.session, BUS_NAME), first)


if __name__ == "__main__":
    unittest.main()
