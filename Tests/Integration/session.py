"""A private desktop session for one test: a fresh temporary HOME with its
own XDG directories and XDG_RUNTIME_DIR, its own session bus (and, where a
test needs one, a second private bus standing in for the system bus). A
test never touches the user's real configuration, state or bus, and two
tests side by side (parallel.py's workers) share nothing."""

import os
import shutil
import subprocess
import tempfile

from processes import ORIGIN, stop

# Where Debian's packages put their session services' D-Bus files.
SYSTEM_SERVICES = "/usr/share/dbus-1/services"

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{services}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


def with_bus_limits(limits):
    """BUS_CONFIG with more elements (<limit>s, say) before its end."""
    return BUS_CONFIG.replace("</busconfig>\n", limits)


def session_environment(root, home, runtime):
    """A private session's environment: its own HOME and XDG directories
    under `root`, nothing of the tests' own but PATH."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_CONFIG_DIRS": os.path.join(root, "etc-xdg"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_RUNTIME_DIR": runtime,
        "LANG": "C.UTF-8",
    }


class Session:
    """A private home with its own session bus, whose only service directory
    is the session's own (so no installed service starts by itself).
    `bus_config`: the bus's configuration, BUS_CONFIG unless a test needs
    other limits (with_bus_limits)."""

    def __init__(self, bus_config=None):
        self.root = tempfile.mkdtemp(prefix="dfl-it-")
        self.home = os.path.join(self.root, "home")
        self.runtime = os.path.join(self.root, "runtime")
        self.services = os.path.join(self.root, "services")
        for path in (self.home, self.runtime, self.services):
            os.makedirs(path, mode=0o700)
        self.config_dir = os.path.join(self.home, ".config", "dreamsforlittles")
        self.state_dir = os.path.join(self.home, ".local", "state", "dreamsforlittles")
        os.makedirs(self.config_dir)
        self.env = session_environment(self.root, self.home, self.runtime)
        # A sanitized build reads its options (suppressions among them)
        # from the environment.
        for name in ("ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"):
            if name in os.environ:
                self.env[name] = os.environ[name]
        config = os.path.join(self.root, "bus.conf")
        with open(config, "w") as handle:
            handle.write((bus_config or BUS_CONFIG).format(socket=os.path.join(self.runtime, "bus"),
                                                           services=self.services))
        self.bus_log = open(os.path.join(self.root, "dbus-daemon.log"), "w")
        self.bus = subprocess.Popen(
            ["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
            stdout=subprocess.PIPE, stderr=self.bus_log, env=self.env, text=True)
        address = self.bus.stdout.readline().strip()
        if not address:
            raise RuntimeError("dbus-daemon did not start")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = address
        self.processes = []
        self.agents = []
        self.write_config()

    def bus_output(self):
        """What the bus logged, D-Bus-activated programs' output among it."""
        self.bus_log.flush()
        with open(self.bus_log.name, errors="replace") as handle:
            return handle.read()

    def install_services(self, services):
        """The D-Bus service files of `services` (each bus name with the
        Debian package that installs its file) put where this session's
        bus looks, its only service directory, so that the bus starts them
        as a login's does; a missing one names its package."""
        for name, package in services.items():
            path = os.path.join(SYSTEM_SERVICES, name + ".service")
            if not os.path.exists(path):
                raise AssertionError("%s is missing: install the Debian package %s" % (path, package))
            shutil.copy(path, self.services)

    def write_config(self, text=None):
        if text is None:
            text = "[platform]\nallowed-origins=%s;http://127.0.0.1:1\n\n[app]\nurl-opener=%s\n" % (
                ORIGIN, self.opener_path())
        with open(os.path.join(self.config_dir, "sleep-agent.conf"), "w") as handle:
            handle.write(text)

    def opener_path(self):
        """A url-opener that appends each URL it is given to a file."""
        path = os.path.join(self.root, "record-url")
        if not os.path.exists(path):
            with open(path, "w") as handle:
                handle.write('#!/bin/sh\nprintf "%%s\\n" "$1" >> "%s"\n' % os.path.join(self.root, "opened-urls"))
            os.chmod(path, 0o755)
        return path

    def opened_urls(self):
        try:
            with open(os.path.join(self.root, "opened-urls")) as handle:
                return handle.read().split()
        except FileNotFoundError:
            return []

    def close(self):
        # An agent's sanitizer report fails the test from agent.close(); the
        # bus and the directory still go.
        try:
            for process in reversed(self.processes):
                stop(process)
            for agent in self.agents:
                agent.close()
        finally:
            stop(self.bus)
            self.bus_log.close()
            shutil.rmtree(self.root, ignore_errors=True)


class SystemBus:
    """A second private bus standing in for the system bus, where a test plays
    NetworkManager and announces the network state as it does. Without
    `network_manager`, nobody owns its name: a client that calls
    NetworkManager (GNOME Shell does) is told at once there is none, instead
    of waiting for an answer this process does not give."""

    def __init__(self, session, network_manager=True):
        import dbus.bus
        config = os.path.join(session.root, "system-bus.conf")
        with open(config, "w") as handle:
            handle.write(BUS_CONFIG.format(socket=os.path.join(session.runtime, "system-bus"),
                                           services=session.services))
        self.log = open(os.path.join(session.root, "system-bus.log"), "w")
        self.process = subprocess.Popen(["dbus-daemon", "--config-file=" + config, "--nofork", "--print-address=1"],
                                        stdout=subprocess.PIPE, stderr=self.log, text=True)
        session.processes.append(self.process)
        self.address = self.process.stdout.readline().strip()
        session.env["DBUS_SYSTEM_BUS_ADDRESS"] = self.address
        self.connection = dbus.bus.BusConnection(self.address)
        if network_manager:
            self.connection.request_name("org.freedesktop.NetworkManager")

    def network_state(self, state):
        import dbus
        import dbus.lowlevel
        message = dbus.lowlevel.SignalMessage("/org/freedesktop/NetworkManager", "org.freedesktop.NetworkManager",
                                              "StateChanged")
        message.append(dbus.UInt32(state), signature="u")
        self.connection.send_message(message)
        self.connection.flush()

    def close(self):
        self.connection.close()
        self.log.close()
