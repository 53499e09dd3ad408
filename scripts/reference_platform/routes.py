"""The API's paths: each route is a path pattern, a name, and the operation for
each HTTP method.  An operation is a function (platform, ApiRequest) -> Reply that
may raise ApiError; the first group of the pattern, if any, becomes
ApiRequest.path_id.

Adding an endpoint is one operation in its module and one line here.  Serving a
directory of files is the same: a route such as r"/app/(.*)" whose GET operation
reads path_id below that directory.
"""

from __future__ import annotations

import re

from .activities import create_activity
from .completion import complete_native
from .timers import discard_timer, stop_timer, timer_summary, upsert_timer

# (pattern, route name, {method: operation})
API_ROUTES = (
    (re.compile(r"/active-timers"), "summary", {"GET": timer_summary}),
    (re.compile(r"/active-timers/([^/]+)"), "timer", {"PUT": upsert_timer, "DELETE": discard_timer}),
    (re.compile(r"/active-timers/([^/]+)/stop"), "stop", {"POST": stop_timer}),
    (re.compile(r"/activities"), "activities", {"POST": create_activity}),
    (re.compile(r"/native/sleep-timers/([^/]+)/complete"), "complete", {"POST": complete_native}),
)

# Which requests the fault routes of the control API ("complete", "upsert") apply to;
# the fault route "any" applies to every request.
FAULT_ROUTES = {("complete", "POST"): "complete", ("timer", "PUT"): "upsert"}


def match_api_route(path: str) -> tuple[str | None, dict, str | None]:
    """(route name, {method: operation}, path id) of a path; no name for an unknown path."""
    for pattern, name, methods in API_ROUTES:
        match = pattern.fullmatch(path)
        if match:
            return name, methods, match.group(1) if match.groups() else None
    return None, {}, None


def fault_route(route: str | None, method: str) -> str | None:
    return FAULT_ROUTES.get((route, method))
