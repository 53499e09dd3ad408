"""The control API on the loopback listener: fixtures, access tokens of simulated
users, state inspection, the request log and fault injection.  For tests and the
demo only.  Each operation is (app, JSON body) -> Reply."""

from __future__ import annotations

from . import access, fixtures, tokens
from .activities import all_activities
from .common import format_time, now_ms
from .fields import Fields
from .messages import ApiError, Reply, json_reply
from .state import App
from .timers import all_timers


def control_health(app: App, _body: object) -> Reply:
    return json_reply(200, {"ok": True})


def control_load_fixtures(app: App, body: object) -> Reply:
    return json_reply(200, {"users": fixtures.load_fixtures(app.platform, body)})


def control_users(app: App, _body: object) -> Reply:
    return json_reply(200, {"users": access.users(app.platform)})


def control_access_token(app: App, body: object) -> Reply:
    fields = Fields(body)
    fields.only({"userId", "ttlSeconds"})
    user_id = fields.uuid("userId")
    # A negative lifetime yields an already expired token, for tests of 401 handling.
    ttl = fields.integer("ttlSeconds", -10 * 365 * 86400, 10 * 365 * 86400)
    if not access.user_exists(app.platform, user_id):
        raise ApiError(404, "not_found", "there is no such user")
    token, expires_at = access.mint_access_token(app.platform, user_id, ttl)
    return json_reply(200, {"accessToken": token, "expiresAt": format_time(expires_at * 1000)})


def control_activities(app: App, _body: object) -> Reply:
    return json_reply(200, {"activities": all_activities(app.platform)})


def control_timers(app: App, _body: object) -> Reply:
    return json_reply(200, {"timers": all_timers(app.platform)})


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
    timer_id = fields.uuid("timerId")
    with app.platform.store.transaction() as db:
        expired = tokens.expire(db, timer_id, now_ms())
    return json_reply(200, {"expired": expired})


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
