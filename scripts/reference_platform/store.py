"""The platform's SQLite file: schema, transactions, and rows as the API's JSON."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time

from .common import format_time

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
    reply_body BLOB,
    revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS native_action_tokens_by_timer ON native_action_tokens (timer_id);
"""


class Store:
    """One SQLite connection shared by all threads behind a process-wide lock."""

    def __init__(self, path: str):
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        # Counts the transactions that wrote something: the demo web app's
        # change feed stands in for the platform's realtime updates with it.
        self.version = 0
        self._changed = threading.Condition(self._lock)
        with self._lock:
            self._conn.executescript(SCHEMA)
            self._add_missing_columns()

    def _add_missing_columns(self) -> None:
        """A --db file written before a column existed gains it (empty)."""
        columns = {row["name"] for row in self._conn.execute("PRAGMA table_info(native_action_tokens)")}
        if "revoked_at" not in columns:
            self._conn.execute("ALTER TABLE native_action_tokens ADD COLUMN revoked_at INTEGER")

    @contextlib.contextmanager
    def transaction(self):
        """A transaction under the lock: every read-check-write sequence is atomic."""
        with self._lock:
            written = self._conn.total_changes
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            if self._conn.total_changes != written:
                self.version += 1
                self._changed.notify_all()

    def wait_for_change(self, seen: int, timeout: float, stopping: threading.Event) -> int:
        """The version once it is no longer `seen`, or after `timeout` seconds,
        or when the server stops, whichever comes first."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self.version == seen and not stopping.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                # In slices, so that a stopping server is noticed within one.
                self._changed.wait(min(left, 0.5))
            return self.version

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


def get_timer(db: sqlite3.Connection, timer_id: str) -> sqlite3.Row | None:
    return db.execute("SELECT * FROM timers WHERE id = ?", (timer_id,)).fetchone()
