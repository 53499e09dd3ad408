"""Who is calling, and what they may do: access tokens of simulated users
(JWT-shaped, like Supabase access tokens) and the family/coach rules."""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import time

from .common import b64url, b64url_decode, encode_json
from .messages import ApiError
from .state import Platform

ACCESS_TOKEN_TTL_SECONDS = 24 * 3600
# A stored access token is re-minted when it has less than this much lifetime left.
ACCESS_TOKEN_REFRESH_MARGIN_SECONDS = 3600


def mint_access_token(platform: Platform, user_id: str, ttl_seconds: int) -> tuple[str, int]:
    issued_at = int(time.time())
    expires_at = issued_at + ttl_seconds
    header = b64url(encode_json({"alg": "HS256", "typ": "JWT"}))
    payload = b64url(encode_json({"sub": user_id, "iat": issued_at, "exp": expires_at}))
    signature = hmac.new(platform.secret, f"{header}.{payload}".encode("ascii"), hashlib.sha256).digest()
    return f"{header}.{payload}.{b64url(signature)}", expires_at


def _verify_access_token(platform: Platform, token: str) -> str:
    parts = token.split(".")
    if len(parts) != 3:
        raise ApiError(401, "unauthorized", "the access token is not a valid JWT")
    try:
        header = json.loads(b64url_decode(parts[0]))
        payload = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except ValueError:
        raise ApiError(401, "unauthorized", "the access token is not a valid JWT") from None
    expected = hmac.new(platform.secret, f"{parts[0]}.{parts[1]}".encode("ascii"), hashlib.sha256).digest()
    if not isinstance(header, dict) or header.get("alg") != "HS256" or not hmac.compare_digest(signature, expected):
        raise ApiError(401, "unauthorized", "the access token signature is invalid")
    if not isinstance(payload, dict) or not isinstance(payload.get("sub"), str) \
            or type(payload.get("exp")) is not int:
        raise ApiError(401, "unauthorized", "the access token claims are invalid")
    if payload["exp"] <= time.time():
        raise ApiError(401, "unauthorized", "the access token has expired")
    return payload["sub"]


def authenticate(platform: Platform, authorization: str | None) -> str:
    """Bearer access token -> user id, or 401 unauthorized."""
    if not authorization:
        raise ApiError(401, "unauthorized", "a bearer access token is required")
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "unauthorized", "the Authorization header must be 'Bearer <access token>'")
    with platform.store.transaction() as db:
        row = db.execute("SELECT id FROM users WHERE fixed_token = ?", (token,)).fetchone()
        if row is not None:
            return row["id"]
        user_id = _verify_access_token(platform, token)
        if db.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            raise ApiError(401, "unauthorized", "the access token's user does not exist")
        return user_id


def current_access_token(platform: Platform, db: sqlite3.Connection, user: sqlite3.Row) -> str:
    """The user's fixed token, else a minted one that still has a while to live."""
    if user["fixed_token"] is not None:
        return user["fixed_token"]
    if user["minted_token"] is not None and \
            user["minted_token_expires_at"] > time.time() + ACCESS_TOKEN_REFRESH_MARGIN_SECONDS:
        return user["minted_token"]
    token, expires_at = mint_access_token(platform, user["id"], ACCESS_TOKEN_TTL_SECONDS)
    db.execute("UPDATE users SET minted_token = ?, minted_token_expires_at = ? WHERE id = ?",
               (token, expires_at, user["id"]))
    return token


def user_exists(platform: Platform, user_id: str) -> bool:
    with platform.store.transaction() as db:
        return db.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is not None


def users(platform: Platform) -> list[dict]:
    with platform.store.transaction() as db:
        rows = db.execute("SELECT * FROM users ORDER BY rowid").fetchall()
        return [{"id": row["id"], "name": row["name"], "accessToken": current_access_token(platform, db, row)}
                for row in rows]


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
