"""The Flatpak bundle that `make flatpak` leaves installs and runs.

Run in the Debian 13 root (Tests/Flatpak/run.sh): the stand-in runtime from
build/flatpak/repo and the bundle build/flatpak/com.dreamsforlittles.App.flatpak
are installed with `flatpak install --user` into a fresh user installation,
as a parent's would be, under a private session bus; then the programs run
in the sandbox, its permissions are the manifest's finish-args, and the
files Flatpak exports to the desktop are where it exports them.
"""

import configparser
import os
import shutil
import subprocess
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
APP_ID = "com.dreamsforlittles.App"
MANIFEST = os.path.join(REPO, "packaging", "flatpak", APP_ID + ".yml")
OUT = os.path.join(REPO, "build", "flatpak")
BUNDLE = os.path.join(OUT, APP_ID + ".flatpak")
STANDIN_REPO = os.path.join(OUT, "repo")
BRANCH = subprocess.run([os.path.join(REPO, "Tests", "Flatpak", "standin.sh"), "branch"],
                        capture_output=True, text=True, check=True).stdout.strip()


def manifest_finish_args(path: str) -> list[str]:
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


def permissions_of(args: list[str]) -> dict[str, dict[str, set[str]]]:
    """finish-args as the groups and keys `flatpak info --show-permissions`
    prints them in, each value a set."""
    context_keys = {"--share": "shared", "--socket": "sockets", "--device": "devices",
                    "--filesystem": "filesystems", "--allow": "features"}
    bus_policies = {"--own-name": "own", "--talk-name": "talk", "--see-name": "see"}
    permissions: dict[str, dict[str, set[str]]] = {}
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


def parse_permissions(text: str) -> dict[str, dict[str, set[str]]]:
    """The key file `flatpak info --show-permissions` prints, its lists as sets."""
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str
    parser.read_string(text)
    return {group: {key: {item for item in value.split(";") if item}
                    for key, value in parser[group].items()}
            for group in parser.sections()}


class BundleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for path in (BUNDLE, STANDIN_REPO):
            if not os.path.exists(path):
                raise unittest.SkipTest(f"{path} is missing: run make flatpak first")
        cls.home = tempfile.mkdtemp(prefix="dfl-flatpak-home.")
        cls.addClassCleanup(shutil.rmtree, cls.home, ignore_errors=True)
        runtime_dir = tempfile.mkdtemp(prefix="dfl-flatpak-runtime.")
        os.chmod(runtime_dir, 0o700)
        cls.addClassCleanup(shutil.rmtree, runtime_dir, ignore_errors=True)
        cls.user_dir = os.path.join(cls.home, ".local", "share", "flatpak")
        cls.env = dict(os.environ, HOME=cls.home, XDG_RUNTIME_DIR=runtime_dir,
                       FLATPAK_USER_DIR=cls.user_dir, FLATPAK_SYSTEM_HELPER_ON_SESSION="1",
                       XDG_DATA_HOME=os.path.join(cls.home, ".local", "share"))
        cls.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        # The bus's log (activations, and the document portal failing
        # without FUSE here) is left out of the test's output.
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=cls.env)
        cls.addClassCleanup(bus.stdout.close)
        cls.addClassCleanup(bus.wait)
        cls.addClassCleanup(bus.terminate)
        cls.env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
        cls.flatpak("remote-add", "--user", "--no-gpg-verify", "standin", "file://" + STANDIN_REPO)
        cls.flatpak("install", "--user", "--noninteractive", "-y", "standin",
                    f"runtime/org.gnome.Platform/x86_64/{BRANCH}")
        cls.flatpak("install", "--user", "--noninteractive", "-y", "--bundle", BUNDLE)

    @classmethod
    def flatpak(cls, *args: str) -> str:
        done = subprocess.run(["flatpak", *args], capture_output=True, text=True, env=cls.env, timeout=600)
        if done.returncode != 0:
            raise AssertionError(f"flatpak {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        return done.stdout

    def run_in_sandbox(self, command: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["flatpak", "run", f"--command={command}", APP_ID, *args],
                              capture_output=True, text=True, env=self.env, timeout=120)

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
        shown = parse_permissions(self.flatpak("info", "--user", "--show-permissions", APP_ID))
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
        for path in ("applications/com.dreamsforlittles.App.desktop",
                     "metainfo/com.dreamsforlittles.App.metainfo.xml",
                     "icons/hicolor/scalable/apps/com.dreamsforlittles.App.svg",
                     "icons/hicolor/symbolic/apps/com.dreamsforlittles.App-symbolic.svg",
                     "dbus-1/services/com.dreamsforlittles.App.service",
                     "dbus-1/services/com.dreamsforlittles.App.SleepTimers1.service"):
            with self.subTest(path=path):
                self.assertTrue(os.path.exists(os.path.join(exports, path)), path)
        # The agent's own icon is not the app id's: it stays inside.
        self.assertFalse(os.path.exists(os.path.join(
            exports, "icons/hicolor/scalable/apps/com.dreamsforlittles.SleepAgent.svg")))

    def test_the_exported_entries_run_the_sandboxed_programs(self):
        exports = os.path.join(self.user_dir, "exports", "share")

        def key_file(path):
            parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
            parser.optionxform = str
            parser.read(os.path.join(exports, path), encoding="utf-8")
            return parser

        entry = key_file("applications/com.dreamsforlittles.App.desktop")["Desktop Entry"]
        exec_line = entry["Exec"].split()
        self.assertEqual(exec_line[:2], ["/usr/bin/flatpak", "run"], entry["Exec"])
        self.assertIn("--command=dreamsforlittles", exec_line)
        self.assertIn(APP_ID, exec_line)
        self.assertIn("%u", exec_line)
        self.assertEqual(entry["Name"], "Dreams for Littles")
        agent = key_file("dbus-1/services/com.dreamsforlittles.App.SleepTimers1.service")["D-BUS Service"]
        self.assertEqual(agent["Name"], "com.dreamsforlittles.App.SleepTimers1")
        # A service's Exec keeps its absolute program as the command.
        self.assertEqual(agent["Exec"].split()[-2:], ["--command=/app/bin/dfl-sleep-agent", APP_ID], agent["Exec"])
        app = key_file("dbus-1/services/com.dreamsforlittles.App.service")["D-BUS Service"]
        self.assertEqual(app["Name"], APP_ID)
        self.assertEqual(app["Exec"].split()[-3:],
                         ["--command=/app/bin/dreamsforlittles", APP_ID, "--gapplication-service"], app["Exec"])


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
            "--own-name=com.dreamsforlittles.SleepTimers1", "--talk-name=org.kde.StatusNotifierWatcher"]))


if __name__ == "__main__":
    unittest.main()
