"""A session under an unprivileged uid of its own: a home, a runtime
directory and a session bus that belong to a uid no other process uses, so
what one of its processes can do to another is what any process of a
desktop user could do to the agent, with no root privilege to blur it.

The tests run as root; the uid needs no entry in /etc/passwd."""

import os
import random
import shutil
import subprocess
import tempfile

from harness import BUS_CONFIG, PATIENCE, session_environment, stop

HERE = os.path.dirname(os.path.abspath(__file__))


def unused_uid():
    """A uid above the ranges distributions hand out, that neither
    /etc/passwd names nor any running process has."""
    with open("/etc/passwd") as handle:
        taken = {int(line.split(":")[2]) for line in handle if line.count(":") >= 2}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            taken.add(os.stat("/proc/" + pid).st_uid)
        except FileNotFoundError:
            continue
    candidates = [uid for uid in range(60100, 60999) if uid not in taken]
    return random.choice(candidates)


class UnprivilegedSession:
    """A home and a session bus owned by a fresh uid, and a way to run
    programs as that uid there."""

    def __init__(self):
        if os.geteuid() != 0:
            raise AssertionError("the containment tests need root, to give the agent a uid of its own")
        self.uid = unused_uid()
        self.root = tempfile.mkdtemp(prefix="dfl-uid-")
        os.chmod(self.root, 0o755)
        self.home = os.path.join(self.root, "home")
        self.runtime = os.path.join(self.root, "runtime")
        for path in (self.home, self.runtime):
            os.makedirs(path, mode=0o700)
            os.chown(path, self.uid, self.uid)
        self.env = session_environment(self.root, self.home, self.runtime)
        services = os.path.join(self.root, "services")
        os.makedirs(services)
        # The bus runs as root: dbus-daemon neither runs as nor admits by
        # EXTERNAL a uid without a passwd entry. It admits anonymous
        # connections instead, on a socket (umask 0) inside the uid's own
        # runtime directory, which only that uid and root can reach.
        config = os.path.join(self.root, "bus.conf")
        with open(config, "w") as handle:
            handle.write(BUS_CONFIG.format(socket=os.path.join(self.runtime, "bus"), services=services).replace(
                "<auth>EXTERNAL</auth>", "<auth>ANONYMOUS</auth>\n  <allow_anonymous/>"))
        self.bus_log = open(os.path.join(self.root, "dbus-daemon.log"), "w")
        self.bus = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
                                    stdout=subprocess.PIPE, stderr=self.bus_log, env=self.env, text=True, umask=0)
        address = self.bus.stdout.readline().strip()
        if not address:
            raise RuntimeError("dbus-daemon did not start as uid %d" % self.uid)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = address

    def as_user(self):
        """subprocess arguments that run a program as the session's uid, with
        no supplementary groups left over from root."""
        return {"user": self.uid, "group": self.uid, "extra_groups": []}

    def shared_copy(self, path):
        """A copy of a file the uid can read and run, wherever the checkout
        is (a home folder of mode 0700, say)."""
        copy = os.path.join(self.root, os.path.basename(path))
        shutil.copy(path, copy)
        os.chmod(copy, 0o755)
        return copy

    def run(self, program, log_name):
        """Runs `program` as the uid; returns its standard output, with its
        standard error kept in the session's root for the failure message."""
        log_path = os.path.join(self.root, log_name)
        with open(log_path, "w") as log:
            result = subprocess.run(program, env=self.env, stdout=subprocess.PIPE, stderr=log, text=True,
                                    timeout=3 * PATIENCE, **self.as_user())
        with open(log_path) as log:
            return result.stdout, log.read()

    def close(self):
        stop(self.bus)
        self.bus_log.close()
        shutil.rmtree(self.root, ignore_errors=True)
