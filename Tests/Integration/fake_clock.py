"""A process's wall clock moved by the test, and the system clock set as an
administrator would: what a night, a suspend or a clock jump looks like to
the agent, in seconds of real time.

libfaketime (Debian package faketime) is preloaded into the process and
reads its offset from a file on every clock call (FAKETIME_NO_CACHE), so the
test moves the process's CLOCK_REALTIME forward by rewriting the file. The
monotonic clock is left alone (FAKETIME_DONT_FAKE_MONOTONIC), as in a
suspend or after the clock was set: only the wall clock jumps. libfaketime
also translates the absolute times of timerfd_settime, so a wall-clock
timerfd armed for a faked moment fires at that moment of the faked clock.

A jump of the faked clock alone is invisible to the kernel: a timerfd with
TFD_TIMER_CANCEL_ON_SET learns of it only when the system clock is set.
`announce_clock_set` sets it to the time it already is, which changes no
time but makes the kernel cancel every such timer, as any set does.
"""

import glob
import os
import time

from harness import now_ms

PACKAGE = "faketime"


def library():
    """libfaketime's multi-threaded variant (the agent runs libnotify on a
    thread of its own)."""
    found = glob.glob("/usr/lib/*/faketime/libfaketimeMT.so.1")
    if not found:
        raise AssertionError("libfaketime is needed to move the agent's clock: apt-get install %s" % PACKAGE)
    return found[0]


class FakeClock:
    """The offset of one or more processes' wall clock, in a file of the
    session."""

    def __init__(self, session, name="clock"):
        self.preload = library()
        self.path = os.path.join(session.root, "faketime-%s" % name)
        self.offset_s = 0
        self._write()

    def env(self):
        """The environment that puts a process on this clock."""
        return {"LD_PRELOAD": self.preload, "FAKETIME_TIMESTAMP_FILE": self.path, "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1"}

    def move(self, seconds):
        """Moves the faked wall clock by `seconds` from where it is."""
        self.offset_s += int(seconds)
        self._write()

    def now_ms(self):
        """The time the faked clock says, in ms since 1970."""
        return now_ms() + self.offset_s * 1000

    def _write(self):
        # Replaced whole, so that a reader never sees half a line.
        temporary = self.path + ".new"
        with open(temporary, "w") as handle:
            handle.write("%+ds\n" % self.offset_s)
        os.replace(temporary, self.path)


ROOT_NEEDED = ("this test sets the system clock to the time it already is (a real clock_settime(CLOCK_REALTIME), so "
               "that the kernel cancels TFD_TIMER_CANCEL_ON_SET timers as after any set): run it as root, or with "
               "CAP_SYS_TIME, as CI does")


def require_clock_setting():
    """Fails the test at once, naming what it needs, when it may not set
    the clock."""
    if os.geteuid() != 0:
        raise AssertionError(ROOT_NEEDED)


def announce_clock_set():
    """Sets the system clock to the time it is: no process sees another
    time, but every wall-clock timerfd armed with TFD_TIMER_CANCEL_ON_SET
    is cancelled, as after a jump, an NTP step or a set after a suspend."""
    require_clock_setting()
    try:
        time.clock_settime_ns(time.CLOCK_REALTIME, time.clock_gettime_ns(time.CLOCK_REALTIME))
    except PermissionError as error:
        raise AssertionError("%s (%s)" % (ROOT_NEEDED, error)) from None
