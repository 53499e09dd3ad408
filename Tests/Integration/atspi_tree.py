"""Prints, as JSON, what a screen reader meets first in one process's
accessibles: by default the role, name and description of its frames and
buttons; with --labels, the text of its labels; with --page, what it can
read of the web page inside the window (the headings and buttons of each
"document web", or none) and the web view's own accessible. Run in the session's environment, so that it reaches
that session's accessibility bus; it is a separate process because libatspi
binds to one bus for its whole life."""

import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

# at-spi2-core 2.46 (Debian 12) says "push button", 2.56 (Debian 13)
# "button": both are written "button".
ROLES = {"frame": "frame", "push button": "button", "button": "button"}
# What of a page is read back: its headings and its buttons.
PAGE_ROLES = {"heading": "heading", "push button": "button", "button": "button"}


def walk(accessible, depth, visit):
    """Calls visit(accessible, role) for every accessible beneath, in order."""
    if accessible is None or depth > 60:
        return
    try:
        role = accessible.get_role_name()
        descend = visit(accessible, role)
        count = accessible.get_child_count()
    except gi.repository.GLib.Error:
        return
    if descend is False:
        return
    for index in range(count):
        walk(accessible.get_child_at_index(index), depth + 1, visit)


def controls(application):
    found = []

    def visit(accessible, role):
        if role in ROLES:
            found.append([ROLES[role], accessible.get_name(), accessible.get_description()])
        # A page's own buttons are the page's, not the window's.
        return role != "document web"
    walk(application, 0, visit)
    return found


def page(application):
    """Each document beneath a frame: the frame's name, and the document's
    headings and buttons ([role, name]) and live regions (["status",
    politeness]); and the web view, when WebKit names it after its class
    (as 2.50 does): [role, name, child count]."""
    documents, views = [], []
    frames = []

    def visit(accessible, role):
        if role == "frame":
            frames.append(accessible.get_name())
        if role == "document web":
            content = []
            walk(accessible, 0, lambda a, r: content.append(item(a, r)))
            documents.append({"frame": frames[-1] if frames else None, "content": [c for c in content if c]})
            return False
        if accessible.get_name() == "WebKitWebView":
            views.append([role, accessible.get_name(), accessible.get_child_count()])
        return True
    walk(application, 0, visit)
    return {"documents": documents, "views": views}


def labels(application):
    """The text of every label, as a screen reader reads it: what the
    process drew, after any markup was taken as markup."""
    found = []

    def visit(accessible, role):
        if role == "label":
            found.append(accessible.get_name())
    walk(application, 0, visit)
    return found


def item(accessible, role):
    if role in PAGE_ROLES:
        return [PAGE_ROLES[role], accessible.get_name()]
    if role == "status bar":
        return ["status", (accessible.get_attributes() or {}).get("live")]
    return None


def main():
    arguments = sys.argv[1:]
    read = {"--page": page, "--labels": labels}.get(arguments[0], controls)
    pid = int(arguments[-1])
    desktop = Atspi.get_desktop(0)
    found = {"documents": [], "views": []} if read is page else []
    for index in range(desktop.get_child_count()):
        application = desktop.get_child_at_index(index)
        if application is not None and application.get_process_id() == pid:
            found = read(application)
    print(json.dumps(found))


if __name__ == "__main__":
    main()
