"""A window's close button, as a window manager presses it: the
WM_DELETE_WINDOW client message of ICCCM, sent to the window through
libX11 (ctypes; no window manager runs under Xvfb, and xdotool's
windowclose destroys the window instead of asking it to close)."""

import ctypes
import ctypes.util

_CLIENT_MESSAGE = 33
_NO_EVENT_MASK = 0


class _ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]


class _Event(ctypes.Union):
    # XEvent is a union padded to 24 longs.
    _fields_ = [("client", _ClientMessage), ("pad", ctypes.c_long * 24)]


def _xlib():
    path = ctypes.util.find_library("X11")
    if path is None:
        raise AssertionError("libX11 is missing: install the Debian package libx11-6")
    xlib = ctypes.CDLL(path)
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    xlib.XInternAtom.restype = ctypes.c_ulong
    xlib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    xlib.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.POINTER(_Event)]
    xlib.XFlush.argtypes = [ctypes.c_void_p]
    xlib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return xlib


def request_close(session, window):
    """Asks the X window `window` (an id as xdotool prints it) to close."""
    xlib = _xlib()
    display = xlib.XOpenDisplay(session.env["DISPLAY"].encode())
    if not display:
        raise AssertionError("cannot open the display %s" % session.env["DISPLAY"])
    try:
        event = _Event()
        event.client.type = _CLIENT_MESSAGE
        event.client.window = int(window)
        event.client.message_type = xlib.XInternAtom(display, b"WM_PROTOCOLS", 0)
        event.client.format = 32
        event.client.data[0] = xlib.XInternAtom(display, b"WM_DELETE_WINDOW", 0)
        event.client.data[1] = 0  # CurrentTime
        xlib.XSendEvent(display, int(window), 0, _NO_EVENT_MASK, ctypes.byref(event))
        xlib.XFlush(display)
    finally:
        xlib.XCloseDisplay(display)
