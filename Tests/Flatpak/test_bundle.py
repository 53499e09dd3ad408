"""The Flatpak bundle that `make flatpak` leaves installs and runs.

Run in the Debian 13 root (Tests/Flatpak/run.sh): the stand-in runtime from
build/flatpak/repo and the bundle build/flatpak/com.dreamsforlittles.DreamsForLittles.flatpak
are installed with `flatpak install --user` into a fresh user installation,
as a parent's would be, under a private session bus; then the programs run
in the sandbox, its permissions are the manifest's finish-args, and the
files Flatpak exports to the desktop are where it exports them.
"""

import os
import signal
import subprocess
import unittest

import dbus

from desktop import Display
from harness import BUS_NAME, INTERFACE, OBJECT_PATH, PATIENCE, REPO, Session, eventually
from installed import AGENT_NAME, APP_ID, MANIFEST, Installation, key_file, manifest_finish_args, parse_permissions, permissions_of


class BundleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.session = Session()
        cls.addClassCleanup(cls.session.close)
        cls.installation = Installation(cls.session)
        cls.user_dir = cls.installation.user_dir

    @classmethod
    def flatpak(cls, *args: str) -> str:
        return cls.installation.flatpak(*args)

    def run_in_sandbox(self, command: str, *args: str):
        return self.installation.run(command, *args)

    def test_sleepctl_answers_its_help_in_the_sandbox(self):
        done = self.run_in_sandbox("dfl-sleepctl", "--help")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("dfl-sleepctl", done.stdout + done.stderr)

    def test_each_program_starts_in_the_sandbox(self):
        for program in ("dfl-sleep-agent", "dfl-webview-bridge", "dreamsforlittles"):
            with self.subTest(program=program):
                done = self.run_in_sandbox(program, "--help")
                self.assertEqual(done.returncode, 0, done.stdout + done.stderr)

    def test_the_programs_link_no_swift_library(self):
        done = self.run_in_sandbox("ldd", "/app/bin/dfl-sleep-agent", "/app/bin/dreamsforlittles")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("libswift", done.stdout)
        self.assertNotIn("not found", done.stdout)

    def test_permissions_are_the_manifests_finish_args(self):
        shown = self.installation.permissions()
        self.assertEqual(shown, permissions_of(manifest_finish_args(MANIFEST)))

    def test_the_agents_settings_are_read_from_the_app(self):
        done = self.run_in_sandbox("printenv", "XDG_CONFIG_DIRS")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip().split(":")[0], "/app/etc/xdg")
        done = self.run_in_sandbox("cat", "/app/etc/xdg/dreamsforlittles/sleep-agent.conf")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(REPO, "packaging", "config", "sleep-agent.conf"), encoding="utf-8") as file:
            self.assertEqual(done.stdout, file.read())

    def test_the_desktop_files_are_exported(self):
        exports = os.path.join(self.user_dir, "exports", "share")
        for path in ("applications/com.dreamsforlittles.DreamsForLittles.desktop",
                     "metainfo/com.dreamsforlittles.DreamsForLittles.metainfo.xml",
                     "icons/hicolor/scalable/apps/com.dreamsforlittles.DreamsForLittles.svg",
                     # The agent's icon is named under the app id too.
                     "icons/hicolor/scalable/apps/com.dreamsforlittles.DreamsForLittles.SleepAgent.svg",
                     "icons/hicolor/symbolic/apps/com.dreamsforlittles.DreamsForLittles-symbolic.svg",
                     "dbus-1/services/com.dreamsforlittles.DreamsForLittles.service",
                     "dbus-1/services/com.dreamsforlittles.DreamsForLittles.SleepTimers1.service",
                     "gnome-shell/search-providers/com.dreamsforlittles.DreamsForLittles.search-provider.ini"):
            with self.subTest(path=path):
                self.assertTrue(os.path.exists(os.path.join(exports, path)), path)

    def test_the_licence_is_where_flathub_wants_it(self):
        done = self.run_in_sandbox("cat", "/app/share/licenses/%s/LICENSE" % APP_ID)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(REPO, "LICENSE"), encoding="utf-8") as file:
            self.assertEqual(done.stdout, file.read())

    def test_the_exported_entries_run_the_sandboxed_programs(self):
        exports = os.path.join(self.user_dir, "exports", "share")

        entry = key_file(os.path.join(exports, "applications/com.dreamsforlittles.DreamsForLittles.desktop"))["Desktop Entry"]
        exec_line = entry["Exec"].split()
        self.assertEqual(exec_line[:2], ["/usr/bin/flatpak", "run"], entry["Exec"])
        self.assertIn("--command=dreamsforlittles", exec_line)
        self.assertIn(APP_ID, exec_line)
        self.assertIn("%u", exec_line)
        self.assertEqual(entry["Name"], "Dreams for Littles")
        agent = key_file(os.path.join(exports, "dbus-1/services/com.dreamsforlittles.DreamsForLittles.SleepTimers1.service"))["D-BUS Service"]
        self.assertEqual(agent["Name"], "com.dreamsforlittles.DreamsForLittles.SleepTimers1")
        # A service's Exec keeps its absolute program as the command.
        self.assertEqual(agent["Exec"].split()[-2:], ["--command=/app/bin/dfl-sleep-agent", APP_ID], agent["Exec"])
        app = key_file(os.path.join(exports, "dbus-1/services/com.dreamsforlittles.DreamsForLittles.service"))["D-BUS Service"]
        self.assertEqual(app["Name"], APP_ID)
        self.assertEqual(app["Exec"].split()[-3:],
                         ["--command=/app/bin/dreamsforlittles", APP_ID, "--gapplication-service"], app["Exec"])

    def test_a_call_to_the_agents_name_under_the_app_id_starts_it_in_the_sandbox(self):
        """The exported service file, read by the session's bus through
        XDG_DATA_DIRS, runs `flatpak run`; the agent answers at its name."""
        self.addCleanup(self.stop_sandboxed_agents)
        listed = subprocess.run(
            ["gdbus", "call", "--session", "--dest", AGENT_NAME, "--object-path", OBJECT_PATH,
             "--method", INTERFACE + ".List"], capture_output=True, text=True, env=self.session.env, timeout=PATIENCE)
        self.assertEqual(listed.returncode, 0, "%s\nthe bus's log:\n%s" % (listed.stderr, self.session.bus_output()[-3000:]))
        self.assertEqual(listed.stdout.strip(), "(@aa{sv} [],)")
        self.assertEqual(len(self.installation.sandbox_pids("dfl-sleep-agent")), 1)
        bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(bus.close)
        self.assertEqual(bus.get_name_owner(BUS_NAME), bus.get_name_owner(AGENT_NAME))

    def test_installed_with_no_configuration_the_agent_takes_the_platforms_api(self):
        """As a parent has it: the Flatpak installed and nothing set up. The
        command-line client in the sandbox starts the agent through its
        exported activation file, and the agent accepts timers from the
        platform's API, the one address built in."""
        self.addCleanup(self.stop_sandboxed_agents)
        done = self.run_in_sandbox("dfl-sleepctl", "status")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("AllowedOrigins: https://api.dreamsforlittles.com\n", done.stdout)

    def test_installed_with_no_configuration_the_window_loads_the_platforms_web_app(self):
        """As a parent has it, nothing set up: the app's window, on an X
        display, asks for the platform's web app, the one address built in.
        (This machine cannot reach it, so the offline page follows; the
        address asked for is what counts.)"""
        display = Display(self.session)
        self.addCleanup(self.session.env.pop, "DISPLAY", None)
        self.addCleanup(display.process.terminate)
        self.addCleanup(self.stop_sandboxed_agents)
        self.addCleanup(self.installation.flatpak, "kill", APP_ID, check=False)
        log = os.path.join(self.session.root, "app-no-configuration.log")
        self.installation.start(None, log=log)

        def said():
            with open(log, errors="replace") as handle:
                return handle.read()
        try:
            eventually(lambda: "Loading https://app.dreamsforlittles.com/." in said(),
                       what="the app loading the platform's web app")
        except AssertionError as error:
            raise AssertionError("%s; it said:\n%s" % (error, said()[-2000:])) from None
        self.assertNotIn("not set up", said())

    def stop_sandboxed_agents(self):
        for pid in self.installation.sandbox_pids("dfl-sleep-agent"):
            os.kill(pid, signal.SIGTERM)
        eventually(lambda: not self.installation.sandbox_pids("dfl-sleep-agent"), what="the sandboxed agent to stop")


class PermissionParsingTest(unittest.TestCase):
    """The comparison above can fail: a permission more or less is seen."""

    def test_a_wider_sandbox_differs(self):
        args = ["--share=network", "--socket=wayland", "--own-name=a.b.C"]
        shown = parse_permissions("[Context]\nshared=network;\nsockets=wayland;session-bus;\n\n"
                                  "[Session Bus Policy]\na.b.C=own\n")
        self.assertNotEqual(shown, permissions_of(args))
        shown = parse_permissions("[Context]\nshared=network;\nsockets=wayland;\n\n"
                                  "[Session Bus Policy]\na.b.C=own\n")
        self.assertEqual(shown, permissions_of(args))

    def test_the_manifest_has_the_issues_finish_args(self):
        self.assertEqual(sorted(manifest_finish_args(MANIFEST)), sorted([
            "--share=network", "--share=ipc", "--socket=wayland", "--socket=fallback-x11", "--device=dri",
            "--talk-name=org.kde.StatusNotifierWatcher"]))

    def test_the_manifest_owns_no_name_outside_the_app_id(self):
        # Flathub gives a new app no exception for a name of its own.
        self.assertEqual([arg for arg in manifest_finish_args(MANIFEST) if arg.startswith("--own-name")], [])


if __name__ == "__main__":
    unittest.main()
