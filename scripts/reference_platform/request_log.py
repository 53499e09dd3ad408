"""The log of API requests the tests inspect through the control API."""

from __future__ import annotations

import contextlib
import threading
from collections import deque

from .common import parse_json

REQUEST_LOG_LIMIT = 10_000


class RequestLog:
    """In-memory log of API requests, newest last (bounded, oldest entries fall off)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._entries: deque[dict] = deque(maxlen=REQUEST_LOG_LIMIT)

    def start(self, method: str, path: str, has_authorization: bool, body: bytes | None, arrival_ns: int) -> dict:
        parsed = None
        if body:
            with contextlib.suppress(ValueError, RecursionError):
                parsed = parse_json(body)
        entry = {"method": method, "path": path, "status": None, "hasAuthorization": has_authorization,
                 "body": parsed, "bodyBytes": None if body is None else len(body),
                 "arrivalNs": arrival_ns, "fault": None}
        with self._lock:
            self._entries.append(entry)
        return entry

    def finish(self, entry: dict, status: int | None, fault: str | None) -> None:
        with self._lock:
            entry["status"] = status
            entry["fault"] = fault

    def snapshot(self) -> list[dict]:
        with self._lock:
            return [dict(entry) for entry in self._entries]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
