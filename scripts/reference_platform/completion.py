"""POST /native/sleep-timers/{id}/complete: the public native Sleep completion.
No bearer token: the one-time action token in the body is the credential."""

from __future__ import annotations

import uuid

from . import tokens
from .common import encode_json, now_ms, parse_time
from .messages import ApiError, ApiRequest, Reply, decode_json, invalid
from .state import Platform
from .store import activity_json, get_timer
from .timers import path_timer_id

COMPLETE_FUTURE_TOLERANCE_MS = 60 * 1000


def complete_native(platform: Platform, request: ApiRequest) -> Reply:
    timer_id = path_timer_id(request)
    document = decode_json(request.body)
    if not isinstance(document, dict) or set(document) != {"actionToken", "completedAt"} \
            or not isinstance(document["actionToken"], str) or not isinstance(document["completedAt"], str):
        raise invalid('the body must be exactly {"actionToken": string, "completedAt": string}')
    completed_at = parse_time(document["completedAt"])
    if completed_at is None:
        raise invalid("completedAt must be an ISO-8601 time such as 2026-11-29T21:41:00.000Z")

    with platform.store.transaction() as db:
        token = tokens.find(db, document["actionToken"], timer_id)
        replayed = tokens.replay(token, request.body)
        if replayed is not None:
            return replayed
        tokens.require_current(token)
        now = now_ms()
        tokens.require_unexpired(token, now)
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
        tokens.record_use(db, token, now, request.body, body)
    return Reply(201, body)
