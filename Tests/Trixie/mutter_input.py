"""A person's pointer in a headless GNOME Shell, through Mutter's
org.gnome.Mutter.RemoteDesktop: a remote-desktop session whose virtual
pointer moves and clicks as a mouse does. Its events go through the Shell's
own input handling, with real event times: what an input-less call through
Eval cannot give (a launch context made inside Eval has time 0, so Mutter
takes an activation token from it for stale and only says the app "is
ready").

Without a screen-cast stream a remote-desktop session moves the pointer
only by relative steps, so each move starts from where the Shell says the
pointer is (global.get_pointer()) and is checked there again."""

import dbus

from harness import PATIENCE, eventually

REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop"
REMOTE_DESKTOP_PATH = "/org/gnome/Mutter/RemoteDesktop"
SESSION = REMOTE_DESKTOP + ".Session"
# The left button, as the kernel's input codes name it (BTN_LEFT).
BUTTON_LEFT = 0x110
BUTTON_RIGHT = 0x111
# Clutter's modifier bits of the five pointer buttons (BUTTON1_MASK ...).
BUTTON_MASKS = 0x1f00


# The keysyms the tests press (X11's keysymdef.h).
KEY_F5 = 0xffc2


# Clutter's modifier bit of Shift (SHIFT_MASK).
SHIFT_MASK = 0x1
KEY_SHIFT_L = 0xffe1


class Keyboard:
    """The virtual keyboard of a remote-desktop session of `shell`: each key
    goes through the Shell's own input handling to the focused window.

    The first key of a new virtual keyboard reaches no client (GTK's
    GDK_DEBUG=events logs no event for it, GNOME Shell 48), so Shift is
    pressed and let go once as the keyboard is made, the Shell seeing it
    held, before any key a test counts."""

    def __init__(self, shell):
        self.shell = shell
        try:
            manager = dbus.Interface(shell.bus.get_object(REMOTE_DESKTOP, REMOTE_DESKTOP_PATH), REMOTE_DESKTOP)
            path = manager.CreateSession()
            self.session = dbus.Interface(shell.bus.get_object(REMOTE_DESKTOP, path), SESSION)
            self.session.Start()
        except dbus.exceptions.DBusException as error:
            raise AssertionError("Mutter's RemoteDesktop gave no keyboard (%s: %s); gnome-shell's log:\n%s"
                                 % (error.get_dbus_name(), error.get_dbus_message(), shell.log()[-3000:])) from None
        self.session.NotifyKeyboardKeysym(dbus.UInt32(KEY_SHIFT_L), True)
        eventually(lambda: self.modifiers() & SHIFT_MASK, what="the Shell to see Shift held down")
        self.session.NotifyKeyboardKeysym(dbus.UInt32(KEY_SHIFT_L), False)
        eventually(lambda: not self.modifiers() & SHIFT_MASK, what="the Shell to see Shift let go")

    def modifiers(self):
        return self.shell.ask("global.get_pointer()[2]")

    def press(self, keysym):
        self.session.NotifyKeyboardKeysym(dbus.UInt32(keysym), True)
        self.session.NotifyKeyboardKeysym(dbus.UInt32(keysym), False)

    def chord(self, *keysyms):
        """Keys held down in order and let go in reverse, as fingers press
        a shortcut."""
        for keysym in keysyms:
            self.session.NotifyKeyboardKeysym(dbus.UInt32(keysym), True)
        for keysym in reversed(keysyms):
            self.session.NotifyKeyboardKeysym(dbus.UInt32(keysym), False)

    def close(self):
        try:
            self.session.Stop()
        except dbus.exceptions.DBusException:
            pass  # the Shell is gone already


class Pointer:
    """The virtual pointer of one remote-desktop session of `shell` (a
    gnome_shell.GnomeShell)."""

    def __init__(self, shell):
        self.shell = shell
        try:
            manager = dbus.Interface(shell.bus.get_object(REMOTE_DESKTOP, REMOTE_DESKTOP_PATH), REMOTE_DESKTOP)
            path = manager.CreateSession()
            self.session = dbus.Interface(shell.bus.get_object(REMOTE_DESKTOP, path), SESSION)
            self.session.Start()
        except dbus.exceptions.DBusException as error:
            raise AssertionError("Mutter's RemoteDesktop gave no pointer (%s: %s); gnome-shell's log:\n%s"
                                 % (error.get_dbus_name(), error.get_dbus_message(), shell.log()[-3000:])) from None

    def position(self):
        x, y = self.shell.ask("global.get_pointer().slice(0, 2)")
        return x, y

    def move_to(self, x, y):
        """Moves the pointer to (x, y) on the stage, in steps the Shell sees."""
        x, y = round(x), round(y)
        for _ in range(5):
            here = self.position()
            if here == (x, y):
                return
            self.session.NotifyPointerMotionRelative(float(x - here[0]), float(y - here[1]))
            eventually(lambda: self.position() != here, what="the Shell to see the pointer move from %r" % (here,))
        raise AssertionError("the pointer did not reach %r; it is at %r" % ((x, y), self.position()))

    def buttons(self):
        """The Shell's mask of the buttons held down."""
        return self.shell.ask("global.get_pointer()[2]") & BUTTON_MASKS

    def click(self, button=BUTTON_LEFT):
        """Presses a button where the pointer is and lets it go once the
        Shell holds it down, as a finger does: a release sent hard on the
        press's heels reached the Shell before the button it pressed had
        taken the pointer, and the banner never heard it."""
        self.session.NotifyPointerButton(button, True)
        eventually(lambda: self.buttons(), what="the Shell to see the button held down")
        self.session.NotifyPointerButton(button, False)
        eventually(lambda: not self.buttons(), what="the Shell to see the button let go")

    def click_at(self, x, y):
        self.move_to(x, y)
        self.click()

    def close(self):
        try:
            self.session.Stop()
        except dbus.exceptions.DBusException:
            pass  # the Shell is gone already
