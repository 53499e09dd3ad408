"""Prints, one JSON line each, every accessible that takes the keyboard
focus on the session's accessibility bus, as a screen reader hears of it:
its process, role, name, description, states, and its parent's role and
name. The app's page is served by a process of its own (WebKit's web
process), so every process but this one counts. Run in the session's
environment, so that it reaches that session's accessibility bus; a
separate process because libatspi binds to one bus for its whole life.
It prints "ready" once it listens."""

import json
import os

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

STATES = ("showing", "visible", "editable", "focusable", "sensitive")


def describe(accessible):
    parent = accessible.get_parent()
    states = accessible.get_state_set()
    return {
        "pid": accessible.get_process_id(),
        "role": accessible.get_role_name(),
        "name": accessible.get_name(),
        "description": accessible.get_description(),
        "states": [name for name in STATES if states.contains(getattr(Atspi.StateType, name.upper()))],
        "parent": [parent.get_role_name(), parent.get_name()] if parent is not None else None,
    }


def main():
    def focused(event):
        if event.detail1 != 1:
            return
        try:
            if event.source.get_process_id() == os.getpid():
                return
            line = describe(event.source)
        except GLib.Error as error:
            line = {"error": str(error)}
        print(json.dumps(line), flush=True)

    listener = Atspi.EventListener.new(focused)
    listener.register("object:state-changed:focused")
    print("ready", flush=True)
    Atspi.event_main()


if __name__ == "__main__":
    main()
