"""The Flatpak as a parent has it: the stand-in runtime from
build/flatpak/repo and the bundle build/flatpak/com.dreamsforlittles.DreamsForLittles.flatpak
that `make flatpak` leaves, installed with `flatpak install --user` into the
fresh home of a private session (harness.Session: its own HOME, XDG
directories, XDG_RUNTIME_DIR and session bus).

The installation is where Flatpak puts a user's ($XDG_DATA_HOME/flatpak),
and its exports are on XDG_DATA_DIRS, as a login session has them
(/etc/profile.d/flatpak.sh): the desktop finds the app's entry and icons
there, and the session bus its exported D-Bus services, so that a call to
com.dreamsforlittles.DreamsForLittles or com.dreamsforlittles.DreamsForLittles.SleepTimers1 runs
`flatpak run` as D-Bus activation does at home.

Also here: `flatpak run` helpers, the app's own settings written where the
sandbox reads them, and the manifest's finish-args in the form
`flatpak info --show-permissions` prints them."""

import configparser
import os
import re
import shutil
import signal
import subprocess
import time

import dbus

from harness import PATIENCE, REPO, eventually
from proc_accounting import command_line, environment, pids

APP_ID = "com.dreamsforlittles.DreamsForLittles"
AGENT_NAME = APP_ID + ".SleepTimers1"
# The programs a sandbox of the app runs.
PROGRAMS = ("dreamsforlittles", "dfl-webview-bridge", "dfl-sleep-agent", "WebKitWebProcess", "WebKitNetworkProcess")
MANIFEST = os.path.join(REPO, "packaging", "flatpak", APP_ID + ".yml")
OUT = os.path.join(REPO, "build", "flatpak")
BUNDLE = os.path.join(OUT, APP_ID + ".flatpak")
STANDIN_REPO = os.path.join(OUT, "repo")
STANDIN = os.path.join(REPO, "Tests", "Flatpak", "standin.sh")
# How long an install may take on a busy machine: a bound for a hang.
INSTALL_TIMEOUT = 600


def standin_branch():
    return subprocess.run([STANDIN, "branch"], capture_output=True, text=True, check=True).stdout.strip()


def require(program, package):
    if shutil.which(program) is None:
        raise AssertionError("%s is missing: install the Debian package %s" % (program, package))


class Installation:
    """The runtime and the bundle installed for the user of `session`."""

    def __init__(self, session):
        for path in (BUNDLE, STANDIN_REPO):
            if not os.path.exists(path):
                raise AssertionError("%s is missing: run make flatpak first" % path)
        require("flatpak", "flatpak")
        self.session = session
        env = session.env
        self.user_dir = os.path.join(env["XDG_DATA_HOME"], "flatpak")
        self.exports = os.path.join(self.user_dir, "exports", "share")
        # The sandbox's own data: HOME, XDG_CONFIG_HOME, XDG_STATE_HOME ...
        # point under it inside.
        self.data = os.path.join(session.home, ".var", "app", APP_ID)
        # flatpak install asks malcontent on the system bus, which a test's
        # session lacks: the session bus stands in for it.
        env.update(FLATPAK_USER_DIR=self.user_dir, FLATPAK_SYSTEM_HELPER_ON_SESSION="1",
                   XDG_DATA_DIRS=os.pathsep.join((self.exports, "/usr/local/share", "/usr/share")))
        os.makedirs(os.path.join(self.exports, "dbus-1", "services"), exist_ok=True)
        self._serve_exported_services()
        self.flatpak("remote-add", "--user", "--no-gpg-verify", "standin", "file://" + STANDIN_REPO)
        self.flatpak("install", "--user", "--noninteractive", "-y", "standin",
                     "runtime/org.gnome.Platform/x86_64/%s" % standin_branch())
        self.flatpak("install", "--user", "--noninteractive", "-y", "--bundle", BUNDLE)

    def _serve_exported_services(self):
        """The session bus reads the exports' dbus-1/services as a login
        session's bus does through XDG_DATA_DIRS. The test's bus has one
        service directory of its own (harness.BUS_CONFIG), so the exported
        one is added to its configuration, which it is told to read again."""
        config = os.path.join(self.session.root, "bus.conf")
        with open(config) as handle:
            text = handle.read()
        services = os.path.join(self.exports, "dbus-1", "services")
        if services not in text:
            text = text.replace("</servicedir>", "</servicedir>\n  <servicedir>%s</servicedir>" % services, 1)
            with open(config, "w") as handle:
                handle.write(text)
        bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        try:
            bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "ReloadConfig", "", ())
        finally:
            bus.close()

    def flatpak(self, *args, check=True):
        """flatpak ARGS as the session's user; its output."""
        done = subprocess.run(["flatpak", *args], capture_output=True, text=True, env=self.session.env,
                              timeout=INSTALL_TIMEOUT)
        if check and done.returncode != 0:
            raise AssertionError("flatpak %s failed (%d):\n%s%s" % (" ".join(args), done.returncode,
                                                                     done.stdout, done.stderr))
        return done.stdout

    def run_command(self, command, *args, env=None):
        """The argument vector of `flatpak run` for one of the sandbox's
        programs (None: the app's own command, as its launcher runs it);
        `env` is passed with --env=, the way a person gives a sandboxed
        program a variable."""
        return ["flatpak", "run", *("--env=%s=%s" % item for item in (env or {}).items()),
                *(["--command=%s" % command] if command else []), APP_ID, *args]

    def run(self, command, *args, env=None, timeout=120):
        return subprocess.run(self.run_command(command, *args, env=env), capture_output=True, text=True,
                              env=self.session.env, timeout=timeout)

    def start(self, command, *args, env=None, log=None):
        """A sandboxed program started in the background (stopped with the
        session), its output into the file `log`."""
        output = open(log, "w") if log else subprocess.DEVNULL
        process = subprocess.Popen(self.run_command(command, *args, env=env), env=self.session.env,
                                   stdout=output, stderr=output)
        if log:
            output.close()
        self.session.processes.append(process)
        return process

    def activation_environment(self, *names):
        """Gives programs the bus starts (the portals, `flatpak run` of an
        exported service) these variables of the session, as a desktop
        session does at login."""
        subprocess.run(["dbus-update-activation-environment", *names], env=self.session.env, check=True,
                       timeout=PATIENCE)

    def configure(self, platform, web_origin=True):
        """The programs' settings for the reference platform `platform`
        (harness.Platform), written where the sandbox reads them: its own
        config folder, ~/.var/app/APPID/config/dreamsforlittles, as a
        person would. The platform's test CA is copied beside them: the
        sandbox sees no file of the host's but its own data, and a wider
        --filesystem is what the manifest must not have."""
        folder = os.path.join(self.data, "config", "dreamsforlittles")
        os.makedirs(folder, exist_ok=True)
        ca = os.path.join(folder, "test-ca.pem")
        shutil.copy(os.path.join(str(platform.certs), "ca.pem"), ca)
        web = "web-origin=%s\n" % platform.origin if web_origin else ""
        with open(os.path.join(folder, "sleep-agent.conf"), "w") as handle:
            handle.write("[platform]\nallowed-origins=%s\nca-file=%s\n\n[app]\n%s" % (platform.origin, ca, web))

    def permissions(self):
        return parse_permissions(self.flatpak("info", "--user", "--show-permissions", APP_ID))

    def sandbox_pids(self, program):
        """The processes running /app/bin/PROGRAM inside any of this
        session's sandboxes (seen from outside by their command line)."""
        marker = ("FLATPAK_ID=" + APP_ID).encode()
        found = []
        for pid in pids():
            argv, environ = command_line(pid), environment(pid)
            if argv is None or environ is None:
                continue
            argv = argv.split(b"\0")
            if argv and os.path.basename(argv[0]) == program.encode() and marker in environ:
                found.append(pid)
        return found

    def launches(self):
        """The `flatpak run` processes of this installation's app, and the
        bwrap each becomes, before the sandboxed program runs or after it
        ended: a start under way, a D-Bus activation among them."""
        marker = ("FLATPAK_USER_DIR=" + self.user_dir).encode()
        found = []
        for pid in pids():
            argv, environ = command_line(pid), environment(pid)
            if not argv or environ is None or marker not in environ:
                continue
            argv = argv.split(b"\0")
            program = os.path.basename(argv[0])
            if program == b"bwrap" or (program == b"flatpak" and b"run" in argv and APP_ID.encode() in argv):
                found.append(pid)
        return found

    def end_sandboxes(self):
        """Every sandbox of the app ended and none starting, for a next test
        that starts its own agent. Whatever is left is killed and looked for
        again until a second's looks find nothing: a program killed first
        (the agent) is started again by D-Bus activation when one killed
        after it (the app, whose bridge calls the agent) asks for it, and
        that start is a `flatpak run` before it is a sandbox."""
        clear_since = [None]

        def ended():
            left = self.launches() + [pid for program in PROGRAMS for pid in self.sandbox_pids(program)]
            if not left:
                clear_since[0] = clear_since[0] or time.monotonic()
                return time.monotonic() - clear_since[0] >= 1
            clear_since[0] = None
            self.flatpak("kill", APP_ID, check=False)
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            return False

        eventually(ended, what="the app's sandboxes to end, none starting")


def manifest_finish_args(path=MANIFEST):
    """The finish-args list of the manifest, read from its block of items."""
    args, inside = [], False
    with open(path, encoding="utf-8") as file:
        for line in file:
            if line.startswith("finish-args:"):
                inside = True
                continue
            if inside:
                stripped = line.strip()
                if stripped.startswith("- "):
                    args.append(stripped[2:].strip())
                elif stripped and not stripped.startswith("#"):
                    break
    if not args:
        raise ValueError(f"{path} has no finish-args")
    return args


def permissions_of(args):
    """finish-args as the groups and keys `flatpak info --show-permissions`
    prints them in, each value a set."""
    context_keys = {"--share": "shared", "--socket": "sockets", "--device": "devices",
                    "--filesystem": "filesystems", "--allow": "features"}
    bus_policies = {"--own-name": "own", "--talk-name": "talk", "--see-name": "see"}
    permissions = {}
    for arg in args:
        option, _, value = arg.partition("=")
        if option in context_keys:
            values = permissions.setdefault("Context", {}).setdefault(context_keys[option], set())
            values.add(value)
            # Flatpak keeps fallback-x11 as x11 too, and drops x11 when it
            # runs the app where Wayland is.
            if arg == "--socket=fallback-x11":
                values.add("x11")
        elif option in bus_policies:
            permissions.setdefault("Session Bus Policy", {})[value] = {bus_policies[option]}
        else:
            raise ValueError(f"a finish-arg this test does not know: {arg}")
    return permissions


def parse_permissions(text):
    """The key file `flatpak info --show-permissions` prints, its lists as sets."""
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read_string(text)
    return {group: {key: {item for item in value.split(";") if item}
                    for key, value in parser[group].items()}
            for group in parser.sections()}


def key_file(path):
    """A desktop entry or D-Bus service file, its keys as written."""
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read(path, encoding="utf-8")
    return parser


def exec_words(line):
    """An Exec= line split as a desktop entry's (no field codes expanded)."""
    return [word.strip('"') for word in re.findall(r'"[^"]*"|\S+', line)]
