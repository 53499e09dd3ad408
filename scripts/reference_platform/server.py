"""The process: command line, the TLS API listener and the loopback control
listener, the ready line, and shutdown on SIGTERM or SIGINT."""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import signal
import socket
import socketserver
import sqlite3
import ssl
import sys
import threading
from http.server import ThreadingHTTPServer

from .access import users
from .common import log
from .fixtures import DEMO_FIXTURES, load_fixture_document, load_fixtures
from .handlers import ApiHandler, ControlHandler, Handler
from .messages import ApiError
from .state import App, Platform
from .store import Store
from .tokens import DEFAULT_TOKEN_TTL_SECONDS


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # bursts of parallel clients must not hit a full listen backlog

    def __init__(self, host: str, port: int, handler: type[Handler], app: App):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.app = app
        super().__init__((host, port), handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind looks up the host's FQDN, which can stall without DNS.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, OSError):  # TLS handshake failures, resets, timeouts: one line, no traceback
            log(f"connection from {client_address[0]} ended: {type(error).__name__}: {error}")
        else:
            super().handle_error(request, client_address)


def url_for(scheme: str, address: tuple) -> str:
    host, port = address[:2]
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def write_atomically(path: str, text: str) -> None:
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(temporary, path)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Reference platform for the Dreams for Littles desktop bridge "
                                                 "(tests and demo only).")
    parser.add_argument("--host", default="127.0.0.1", help="IP address to listen on (default 127.0.0.1; ::1 works)")
    parser.add_argument("--port", type=int, default=0, help="API port (default 0: any free port)")
    parser.add_argument("--tls-cert", help="PEM certificate chain; with --tls-key the API speaks HTTPS")
    parser.add_argument("--tls-key", help="PEM private key of --tls-cert")
    parser.add_argument("--control-port", type=int, default=0, help="loopback control port (default 0: any free port)")
    parser.add_argument("--db", default=":memory:", help="SQLite file holding all state (default: in memory)")
    parser.add_argument("--fixtures", help="fixtures JSON file, or 'demo' for the built-in demo family")
    parser.add_argument("--token-ttl", type=int, default=DEFAULT_TOKEN_TTL_SECONDS,
                        help="lifetime of native action tokens in seconds (default 43200)")
    parser.add_argument("--ready-file", help="also write the ready JSON line to this file (atomically)")
    parser.add_argument("--webapp", help="also serve the demo web app from this directory (webapp/demo; "
                                         "needs --fixtures demo)")
    args = parser.parse_args(argv)
    try:
        address = ipaddress.ip_address(args.host)
    except ValueError:
        parser.error("--host must be an IP address such as 127.0.0.1 or ::1")
    if (args.tls_cert is None) != (args.tls_key is None):
        parser.error("--tls-cert and --tls-key must be given together")
    if args.tls_cert is None and not address.is_loopback:
        parser.error("plain HTTP is only allowed on a loopback host; give --tls-cert and --tls-key")
    if args.webapp is not None and args.fixtures != "demo":
        parser.error("--webapp needs --fixtures demo: the demo web app signs in as the demo family's users")
    if args.token_ttl < 1:
        parser.error("--token-ttl must be at least 1 second")
    args.control_host = "::1" if address.version == 6 else "127.0.0.1"
    return args


def tls_context(cert: str, key: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


def start(args: argparse.Namespace) -> tuple[Store, App, Server, Server]:
    """Opens the store, loads fixtures and binds both listeners; raises on any failure."""
    store = Store(args.db)
    platform = Platform(store, args.token_ttl)
    if args.fixtures:
        load_fixtures(platform, load_fixture_document(args.fixtures))
    app = App(platform)
    if args.webapp:
        # scripts/, where demo_webapp.py is, is on sys.path: the launcher's directory.
        from demo_webapp import DemoWebApp
        client = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                              "Sources", "WebViewBridgeJS")
        app.webapp = DemoWebApp(args.webapp, client, lambda: users(platform), DEMO_FIXTURES["families"][0],
                                lambda seen, timeout: store.wait_for_change(seen, timeout, app.stopping))
    api = Server(args.host, args.port, ApiHandler, app)
    if args.tls_cert:
        api.socket = tls_context(args.tls_cert, args.tls_key).wrap_socket(
            api.socket, server_side=True, do_handshake_on_connect=False)
    control = Server(args.control_host, args.control_port, ControlHandler, app)
    return store, app, api, control


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # SIGTERM and SIGINT are blocked in every thread and collected by sigwait below,
    # so shutdown runs in the main thread, outside any signal handler.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})

    try:
        store, app, api, control = start(args)
    except ApiError as error:
        log(f"invalid fixtures: {error.message}")
        return 2
    except (OSError, ValueError, sqlite3.Error) as error:  # unreadable files, busy ports, bad database
        log(f"cannot start: {error}")
        return 2
    for server in (api, control):
        threading.Thread(target=server.serve_forever, args=(0.2,), daemon=True).start()

    ready = json.dumps({"api": url_for("https" if args.tls_cert else "http", api.server_address),
                        "control": url_for("http", control.server_address), "pid": os.getpid()})
    if args.ready_file:
        write_atomically(args.ready_file, ready + "\n")
    sys.stdout.write(ready + "\n")
    sys.stdout.flush()

    received = signal.sigwait({signal.SIGTERM, signal.SIGINT})
    log(f"received {signal.Signals(received).name}; shutting down")
    app.stopping.set()
    for server in (api, control):
        server.shutdown()
        server.server_close()
    store.close()
    return 0
