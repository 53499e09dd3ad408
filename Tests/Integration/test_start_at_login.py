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

The Flatpak's part (the Background portal asked for no autostart while it
is off, the choice remembered when the portal removes its entry) is
decided by StartAtLoginRule and SandboxAgentMachine, whose unit tests hold
it; RunningPlace has no override, so this runs on the host."""

import os

import dbus

from app_harness import AppTestCase
from harness import eventually

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
