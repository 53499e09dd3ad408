"""Prints, as JSON, every accessible on the session's accessibility bus
that says it has the keyboard focus: its process, role and name. The
page's controls tell no focus event over the bus, but their state says
it (Debian 13, where the page is on the bus). Run in the session's
environment, for the reason atspi_tree.py gives."""

import json

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402


def shown_text(accessible, depth=0):
    """The names of what it holds, which show its words where it has no
    name of its own (GTK 4.18's menu items hold their label)."""
    if depth > 4:
        return ""
    words = [target.get_name() for relation in accessible.get_relation_set()
             if relation.get_relation_type() == Atspi.RelationType.LABELLED_BY
             for target in (relation.get_target(i) for i in range(relation.get_n_targets()))]
    for index in range(accessible.get_child_count()):
        child = accessible.get_child_at_index(index)
        if child is not None:
            words.append(child.get_name() or shown_text(child, depth + 1))
    return " ".join(word for word in words if word)


def walk(accessible, depth, found):
    if accessible is None or depth > 60:
        return
    try:
        if accessible.get_state_set().contains(Atspi.StateType.FOCUSED):
            found.append({"pid": accessible.get_process_id(), "role": accessible.get_role_name(),
                          "name": accessible.get_name(), "shows": shown_text(accessible)})
        count = accessible.get_child_count()
    except gi.repository.GLib.Error:
        return
    for index in range(count):
        walk(accessible.get_child_at_index(index), depth + 1, found)


def main():
    desktop = Atspi.get_desktop(0)
    found = []
    for index in range(desktop.get_child_count()):
        walk(desktop.get_child_at_index(index), 0, found)
    print(json.dumps(found))


if __name__ == "__main__":
    main()
