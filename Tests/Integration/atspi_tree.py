"""Prints, as JSON, the role, name and description of every accessible of
one process that a screen reader would meet first: the frames and the
buttons. Run in the session's environment, so that it reaches that
session's accessibility bus; it is a separate process because libatspi
binds to one bus for its whole life."""

import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

# at-spi2-core 2.46 (Debian 12) says "push button", 2.56 (Debian 13)
# "button": both are written "button".
ROLES = {"frame": "frame", "push button": "button", "button": "button"}


def walk(accessible, depth, found):
    if accessible is None or depth > 40:
        return
    try:
        role = accessible.get_role_name()
        if role in ROLES:
            found.append([ROLES[role], accessible.get_name(), accessible.get_description()])
        count = accessible.get_child_count()
    except gi.repository.GLib.Error:
        return
    for index in range(count):
        walk(accessible.get_child_at_index(index), depth + 1, found)


def main():
    pid = int(sys.argv[1])
    desktop = Atspi.get_desktop(0)
    found = []
    for index in range(desktop.get_child_count()):
        application = desktop.get_child_at_index(index)
        if application is not None and application.get_process_id() == pid:
            walk(application, 0, found)
    print(json.dumps(found))


if __name__ == "__main__":
    main()
