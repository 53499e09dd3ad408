"""Times, ids, JSON, base64url and the log line that every other module uses."""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
import sys
import threading
import time
import zoneinfo
from datetime import datetime, timedelta, timezone

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_ISO_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]{1,9}))?(Z|[+-][0-9]{2}:[0-9]{2})"
)
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

_log_lock = threading.Lock()


def log(message: str) -> None:
    """One line on stderr.  Callers never pass Authorization values or tokens."""
    stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    with _log_lock:
        sys.stderr.write(f"{stamp} {message}\n")
        sys.stderr.flush()


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def parse_time(text: object) -> int | None:
    """ISO-8601 time with seconds and an explicit zone (Z or +HH:MM) -> epoch milliseconds."""
    if not isinstance(text, str):
        return None
    match = _ISO_TIME.fullmatch(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
    microsecond = int((match.group(7) or "").ljust(6, "0")[:6])
    zone = match.group(8)
    offset = timedelta(0)
    if zone != "Z":
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if hours > 23 or minutes > 59:
            return None
        offset = timedelta(hours=hours, minutes=minutes) * (-1 if zone[0] == "-" else 1)
    try:
        moment = datetime(year, month, day, hour, minute, second, microsecond, tzinfo=timezone(offset))
        return (moment - _EPOCH) // timedelta(milliseconds=1)
    except (ValueError, OverflowError):
        return None


def format_time(ms: int | None) -> str | None:
    """Epoch milliseconds -> 2026-11-29T21:41:00.000Z (the only form the API emits)."""
    if ms is None:
        return None
    moment = _EPOCH + timedelta(milliseconds=ms)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def canonical_uuid(value: object) -> str | None:
    if isinstance(value, str) and _UUID.fullmatch(value):
        return value.lower()
    return None


def encode_json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


def parse_json(raw: bytes) -> object:
    """Strict JSON: NaN and Infinity are refused, as RFC 8259 has no such values."""
    return json.loads(raw, parse_constant=_reject_constant)


@functools.lru_cache(maxsize=1)
def iana_zones() -> frozenset[str]:
    # "localtime" is the host's zone file, not an IANA name.
    return frozenset(zoneinfo.available_timezones() - {"localtime"})


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    if not _BASE64URL.fullmatch(text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
