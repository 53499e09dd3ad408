"""HTTP on both listeners: reading a bounded body, finding the operation of a
route and method, applying injected faults, and writing the reply."""

from __future__ import annotations

import contextlib
import select
import socket
import ssl
import time
import traceback
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

from .admin import CONTROL_ROUTES
from .common import log
from .faults import FAULT_MESSAGES, fault_reply
from .messages import ApiError, ApiRequest, Reply, decode_json, invalid
from .routes import fault_route, match_api_route
from .state import App, Platform

MAX_API_BODY_BYTES = 64 * 1024
MAX_CONTROL_BODY_BYTES = 1024 * 1024
# Oversized request bodies up to this size are read and discarded so that the client
# reliably receives the 413 reply instead of a reset connection.
DRAIN_LIMIT_BYTES = 1024 * 1024


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "DreamsForLittlesReferencePlatform/1.0"
    sys_version = ""
    timeout = 60  # idle keep-alive connections and stalled TLS handshakes
    body_limit: int  # set by each listener's handler

    def setup(self) -> None:
        # The listening socket does not handshake in accept(), so a slow client cannot
        # stall the accept loop; the handshake happens here, in the connection's thread.
        if isinstance(self.request, ssl.SSLSocket):
            self.request.settimeout(self.timeout)
            self.request.do_handshake()
        super().setup()

    def do_GET(self) -> None:
        self.dispatch()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

    def dispatch(self) -> None:
        raise NotImplementedError

    def log_request(self, code="-", size="-") -> None:
        """Replaced by the one-line log written after each reply."""

    def log_message(self, format, *args) -> None:
        log(f"{self.client_address[0]} {format % args}")

    def operation(self, routes: dict, body_error: ApiError | None, unknown: str):
        """The handler of this request's method on a route, or the error that answers it:
        404 for an unknown route, 405 (with Allow) for a method it lacks, then a body error."""
        if not routes:
            raise ApiError(404, "not_found", unknown)
        operation = routes.get(self.command)
        if operation is None:
            raise ApiError(405, "method_not_allowed", f"{self.command} is not allowed here",
                           headers=(("Allow", ", ".join(routes)),))
        if body_error is not None:
            raise body_error
        return operation

    def read_body(self) -> tuple[bytes | None, ApiError | None]:
        """The request body, or an error reply when it cannot or may not be read."""
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            return None, invalid("chunked request bodies are not supported; send Content-Length")
        text = self.headers.get("Content-Length", "0").strip()
        if not (text.isascii() and text.isdigit()):
            self.close_connection = True
            return None, invalid("Content-Length must be a number")
        length = int(text)
        if length > self.body_limit:
            if length <= DRAIN_LIMIT_BYTES:
                self.rfile.read(length)
            else:
                self.close_connection = True
            return None, ApiError(413, "payload_too_large", f"the request body exceeds {self.body_limit} bytes")
        body = self.rfile.read(length)
        if len(body) < length:
            raise ConnectionError("the client closed the connection before sending the whole body")
        return body, None

    def send_reply(self, reply: Reply) -> None:
        self.send_response(reply.status)
        if reply.status != 204:
            if reply.body:
                self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in reply.headers:
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(reply.body)

    def log_line(self, path: str, outcome: object) -> None:
        log(f"{self.command} {path} {outcome}")


def internal_error() -> Reply:
    log("internal error:\n" + traceback.format_exc().rstrip())
    return ApiError(500, "internal", FAULT_MESSAGES["internal"]).reply()


class ApiHandler(Handler):
    body_limit = MAX_API_BODY_BYTES

    def dispatch(self) -> None:
        app: App = self.server.app
        arrival_ns = time.time_ns()
        target = urlsplit(self.path)
        webapp_route = app.webapp.route(self.command, target.path) if app.webapp else None
        if webapp_route is not None:
            self.serve_webapp(app, webapp_route, arrival_ns)
            return
        route, methods, path_id = match_api_route(target.path)
        body, body_error = self.read_body()
        entry = app.requests.start(self.command, self.path, "Authorization" in self.headers, body, arrival_ns)

        fault = app.faults.take(fault_route(route, self.command))
        mode = fault["mode"] if fault else None

        if mode == "never_answer":
            app.requests.finish(entry, None, mode)
            self.log_line(target.path, "held open without a reply (never_answer)")
            self.hold_until_client_gives_up()
            self.close_connection = True
            return
        if mode == "latency":
            app.stopping.wait(fault["ms"] / 1000)
        if mode in ("status", "redirect", "oversized_body", "non_json_body"):
            reply = fault_reply(fault)
        else:
            reply = self.platform_reply(app.platform, methods, path_id, target.query, body, body_error)
        if mode == "delay_after_commit":
            # Committed; the reply waits, so a client can die in between.
            app.requests.finish(entry, None, mode)
            self.log_line(target.path, f"{reply.status} committed; reply delayed (delay_after_commit)")
            app.stopping.wait(fault["ms"] / 1000)
        if mode == "drop_after_commit":
            app.requests.finish(entry, None, mode)
            self.log_line(target.path, f"{reply.status} not sent: connection dropped (drop_after_commit)")
            self.drop_connection()
            return
        app.requests.finish(entry, reply.status, mode)
        self.log_line(target.path, reply.status if mode is None else f"{reply.status} ({mode})")
        self.send_reply(reply)

    def serve_webapp(self, app: App, handler, arrival_ns: int) -> None:
        """A file or call of the demo web app (scripts/demo_webapp.py), logged like the API's."""
        body, body_error = self.read_body()
        entry = app.requests.start(self.command, self.path, "Authorization" in self.headers, body, arrival_ns)
        if body_error is not None:
            reply = body_error.reply()
        else:
            status, content_type, payload, headers = handler(body)
            reply = Reply(status, payload, content_type or "application/json", tuple(headers))
        app.requests.finish(entry, reply.status, None)
        self.log_line(urlsplit(self.path).path, reply.status)
        self.send_reply(reply)

    def platform_reply(self, platform: Platform, methods: dict, path_id: str | None, query: str,
                       body: bytes | None, body_error: ApiError | None) -> Reply:
        try:
            operation = self.operation(methods, body_error, "there is no such endpoint")
            return operation(platform, ApiRequest(path_id, query, body, self.headers.get("Authorization")))
        except ApiError as error:
            return error.reply()
        except Exception:
            return internal_error()

    def hold_until_client_gives_up(self) -> None:
        """Keeps the connection open without replying until the client closes it or the server stops."""
        while not self.server.app.stopping.is_set():
            readable, _, _ = select.select([self.connection], [], [], 0.2)
            if readable:  # end of stream: the client gave up
                return

    def drop_connection(self) -> None:
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


class ControlHandler(Handler):
    body_limit = MAX_CONTROL_BODY_BYTES

    def dispatch(self) -> None:
        target = urlsplit(self.path)
        body, body_error = self.read_body()
        routes = CONTROL_ROUTES.get(target.path, {})
        try:
            operation = self.operation(routes, body_error, "there is no such control endpoint")
            reply = operation(self.server.app, decode_json(body) if body.strip() else {})
        except ApiError as error:
            reply = error.reply()
        except Exception:
            reply = internal_error()
        self.log_line(target.path, reply.status)
        self.send_reply(reply)
