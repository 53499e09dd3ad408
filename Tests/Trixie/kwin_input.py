"""A person's pointer in a headless KWin on Wayland, through KWin's EIS
server (org.kde.KWin.EIS.RemoteDesktop, the one xdg-desktop-portal-kde's
remote desktop uses): KWin hands out a socket, and libei, the emulated-input
client library, sends an absolute pointer's motion and button presses over
it. KWin feeds them to its own input handling as a mouse's, with real event
times and serials, so a click reaches the window under it as a person's
does (and a token an app asks for then is one KWin honours).

libei is used through ctypes: Debian has no Python binding for it."""

import ctypes
import ctypes.util
import os
import select
import time

import dbus

from harness import PATIENCE

EIS = "org.kde.KWin.EIS.RemoteDesktop"
EIS_PATH = "/org/kde/KWin/EIS/RemoteDesktop"
LIBEI = "libei.so.1"
# KWin's capabilities for connectToEIS: pointer, absolute pointer, keyboard.
KWIN_POINTER, KWIN_POINTER_ABSOLUTE, KWIN_KEYBOARD = 1, 2, 4
# libei's enum ei_device_capability.
CAP_POINTER_ABSOLUTE, CAP_BUTTON = 1 << 1, 1 << 5
# libei's enum ei_event_type.
EVENT_CONNECT, EVENT_DISCONNECT, EVENT_SEAT_ADDED = 1, 2, 3
EVENT_DEVICE_ADDED, EVENT_DEVICE_REMOVED, EVENT_DEVICE_PAUSED, EVENT_DEVICE_RESUMED = 5, 6, 7, 8
# The kernel's button codes (BTN_LEFT, BTN_RIGHT).
BUTTON_LEFT, BUTTON_RIGHT = 0x110, 0x111


def load_libei():
    try:
        library = ctypes.CDLL(LIBEI)
    except OSError:
        raise AssertionError("libei is needed for real clicks on KWin's Wayland session: "
                             "install the Debian package libei1") from None
    pointer, c_double, c_bool = ctypes.c_void_p, ctypes.c_double, ctypes.c_bool
    for name, result, arguments in (
            ("ei_new_sender", pointer, [pointer]),
            ("ei_configure_name", None, [pointer, ctypes.c_char_p]),
            ("ei_setup_backend_fd", ctypes.c_int, [pointer, ctypes.c_int]),
            ("ei_get_fd", ctypes.c_int, [pointer]),
            ("ei_dispatch", None, [pointer]),
            ("ei_get_event", pointer, [pointer]),
            ("ei_event_get_type", ctypes.c_int, [pointer]),
            ("ei_event_get_seat", pointer, [pointer]),
            ("ei_event_get_device", pointer, [pointer]),
            ("ei_event_unref", pointer, [pointer]),
            ("ei_device_ref", pointer, [pointer]),
            ("ei_device_unref", pointer, [pointer]),
            ("ei_device_has_capability", c_bool, [pointer, ctypes.c_int]),
            ("ei_device_start_emulating", None, [pointer, ctypes.c_uint32]),
            ("ei_device_stop_emulating", None, [pointer]),
            ("ei_device_pointer_motion_absolute", None, [pointer, c_double, c_double]),
            ("ei_device_button_button", None, [pointer, ctypes.c_uint32, c_bool]),
            ("ei_device_frame", None, [pointer, ctypes.c_uint64]),
            ("ei_now", ctypes.c_uint64, [pointer]),
            ("ei_unref", pointer, [pointer])):
        function = getattr(library, name)
        function.restype = result
        function.argtypes = arguments
    # Variadic: the capabilities, ended by 0.
    library.ei_seat_bind_capabilities.restype = ctypes.c_int
    return library


class Pointer:
    """An absolute pointer with buttons, emulated through KWin's EIS server
    on the session bus `bus` (a dbus.bus.BusConnection)."""

    def __init__(self, bus, log=lambda: ""):
        self.ei_lib = load_libei()
        self.log = log
        try:
            remote = dbus.Interface(bus.get_object("org.kde.KWin", EIS_PATH, introspect=False), EIS)
            descriptor, self.cookie = remote.connectToEIS(KWIN_POINTER | KWIN_POINTER_ABSOLUTE | KWIN_KEYBOARD)
        except dbus.exceptions.DBusException as error:
            raise AssertionError("KWin gave no EIS connection (%s: %s); KWin's log:\n%s"
                                 % (error.get_dbus_name(), error.get_dbus_message(), log()[-3000:])) from None
        self.remote = remote
        self.fd = descriptor.take()
        self.ei = self.ei_lib.ei_new_sender(None)
        self.ei_lib.ei_configure_name(self.ei, b"dreamsforlittles-tests")
        # libei owns the descriptor it is given: it gets a copy of its own.
        if self.ei_lib.ei_setup_backend_fd(self.ei, os.dup(self.fd)) != 0:
            raise AssertionError("libei could not take KWin's EIS socket")
        self.device = None
        self.resumed = False
        self.sequence = 0
        self.pump(lambda: self.device is not None and self.resumed, "KWin's EIS server to give an absolute pointer")

    def pump(self, done, what, timeout=PATIENCE):
        """Reads libei's events until `done()`; a bound for a hung KWin."""
        deadline = time.monotonic() + timeout
        lib = self.ei_lib
        while True:
            lib.ei_dispatch(self.ei)
            while True:
                event = lib.ei_get_event(self.ei)
                if not event:
                    break
                kind = lib.ei_event_get_type(event)
                if kind == EVENT_SEAT_ADDED:
                    lib.ei_seat_bind_capabilities(lib.ei_event_get_seat(event), ctypes.c_int(CAP_POINTER_ABSOLUTE),
                                                  ctypes.c_int(CAP_BUTTON), ctypes.c_int(0))
                elif kind == EVENT_DEVICE_ADDED:
                    device = lib.ei_event_get_device(event)
                    if lib.ei_device_has_capability(device, CAP_POINTER_ABSOLUTE) and self.device is None:
                        self.device = lib.ei_device_ref(device)
                elif kind == EVENT_DEVICE_RESUMED and lib.ei_event_get_device(event) == self.device:
                    self.resumed = True
                elif kind == EVENT_DEVICE_PAUSED and lib.ei_event_get_device(event) == self.device:
                    self.resumed = False
                elif kind == EVENT_DISCONNECT:
                    lib.ei_event_unref(event)
                    raise AssertionError("KWin's EIS server disconnected the pointer; KWin's log:\n%s"
                                         % self.log()[-3000:])
                lib.ei_event_unref(event)
            if done():
                return
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting for %s; KWin's log:\n%s" % (what, self.log()[-3000:]))
            select.select([self.fd], [], [], 0.1)

    def _frame(self):
        self.ei_lib.ei_device_frame(self.device, self.ei_lib.ei_now(self.ei))

    def _emulating(self, steps):
        lib = self.ei_lib
        self.sequence += 1
        lib.ei_device_start_emulating(self.device, self.sequence)
        for step in steps:
            step()
            self._frame()
        lib.ei_device_stop_emulating(self.device)
        lib.ei_dispatch(self.ei)

    def move(self, x, y):
        self._emulating([lambda: self.ei_lib.ei_device_pointer_motion_absolute(self.device, float(x), float(y))])
        time.sleep(0.2)

    def click(self, x, y, button=BUTTON_LEFT):
        """Moves to (x, y), in the screen's logical pixels, and clicks."""
        lib = self.ei_lib
        self.move(x, y)
        self._emulating([lambda: lib.ei_device_button_button(self.device, button, True)])
        time.sleep(0.1)
        self._emulating([lambda: lib.ei_device_button_button(self.device, button, False)])

    def close(self):
        if self.device:
            self.ei_lib.ei_device_unref(self.device)
            self.device = None
        if self.ei:
            self.ei_lib.ei_unref(self.ei)
            self.ei = None
        try:
            self.remote.disconnect(self.cookie)
        except dbus.exceptions.DBusException:
            pass
        try:
            os.close(self.fd)
        except OSError:
            pass
