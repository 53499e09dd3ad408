"""Runs scripts/reference_platform.py as a child process and talks to it over HTTP(S).

Shared by the contract tests; standard library only.
"""

from __future__ import annotations

import http.client
import json
import os
import select
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import urlsplit

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVER_SCRIPT = REPO_ROOT / "scripts" / "reference_platform.py"
MAKE_CERTS_SCRIPT = REPO_ROOT / "scripts" / "make-test-certs.sh"
STARTUP_TIMEOUT_SECONDS = 30
SHUTDOWN_TIMEOUT_SECONDS = 30


def make_certs(directory: str | Path) -> Path:
    """Creates the test CA and server certificate with scripts/make-test-certs.sh."""
    result = subprocess.run(["sh", str(MAKE_CERTS_SCRIPT), str(directory)], capture_output=True, text=True)
    if result.returncode != 0 or result.stdout or result.stderr:
        raise RuntimeError(f"make-test-certs.sh failed ({result.returncode}): {result.stdout}{result.stderr}")
    return Path(directory)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_from_now(seconds: float) -> str:
    return iso(datetime.now(timezone.utc) + timedelta(seconds=seconds))


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def json(self):
        return json.loads(self.body)


class PlatformProcess:
    """One reference platform process; the API over TLS when certs are given."""

    def __init__(self, *, certs: Path | None = None, db: str | None = None, fixtures: str | None = None,
                 host: str = "127.0.0.1", extra_args: tuple[str, ...] = (), env: dict | None = None):
        self.certs = certs
        self.env = env
        self.args = [sys.executable, str(SERVER_SCRIPT), "--host", host]
        if certs is not None:
            self.args += ["--tls-cert", str(certs / "server.pem"), "--tls-key", str(certs / "server.key")]
        if db is not None:
            self.args += ["--db", db]
        if fixtures is not None:
            self.args += ["--fixtures", fixtures]
        self.args += list(extra_args)
        self.process: subprocess.Popen | None = None
        self.ready: dict = {}
        self._stderr = tempfile.TemporaryFile()
        self._final_stderr: str | None = None

    # ---- lifecycle

    def start(self) -> PlatformProcess:
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=self._stderr, env=self.env)
        readable, _, _ = select.select([self.process.stdout], [], [], STARTUP_TIMEOUT_SECONDS)
        line = self.process.stdout.readline() if readable else b""
        if not line:
            self.process.kill()
            self.process.wait()
            self.process.stdout.close()
            raise RuntimeError(f"the platform did not become ready:\n{self.stderr_text()}")
        self.ready = json.loads(line)
        api = urlsplit(self.ready["api"])
        control = urlsplit(self.ready["control"])
        self.api_scheme, self.api_host, self.api_port = api.scheme, api.hostname, api.port
        self.control_host, self.control_port = control.hostname, control.port
        self.ssl_context = None
        if self.certs is not None:
            self.ssl_context = ssl.create_default_context(cafile=str(self.certs / "ca.pem"))
        return self

    def stop(self) -> int:
        """Sends SIGTERM to the process by its pid and returns its exit status."""
        if self.process is None:
            return 0
        os.kill(self.ready.get("pid", self.process.pid), signal.SIGTERM)
        try:
            status = self.process.wait(SHUTDOWN_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self.process.stdout.close()
        self.process = None
        self._final_stderr = self.stderr_text()
        self._stderr.close()
        return status

    def stderr_text(self) -> str:
        """What the process logged so far (all of it once stopped)."""
        if self._final_stderr is not None:
            return self._final_stderr
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    # ---- HTTP

    def api_connection(self, timeout: float = 30) -> http.client.HTTPConnection:
        if self.api_scheme == "https":
            return http.client.HTTPSConnection(self.api_host, self.api_port, timeout=timeout, context=self.ssl_context)
        return http.client.HTTPConnection(self.api_host, self.api_port, timeout=timeout)

    def api(self, method: str, path: str, body: object = None, *, token: str | None = None,
            raw: bytes | None = None, headers: dict | None = None, timeout: float = 30) -> Response:
        """One request on a fresh API connection.  body is sent as JSON, raw as is."""
        all_headers = {"Accept": "application/json"}
        if body is not None:
            raw = json.dumps(body).encode("utf-8")
        if raw is not None:
            all_headers["Content-Type"] = "application/json"
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        all_headers.update(headers or {})
        return self._exchange(self.api_connection(timeout), method, path, raw, all_headers)

    def control(self, method: str, path: str, body: object = None) -> Response:
        connection = http.client.HTTPConnection(self.control_host, self.control_port, timeout=30)
        raw = None if body is None else json.dumps(body).encode("utf-8")
        return self._exchange(connection, method, path, raw, {"Content-Type": "application/json"})

    def control_json(self, method: str, path: str, body: object = None):
        response = self.control(method, path, body)
        if response.status >= 300:
            raise AssertionError(f"control {method} {path} -> {response.status}: {response.body!r}")
        return response.json

    @staticmethod
    def _exchange(connection: http.client.HTTPConnection, method: str, path: str, raw: bytes | None,
                  headers: dict) -> Response:
        try:
            connection.request(method, path, body=raw, headers=headers)
            reply = connection.getresponse()
            return Response(reply.status, reply.headers, reply.read())
        finally:
            connection.close()

    def wait_for(self, predicate, what: str, timeout: float = 30) -> None:
        """Polls the control API until predicate() holds (for states reached asynchronously)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.05)
