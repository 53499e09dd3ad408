"""Prints, as JSON, the states of every button named NAME in one process's
accessible tree (a list of lists, one per button): whether a screen
reader hears it as sensitive, focused, and so on. Run in the session's
environment, for the reason atspi_tree.py gives."""

import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

from atspi_tree import ROLES  # noqa: E402


def walk(accessible, name, depth, found):
    if accessible is None or depth > 40:
        return
    try:
        if ROLES.get(accessible.get_role_name()) == "button" and accessible.get_name() == name:
            states = accessible.get_state_set()
            found.append(sorted(state.value_nick for state in states.get_states()))
        count = accessible.get_child_count()
    except gi.repository.GLib.Error:
        return
    for index in range(count):
        walk(accessible.get_child_at_index(index), name, depth + 1, found)


def main():
    pid, name = int(sys.argv[1]), sys.argv[2]
    desktop = Atspi.get_desktop(0)
    found = []
    for index in range(desktop.get_child_count()):
        application = desktop.get_child_at_index(index)
        if application is not None and application.get_process_id() == pid:
            walk(application, name, 0, found)
    print(json.dumps(found))


if __name__ == "__main__":
    main()
