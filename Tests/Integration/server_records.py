"""Real notification servers that keep a record of what they showed, read by
the tests instead of what the agent says it sent: xfce4-notifyd's own
notification log, and a script dunst runs for every notification it shows
(new or updated in place). Each record is a dict with `ns` (when the server
showed it, ns since 1970), `summary`, `body` and, for xfce4-notifyd, the
actions' `keys` and the `labels` of its buttons."""

import calendar
import os
import time

from desktop import Dunst, XfceNotifyd


class LoggedXfceNotifyd(XfceNotifyd):
    """xfce4-notifyd with its notification log on (log-level 1: always, for
    every application), in $XDG_CACHE_HOME/xfce4/notifyd/log: one entry per
    Notify it showed, updates in place included. Its settings come from
    xfconfd, which the private bus starts on demand."""

    def __init__(self, session):
        super().__init__(session, log=True)
        self.log_path = os.path.join(session.env["XDG_CACHE_HOME"], "xfce4", "notifyd", "log")

    def records(self):
        """The log's entries, oldest first."""
        try:
            with open(self.log_path, errors="replace") as handle:
                lines = handle.read().splitlines()
        except FileNotFoundError:
            return []
        records = []
        for line in lines:
            if line.startswith("[") and line.endswith("]"):
                records.append({"ns": _iso_ns(line[1:-1]), "keys": [], "labels": []})
            elif records and "=" in line:
                key, value = line.split("=", 1)
                value = _unescape(value)
                if key in ("summary", "body", "app_name"):
                    records[-1][key] = value
                elif key.startswith("action-id-"):
                    records[-1]["keys"].append(value)
                elif key.startswith("action-label-"):
                    records[-1]["labels"].append(value)
        return records


def _iso_ns(text):
    """2026-11-30T13:51:39.488796Z as ns since 1970."""
    whole, _, fraction = text.rstrip("Z").partition(".")
    seconds = calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S"))
    return seconds * 1_000_000_000 + int((fraction or "0").ljust(9, "0")[:9])


def _unescape(value):
    """A GKeyFile value's escapes (\\n, \\t, \\s, \\r, \\\\) undone."""
    out = []
    index = 0
    while index < len(value):
        char = value[index]
        if char == "\\" and index + 1 < len(value):
            out.append({"n": "\n", "t": "\t", "s": " ", "r": "\r", "\\": "\\"}.get(value[index + 1], value[index + 1]))
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


class RecordedDunst(Dunst):
    """dunst with a rule (a drop-in of its configuration) that runs a script
    for every notification it shows, new or updated in place; the script
    appends the notification's summary and body to a file."""

    def __init__(self, session):
        self.record_path = os.path.join(session.root, "dunst-shown-%d" % time.monotonic_ns())
        script = os.path.join(session.root, "dunst-record")
        with open(script, "w") as handle:
            # Fields apart with US (037), records ended with RS (036): a body may hold newlines.
            handle.write("#!/bin/sh\nprintf '%%s\\037%%s\\037%%s\\036' \"$(date +%%s%%N)\" \"$DUNST_SUMMARY\" "
                         "\"$DUNST_BODY\" >> '%s'\n" % self.record_path)
        os.chmod(script, 0o755)
        dropins = os.path.join(session.env["XDG_CONFIG_HOME"], "dunst", "dunstrc.d")
        os.makedirs(dropins, exist_ok=True)
        with open(os.path.join(dropins, "50-record.conf"), "w") as handle:
            handle.write('[record-everything]\n    summary = "*"\n    script = "%s"\n' % script)
        super().__init__(session)

    def records(self):
        try:
            with open(self.record_path, errors="replace") as handle:
                text = handle.read()
        except FileNotFoundError:
            return []
        records = []
        for entry in text.split("\036"):
            fields = entry.split("\037")
            if len(fields) == 3:
                records.append({"ns": int(fields[0]), "summary": fields[1], "body": fields[2]})
        return sorted(records, key=lambda record: record["ns"])
