"""Time in the integration tests: the one patience every wait is bounded by,
waiting for a condition or a reading, and the wall clock in milliseconds as
the agent and the platform count it.

A bound here catches a hang; it never measures speed. Tests run in parallel
workers beside other work, so everything may be slower than alone."""

import calendar
import time

# How long a test waits for something that should happen at once. A bound
# for a hung process, not a performance assertion; every module of the
# tests (and the Debian 13 and Flatpak ones) takes it from here.
PATIENCE = 30.0


def now_ms():
    return int(time.time() * 1000)


def sleep_until_ms(moment_ms):
    """Sleeps until the wall clock reaches `moment_ms` (ms since 1970)."""
    while now_ms() < moment_ms:
        time.sleep(max(moment_ms - now_ms(), 1) / 1000)


def next_minute_ms(started_ms, after_ms):
    """The first boundary of a whole minute of elapsed time, for a timer
    started at `started_ms`, that comes after `after_ms`."""
    return started_ms + ((after_ms - started_ms) // 60_000 + 1) * 60_000


def iso_ms(text):
    """An ISO-8601 UTC time with milliseconds as ms since 1970."""
    seconds = calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S"))
    millis = int(text[20:23]) if len(text) > 20 and text[19] == "." else 0
    return seconds * 1000 + millis


def eventually(predicate, timeout=PATIENCE, what="the condition"):
    """Waits until `predicate()` holds; the bound catches a hang, it is not
    a performance assertion."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for %s" % what)
        time.sleep(0.05)


def read_until(read, ready, what, timeout=PATIENCE, describe=repr):
    """Reads with `read()` until `ready(value)` holds and returns that value.
    A reading of something that is still coming (a popup sliding in, a
    screenshot a busy machine took early, a count not yet final) is taken
    again rather than once; a timeout says what was last read, through
    `describe`."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if ready(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for %s; it last read %s" % (what, describe(value)))
        time.sleep(0.05)
