"""The demo web app, served by the reference platform over its TLS listener.

A few static files (webapp/demo/) that use the real JavaScript client of
dfl-webview-bridge (Sources/WebViewBridgeJS/) as the mobile web app would,
plus a password-less sign-in as one of the demo family's users: this server
exists for tests and the demo only. The web app and the API share one origin,
so the page calls the API without CORS, as the real web app calls its own.

Standard library only. The platform hands each request to `DemoWebApp.route`
first; None means "not the web app's", and the API handles it.
"""

from __future__ import annotations

import json
import mimetypes
import os
import re

# The Sleep route of the web app; the same page serves it and reads the ids.
SLEEP_ROUTE = re.compile(r"/families/[^/]+/babies/[^/]+/track/sleep")
# The change feed: /demo/timer-changes/N answers once the store's version is
# no longer N (-1 asks for it at once), or after CHANGE_WAIT_SECONDS with the
# same version, inside the time any client or proxy keeps a quiet request.
CHANGES_ROUTE = re.compile(r"/demo/timer-changes/(-1|[0-9]{1,18})")
CHANGE_WAIT_SECONDS = 45
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
                 ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".ts": "text/plain; charset=utf-8", ".svg": "image/svg+xml"}
SECURITY_HEADERS = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"))


class DemoWebApp:
    """Routes of the demo web app: (method, path) -> handler(body) -> (status, content type, body, headers)."""

    def __init__(self, directory: str, client_directory: str, users, family: dict, wait_for_change):
        self.directory = os.path.realpath(directory)
        self.client_directory = os.path.realpath(client_directory)
        self.users = users  # () -> [{"id", "name", "accessToken"}]
        self.family = family  # the demo fixtures' family: familySubjectId, members, babies, coaches
        self.wait_for_change = wait_for_change  # (seen version, timeout) -> the store's version

    def route(self, method: str, path: str):
        if method == "GET" and (path == "/" or SLEEP_ROUTE.fullmatch(path)):
            return lambda _body: self.file(self.directory, "index.html")
        if method == "GET" and path == "/demo/attachment":
            # A file the web app's own origin serves as a download, which the
            # desktop app must refuse as it refuses any other.
            disposition = ("Content-Disposition", 'attachment; filename="web-app-attachment.txt"')
            return lambda _body: (200, "application/octet-stream", b"a file of the web app's\n",
                                  SECURITY_HEADERS + (disposition,))
        changes = CHANGES_ROUTE.fullmatch(path) if method == "GET" else None
        if changes:
            return lambda _body: self.changes(int(changes.group(1)))
        if method == "GET" and path.startswith("/demo/client/"):
            name = path[len("/demo/client/"):]
            return lambda _body: self.file(self.client_directory, name)
        if method == "GET" and path.startswith("/demo/"):
            return lambda _body: self.file(self.directory, path[len("/demo/"):])
        if method == "POST" and path == "/demo/sign-in":
            return self.sign_in
        if method == "POST" and path == "/demo/events":
            # The page says it has loaded (the request log keeps the moment).
            return lambda _body: (204, None, b"", ())
        return None

    def file(self, directory: str, name: str):
        path = os.path.realpath(os.path.join(directory, name))
        if not path.startswith(directory + os.sep) or not os.path.isfile(path):
            return error(404, "not_found", "there is no such file in the demo web app")
        with open(path, "rb") as handle:
            body = handle.read()
        content_type = CONTENT_TYPES.get(os.path.splitext(path)[1]) or mimetypes.guess_type(path)[0] \
            or "application/octet-stream"
        headers = SECURITY_HEADERS
        if content_type.startswith("text/html"):
            headers += (("Content-Security-Policy",
                         "default-src 'self'; frame-src https:; object-src 'none'; base-uri 'none'"),)
        return 200, content_type, body, headers

    def changes(self, seen: int):
        """Stands in for the platform's realtime updates: says only that the
        store changed (its version), so the page fetches the family's timers
        when something happened rather than now and then. A long poll, held
        open in the server while nothing changes."""
        version = self.wait_for_change(seen, 0 if seen < 0 else CHANGE_WAIT_SECONDS)
        return 200, "application/json", json.dumps({"version": version}).encode(), (("Cache-Control", "no-store"),)

    def sign_in(self, body: bytes):
        """{"as": "parent" | "coach"} -> who is signed in, the access token and the family."""
        try:
            role = json.loads(body or b"{}").get("as")
        except (ValueError, AttributeError):
            role = None
        if role not in ("parent", "coach"):
            return error(400, "invalid_request", 'the body must be {"as": "parent"} or {"as": "coach"}')
        wanted = set(self.family["members"]) if role == "parent" else {c["userId"] for c in self.family["coaches"]}
        user = next((u for u in self.users() if u["id"] in wanted), None)
        if user is None:
            return error(404, "not_found", f"the demo family has no {role}")
        reply = {"userId": user["id"], "name": user["name"], "accessToken": user["accessToken"],
                 "mode": "self" if role == "parent" else "coach",
                 "familySubjectId": self.family["familySubjectId"], "babies": self.family["babies"]}
        return 200, "application/json", json.dumps(reply).encode(), (("Cache-Control", "no-store"),)


def error(status: int, code: str, message: str):
    return status, "application/json", json.dumps({"error": {"code": code, "message": message}}).encode(), ()
