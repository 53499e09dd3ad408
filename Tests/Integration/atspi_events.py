"""Prints, one JSON line each, the announcements a screen reader hears from
one process: AT-SPI's object:announcement events (GTK 4.14 and later sends
gtk_accessible_announce as one), with the role and name of the accessible
that announced, the text and the politeness. It prints "ready" once the
listener is registered with the registry, and runs until it is ended. A
process of its own, in the session's environment: libatspi binds to one bus
for its whole life."""

import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

EVENT = "object:announcement"


def main():
    pid = int(sys.argv[1])

    def heard(event):
        source = event.source
        try:
            if source is None or source.get_process_id() != pid:
                return
            role, name = source.get_role_name(), source.get_name()
        except GLib.Error:
            role, name = None, None
        data = event.any_data
        print(json.dumps({"type": event.type, "role": role, "name": name, "detail1": event.detail1,
                          "detail2": event.detail2, "text": data if isinstance(data, str) else repr(data)}),
              flush=True)

    listener = Atspi.EventListener.new(heard)
    listener.register(EVENT)
    print("ready", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
