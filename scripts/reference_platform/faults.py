"""Injected faults: the control API queues them, and the first one matching an API
request applies instead of (or around) the platform's answer."""

from __future__ import annotations

import functools
import threading

from .common import encode_json
from .fields import Fields
from .messages import Reply, invalid

OVERSIZED_REPLY_BYTES = 8 * 1024 * 1024

FAULT_ROUTES = ("complete", "upsert", "any")
FAULT_MODES = ("latency", "never_answer", "drop_after_commit", "delay_after_commit", "status", "redirect",
               "oversized_body", "non_json_body")
FAULT_STATUS_CODES = {429: "rate_limited", 503: "unavailable"}
FAULT_MESSAGES = {
    "rate_limited": "too many requests; retry later",
    "unavailable": "the platform is temporarily unavailable",
    "internal": "internal server error",
}


class Faults:
    """Queued faults; the first one matching a request applies (and uses up one of its count)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._items: list[dict] = []
        self._next_id = 1

    def add(self, spec: object) -> dict:
        fields = Fields(spec, "fault.")
        route = fields.choice("route", FAULT_ROUTES)
        mode = fields.choice("mode", FAULT_MODES)
        fault = {"route": route, "mode": mode,
                 "remaining": fields.integer("count", 1, 1_000_000, required=False)}
        allowed = {"route", "mode", "count"}
        if mode == "latency":
            fault["ms"] = fields.integer("ms", 0, 600_000)
            allowed.add("ms")
        elif mode == "status":
            status = fields.integer("status", 400, 599)
            code = fields.string("code", required=False) or FAULT_STATUS_CODES.get(status)
            if code is None and status >= 500:
                code = "internal"
            if code is None:
                raise invalid(f"fault.code is required for status {status}")
            fault.update(status=status, code=code, retryAfter=fields.header_value("retryAfter", required=False))
            allowed.update({"status", "code", "retryAfter"})
        elif mode == "redirect":
            fault["location"] = fields.header_value("location")
            allowed.add("location")
        elif mode == "drop_after_commit" and route != "complete":
            raise invalid("drop_after_commit applies to route complete only")
        elif mode == "delay_after_commit":
            if route != "complete":
                raise invalid("delay_after_commit applies to route complete only")
            fault["ms"] = fields.integer("ms", 0, 600_000)
            allowed.add("ms")
        fields.only(allowed)
        with self._lock:
            fault["id"] = self._next_id
            self._next_id += 1
            self._items.append(fault)
            return dict(fault)

    def take(self, route: str | None) -> dict | None:
        with self._lock:
            for fault in self._items:
                if fault["route"] == "any" or fault["route"] == route:
                    if fault["remaining"] is not None:
                        fault["remaining"] -= 1
                        if fault["remaining"] == 0:
                            self._items.remove(fault)
                    return dict(fault)
        return None

    def snapshot(self) -> list[dict]:
        with self._lock:
            return [dict(fault) for fault in self._items]

    def clear(self) -> int:
        with self._lock:
            count = len(self._items)
            self._items.clear()
            return count


def fault_reply(fault: dict) -> Reply:
    """The reply of a fault that answers instead of the platform (no state is touched)."""
    mode = fault["mode"]
    if mode == "status":
        headers = (("Retry-After", fault["retryAfter"]),) if fault["retryAfter"] is not None else ()
        message = FAULT_MESSAGES.get(fault["code"], f"HTTP {fault['status']}")
        return Reply(fault["status"], encode_json({"error": {"code": fault["code"], "message": message}}),
                     headers=headers)
    if mode == "redirect":
        return Reply(307, headers=(("Location", fault["location"]),))
    if mode == "oversized_body":
        return Reply(201, oversized_reply_body())
    return Reply(201, b"<html>oops</html>", content_type="text/html")


@functools.lru_cache(maxsize=1)
def oversized_reply_body() -> bytes:
    prefix, suffix = b'{"padding":"', b'"}'
    return prefix + b"x" * (OVERSIZED_REPLY_BYTES - len(prefix) - len(suffix)) + suffix
