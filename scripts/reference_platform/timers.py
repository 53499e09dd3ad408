"""Active timers: PUT /active-timers/{id} (upsert, optionally with a native action
token), POST /active-timers/{id}/stop, DELETE /active-timers/{id} and
GET /active-timers?familySubjectId= (the summary)."""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from . import tokens
from .access import authenticate, require_baby, resolve_actor
from .common import canonical_uuid, format_time, now_ms
from .fields import Fields
from .messages import ApiError, ApiRequest, Reply, decode_json, invalid, json_reply
from .state import Platform
from .store import draft_json, get_timer, timer_json

TIMER_TYPES = ("sleep", "breastfeeding", "pumping")
START_FUTURE_TOLERANCE_MS = 5 * 60 * 1000


def timer_not_found() -> ApiError:
    return ApiError(404, "timer_not_found", "no running timer or stopped draft with this id")


def path_timer_id(request: ApiRequest) -> str:
    timer_id = canonical_uuid(request.path_id)
    if timer_id is None:
        raise invalid("the timer id in the path must be a UUID")
    return timer_id


def upsert_timer(platform: Platform, request: ApiRequest) -> Reply:
    user_id = authenticate(platform, request.authorization)
    timer_id = path_timer_id(request)
    fields = Fields(decode_json(request.body))
    family_id = fields.uuid("familySubjectId")
    baby_id = fields.uuid("babyId")
    activity_type = fields.choice("activityType", TIMER_TYPES)
    started_at = fields.time("startedAt")
    zone = fields.timezone("timezone")
    details = fields.object("details")
    note = fields.note("note")
    wants_token = fields.boolean("requestNativeActionToken", False)

    with platform.store.transaction() as db:
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
            payload["nativeActionToken"] = tokens.issue(db, timer_id, user_id, now, platform.token_ttl_seconds)
    return json_reply(status, payload)


def stop_timer(platform: Platform, request: ApiRequest) -> Reply:
    user_id = authenticate(platform, request.authorization)
    timer_id = path_timer_id(request)
    # The body is optional: {"stoppedAt": time} carries the moment the user pressed Stop.
    fields = Fields(decode_json(request.body) if request.body.strip() else {})
    stopped_at = fields.time("stoppedAt", required=False)
    with platform.store.transaction() as db:
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


def discard_timer(platform: Platform, request: ApiRequest) -> Reply:
    user_id = authenticate(platform, request.authorization)
    timer_id = path_timer_id(request)
    with platform.store.transaction() as db:
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


def timer_summary(platform: Platform, request: ApiRequest) -> Reply:
    user_id = authenticate(platform, request.authorization)
    values = parse_qs(request.query, keep_blank_values=True).get("familySubjectId", [])
    family_id = canonical_uuid(values[0]) if len(values) == 1 else None
    if family_id is None:
        raise invalid("the familySubjectId query parameter must be one UUID")
    with platform.store.transaction() as db:
        resolve_actor(db, user_id, family_id, write=False)
        rows = db.execute("SELECT * FROM timers WHERE family_subject_id = ? AND status IN ('running', 'stopped') "
                          "ORDER BY started_at, id", (family_id,)).fetchall()
    return json_reply(200, {"timers": [timer_json(row) for row in rows if row["status"] == "running"],
                            "stoppedDrafts": [draft_json(row) for row in rows if row["status"] == "stopped"]})


def all_timers(platform: Platform) -> list[dict]:
    """Every timer with its status and how many tokens it was issued (control API)."""
    with platform.store.transaction() as db:
        rows = db.execute("SELECT timers.*, (SELECT COUNT(*) FROM native_action_tokens "
                          "WHERE timer_id = timers.id) AS tokens, (SELECT COUNT(*) FROM native_action_tokens "
                          "WHERE timer_id = timers.id AND revoked_at IS NOT NULL) AS revoked "
                          "FROM timers ORDER BY rowid").fetchall()
    return [{**timer_json(row), "status": row["status"], "stoppedAt": format_time(row["stopped_at"]),
             "closedAt": format_time(row["closed_at"]), "activityId": row["activity_id"],
             "nativeActionTokensIssued": row["tokens"], "nativeActionTokensRevoked": row["revoked"]}
            for row in rows]
