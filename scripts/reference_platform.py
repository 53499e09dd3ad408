#!/usr/bin/env python3
"""Reference platform for the Dreams for Littles Linux desktop bridge.

A contract-faithful implementation of the platform API endpoints the bridge uses:
active timers (upsert, stop, discard, summary), the app's activity Save, and the
public native Sleep completion endpoint guarded by one-time action tokens.  State
lives in SQLite, so a restart with --db keeps every timer, token and activity.

A second, plain-HTTP listener on loopback serves the control API used by tests and
the demo: fixtures, access tokens of simulated users, state inspection, the request
log and fault injection.  This server exists for tests and the demo only.

Python 3.11+ standard library only.  The contract is documented in
docs/platform-contract.md.

    python3 scripts/reference_platform.py --fixtures demo
    python3 scripts/reference_platform.py --tls-cert server.pem --tls-key server.key --db state.sqlite
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import hashlib
import hmac
import ipaddress
import json
import os
import re
import secrets
import select
import signal
import socket
import socketserver
import sqlite3
import ssl
import sys
import threading
import time
import traceback
import uuid
import zoneinfo
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

MAX_API_BODY_BYTES = 64 * 1024
MAX_CONTROL_BODY_BYTES = 1024 * 1024
# Oversized request bodies up to this size are read and discarded so that the client
# reliably receives the 413 reply instead of a reset connection.
DRAIN_LIMIT_BYTES = 1024 * 1024
OVERSIZED_REPLY_BYTES = 8 * 1024 * 1024

TIMER_TYPES = ("sleep", "breastfeeding", "pumping")
START_FUTURE_TOLERANCE_MS = 5 * 60 * 1000
COMPLETE_FUTURE_TOLERANCE_MS = 60 * 1000

DEFAULT_TOKEN_TTL_SECONDS = 12 * 3600
ACCESS_TOKEN_TTL_SECONDS = 24 * 3600
# A stored access token is re-minted when it has less than this much lifetime left.
ACCESS_TOKEN_REFRESH_MARGIN_SECONDS = 3600
NATIVE_TOKEN_PREFIX = "dflnat_"
REQUEST_LOG_LIMIT = 10_000

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_ISO_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]{1,9}))?(Z|[+-][0-9]{2}:[0-9]{2})"
)
_ACTIVITY_TYPE = re.compile(r"[a-z][a-z_]{0,39}")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

_log_lock = threading.Lock()


def log(message: str) -> None:
    """One line on stderr.  Callers never pass Authorization values or tokens."""
    stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    with _log_lock:
        sys.stderr.write(f"{stamp} {message}\n")
        sys.stderr.flush()


# --------------------------------------------------------------------------- times, ids, JSON


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


@functools.lru_cache(maxsize=1)
def iana_zones() -> frozenset[str]:
    # "localtime" is the host's zone file, not an IANA name.
    return frozenset(zoneinfo.available_timezones() - {"localtime"})


@functools.lru_cache(maxsize=1)
def oversized_reply_body() -> bytes:
    prefix, suffix = b'{"padding":"', b'"}'
    return prefix + b"x" * (OVERSIZED_REPLY_BYTES - len(prefix) - len(suffix)) + suffix


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    if not _BASE64URL.fullmatch(text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- errors and replies


class ApiError(Exception):
    """An error reply: {"error": {"code", "message"}} plus optional sibling members."""

    def __init__(self, status: int, code: str, message: str, extra: dict | None = None,
                 headers: tuple[tuple[str, str], ...] = ()):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra or {}
        self.headers = headers

    def reply(self) -> Reply:
        body = {"error": {"code": self.code, "message": self.message}, **self.extra}
        return Reply(self.status, encode_json(body), headers=self.headers)


def invalid(message: str) -> ApiError:
    return ApiError(400, "invalid_request", message)


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()


def json_reply(status: int, payload: object) -> Reply:
    return Reply(status, encode_json(payload))


def decode_json(raw: bytes) -> object:
    try:
        return json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise invalid("request body is not valid JSON") from None


class Fields:
    """Typed reads from a JSON object; the first problem is a 400 that names the field.

    For optional fields, a missing member and an explicit null both mean "not given".
    """

    def __init__(self, value: object, where: str = ""):
        if not isinstance(value, dict):
            raise invalid(f"{where.rstrip('.') or 'request body'} must be a JSON object")
        self._obj = value
        self._where = where

    def _name(self, name: str) -> str:
        return f"{self._where}{name}"

    def _get(self, name: str, required: bool) -> object:
        value = self._obj.get(name)
        if value is None and required:
            raise invalid(f"{self._name(name)} is required")
        return value

    def only(self, allowed: set[str]) -> None:
        unknown = sorted(set(self._obj) - allowed)
        if unknown:
            raise invalid(f"{self._name(unknown[0])} is not a recognised field")

    def uuid(self, name: str, required: bool = True) -> str | None:
        value = self._get(name, required)
        if value is None:
            return None
        result = canonical_uuid(value)
        if result is None:
            raise invalid(f"{self._name(name)} must be a UUID")
        return result

    def string(self, name: str, required: bool = True) -> str | None:
        value = self._get(name, required)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise invalid(f"{self._name(name)} must be a non-empty string")
        return value

    def header_value(self, name: str, required: bool = True) -> str | None:
        value = self.string(name, required)
        if value is not None and ("\r" in value or "\n" in value):
            raise invalid(f"{self._name(name)} must not contain line breaks")
        return value

    def note(self, name: str) -> str | None:
        value = self._get(name, False)
        if value is not None and not isinstance(value, str):
            raise invalid(f"{self._name(name)} must be a string or null")
        return value

    def choice(self, name: str, options: tuple[str, ...]) -> str:
        value = self._get(name, True)
        if value not in options:
            raise invalid(f"{self._name(name)} must be one of {', '.join(options)}")
        return value

    def activity_type(self, name: str) -> str:
        value = self._get(name, True)
        if not isinstance(value, str) or not _ACTIVITY_TYPE.fullmatch(value):
            raise invalid(f"{self._name(name)} must be a lower-case activity type such as sleep or diaper")
        return value

    def time(self, name: str, required: bool = True) -> int | None:
        value = self._get(name, required)
        if value is None:
            return None
        result = parse_time(value)
        if result is None:
            raise invalid(f"{self._name(name)} must be an ISO-8601 time such as 2026-11-29T21:41:00.000Z")
        return result

    def timezone(self, name: str) -> str:
        value = self._get(name, True)
        if not isinstance(value, str) or value not in iana_zones():
            raise invalid(f"{self._name(name)} must be an IANA time zone name such as Europe/Berlin")
        return value

    def object(self, name: str) -> dict:
        value = self._get(name, False)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise invalid(f"{self._name(name)} must be a JSON object")
        return value

    def boolean(self, name: str, default: bool) -> bool:
        value = self._get(name, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise invalid(f"{self._name(name)} must be true or false")
        return value

    def integer(self, name: str, minimum: int, maximum: int, required: bool = True) -> int | None:
        value = self._get(name, required)
        if value is None:
            return None
        if type(value) is not int or not minimum <= value <= maximum:
            raise invalid(f"{self._name(name)} must be an integer from {minimum} to {maximum}")
        return value

    def items(self, name: str) -> list:
        value = self._get(name, False)
        if value is None:
            return []
        if not isinstance(value, list):
            raise invalid(f"{self._name(name)} must be a JSON array")
        return value


# --------------------------------------------------------------------------- storage

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    fixed_token TEXT UNIQUE,
    minted_token TEXT,
    minted_token_expires_at INTEGER
);
CREATE TABLE IF NOT EXISTS families (id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS babies (
    id TEXT PRIMARY KEY,
    family_subject_id TEXT NOT NULL,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS memberships (
    user_id TEXT NOT NULL,
    family_subject_id TEXT NOT NULL,
    PRIMARY KEY (user_id, family_subject_id)
);
CREATE TABLE IF NOT EXISTS coach_assignments (
    user_id TEXT NOT NULL,
    family_subject_id TEXT NOT NULL,
    live INTEGER NOT NULL,
    can_write_activities INTEGER NOT NULL,
    PRIMARY KEY (user_id, family_subject_id)
);
CREATE TABLE IF NOT EXISTS timers (
    id TEXT PRIMARY KEY,
    family_subject_id TEXT NOT NULL,
    baby_id TEXT NOT NULL,
    activity_type TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    timezone TEXT NOT NULL,
    details TEXT NOT NULL,
    note TEXT,
    revision INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'stopped', 'discarded', 'completed')),
    stopped_at INTEGER,
    closed_at INTEGER,
    activity_id TEXT
);
-- The canonical-timer rule, enforced by the database as well as by the upsert code.
CREATE UNIQUE INDEX IF NOT EXISTS one_running_timer_per_scope
    ON timers (family_subject_id, baby_id, activity_type) WHERE status = 'running';
CREATE TABLE IF NOT EXISTS activities (
    id TEXT PRIMARY KEY,
    family_subject_id TEXT NOT NULL,
    baby_id TEXT NOT NULL,
    type TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    details TEXT NOT NULL,
    note TEXT,
    timer_id TEXT UNIQUE,
    source TEXT NOT NULL CHECK (source IN ('native', 'app')),
    client_mutation_id TEXT UNIQUE,
    request_fingerprint TEXT,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS native_action_tokens (
    token_hash TEXT PRIMARY KEY,
    timer_id TEXT NOT NULL,
    issued_to TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    used_body BLOB,
    reply_status INTEGER,
    reply_body BLOB
);
CREATE INDEX IF NOT EXISTS native_action_tokens_by_timer ON native_action_tokens (timer_id);
"""


class Store:
    """One SQLite connection shared by all threads behind a process-wide lock."""

    def __init__(self, path: str):
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        with self._lock:
            self._conn.executescript(SCHEMA)

    @contextlib.contextmanager
    def transaction(self):
        """A transaction under the lock: every read-check-write sequence is atomic."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def timer_json(row: sqlite3.Row) -> dict:
    return {
        "id": row["id"],
        "familySubjectId": row["family_subject_id"],
        "babyId": row["baby_id"],
        "activityType": row["activity_type"],
        "startedAt": format_time(row["started_at"]),
        "timezone": row["timezone"],
        "details": json.loads(row["details"]),
        "note": row["note"],
        "revision": row["revision"],
        "createdBy": row["created_by"],
        "updatedAt": format_time(row["updated_at"]),
    }


def draft_json(row: sqlite3.Row) -> dict:
    return {
        "id": row["id"],
        "familySubjectId": row["family_subject_id"],
        "babyId": row["baby_id"],
        "activityType": row["activity_type"],
        "startedAt": format_time(row["started_at"]),
        "stoppedAt": format_time(row["stopped_at"]),
        "timezone": row["timezone"],
        "details": json.loads(row["details"]),
        "note": row["note"],
    }


def activity_json(row: sqlite3.Row) -> dict:
    return {
        "id": row["id"],
        "babyId": row["baby_id"],
        "type": row["type"],
        "startedAt": format_time(row["started_at"]),
        "endedAt": format_time(row["ended_at"]),
    }


def resolve_actor(db: sqlite3.Connection, user_id: str, family_id: str, write: bool) -> str:
    """Returns "self" for family members and "coach" for permitted coaches, else raises 403."""
    if db.execute("SELECT 1 FROM memberships WHERE user_id = ? AND family_subject_id = ?",
                  (user_id, family_id)).fetchone():
        return "self"
    coach = db.execute("SELECT live, can_write_activities FROM coach_assignments "
                       "WHERE user_id = ? AND family_subject_id = ?", (user_id, family_id)).fetchone()
    if coach is None:
        raise ApiError(403, "forbidden", "you have no access to this family")
    if not coach["live"]:
        raise ApiError(403, "forbidden", "your coach assignment for this family is not live")
    if write and not coach["can_write_activities"]:
        raise ApiError(403, "forbidden", "your coach assignment does not allow writing activities")
    return "coach"


def require_baby(db: sqlite3.Connection, family_id: str, baby_id: str) -> None:
    if not db.execute("SELECT 1 FROM babies WHERE id = ? AND family_subject_id = ?",
                      (baby_id, family_id)).fetchone():
        raise ApiError(404, "baby_not_found", "this baby does not belong to the family")


def get_timer(db: sqlite3.Connection, timer_id: str) -> sqlite3.Row | None:
    return db.execute("SELECT * FROM timers WHERE id = ?", (timer_id,)).fetchone()


def timer_not_found() -> ApiError:
    return ApiError(404, "timer_not_found", "no running timer or stopped draft with this id")


@dataclass(frozen=True)
class ApiRequest:
    path_id: str | None
    query: str
    body: bytes
    authorization: str | None


# --------------------------------------------------------------------------- the platform


class Platform:
    """The platform's rules; every operation runs in one Store transaction."""

    def __init__(self, store: Store, token_ttl_seconds: int):
        self.store = store
        self.default_token_ttl_seconds = token_ttl_seconds
        self.token_ttl_seconds = token_ttl_seconds
        self._secret = self._jwt_secret()

    def _jwt_secret(self) -> bytes:
        # Random per database: with --db, access tokens stay valid across restarts;
        # with the default in-memory database the secret is per process.
        with self.store.transaction() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'jwt_secret'").fetchone()
            if row is not None:
                return bytes.fromhex(row["value"])
            secret = secrets.token_bytes(32)
            db.execute("INSERT INTO meta (key, value) VALUES ('jwt_secret', ?)", (secret.hex(),))
            return secret

    # ---- access tokens of simulated users (JWT-shaped, like Supabase access tokens)

    def mint_access_token(self, user_id: str, ttl_seconds: int) -> tuple[str, int]:
        issued_at = int(time.time())
        expires_at = issued_at + ttl_seconds
        header = b64url(encode_json({"alg": "HS256", "typ": "JWT"}))
        payload = b64url(encode_json({"sub": user_id, "iat": issued_at, "exp": expires_at}))
        signature = hmac.new(self._secret, f"{header}.{payload}".encode("ascii"), hashlib.sha256).digest()
        return f"{header}.{payload}.{b64url(signature)}", expires_at

    def _verify_access_token(self, token: str) -> str:
        parts = token.split(".")
        if len(parts) != 3:
            raise ApiError(401, "unauthorized", "the access token is not a valid JWT")
        try:
            header = json.loads(b64url_decode(parts[0]))
            payload = json.loads(b64url_decode(parts[1]))
            signature = b64url_decode(parts[2])
        except ValueError:
            raise ApiError(401, "unauthorized", "the access token is not a valid JWT") from None
        expected = hmac.new(self._secret, f"{parts[0]}.{parts[1]}".encode("ascii"), hashlib.sha256).digest()
        if not isinstance(header, dict) or header.get("alg") != "HS256" or not hmac.compare_digest(signature, expected):
            raise ApiError(401, "unauthorized", "the access token signature is invalid")
        if not isinstance(payload, dict) or not isinstance(payload.get("sub"), str) \
                or type(payload.get("exp")) is not int:
            raise ApiError(401, "unauthorized", "the access token claims are invalid")
        if payload["exp"] <= time.time():
            raise ApiError(401, "unauthorized", "the access token has expired")
        return payload["sub"]

    def authenticate(self, authorization: str | None) -> str:
        """Bearer access token -> user id, or 401 unauthorized."""
        if not authorization:
            raise ApiError(401, "unauthorized", "a bearer access token is required")
        scheme, _, token = authorization.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise ApiError(401, "unauthorized", "the Authorization header must be 'Bearer <access token>'")
        with self.store.transaction() as db:
            row = db.execute("SELECT id FROM users WHERE fixed_token = ?", (token,)).fetchone()
            if row is not None:
                return row["id"]
            user_id = self._verify_access_token(token)
            if db.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
                raise ApiError(401, "unauthorized", "the access token's user does not exist")
            return user_id

    def _current_access_token(self, db: sqlite3.Connection, user: sqlite3.Row) -> str:
        if user["fixed_token"] is not None:
            return user["fixed_token"]
        if user["minted_token"] is not None and \
                user["minted_token_expires_at"] > time.time() + ACCESS_TOKEN_REFRESH_MARGIN_SECONDS:
            return user["minted_token"]
        token, expires_at = self.mint_access_token(user["id"], ACCESS_TOKEN_TTL_SECONDS)
        db.execute("UPDATE users SET minted_token = ?, minted_token_expires_at = ? WHERE id = ?",
                   (token, expires_at, user["id"]))
        return token

    def user_exists(self, user_id: str) -> bool:
        with self.store.transaction() as db:
            return db.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is not None

    def users(self) -> list[dict]:
        with self.store.transaction() as db:
            rows = db.execute("SELECT * FROM users ORDER BY rowid").fetchall()
            return [{"id": row["id"], "name": row["name"], "accessToken": self._current_access_token(db, row)}
                    for row in rows]

    # ---- fixtures

    def load_fixtures(self, document: object) -> list[dict]:
        """Adds or replaces users and families; each listed family's members, coaches
        and babies become exactly what is given (removed babies lose their timer state
        and activities).  Returns the listed users with their access tokens."""
        doc = Fields(document, "fixtures.")
        doc.only({"users", "families"})
        users = []
        for index, item in enumerate(doc.items("users")):
            fields = Fields(item, f"users[{index}].")
            fields.only({"id", "name", "accessToken"})
            users.append((fields.uuid("id"), fields.string("name"), fields.string("accessToken", required=False)))
        families = []
        for index, item in enumerate(doc.items("families")):
            fields = Fields(item, f"families[{index}].")
            fields.only({"familySubjectId", "members", "babies", "coaches"})
            family_id = fields.uuid("familySubjectId")
            members = []
            for n, member in enumerate(fields.items("members")):
                member_id = canonical_uuid(member)
                if member_id is None:
                    raise invalid(f"families[{index}].members[{n}] must be a UUID")
                members.append(member_id)
            babies = []
            for n, baby in enumerate(fields.items("babies")):
                baby_fields = Fields(baby, f"families[{index}].babies[{n}].")
                baby_fields.only({"id", "name"})
                babies.append((baby_fields.uuid("id"), baby_fields.string("name")))
            coaches = []
            for n, coach in enumerate(fields.items("coaches")):
                coach_fields = Fields(coach, f"families[{index}].coaches[{n}].")
                coach_fields.only({"userId", "live", "canWriteActivities"})
                coaches.append((coach_fields.uuid("userId"), coach_fields.boolean("live", True),
                                coach_fields.boolean("canWriteActivities", False)))
            families.append((family_id, members, babies, coaches))

        with self.store.transaction() as db:
            for user_id, name, fixed_token in users:
                try:
                    db.execute("INSERT INTO users (id, name, fixed_token) VALUES (?, ?, ?) "
                               "ON CONFLICT (id) DO UPDATE SET name = excluded.name, "
                               "fixed_token = excluded.fixed_token",
                               (user_id, name, fixed_token))
                except sqlite3.IntegrityError:
                    raise invalid(f"the accessToken of user {user_id} is already used by another user") from None
            for family_id, members, babies, coaches in families:
                self._apply_family(db, family_id, members, babies, coaches)
            listed = {user_id for user_id, _, _ in users}
            rows = db.execute("SELECT * FROM users ORDER BY rowid").fetchall()
            return [{"id": row["id"], "accessToken": self._current_access_token(db, row)}
                    for row in rows if row["id"] in listed]

    @staticmethod
    def _apply_family(db: sqlite3.Connection, family_id: str, members: list, babies: list, coaches: list) -> None:
        for user_id in members + [coach[0] for coach in coaches]:
            if db.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
                raise invalid(f"family {family_id} refers to unknown user {user_id}")
        db.execute("INSERT OR IGNORE INTO families (id) VALUES (?)", (family_id,))
        db.execute("DELETE FROM memberships WHERE family_subject_id = ?", (family_id,))
        db.executemany("INSERT OR IGNORE INTO memberships (user_id, family_subject_id) VALUES (?, ?)",
                       [(user_id, family_id) for user_id in members])
        db.execute("DELETE FROM coach_assignments WHERE family_subject_id = ?", (family_id,))
        db.executemany("INSERT OR REPLACE INTO coach_assignments VALUES (?, ?, ?, ?)",
                       [(user_id, family_id, int(live), int(write)) for user_id, live, write in coaches])
        kept = {baby_id for baby_id, _ in babies}
        for row in db.execute("SELECT id FROM babies WHERE family_subject_id = ?", (family_id,)).fetchall():
            if row["id"] not in kept:
                # Deleting a baby removes its timer state with the dependent subject data.
                db.execute("DELETE FROM native_action_tokens WHERE timer_id IN "
                           "(SELECT id FROM timers WHERE baby_id = ?)", (row["id"],))
                db.execute("DELETE FROM timers WHERE baby_id = ?", (row["id"],))
                db.execute("DELETE FROM activities WHERE baby_id = ?", (row["id"],))
                db.execute("DELETE FROM babies WHERE id = ?", (row["id"],))
        for baby_id, name in babies:
            owner = db.execute("SELECT family_subject_id FROM babies WHERE id = ?", (baby_id,)).fetchone()
            if owner is not None and owner["family_subject_id"] != family_id:
                raise invalid(f"baby {baby_id} already belongs to family {owner['family_subject_id']}")
            db.execute("INSERT INTO babies (id, family_subject_id, name) VALUES (?, ?, ?) "
                       "ON CONFLICT (id) DO UPDATE SET name = excluded.name", (baby_id, family_id, name))

    # ---- PUT /active-timers/{id}

    def upsert_timer(self, request: ApiRequest) -> Reply:
        user_id = self.authenticate(request.authorization)
        timer_id = canonical_uuid(request.path_id)
        if timer_id is None:
            raise invalid("the timer id in the path must be a UUID")
        fields = Fields(decode_json(request.body))
        family_id = fields.uuid("familySubjectId")
        baby_id = fields.uuid("babyId")
        activity_type = fields.choice("activityType", TIMER_TYPES)
        started_at = fields.time("startedAt")
        zone = fields.timezone("timezone")
        details = fields.object("details")
        note = fields.note("note")
        wants_token = fields.boolean("requestNativeActionToken", False)

        with self.store.transaction() as db:
            now = now_ms()
            if started_at > now + START_FUTURE_TOLERANCE_MS:
                raise invalid("startedAt must not be more than 5 minutes in the future")
            mode = resolve_actor(db, user_id, family_id, write=True)
            if wants_token and mode == "coach":
                raise ApiError(403, "native_token_forbidden",
                               "native action tokens are only issued to the family itself, never to a coach")
            require_baby(db, family_id, baby_id)
            existing = get_timer(db, timer_id)
            if existing is not None:
                if (existing["family_subject_id"], existing["baby_id"], existing["activity_type"]) != \
                        (family_id, baby_id, activity_type):
                    raise invalid("familySubjectId, babyId and activityType of an existing timer cannot change")
                if existing["status"] != "running":
                    raise ApiError(409, "timer_closed", f"this timer is already {existing['status']}")
                db.execute("UPDATE timers SET started_at = ?, timezone = ?, details = ?, note = ?, "
                           "revision = revision + 1, updated_at = ? WHERE id = ?",
                           (started_at, zone, json.dumps(details), note, now, timer_id))
                status = 200
            else:
                canonical = db.execute("SELECT * FROM timers WHERE family_subject_id = ? AND baby_id = ? "
                                       "AND activity_type = ? AND status = 'running'",
                                       (family_id, baby_id, activity_type)).fetchone()
                if canonical is not None:
                    raise ApiError(409, "scope_conflict",
                                   "another timer is already running for this baby and activity type",
                                   extra={"timer": timer_json(canonical)})
                db.execute("INSERT INTO timers (id, family_subject_id, baby_id, activity_type, started_at, "
                           "timezone, details, note, revision, created_by, updated_at, status) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 'running')",
                           (timer_id, family_id, baby_id, activity_type, started_at, zone,
                            json.dumps(details), note, user_id, now))
                status = 201
            payload = {"timer": timer_json(get_timer(db, timer_id))}
            # Only the family in self-mode gets a token, and only for Sleep; a request
            # for another activity type is simply served without one.
            if wants_token and activity_type == "sleep":
                token = NATIVE_TOKEN_PREFIX + b64url(secrets.token_bytes(32))
                expires_at = now + self.token_ttl_seconds * 1000
                db.execute("INSERT INTO native_action_tokens (token_hash, timer_id, issued_to, created_at, expires_at) "
                           "VALUES (?, ?, ?, ?, ?)", (hash_token(token), timer_id, user_id, now, expires_at))
                payload["nativeActionToken"] = {"token": token, "expiresAt": format_time(expires_at)}
        return json_reply(status, payload)

    # ---- POST /active-timers/{id}/stop

    def stop_timer(self, request: ApiRequest) -> Reply:
        user_id = self.authenticate(request.authorization)
        timer_id = canonical_uuid(request.path_id)
        if timer_id is None:
            raise invalid("the timer id in the path must be a UUID")
        # The body is optional: {"stoppedAt": time} carries the moment the user pressed Stop.
        fields = Fields(decode_json(request.body) if request.body.strip() else {})
        stopped_at = fields.time("stoppedAt", required=False)
        with self.store.transaction() as db:
            now = now_ms()
            timer = get_timer(db, timer_id)
            if timer is None:
                raise timer_not_found()
            resolve_actor(db, user_id, timer["family_subject_id"], write=True)
            if timer["status"] != "running":
                raise ApiError(404, "timer_not_found", "this timer is not running")
            if stopped_at is None:
                stopped_at = max(now, timer["started_at"])
            if stopped_at < timer["started_at"]:
                raise invalid("stoppedAt must not be before the timer's startedAt")
            if stopped_at > now + START_FUTURE_TOLERANCE_MS:
                raise invalid("stoppedAt must not be more than 5 minutes in the future")
            db.execute("UPDATE timers SET status = 'stopped', stopped_at = ?, updated_at = ? WHERE id = ?",
                       (stopped_at, now, timer_id))
            return json_reply(200, {"draft": draft_json(get_timer(db, timer_id))})

    # ---- DELETE /active-timers/{id}

    def discard_timer(self, request: ApiRequest) -> Reply:
        user_id = self.authenticate(request.authorization)
        timer_id = canonical_uuid(request.path_id)
        if timer_id is None:
            raise invalid("the timer id in the path must be a UUID")
        with self.store.transaction() as db:
            now = now_ms()
            timer = get_timer(db, timer_id)
            if timer is None:
                raise timer_not_found()
            resolve_actor(db, user_id, timer["family_subject_id"], write=True)
            if timer["status"] not in ("running", "stopped"):
                raise ApiError(404, "timer_not_found", f"this timer is already {timer['status']}")
            db.execute("UPDATE timers SET status = 'discarded', closed_at = ?, updated_at = ? WHERE id = ?",
                       (now, now, timer_id))
        return Reply(204)

    # ---- GET /active-timers?familySubjectId=

    def timer_summary(self, request: ApiRequest) -> Reply:
        user_id = self.authenticate(request.authorization)
        values = parse_qs(request.query, keep_blank_values=True).get("familySubjectId", [])
        family_id = canonical_uuid(values[0]) if len(values) == 1 else None
        if family_id is None:
            raise invalid("the familySubjectId query parameter must be one UUID")
        with self.store.transaction() as db:
            resolve_actor(db, user_id, family_id, write=False)
            rows = db.execute("SELECT * FROM timers WHERE family_subject_id = ? AND status IN ('running', 'stopped') "
                              "ORDER BY started_at, id", (family_id,)).fetchall()
        return json_reply(200, {"timers": [timer_json(row) for row in rows if row["status"] == "running"],
                                "stoppedDrafts": [draft_json(row) for row in rows if row["status"] == "stopped"]})

    # ---- POST /activities

    def create_activity(self, request: ApiRequest) -> Reply:
        user_id = self.authenticate(request.authorization)
        fields = Fields(decode_json(request.body))
        mutation_id = fields.uuid("clientMutationId")
        family_id = fields.uuid("familySubjectId")
        baby_id = fields.uuid("babyId")
        kind = fields.activity_type("type")
        started_at = fields.time("startedAt")
        ended_at = fields.time("endedAt", required=False)
        timer_id = fields.uuid("activeTimerId", required=False)
        details = fields.object("details")
        note = fields.note("note")
        # What the mutation id is bound to: a repeat must describe the same activity.
        fingerprint = json.dumps([family_id, baby_id, kind, started_at, ended_at, timer_id, details, note],
                                 sort_keys=True)

        with self.store.transaction() as db:
            now = now_ms()
            if started_at > now + START_FUTURE_TOLERANCE_MS:
                raise invalid("startedAt must not be more than 5 minutes in the future")
            if ended_at is not None and ended_at < started_at:
                raise invalid("endedAt must not be before startedAt")
            if ended_at is not None and ended_at > now + START_FUTURE_TOLERANCE_MS:
                raise invalid("endedAt must not be more than 5 minutes in the future")
            resolve_actor(db, user_id, family_id, write=True)
            require_baby(db, family_id, baby_id)
            existing = db.execute("SELECT * FROM activities WHERE client_mutation_id = ?", (mutation_id,)).fetchone()
            if existing is not None:
                if existing["request_fingerprint"] != fingerprint:
                    raise ApiError(422, "idempotency_mismatch",
                                   "this clientMutationId was already used for a different activity")
                return json_reply(200, {"activity": activity_json(existing)})
            if timer_id is not None:
                timer = get_timer(db, timer_id)
                if timer is None or timer["family_subject_id"] != family_id or timer["status"] == "discarded":
                    raise ApiError(404, "timer_not_found",
                                   "activeTimerId does not name a running timer or stopped draft")
                if timer["status"] == "completed":
                    raise ApiError(409, "already_completed", "this timer was already completed")
                if (timer["baby_id"], timer["activity_type"]) != (baby_id, kind):
                    raise invalid("activeTimerId belongs to a different baby or activity type")
            activity_id = str(uuid.uuid4())
            db.execute("INSERT INTO activities (id, family_subject_id, baby_id, type, started_at, ended_at, details, "
                       "note, timer_id, source, client_mutation_id, request_fingerprint, created_by, created_at) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'app', ?, ?, ?, ?)",
                       (activity_id, family_id, baby_id, kind, started_at, ended_at, json.dumps(details), note,
                        timer_id, mutation_id, fingerprint, user_id, now))
            if timer_id is not None:
                db.execute("UPDATE timers SET status = 'completed', activity_id = ?, closed_at = ?, updated_at = ? "
                           "WHERE id = ?", (activity_id, now, now, timer_id))
            row = db.execute("SELECT * FROM activities WHERE id = ?", (activity_id,)).fetchone()
            return json_reply(201, {"activity": activity_json(row)})

    # ---- POST /native/sleep-timers/{id}/complete (no bearer: the action token is the credential)

    def complete_native(self, request: ApiRequest) -> Reply:
        timer_id = canonical_uuid(request.path_id)
        if timer_id is None:
            raise invalid("the timer id in the path must be a UUID")
        document = decode_json(request.body)
        if not isinstance(document, dict) or set(document) != {"actionToken", "completedAt"} \
                or not isinstance(document["actionToken"], str) or not isinstance(document["completedAt"], str):
            raise invalid('the body must be exactly {"actionToken": string, "completedAt": string}')
        completed_at = parse_time(document["completedAt"])
        if completed_at is None:
            raise invalid("completedAt must be an ISO-8601 time such as 2026-11-29T21:41:00.000Z")

        with self.store.transaction() as db:
            token = db.execute("SELECT * FROM native_action_tokens WHERE token_hash = ?",
                               (hash_token(document["actionToken"]),)).fetchone()
            if token is None or token["timer_id"] != timer_id:
                raise ApiError(401, "invalid_token", "the action token is not valid for this timer")
            if token["used_at"] is not None:
                if bytes(token["used_body"]) == request.body:
                    return Reply(token["reply_status"], bytes(token["reply_body"]))
                raise ApiError(422, "idempotency_mismatch",
                               "this action token was already used with a different request body")
            now = now_ms()
            if now >= token["expires_at"]:
                raise ApiError(410, "token_expired", "the action token has expired; open the app to finish this timer")
            timer = get_timer(db, timer_id)
            if timer is not None and timer["status"] == "completed":
                raise ApiError(409, "already_completed", "this timer was already completed")
            if timer is None or timer["status"] != "running":
                raise ApiError(404, "timer_not_found", "this timer is no longer running; it was closed in the app")
            if completed_at < timer["started_at"]:
                raise invalid("completedAt must not be before the timer's startedAt")
            if completed_at > now + COMPLETE_FUTURE_TOLERANCE_MS:
                raise invalid("completedAt must not be more than 60 seconds in the future")

            activity_id = str(uuid.uuid4())
            db.execute("INSERT INTO activities (id, family_subject_id, baby_id, type, started_at, ended_at, details, "
                       "note, timer_id, source, created_by, created_at) "
                       "VALUES (?, ?, ?, 'sleep', ?, ?, ?, ?, ?, 'native', ?, ?)",
                       (activity_id, timer["family_subject_id"], timer["baby_id"], timer["started_at"], completed_at,
                        timer["details"], timer["note"], timer_id, token["issued_to"], now))
            db.execute("UPDATE timers SET status = 'completed', activity_id = ?, closed_at = ?, updated_at = ? "
                       "WHERE id = ?", (activity_id, now, now, timer_id))
            activity = db.execute("SELECT * FROM activities WHERE id = ?", (activity_id,)).fetchone()
            body = encode_json({"activity": activity_json(activity), "timerId": timer_id})
            # The exact body and reply are kept so that a retry of a lost reply is answered identically.
            db.execute("UPDATE native_action_tokens SET used_at = ?, used_body = ?, reply_status = 201, reply_body = ? "
                       "WHERE token_hash = ?", (now, request.body, body, token["token_hash"]))
        return Reply(201, body)

    # ---- control-side views and actions

    def all_activities(self) -> list[dict]:
        with self.store.transaction() as db:
            rows = db.execute("SELECT * FROM activities ORDER BY created_at, rowid").fetchall()
        return [{**activity_json(row), "familySubjectId": row["family_subject_id"], "timerId": row["timer_id"],
                 "source": row["source"], "clientMutationId": row["client_mutation_id"],
                 "details": json.loads(row["details"]), "note": row["note"], "createdBy": row["created_by"],
                 "createdAt": format_time(row["created_at"])} for row in rows]

    def all_timers(self) -> list[dict]:
        with self.store.transaction() as db:
            rows = db.execute("SELECT timers.*, (SELECT COUNT(*) FROM native_action_tokens "
                              "WHERE timer_id = timers.id) AS tokens FROM timers ORDER BY rowid").fetchall()
        return [{**timer_json(row), "status": row["status"], "stoppedAt": format_time(row["stopped_at"]),
                 "closedAt": format_time(row["closed_at"]), "activityId": row["activity_id"],
                 "nativeActionTokensIssued": row["tokens"]} for row in rows]

    def expire_tokens(self, timer_id: str) -> int:
        with self.store.transaction() as db:
            now = now_ms()
            return db.execute("UPDATE native_action_tokens SET expires_at = ? WHERE timer_id = ? AND expires_at > ?",
                              (now, timer_id, now)).rowcount

    def wipe_state(self) -> None:
        with self.store.transaction() as db:
            for table in ("native_action_tokens", "timers", "activities"):
                db.execute(f"DELETE FROM {table}")
        self.token_ttl_seconds = self.default_token_ttl_seconds


# --------------------------------------------------------------------------- faults and request log

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


class RequestLog:
    """In-memory log of API requests, newest last (bounded, oldest entries fall off)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._entries: deque[dict] = deque(maxlen=REQUEST_LOG_LIMIT)

    def start(self, method: str, path: str, has_authorization: bool, body: bytes | None, arrival_ns: int) -> dict:
        parsed = None
        if body:
            with contextlib.suppress(ValueError, RecursionError):
                parsed = json.loads(body, parse_constant=_reject_constant)
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


class App:
    def __init__(self, platform: Platform):
        self.platform = platform
        self.faults = Faults()
        self.requests = RequestLog()
        self.stopping = threading.Event()
        # The demo web app (scripts/demo_webapp.py), when --webapp is given.
        self.webapp = None


# --------------------------------------------------------------------------- HTTP plumbing


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


# (pattern, route name, {method: Platform method})
API_ROUTES = (
    (re.compile(r"/active-timers"), "summary", {"GET": Platform.timer_summary}),
    (re.compile(r"/active-timers/([^/]+)"), "timer", {"PUT": Platform.upsert_timer, "DELETE": Platform.discard_timer}),
    (re.compile(r"/active-timers/([^/]+)/stop"), "stop", {"POST": Platform.stop_timer}),
    (re.compile(r"/activities"), "activities", {"POST": Platform.create_activity}),
    (re.compile(r"/native/sleep-timers/([^/]+)/complete"), "complete", {"POST": Platform.complete_native}),
)


def match_api_route(path: str) -> tuple[str | None, dict, str | None]:
    for pattern, name, methods in API_ROUTES:
        match = pattern.fullmatch(path)
        if match:
            return name, methods, match.group(1) if match.groups() else None
    return None, {}, None


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

        fault_route = {("complete", "POST"): "complete", ("timer", "PUT"): "upsert"}.get((route, self.command))
        fault = app.faults.take(fault_route)
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


# ---- control API operations: (app, JSON body) -> Reply

def control_health(app: App, _body: object) -> Reply:
    return json_reply(200, {"ok": True})


def control_load_fixtures(app: App, body: object) -> Reply:
    return json_reply(200, {"users": app.platform.load_fixtures(body)})


def control_users(app: App, _body: object) -> Reply:
    return json_reply(200, {"users": app.platform.users()})


def control_access_token(app: App, body: object) -> Reply:
    fields = Fields(body)
    fields.only({"userId", "ttlSeconds"})
    user_id = fields.uuid("userId")
    # A negative lifetime yields an already expired token, for tests of 401 handling.
    ttl = fields.integer("ttlSeconds", -10 * 365 * 86400, 10 * 365 * 86400)
    if not app.platform.user_exists(user_id):
        raise ApiError(404, "not_found", "there is no such user")
    token, expires_at = app.platform.mint_access_token(user_id, ttl)
    return json_reply(200, {"accessToken": token, "expiresAt": format_time(expires_at * 1000)})


def control_activities(app: App, _body: object) -> Reply:
    return json_reply(200, {"activities": app.platform.all_activities()})


def control_timers(app: App, _body: object) -> Reply:
    return json_reply(200, {"timers": app.platform.all_timers()})


def control_requests(app: App, _body: object) -> Reply:
    return json_reply(200, {"requests": app.requests.snapshot()})


def control_clear_requests(app: App, _body: object) -> Reply:
    app.requests.clear()
    return json_reply(200, {"ok": True})


def control_faults(app: App, _body: object) -> Reply:
    return json_reply(200, {"faults": app.faults.snapshot()})


def control_add_fault(app: App, body: object) -> Reply:
    return json_reply(201, {"fault": app.faults.add(body)})


def control_clear_faults(app: App, _body: object) -> Reply:
    return json_reply(200, {"cleared": app.faults.clear()})


def control_config(app: App, _body: object) -> Reply:
    return json_reply(200, {"tokenTtlSeconds": app.platform.token_ttl_seconds})


def control_set_config(app: App, body: object) -> Reply:
    fields = Fields(body)
    fields.only({"tokenTtlSeconds"})
    app.platform.token_ttl_seconds = fields.integer("tokenTtlSeconds", 1, 10 * 365 * 86400)
    return control_config(app, body)


def control_expire_tokens(app: App, body: object) -> Reply:
    fields = Fields(body)
    fields.only({"timerId"})
    return json_reply(200, {"expired": app.platform.expire_tokens(fields.uuid("timerId"))})


def control_reset(app: App, _body: object) -> Reply:
    app.platform.wipe_state()
    app.faults.clear()
    app.requests.clear()
    return json_reply(200, {"ok": True})


CONTROL_ROUTES = {
    "/control/health": {"GET": control_health},
    "/control/fixtures": {"POST": control_load_fixtures},
    "/control/users": {"GET": control_users},
    "/control/access-tokens": {"POST": control_access_token},
    "/control/activities": {"GET": control_activities},
    "/control/timers": {"GET": control_timers},
    "/control/requests": {"GET": control_requests, "DELETE": control_clear_requests},
    "/control/faults": {"GET": control_faults, "POST": control_add_fault, "DELETE": control_clear_faults},
    "/control/config": {"GET": control_config, "POST": control_set_config},
    "/control/tokens/expire": {"POST": control_expire_tokens},
    "/control/reset": {"POST": control_reset},
}


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


# --------------------------------------------------------------------------- fixtures and main

DEMO_PARENT_ID = "5f0c2a8e-4b1d-4e7a-9c3f-6d2e8a1b0c01"
DEMO_COACH_ID = "5f0c2a8e-4b1d-4e7a-9c3f-6d2e8a1b0c02"
DEMO_FIXTURES = {
    "users": [
        {"id": DEMO_PARENT_ID, "name": "Sam (parent)"},
        {"id": DEMO_COACH_ID, "name": "Jordan (coach)"},
    ],
    "families": [{
        "familySubjectId": "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10",
        "members": [DEMO_PARENT_ID],
        "babies": [
            {"id": "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21", "name": "Maya"},
            {"id": "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d22", "name": "Leo"},
        ],
        "coaches": [{"userId": DEMO_COACH_ID, "live": True, "canWriteActivities": True}],
    }],
}


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


def load_fixture_document(source: str) -> object:
    if source == "demo":
        return DEMO_FIXTURES
    with open(source, encoding="utf-8") as handle:
        return json.load(handle)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # SIGTERM and SIGINT are blocked in every thread and collected by sigwait below,
    # so shutdown runs in the main thread, outside any signal handler.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})

    try:
        store = Store(args.db)
        platform = Platform(store, args.token_ttl)
        if args.fixtures:
            platform.load_fixtures(load_fixture_document(args.fixtures))
        app = App(platform)
        if args.webapp:
            from demo_webapp import DemoWebApp
            client = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Sources", "WebViewBridgeJS")
            app.webapp = DemoWebApp(args.webapp, client, platform.users, DEMO_FIXTURES["families"][0])
        api = Server(args.host, args.port, ApiHandler, app)
        if args.tls_cert:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.minimum_version = ssl.TLSVersion.TLSv1_2
            context.load_cert_chain(args.tls_cert, args.tls_key)
            api.socket = context.wrap_socket(api.socket, server_side=True, do_handshake_on_connect=False)
        control = Server(args.control_host, args.control_port, ControlHandler, app)
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


if __name__ == "__main__":
    sys.exit(main())
