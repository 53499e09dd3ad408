"""Native action tokens: narrow (one Sleep timer), expiring, one-time credentials.

Only a hash is stored.  A used token keeps the exact request body and reply, so a
client that lost the reply and sends the same bytes again gets the same answer,
and never a second activity.

A timer has one live token: issuing a new one (a renewal) revokes the earlier
unused ones.  A revoked token is refused, but its row stays, and a token that
was used is never revoked, so the replay of a recorded completion is answered
as before whatever was issued after it.
"""

from __future__ import annotations

import secrets
import sqlite3

from .common import b64url, format_time, hash_token
from .messages import ApiError, Reply

DEFAULT_TOKEN_TTL_SECONDS = 12 * 3600
NATIVE_TOKEN_PREFIX = "dflnat_"


def issue(db: sqlite3.Connection, timer_id: str, user_id: str, now: int, ttl_seconds: int) -> dict:
    """A new token for the timer, as the upsert reply's nativeActionToken member; the
    timer's earlier unused tokens are revoked in the same transaction."""
    revoke_unused(db, timer_id, now)
    token = NATIVE_TOKEN_PREFIX + b64url(secrets.token_bytes(32))
    expires_at = now + ttl_seconds * 1000
    db.execute("INSERT INTO native_action_tokens (token_hash, timer_id, issued_to, created_at, expires_at) "
               "VALUES (?, ?, ?, ?, ?)", (hash_token(token), timer_id, user_id, now, expires_at))
    return {"token": token, "expiresAt": format_time(expires_at)}


def find(db: sqlite3.Connection, action_token: str, timer_id: str) -> sqlite3.Row:
    """The stored token, or 401 when it was never issued for this timer."""
    token = db.execute("SELECT * FROM native_action_tokens WHERE token_hash = ?",
                       (hash_token(action_token),)).fetchone()
    if token is None or token["timer_id"] != timer_id:
        raise ApiError(401, "invalid_token", "the action token is not valid for this timer")
    return token


def replay(token: sqlite3.Row, body: bytes) -> Reply | None:
    """For a used token: the stored reply when the body is the same bytes, else 422.
    None for a token not used yet."""
    if token["used_at"] is None:
        return None
    if bytes(token["used_body"]) == body:
        return Reply(token["reply_status"], bytes(token["reply_body"]))
    raise ApiError(422, "idempotency_mismatch",
                   "this action token was already used with a different request body")


def require_current(token: sqlite3.Row) -> None:
    """401 for a token a newer one replaced: nothing was created with it."""
    if token["revoked_at"] is not None:
        raise ApiError(401, "token_revoked",
                       "a newer action token was issued for this timer; this one is no longer valid")


def require_unexpired(token: sqlite3.Row, now: int) -> None:
    if now >= token["expires_at"]:
        raise ApiError(410, "token_expired", "the action token has expired; open the app to finish this timer")


def record_use(db: sqlite3.Connection, token: sqlite3.Row, now: int, body: bytes, reply_body: bytes) -> None:
    """Keeps the exact body and reply so that a retry of a lost reply is answered identically."""
    db.execute("UPDATE native_action_tokens SET used_at = ?, used_body = ?, reply_status = 201, reply_body = ? "
               "WHERE token_hash = ?", (now, body, reply_body, token["token_hash"]))


def expire(db: sqlite3.Connection, timer_id: str, now: int) -> int:
    """Ends every live token of the timer now; returns how many."""
    return db.execute("UPDATE native_action_tokens SET expires_at = ? WHERE timer_id = ? AND expires_at > ?",
                      (now, timer_id, now)).rowcount


def revoke_unused(db: sqlite3.Connection, timer_id: str, now: int) -> int:
    """Revokes the timer's tokens that were neither used nor revoked; returns how many.
    A used token is left alone: it keeps answering the replay of its completion."""
    return db.execute("UPDATE native_action_tokens SET revoked_at = ? "
                      "WHERE timer_id = ? AND used_at IS NULL AND revoked_at IS NULL",
                      (now, timer_id)).rowcount
