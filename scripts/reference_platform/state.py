"""The state a running platform holds: its store, the secret that signs access
tokens and the lifetime of native action tokens; and, around it, the test-only
parts the control API drives (faults, request log)."""

from __future__ import annotations

import secrets
import threading

from .faults import Faults
from .request_log import RequestLog
from .store import Store


class Platform:
    """The platform's state; every operation on it runs in one Store transaction."""

    def __init__(self, store: Store, token_ttl_seconds: int):
        self.store = store
        self.default_token_ttl_seconds = token_ttl_seconds
        self.token_ttl_seconds = token_ttl_seconds
        self.secret = self._jwt_secret()

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

    def wipe_state(self) -> None:
        """Forgets every timer, token and activity (users and families stay)."""
        with self.store.transaction() as db:
            for table in ("native_action_tokens", "timers", "activities"):
                db.execute(f"DELETE FROM {table}")
        self.token_ttl_seconds = self.default_token_ttl_seconds


class App:
    """What both listeners share: the platform, the queued faults, the request log,
    and the event that tells held-open requests the server is stopping."""

    def __init__(self, platform: Platform):
        self.platform = platform
        self.faults = Faults()
        self.requests = RequestLog()
        self.stopping = threading.Event()
        # The demo web app (scripts/demo_webapp.py), when --webapp is given.
        self.webapp = None
