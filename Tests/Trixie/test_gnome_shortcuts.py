"""GNOME 48's global shortcuts as the agent asks for them and a parent gives
them: the agent's BindShortcuts through the GlobalShortcuts portal
(xdg-desktop-portal 1.20 with its GNOME backend, started on the session's
private bus by the test, as a GNOME session has it running), the dialog
GNOME Settings' shortcuts provider shows for it ("Add Keyboard Shortcuts"),
its Add taken with Alt+A, and Ctrl+Alt+Shift+S, which the
Shell then grabs for the agent, pressed through Mutter's RemoteDesktop
keyboard (mutter_input.py), completing the one running Sleep once.

What the Shell shows and did is read from it (org.gnome.Shell.Eval); the
portal's calls from a capture of the bus."""

import subprocess
import unittest

import screen_words
from harness import PATIENCE, eventually
from mutter_input import Keyboard
from shell_screen import grow
from test_gnome_wayland import GnomeShellTestCase

PORTAL = "org.freedesktop.portal.Desktop"
# The bus names the portal and its GNOME backend need without systemd,
# each with the package whose D-Bus service file starts it.
PORTAL_SERVICES = {
    PORTAL: "xdg-desktop-portal",
    "org.freedesktop.impl.portal.PermissionStore": "xdg-desktop-portal",
    "org.freedesktop.impl.portal.desktop.gnome": "xdg-desktop-portal-gnome",
    "org.gnome.Settings.GlobalShortcutsProvider": "gnome-control-center",
}
DIALOG_TITLE = "Add Keyboard Shortcuts"
COMPLETE = "complete-running-sleep"
# X11's keysyms (keysymdef.h).
KEY_CONTROL_L, KEY_ALT_L, KEY_SHIFT_L = 0xffe3, 0xffe9, 0xffe1
KEY_A, KEY_S = 0x61, 0x73
# The Shell's windows: title, wm class, whether it has the focus, and its
# frame on the stage.
WINDOWS = """global.get_window_actors().map(a => a.meta_window).map(w => {
    const r = w.get_frame_rect();
    return {title: w.get_title(), wmClass: w.get_wm_class(), focus: w.has_focus(),
            x: r.x, y: r.y, width: r.width, height: r.height};
})"""
# How often the keys are pressed before the test gives up on an activation.
PRESSES = 4


class GnomeShortcutTests(GnomeShellTestCase):
    def setUp(self):
        super().setUp()
        self.session.install_services(PORTAL_SERVICES)
        # What a GNOME login gives the programs the bus starts: the
        # desktop's name (the portal's choice of backend), the Shell's
        # Wayland display (the dialog's), the installed desktop entries
        # (the portal checks the app id the agent registers); settings in a
        # file (no dconf service on this bus).
        env = self.session.env
        subprocess.run(["dbus-update-activation-environment", "XDG_CURRENT_DESKTOP=GNOME",
                        "XDG_SESSION_TYPE=wayland", "WAYLAND_DISPLAY=wayland-0", "GDK_BACKEND=wayland",
                        "GSETTINGS_BACKEND=keyfile", "XDG_DATA_DIRS=" + env["XDG_DATA_DIRS"]],
                       env=env, check=True, timeout=PATIENCE)
        self.screen.leave_overview()

    def until(self, predicate, what, timeout=PATIENCE):
        """As the Shell's tests wait, a failure adding the bus's log: the
        portal's, its backend's and GNOME Settings' output."""
        try:
            super().until(predicate, what, timeout=timeout)
        except AssertionError as error:
            screen = self.screen.screenshot("shortcuts-gnome48-failed.png")
            raise AssertionError("%s\nthe screen: %s\nthe bus's log:\n%s" % (error, screen, self.bus_log())) from None

    def bus_log(self):
        """The bus's log without the lines every run has, and the
        shortcuts' calls, answers and errors on the bus."""
        noise = ("VolumeMonitor", "dconf-WARNING", "GNOME Shell-Message", "accountsservice", "UseIn",
                 "portals.conf", "gsk", "GdkOpenGL")
        log = "\n".join(line for line in self.session.bus_output().splitlines()
                        if not any(n in line for n in noise))[-4000:]
        traffic = "\n".join("%s\n  %s" % (header, "\n  ".join(args[:12])) for header, args in self.bus.messages()
                            if any(word in header for word in ("Shortcuts", "Accelerator", "member=Response"))
                            or header.startswith("error"))[-6000:]
        return "%s\nthe shortcuts' traffic:\n%s" % (log, traffic)

    def agent_lines(self, text):
        return [line for line in self.agent.log().splitlines() if text in line] if self.agent else []

    def windows(self):
        return self.shell.ask(WINDOWS)

    def test_added_in_gnomes_dialog_the_shortcut_completes_the_one_running_sleep_once(self):
        timer_id, _ = self.mirrored_timer()
        self.wait_shown()
        self.shell.ask("Main.messageTray._expireNotification(), true")
        # The keyboard is there before the dialog, as a parent's is: a GTK
        # client that connects first hears no key of a device made after it.
        keyboard = Keyboard(self.shell)
        self.addCleanup(keyboard.close)
        # A GNOME session has its portal running; the agent never starts one.
        self.shell.bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "StartServiceByName", "su", (PORTAL, 0), timeout=PATIENCE)

        # GNOME asks the parent first.
        self.until(lambda: any(w["title"] == DIALOG_TITLE for w in self.windows()),
                   lambda: "GNOME Settings' dialog %r; the Shell has %r; the agent said %r" % (
                       DIALOG_TITLE, self.windows(), self.agent_lines("shortcut")))
        self.until(lambda: any(w["title"] == DIALOG_TITLE and w["focus"] for w in self.windows()),
                   lambda: "the dialog to have the focus; the Shell has %r" % self.windows())
        [dialog] = [w for w in self.windows() if w["title"] == DIALOG_TITLE]
        box = (dialog["x"], dialog["y"], dialog["width"], dialog["height"])
        # The parent reads the dialog, the agent's two shortcuts, and takes
        # them with Add (Alt+A, its mnemonic).
        screen_words.wait_for_words(
            lambda: self.screen.screenshot("shortcuts-gnome48-reading.png"), box, self.session.root,
            lambda words: screen_words.find_phrase(words, "Complete the running")
            and screen_words.find_phrase(words, "Open the running"), "GNOME Settings' dialog")
        self.screen.screenshot("shortcuts-gnome48-dialog.png", box=grow(box, 16))
        keyboard.chord(KEY_ALT_L, KEY_A)
        self.until(lambda: not any(w["title"] == DIALOG_TITLE for w in self.windows()),
                   lambda: "the dialog to close after Add; the Shell has %r" % self.windows())
        self.until(lambda: self.agent_lines("Global shortcuts bound") or self.agent_lines("No global shortcuts"),
                   "the agent to hear what the portal bound")
        [bound] = self.agent_lines("Global shortcuts bound") or self.agent_lines("No global shortcuts")
        # xdg-desktop-portal-gnome 48 answers this binding with response 2
        # and the bound shortcuts (GlobalShortcutsMachine says why): the
        # agent takes them as bound.
        self.assertIn("%s on " % COMPLETE, bound, self.bus_log())

        # A press that brought nothing within a few seconds is pressed again,
        # as a person would; one that did is never repeated, and the one
        # activity holds that a second press cannot complete twice anyway.
        for press in range(1, PRESSES + 1):
            keyboard.chord(KEY_CONTROL_L, KEY_ALT_L, KEY_SHIFT_L, KEY_S)
            try:
                eventually(lambda: self.agent_lines("The global shortcut"), timeout=5, what="the portal's Activated")
                break
            except AssertionError:
                if press == PRESSES:
                    self.until(lambda: False, "an activation after %d presses of Ctrl+Alt+Shift+S" % PRESSES)
        self.assertEqual(len(self.agent_lines("The global shortcut %s was pressed" % COMPLETE)), 1)
        self.assert_one_activity(timer_id)

        # An agent started again binds them without asking: GNOME keeps
        # what the parent added.
        self.agent.terminate()
        self.start_agent()
        self.until(lambda: self.agent_lines("Global shortcuts bound"), "the next agent to bind its shortcuts")
        self.assertFalse(any(w["title"] == DIALOG_TITLE for w in self.windows()), self.windows())


if __name__ == "__main__":
    unittest.main()
