"""What a parent should read on a notification, worked out independently of
the agent, to compare with what a real server shows."""

import datetime
import re
import zoneinfo

ELAPSED = re.compile(r" · (?:(\d+) h)?\s*(?:(\d+) min)?$")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def elapsed_minutes(body):
    """The elapsed time the first line of a body shows, in minutes; None
    when it shows none."""
    match = ELAPSED.search(body.split("\n")[0])
    if not match or not (match.group(1) or match.group(2)):
        return None
    return int(match.group(1) or 0) * 60 + int(match.group(2) or 0)


def asleep_since(started_ms, now_ms, zone="Europe/Berlin"):
    """"Asleep since 19:04" in a 24-hour locale (the tests run in C.UTF-8),
    with the day when the start was not today, in the timer's zone."""
    tz = zoneinfo.ZoneInfo(zone)
    start = datetime.datetime.fromtimestamp(started_ms / 1000, tz)
    today = datetime.datetime.fromtimestamp(now_ms / 1000, tz).date()
    clock = start.strftime("%H:%M")
    days = (today - start.date()).days
    if days <= 0:
        return "Asleep since " + clock
    if days == 1:
        return "Asleep since yesterday, " + clock
    return "Asleep since %s, %s" % (WEEKDAYS[start.weekday()], clock)


def running_body(started_ms, now_ms, zone="Europe/Berlin"):
    """"Asleep since 19:04 · 1 h 23 min": the text where the elapsed time is
    kept current."""
    minutes = max(0, now_ms - started_ms) // 60000
    hours, rest = divmod(minutes, 60)
    elapsed = "%d min" % rest if hours == 0 else ("%d h" % hours if rest == 0 else "%d h %d min" % (hours, rest))
    return "%s · %s" % (asleep_since(started_ms, now_ms, zone), elapsed)
