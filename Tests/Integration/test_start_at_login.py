"""Start at login, a choice the person keeps (Red team 4, item 6): an
autostart entry the person disabled the way GNOME's settings
(`X-GNOME-Autostart-enabled=false`) or KDE's (`Hidden=true`) write it stays
as they left it across the app's starts; the menu's check item, the app's
stateful action `start-at-login` (activated here over org.gtk.Actions, as
GTK's menu activates it), turns it back on and off again, on the host the
.deb's way: a user entry in ~/.config/autostart that hides the .deb's
/etc/xdg/autostart entry, and a /dev/null link in the user's
graphical-session.target.wants that keeps the .deb's unit from starting at
login (it is still started by D-Bus activation).

And the Flatpak's part, the finding itself: run as inside a Flatpak, the
app asks the Background portal for no autostart while the person's choice
is off, so a portal that writes its entry afresh for autostart true (as
xdg-desktop-portal does) no longer enables an entry KDE's settings
disabled; the choice is remembered when the portal removes its entry."""

import os
import select
import signal
import subprocess
import uuid

import dbus

from app_harness import APP, AppTestCase
from harness import PATIENCE, eventually
from test_portal_names import sandbox_wrapper

APP_NAME = "com.dreamsforlittles.DreamsForLittles"
APP_PATH = "/com/dreamsforlittles/DreamsForLittles"
ENTRY = "com.dreamsforlittles.DreamsForLittles.SleepAgent-autostart.desktop"
HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGED = os.path.join(HERE, "..", "..", "packaging", "autostart", ENTRY)

# The .deb's entry as each desktop's settings leave it when switched off.
GNOME_OFF = open(PACKAGED).read() + "X-GNOME-Autostart-enabled=false\n"
KDE_OFF = open(PACKAGED).read() + "Hidden=true\n"


class StartAtLoginTests(AppTestCase):
    notification_server = False

    def setUp(self):
        super().setUp()
        config = self.session.env["XDG_CONFIG_HOME"]
        self.entry = os.path.join(config, "autostart", ENTRY)
        self.mask = os.path.join(config, "systemd", "user", "graphical-session.target.wants", "dfl-sleep-agent.service")
        self.bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(self.bus.close)

    def actions(self):
        return dbus.Interface(self.bus.get_object(APP_NAME, APP_PATH), "org.gtk.Actions")

    def state(self):
        """The action's state, once the app exports it."""
        eventually(lambda: "start-at-login" in self.actions().List(), what="the start-at-login action")
        enabled, signature, state = self.actions().Describe("start-at-login")
        self.assertTrue(enabled)
        return bool(state[0])

    def restarted(self, app):
        app.close()
        return self.start_app()

    def disabled_by_the_desktop_stays_disabled(self, text):
        os.makedirs(os.path.dirname(self.entry))
        with open(self.entry, "w") as file:
            file.write(text)
        app = self.start_app()
        self.assertFalse(self.state())
        # The desktop's choice carried out for the unit too, which GNOME
        # and KDE under systemd start at login whatever the entry says.
        self.assertEqual(os.readlink(self.mask), "/dev/null")
        app = self.restarted(app)
        self.assertFalse(self.state())
        with open(self.entry) as file:
            self.assertEqual(file.read(), text, "the app changed the entry the person disabled")

        # The menu's item: on again, the .deb's own entry and unit apply.
        self.actions().Activate("start-at-login", dbus.Array([], signature="v"), {})
        eventually(lambda: self.state(), what="start at login to be on")
        self.assertFalse(os.path.lexists(self.entry))
        self.assertFalse(os.path.lexists(self.mask))
        self.assertIn("Start at login turned on", app.log())
        app = self.restarted(app)
        self.assertTrue(self.state())

        # And off: the entry hidden, the unit's start at login masked.
        self.actions().Activate("start-at-login", dbus.Array([], signature="v"), {})
        eventually(lambda: not self.state(), what="start at login to be off")
        with open(self.entry) as file:
            self.assertIn("Hidden=true", file.read())
        self.assertEqual(os.readlink(self.mask), "/dev/null")
        app = self.restarted(app)
        self.assertFalse(self.state())

    def test_gnomes_way_of_disabling_the_entry_stays_until_the_menu_turns_it_on(self):
        self.disabled_by_the_desktop_stays_disabled(GNOME_OFF)

    def test_kdes_way_of_disabling_the_entry_stays_until_the_menu_turns_it_on(self):
        self.disabled_by_the_desktop_stays_disabled(KDE_OFF)

    def test_on_by_default_and_nothing_written_until_chosen(self):
        app = self.start_app()
        self.assertTrue(self.state())
        app = self.restarted(app)
        self.assertTrue(self.state())
        self.assertFalse(os.path.lexists(self.entry))
        self.assertFalse(os.path.lexists(self.mask))


class SandboxedStartAtLoginTests(AppTestCase):
    """The Flatpak's way, the reproduction itself: the app runs as inside a
    Flatpak (test_portal_names' overlay root with /.flatpak-info), and a
    Background portal of the test does with the entry what
    xdg-desktop-portal does, writing it afresh for autostart true and
    removing it for false. An entry KDE's settings disabled was enabled
    again at the app's next start. The sandbox may not read the entry
    (Flathub refuses that permission), so the app asks the portal at its
    first start only, and when the person chooses in its menu.

    The app's calls reach the portal in the order it sends them, so a
    menu choice's request read first proves the start sent none."""

    notification_server = False

    def setUp(self):
        super().setUp()
        self.portal = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "background_portal.py")],
                                       stdout=subprocess.PIPE, text=True, env=self.session.env)
        self.session.processes.append(self.portal)
        self.assertEqual(self.portal.stdout.readline().strip(), "ready")
        self.entry = os.path.join(self.session.env["XDG_CONFIG_HOME"], "autostart", APP_NAME + ".desktop")
        self.bus = dbus.bus.BusConnection(self.session.env["DBUS_SESSION_BUS_ADDRESS"])
        self.addCleanup(self.bus.close)

    def start_sandboxed(self):
        log = open(os.path.join(self.session.root, "sandboxed-app-%s.log" % uuid.uuid4().hex[:6]), "w")
        self.addCleanup(log.close)
        # WebKit inside a Flatpak spawns its web processes through the
        # Flatpak portal, which this overlay has not: no web sandbox here.
        env = dict(self.session.env, WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS="1")
        process = subprocess.Popen(list(sandbox_wrapper(self.session)) + [APP], env=env, stdout=log, stderr=log)
        self.session.processes.append(process)
        return process

    def stop(self, process):
        process.send_signal(signal.SIGTERM)
        process.wait(PATIENCE)

    def requested(self):
        """The autostart of the portal's next RequestBackground."""
        ready, _, _ = select.select([self.portal.stdout], [], [], PATIENCE)
        self.assertTrue(ready, "no RequestBackground")
        return self.portal.stdout.readline().strip()

    def activate(self):
        eventually(lambda: self.bus.name_has_owner(APP_NAME), what="the app on the bus")
        actions = dbus.Interface(self.bus.get_object(APP_NAME, APP_PATH), "org.gtk.Actions")
        eventually(lambda: "start-at-login" in actions.List(), what="the start-at-login action")
        actions.Activate("start-at-login", dbus.Array([], signature="v"), {})

    def test_an_entry_kde_disabled_is_not_asked_back_and_the_menu_turns_it_on_and_off(self):
        process = self.start_sandboxed()
        # The first start asks for the autostart the person has by default.
        self.assertEqual(self.requested(), "autostart true")
        eventually(lambda: os.path.exists(self.entry), what="the portal's entry")
        self.stop(process)
        # KDE's settings turn it off in the portal's entry.
        with open(self.entry) as handle:
            written = handle.read()
        disabled = written.rstrip("\n") + "\nHidden=true\n"
        with open(self.entry, "w") as handle:
            handle.write(disabled)

        process = self.start_sandboxed()
        # The next request the portal gets is the menu's, not the start's.
        self.activate()
        self.assertEqual(self.requested(), "autostart false")
        eventually(lambda: not os.path.exists(self.entry), what="the portal to remove its entry")
        self.activate()
        self.assertEqual(self.requested(), "autostart true")
        eventually(lambda: os.path.exists(self.entry), what="the portal's entry")
        self.stop(process)

        # Disabled again by the desktop, and started again: left as it is.
        with open(self.entry, "w") as handle:
            handle.write(disabled)
        process = self.start_sandboxed()
        self.activate()
        self.assertEqual(self.requested(), "autostart false")
        self.stop(process)
        process = self.start_sandboxed()
        # Off, as the menu left it: the menu turns it on, and nothing before.
        self.activate()
        self.assertEqual(self.requested(), "autostart true")
        self.stop(process)


