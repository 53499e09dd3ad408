"""A second Flatpak, org.example.NameQueue, the impostor of the red team's
finding: its one bus permission is --own-name of the agent's public name,
com.dreamsforlittles.DreamsForLittles.SleepTimers1, which any Flatpak may
ask for. Its program (name_queue.c) waits in the name's queue and writes
every message it is sent into its own data folder.

Built in the test as a person would make one: `flatpak build-init` on the
stand-in org.gnome.Sdk and org.gnome.Platform that `make flatpak` installed
for its build (build/flatpak/installation), the program compiled with the
SDK's gcc (`flatpak build`), `flatpak build-finish` with the one
permission, exported to a repository of its own, bundled, and installed
with `flatpak install --user --bundle` beside the app (installed.Installation)."""

import os
import shutil
import signal
import subprocess

from harness import PATIENCE, eventually, stop
from installed import AGENT_NAME, INSTALL_TIMEOUT, OUT, standin_branch
from proc_accounting import command_line, environment, pids

APP_ID = "org.example.NameQueue"
SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "name_queue.c")
# Where build.sh installed the stand-in SDK and Platform for flatpak-builder.
BUILD_INSTALLATION = os.path.join(OUT, "installation")


class NameQueueApp:
    """The impostor Flatpak built and installed for the user of `installation`."""

    def __init__(self, installation):
        if not os.path.isdir(BUILD_INSTALLATION):
            raise AssertionError("%s is missing: run make flatpak first (it installs the stand-in SDK there)"
                                 % BUILD_INSTALLATION)
        self.installation = installation
        session = installation.session
        self.work = os.path.join(session.root, "name-queue")
        os.makedirs(self.work)
        branch = standin_branch()
        app = os.path.join(self.work, "app")
        build_env = dict(session.env, FLATPAK_USER_DIR=BUILD_INSTALLATION)
        self._flatpak(build_env, "build-init", app, APP_ID, "org.gnome.Sdk", "org.gnome.Platform", branch)
        os.makedirs(os.path.join(app, "files", "src"))
        os.makedirs(os.path.join(app, "files", "bin"))
        shutil.copy(SOURCE, os.path.join(app, "files", "src"))
        self._flatpak(build_env, "build", app, "sh", "-c",
                      "gcc -O2 -Wall -Werror -o /app/bin/name-queue /app/src/name_queue.c "
                      "$(pkg-config --cflags --libs gio-unix-2.0)")
        shutil.rmtree(os.path.join(app, "files", "src"))
        self._flatpak(build_env, "build-finish", app, "--command=name-queue", "--own-name=" + AGENT_NAME)
        repo = os.path.join(self.work, "repo")
        self._flatpak(build_env, "build-export", repo, app, branch)
        bundle = os.path.join(self.work, APP_ID + ".flatpak")
        self._flatpak(build_env, "build-bundle", repo, bundle, APP_ID, branch)
        installation.flatpak("install", "--user", "--noninteractive", "-y", "--bundle", bundle)
        # Its own data folder, as the sandbox's XDG_DATA_HOME.
        self.data = os.path.join(session.home, ".var", "app", APP_ID)
        self.record = os.path.join(self.data, "data", "received.log")
        self.process = None

    def _flatpak(self, env, *args):
        done = subprocess.run(["flatpak", *args], capture_output=True, text=True, env=env, timeout=INSTALL_TIMEOUT)
        if done.returncode != 0:
            raise AssertionError("flatpak %s failed (%d):\n%s%s" % (" ".join(args), done.returncode,
                                                                     done.stdout, done.stderr))

    def permissions(self):
        from installed import parse_permissions
        return parse_permissions(self.installation.flatpak("info", "--user", "--show-permissions", APP_ID))

    def start(self):
        """`flatpak run` of the app; returns once it waits in the name's
        queue (or owns the name, when nobody did)."""
        self.log = os.path.join(self.installation.session.root, "name-queue.log")
        with open(self.log, "w") as output:
            self.process = subprocess.Popen(["flatpak", "run", APP_ID], env=self.installation.session.env,
                                            stdout=output, stderr=output)
        self.installation.session.processes.append(self.process)
        eventually(lambda: any(line.startswith("RequestName ") for line in self.lines()),
                   what="the impostor's RequestName (its log: %s)" % self.log)

    def lines(self):
        try:
            with open(self.record, errors="replace") as handle:
                return handle.read().splitlines()
        except FileNotFoundError:
            return []

    def unique_name(self):
        return next(line.split()[1] for line in self.lines() if line.startswith("unique "))

    def request_reply(self):
        """RequestName's reply: 1 the owner, 2 in the queue."""
        return int(next(line.split()[1] for line in self.lines() if line.startswith("RequestName ")))

    def calls(self):
        """The method calls it was sent: dicts of interface, member and the
        whole line (arguments and descriptors' bytes)."""
        calls = []
        for line in self.lines():
            if line.startswith("call "):
                fields = dict(part.split("=", 1) for part in line.split(" ", 5)[1:5])
                calls.append(dict(fields, line=line))
        return calls

    def files_holding(self, needle):
        """Its files (all of ~/.var/app/org.example.NameQueue) whose bytes hold `needle`."""
        found = []
        for directory, _, names in os.walk(self.data):
            for name in names:
                path = os.path.join(directory, name)
                if os.path.isfile(path) and not os.path.islink(path):
                    with open(path, "rb") as handle:
                        if needle.encode() in handle.read():
                            found.append(path)
        return found

    def sandbox_pids(self):
        marker = ("FLATPAK_ID=" + APP_ID).encode()
        found = []
        for pid in pids():
            argv, environ = command_line(pid), environment(pid)
            if argv and environ and os.path.basename(argv.split(b"\0")[0]) == b"name-queue" and marker in environ:
                found.append(pid)
        return found

    def stop(self):
        """SIGTERM to the program in the sandbox (`flatpak run` passes no
        signal on), then its end waited for."""
        for pid in self.sandbox_pids():
            os.kill(pid, signal.SIGTERM)
        eventually(lambda: not self.sandbox_pids(), timeout=PATIENCE, what="the impostor to end")
        if self.process is not None:
            stop(self.process)
