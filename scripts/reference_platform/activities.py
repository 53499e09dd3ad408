"""POST /activities: the app's Save, idempotent on its clientMutationId, which
also completes the active timer it names."""

from __future__ import annotations

import json
import uuid

from .access import authenticate, require_baby, resolve_actor
from .common import format_time, now_ms
from .fields import Fields
from .messages import ApiError, ApiRequest, Reply, decode_json, invalid, json_reply
from .state import Platform
from .store import activity_json, get_timer
from .timers import START_FUTURE_TOLERANCE_MS


def create_activity(platform: Platform, request: ApiRequest) -> Reply:
    user_id = authenticate(platform, request.authorization)
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

    with platform.store.transaction() as db:
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


def all_activities(platform: Platform) -> list[dict]:
    """Every activity with the fields the control API shows."""
    with platform.store.transaction() as db:
        rows = db.execute("SELECT * FROM activities ORDER BY created_at, rowid").fetchall()
    return [{**activity_json(row), "familySubjectId": row["family_subject_id"], "timerId": row["timer_id"],
             "source": row["source"], "clientMutationId": row["client_mutation_id"],
             "details": json.loads(row["details"]), "note": row["note"], "createdBy": row["created_by"],
             "createdAt": format_time(row["created_at"])} for row in rows]
