"""Contract tests for scripts/reference_platform.py.

Each test class runs its own platform process (over TLS with a freshly made test CA,
except where plain HTTP is the point) and talks to it with certificate verification on.

    python3 -m unittest discover -s scripts/tests -v
"""

from __future__ import annotations

import base64
import http.client
import json
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import unittest
import uuid
from pathlib import Path

from platform_harness import SERVER_SCRIPT, PlatformProcess, iso_from_now, make_certs, parse_iso

PARENT = "0b8a7c6e-1f2d-4e3c-9b5a-000000000001"
COACH_WRITER = "0b8a7c6e-1f2d-4e3c-9b5a-000000000002"
COACH_VIEWER = "0b8a7c6e-1f2d-4e3c-9b5a-000000000003"
COACH_DORMANT = "0b8a7c6e-1f2d-4e3c-9b5a-000000000004"
STRANGER = "0b8a7c6e-1f2d-4e3c-9b5a-000000000005"
OTHER_PARENT = "0b8a7c6e-1f2d-4e3c-9b5a-000000000006"
FAMILY = "4c1d9e2f-7a3b-4d5c-8e6f-000000000010"
OTHER_FAMILY = "4c1d9e2f-7a3b-4d5c-8e6f-000000000020"
MAYA = "9e8d7c6b-5a4f-4e3d-8c2b-000000000011"
LEO = "9e8d7c6b-5a4f-4e3d-8c2b-000000000012"
NOAH = "9e8d7c6b-5a4f-4e3d-8c2b-000000000021"
OTHER_PARENT_FIXED_TOKEN = "fixed-access-token-of-the-other-parent"
DEMO_FAMILY = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
DEMO_MAYA = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21"

FIXTURES = {
    "users": [
        {"id": PARENT, "name": "Parent"},
        {"id": COACH_WRITER, "name": "Coach who may write"},
        {"id": COACH_VIEWER, "name": "Coach who may only read"},
        {"id": COACH_DORMANT, "name": "Coach without a live assignment"},
        {"id": STRANGER, "name": "Unrelated user"},
        {"id": OTHER_PARENT, "name": "Parent of another family", "accessToken": OTHER_PARENT_FIXED_TOKEN},
    ],
    "families": [
        {"familySubjectId": FAMILY, "members": [PARENT],
         "babies": [{"id": MAYA, "name": "Maya"}, {"id": LEO, "name": "Leo"}],
         "coaches": [{"userId": COACH_WRITER, "live": True, "canWriteActivities": True},
                     {"userId": COACH_VIEWER, "live": True, "canWriteActivities": False},
                     {"userId": COACH_DORMANT, "live": False, "canWriteActivities": True}]},
        {"familySubjectId": OTHER_FAMILY, "members": [OTHER_PARENT], "babies": [{"id": NOAH, "name": "Noah"}]},
    ],
}

NATIVE_TOKEN = re.compile(r"dflnat_[A-Za-z0-9_-]{43}")
CERTS: Path | None = None
_cert_dir: tempfile.TemporaryDirectory | None = None


def setUpModule() -> None:
    global CERTS, _cert_dir
    _cert_dir = tempfile.TemporaryDirectory()
    CERTS = make_certs(_cert_dir.name)


def tearDownModule() -> None:
    _cert_dir.cleanup()


def new_id() -> str:
    return str(uuid.uuid4())


def b64url_json(part: str) -> dict:
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def start_platform_for_class(test_class: type[unittest.TestCase], **kwargs) -> PlatformProcess:
    """Starts a platform that is stopped (and must exit with 0) when the class is done."""
    platform = PlatformProcess(**kwargs).start()

    def stop() -> None:
        status = platform.stop()
        if status != 0:
            raise AssertionError(f"platform exited with {status}:\n{platform.stderr_text()}")

    test_class.addClassCleanup(stop)
    return platform


class PlatformTestCase(unittest.TestCase):
    """Starts one platform per class, loads FIXTURES, and wipes timer state before each test."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.platform = start_platform_for_class(cls, certs=CERTS)
        loaded = cls.platform.control_json("POST", "/control/fixtures", FIXTURES)
        cls.tokens = {user["id"]: user["accessToken"] for user in loaded["users"]}

    def setUp(self) -> None:
        self.platform.control_json("POST", "/control/reset")

    # ---- common steps

    def timer_body(self, **overrides) -> dict:
        """A valid upsert body for Maya's sleep; an override of ... removes that member."""
        body = {"familySubjectId": FAMILY, "babyId": MAYA, "activityType": "sleep",
                "startedAt": iso_from_now(-1800), "timezone": "Europe/Berlin",
                "details": {"place": "crib"}, "note": "fell asleep fast"}
        body.update(overrides)
        return {key: value for key, value in body.items() if value is not Ellipsis}

    def put_timer(self, timer_id: str, user: str = PARENT, **overrides):
        return self.platform.api("PUT", f"/active-timers/{timer_id}", self.timer_body(**overrides),
                                 token=self.tokens[user])

    def start_sleep_with_token(self, timer_id: str | None = None, **overrides) -> tuple[str, str]:
        timer_id = timer_id or new_id()
        response = self.put_timer(timer_id, requestNativeActionToken=True, **overrides)
        self.assertIn(response.status, (200, 201), response.body)
        return timer_id, response.json["nativeActionToken"]["token"]

    @staticmethod
    def complete_body(token: str, completed_at: str | None = None) -> bytes:
        return json.dumps({"actionToken": token, "completedAt": completed_at or iso_from_now(-5)}).encode()

    def complete(self, timer_id: str, raw: bytes, **kwargs):
        return self.platform.api("POST", f"/native/sleep-timers/{timer_id}/complete", raw=raw, **kwargs)

    def assert_error(self, response, status: int, code: str) -> dict:
        self.assertEqual(response.status, status, response.body)
        self.assertEqual(response.headers["Content-Type"], "application/json")
        body = response.json
        self.assertEqual(body["error"]["code"], code, body)
        self.assertIsInstance(body["error"]["message"], str)
        self.assertTrue(body["error"]["message"])
        return body

    def activities(self) -> list[dict]:
        return self.platform.control_json("GET", "/control/activities")["activities"]

    def timers(self) -> dict[str, dict]:
        return {timer["id"]: timer for timer in self.platform.control_json("GET", "/control/timers")["timers"]}

    def summary(self, user: str = PARENT, family: str = FAMILY):
        return self.platform.api("GET", f"/active-timers?familySubjectId={family}", token=self.tokens[user])


class TimerUpsertTest(PlatformTestCase):
    def test_create_then_update_increments_revision(self):
        timer_id = new_id()
        created = self.put_timer(timer_id)
        self.assertEqual(created.status, 201)
        timer = created.json["timer"]
        self.assertEqual(set(timer), {"id", "familySubjectId", "babyId", "activityType", "startedAt", "timezone",
                                      "details", "note", "revision", "createdBy", "updatedAt"})
        self.assertEqual((timer["id"], timer["revision"], timer["createdBy"]), (timer_id, 1, PARENT))
        self.assertNotIn("nativeActionToken", created.json)

        updated = self.put_timer(timer_id, note="woke once", details={"place": "pram"})
        self.assertEqual(updated.status, 200)
        self.assertEqual(updated.json["timer"]["revision"], 2)
        self.assertEqual(updated.json["timer"]["note"], "woke once")
        self.assertEqual(updated.json["timer"]["details"], {"place": "pram"})

    def test_times_are_emitted_in_utc_with_milliseconds(self):
        response = self.put_timer(new_id(), startedAt="2026-01-02T03:04:05+01:00")
        self.assertEqual(response.status, 201, response.body)
        self.assertEqual(response.json["timer"]["startedAt"], "2026-01-02T02:04:05.000Z")
        self.assertRegex(response.json["timer"]["updatedAt"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

    def test_each_field_is_validated_and_named(self):
        cases = [
            ("familySubjectId", "not-a-uuid"), ("babyId", 5), ("activityType", "diaper"),
            ("startedAt", "yesterday"), ("startedAt", iso_from_now(600)), ("timezone", "Mars/Olympus_Mons"),
            ("details", "crib"), ("note", 12), ("requestNativeActionToken", "yes"),
            ("familySubjectId", ...), ("babyId", ...), ("activityType", ...), ("startedAt", ...), ("timezone", ...),
        ]
        for field, value in cases:
            with self.subTest(field=field, value=value):
                body = self.assert_error(self.put_timer(new_id(), **{field: value}), 400, "invalid_request")
                self.assertIn(field, body["error"]["message"])
        self.assertEqual(self.timers(), {})

    def test_path_id_and_body_shape(self):
        token = self.tokens[PARENT]
        self.assert_error(self.platform.api("PUT", "/active-timers/not-a-uuid", self.timer_body(), token=token),
                          400, "invalid_request")
        self.assert_error(self.platform.api("PUT", f"/active-timers/{new_id()}", raw=b"{not json", token=token),
                          400, "invalid_request")
        self.assert_error(self.platform.api("PUT", f"/active-timers/{new_id()}", [self.timer_body()], token=token),
                          400, "invalid_request")

    def test_missing_invalid_or_expired_bearer_is_401(self):
        timer_id = new_id()
        path = f"/active-timers/{timer_id}"
        body = self.timer_body()
        header, payload, signature = self.tokens[PARENT].split(".")
        forged_payload = base64.urlsafe_b64encode(json.dumps(
            {**b64url_json(payload), "sub": COACH_WRITER}).encode()).rstrip(b"=").decode()
        expired = self.platform.control_json("POST", "/control/access-tokens",
                                             {"userId": PARENT, "ttlSeconds": -60})["accessToken"]
        _, native_token = self.start_sleep_with_token(babyId=LEO)
        attempts = {
            "missing": {},
            "garbage": {"Authorization": "Bearer garbage"},
            "wrong scheme": {"Authorization": f"Basic {self.tokens[PARENT]}"},
            "forged": {"Authorization": f"Bearer {header}.{forged_payload}.{signature}"},
            "expired": {"Authorization": f"Bearer {expired}"},
            "native action token": {"Authorization": f"Bearer {native_token}"},
        }
        for name, headers in attempts.items():
            with self.subTest(name):
                self.assert_error(self.platform.api("PUT", path, body, headers=headers), 401, "unauthorized")
        self.assertNotIn(timer_id, self.timers())

    def test_access_tokens_are_jwt_shaped(self):
        header, payload, signature = self.tokens[PARENT].split(".")
        self.assertEqual(b64url_json(header), {"alg": "HS256", "typ": "JWT"})
        claims = b64url_json(payload)
        self.assertEqual(claims["sub"], PARENT)
        self.assertLess(claims["iat"], claims["exp"])
        self.assertRegex(signature, r"^[A-Za-z0-9_-]{43}$")
        self.assertEqual(self.tokens[OTHER_PARENT], OTHER_PARENT_FIXED_TOKEN)
        response = self.platform.api("PUT", f"/active-timers/{new_id()}",
                                     self.timer_body(familySubjectId=OTHER_FAMILY, babyId=NOAH),
                                     token=OTHER_PARENT_FIXED_TOKEN)
        self.assertEqual(response.status, 201, response.body)

    def test_actor_rules(self):
        self.assert_error(self.put_timer(new_id(), user=STRANGER), 403, "forbidden")
        self.assert_error(self.put_timer(new_id(), user=COACH_VIEWER), 403, "forbidden")
        self.assert_error(self.put_timer(new_id(), user=COACH_DORMANT), 403, "forbidden")
        self.assert_error(self.put_timer(new_id(), user=OTHER_PARENT), 403, "forbidden")
        self.assertEqual(self.timers(), {})

        by_coach = self.put_timer(new_id(), user=COACH_WRITER)
        self.assertEqual(by_coach.status, 201, by_coach.body)
        self.assertEqual(by_coach.json["timer"]["createdBy"], COACH_WRITER)
        self.assertNotIn("nativeActionToken", by_coach.json)

    def test_coach_asking_for_a_native_token_is_refused_and_nothing_is_written(self):
        timer_id = new_id()
        self.assert_error(self.put_timer(timer_id, user=COACH_WRITER, requestNativeActionToken=True),
                          403, "native_token_forbidden")
        self.assertEqual(self.timers(), {})
        # The same coach may update a family timer, still without a token.
        family_timer = new_id()
        self.assertEqual(self.put_timer(family_timer).status, 201)
        self.assert_error(self.put_timer(family_timer, user=COACH_WRITER, requestNativeActionToken=True),
                          403, "native_token_forbidden")
        self.assertEqual(self.timers()[family_timer]["revision"], 1)
        self.assertEqual(self.put_timer(family_timer, user=COACH_WRITER).status, 200)

    def test_baby_of_another_family_is_404(self):
        self.assert_error(self.put_timer(new_id(), babyId=NOAH), 404, "baby_not_found")

    def test_one_canonical_running_timer_per_scope(self):
        first = new_id()
        self.assertEqual(self.put_timer(first).status, 201)
        conflict = self.assert_error(self.put_timer(new_id()), 409, "scope_conflict")
        self.assertEqual(conflict["timer"]["id"], first)
        self.assertEqual(conflict["timer"]["revision"], 1)
        # Other babies and other timer types run concurrently.
        self.assertEqual(self.put_timer(new_id(), babyId=LEO).status, 201)
        self.assertEqual(self.put_timer(new_id(), activityType="pumping", details={"side": "left"}).status, 201)
        self.assertEqual(self.put_timer(new_id(), activityType="breastfeeding").status, 201)
        self.assertEqual(len(self.summary().json["timers"]), 4)

    def test_a_scope_conflict_names_the_canonical_timer_and_issues_no_token(self):
        canonical, token = self.start_sleep_with_token()
        conflict = self.assert_error(self.put_timer(new_id(), requestNativeActionToken=True), 409, "scope_conflict")
        self.assertEqual(set(conflict), {"error", "timer"})
        self.assertEqual(conflict["timer"]["id"], canonical)
        self.assertEqual(self.timers()[canonical]["nativeActionTokensRevoked"], 0)
        # A client that wants the canonical timer's token upserts that timer.
        renewed = self.put_timer(canonical, requestNativeActionToken=True)
        self.assertEqual(renewed.status, 200, renewed.body)
        self.assertRegex(renewed.json["nativeActionToken"]["token"], NATIVE_TOKEN)
        self.assert_error(self.complete(canonical, self.complete_body(token)), 401, "token_revoked")

    def test_scope_of_an_existing_timer_cannot_change(self):
        timer_id = new_id()
        self.assertEqual(self.put_timer(timer_id).status, 201)
        self.assert_error(self.put_timer(timer_id, babyId=LEO), 400, "invalid_request")

    def test_closed_timers_cannot_be_upserted(self):
        stopped, discarded = new_id(), new_id()
        self.assertEqual(self.put_timer(stopped).status, 201)
        self.assertEqual(self.platform.api("POST", f"/active-timers/{stopped}/stop",
                                           token=self.tokens[PARENT]).status, 200)
        self.assert_error(self.put_timer(stopped), 409, "timer_closed")
        self.assertEqual(self.put_timer(discarded, babyId=LEO).status, 201)
        self.assertEqual(self.platform.api("DELETE", f"/active-timers/{discarded}",
                                           token=self.tokens[PARENT]).status, 204)
        self.assert_error(self.put_timer(discarded, babyId=LEO), 409, "timer_closed")


class NativeTokenIssueTest(PlatformTestCase):
    def test_token_only_for_family_self_mode_sleep(self):
        timer_id, token = self.start_sleep_with_token()
        self.assertRegex(token, NATIVE_TOKEN)
        self.assertNotIn(".", token)
        self.assertEqual(self.put_timer(new_id(), babyId=LEO).json.keys(), {"timer"})
        for activity_type in ("breastfeeding", "pumping"):
            with self.subTest(activity_type):
                response = self.put_timer(new_id(), activityType=activity_type, requestNativeActionToken=True)
                self.assertEqual(response.status, 201, response.body)
                self.assertNotIn("nativeActionToken", response.json)

    def test_token_lifetime_follows_the_ttl(self):
        response = self.put_timer(new_id(), requestNativeActionToken=True)
        issued = response.json
        self.assertEqual(set(issued["nativeActionToken"]), {"token", "expiresAt"})
        lifetime = parse_iso(issued["nativeActionToken"]["expiresAt"]) - parse_iso(issued["timer"]["updatedAt"])
        self.assertEqual(lifetime.total_seconds(), 43200)

        self.platform.control_json("POST", "/control/config", {"tokenTtlSeconds": 5})
        issued = self.put_timer(new_id(), babyId=LEO, requestNativeActionToken=True).json
        lifetime = parse_iso(issued["nativeActionToken"]["expiresAt"]) - parse_iso(issued["timer"]["updatedAt"])
        self.assertEqual(lifetime.total_seconds(), 5)

    def test_a_renewal_mints_a_new_token_and_revokes_the_earlier_one(self):
        timer_id, first = self.start_sleep_with_token()
        _, second = self.start_sleep_with_token(timer_id)
        self.assertNotEqual(first, second)
        timer = self.timers()[timer_id]
        self.assertEqual((timer["nativeActionTokensIssued"], timer["nativeActionTokensRevoked"]), (2, 1))
        self.assert_error(self.complete(timer_id, self.complete_body(first)), 401, "token_revoked")
        self.assertEqual(self.activities(), [])
        done = self.complete(timer_id, self.complete_body(second))
        self.assertEqual(done.status, 201, done.body)
        # The revoked token stays refused, also once the timer is completed.
        self.assert_error(self.complete(timer_id, self.complete_body(first)), 401, "token_revoked")
        self.assertEqual(len(self.activities()), 1)

    def test_an_upsert_without_a_token_request_revokes_nothing(self):
        timer_id, token = self.start_sleep_with_token()
        self.assertEqual(self.put_timer(timer_id, note="still asleep").status, 200)
        self.assertEqual(self.put_timer(timer_id, requestNativeActionToken=False).status, 200)
        self.assertEqual(self.timers()[timer_id]["nativeActionTokensRevoked"], 0)
        self.assertEqual(self.complete(timer_id, self.complete_body(token)).status, 201)

    def test_a_revoked_token_is_refused_before_its_expiry_is_looked_at(self):
        timer_id, first = self.start_sleep_with_token()
        _, second = self.start_sleep_with_token(timer_id)
        self.platform.control_json("POST", "/control/tokens/expire", {"timerId": timer_id})
        self.assert_error(self.complete(timer_id, self.complete_body(first)), 401, "token_revoked")
        self.assert_error(self.complete(timer_id, self.complete_body(second)), 410, "token_expired")

    def test_a_recorded_completion_replays_whatever_is_asked_for_the_timer_later(self):
        timer_id, token = self.start_sleep_with_token()
        body = self.complete_body(token)
        first = self.complete(timer_id, body)
        self.assertEqual(first.status, 201, first.body)
        # A renewal that comes too late (the reply of the completion was lost)
        # finds the timer closed: no token is issued and none revoked.
        late = self.assert_error(self.put_timer(timer_id, requestNativeActionToken=True), 409, "timer_closed")
        self.assertNotIn("nativeActionToken", late)
        self.assertEqual(self.timers()[timer_id]["nativeActionTokensRevoked"], 0)
        again = self.complete(timer_id, body)
        self.assertEqual((again.status, again.body), (201, first.body))
        self.assertEqual(len(self.activities()), 1)

    def test_a_token_for_another_timer_revokes_nothing_of_this_one(self):
        maya, maya_token = self.start_sleep_with_token()
        self.start_sleep_with_token(babyId=LEO)
        self.assertEqual(self.timers()[maya]["nativeActionTokensRevoked"], 0)
        self.assertEqual(self.complete(maya, self.complete_body(maya_token)).status, 201)

    def test_request_log_shows_whether_a_token_was_requested(self):
        self.platform.control_json("DELETE", "/control/requests")
        self.put_timer(new_id(), requestNativeActionToken=True)
        self.put_timer(new_id(), user=COACH_WRITER, babyId=LEO)
        entries = self.platform.control_json("GET", "/control/requests")["requests"]
        self.assertEqual([entry["status"] for entry in entries], [201, 201])
        self.assertIs(entries[0]["body"]["requestNativeActionToken"], True)
        self.assertNotIn("requestNativeActionToken", entries[1]["body"])
        self.assertTrue(all(entry["hasAuthorization"] for entry in entries))
        self.assertLessEqual(entries[0]["arrivalNs"], entries[1]["arrivalNs"])
        self.platform.control_json("DELETE", "/control/requests")
        self.assertEqual(self.platform.control_json("GET", "/control/requests")["requests"], [])


class StopDiscardSummaryTest(PlatformTestCase):
    def test_stop_creates_a_draft_and_discard_removes_it(self):
        timer_id = new_id()
        self.assertEqual(self.put_timer(timer_id).status, 201)
        stopped_at = iso_from_now(-60)
        stop = self.platform.api("POST", f"/active-timers/{timer_id}/stop", {"stoppedAt": stopped_at},
                                 token=self.tokens[PARENT])
        self.assertEqual(stop.status, 200, stop.body)
        draft = stop.json["draft"]
        self.assertEqual(set(draft), {"id", "familySubjectId", "babyId", "activityType", "startedAt", "stoppedAt",
                                      "timezone", "details", "note"})
        self.assertEqual((draft["id"], draft["stoppedAt"], draft["note"]), (timer_id, stopped_at, "fell asleep fast"))

        self.assert_error(self.platform.api("POST", f"/active-timers/{timer_id}/stop", token=self.tokens[PARENT]),
                          404, "timer_not_found")
        summary = self.summary().json
        self.assertEqual(summary["timers"], [])
        self.assertEqual(summary["stoppedDrafts"], [draft])

        self.assertEqual(self.platform.api("DELETE", f"/active-timers/{timer_id}", token=self.tokens[PARENT]).status,
                         204)
        self.assert_error(self.platform.api("DELETE", f"/active-timers/{timer_id}", token=self.tokens[PARENT]),
                          404, "timer_not_found")
        self.assertEqual(self.summary().json, {"timers": [], "stoppedDrafts": []})
        self.assertEqual(self.timers()[timer_id]["status"], "discarded")
        self.assertEqual(self.activities(), [])

    def test_running_timer_can_be_discarded(self):
        timer_id = new_id()
        self.assertEqual(self.put_timer(timer_id).status, 201)
        self.assertEqual(self.platform.api("DELETE", f"/active-timers/{timer_id}", token=self.tokens[PARENT]).status,
                         204)
        self.assertEqual(self.summary().json["timers"], [])

    def test_unknown_timers_are_404(self):
        token = self.tokens[PARENT]
        self.assert_error(self.platform.api("POST", f"/active-timers/{new_id()}/stop", token=token),
                          404, "timer_not_found")
        self.assert_error(self.platform.api("DELETE", f"/active-timers/{new_id()}", token=token),
                          404, "timer_not_found")

    def test_stop_and_discard_follow_the_actor_rules(self):
        timer_id = new_id()
        self.assertEqual(self.put_timer(timer_id).status, 201)
        for user in (STRANGER, COACH_VIEWER, COACH_DORMANT):
            with self.subTest(user=user):
                self.assert_error(self.platform.api("POST", f"/active-timers/{timer_id}/stop", token=self.tokens[user]),
                                  403, "forbidden")
                self.assert_error(self.platform.api("DELETE", f"/active-timers/{timer_id}", token=self.tokens[user]),
                                  403, "forbidden")
        self.assert_error(self.platform.api("POST", f"/active-timers/{timer_id}/stop"), 401, "unauthorized")
        self.assert_error(self.platform.api("DELETE", f"/active-timers/{timer_id}"), 401, "unauthorized")
        stop = self.platform.api("POST", f"/active-timers/{timer_id}/stop", token=self.tokens[COACH_WRITER])
        self.assertEqual(stop.status, 200, stop.body)

    def test_stop_validates_its_optional_body(self):
        timer_id = new_id()
        self.assertEqual(self.put_timer(timer_id, startedAt=iso_from_now(-600)).status, 201)
        path = f"/active-timers/{timer_id}/stop"
        token = self.tokens[PARENT]
        self.assert_error(self.platform.api("POST", path, {"stoppedAt": iso_from_now(-3600)}, token=token),
                          400, "invalid_request")
        self.assert_error(self.platform.api("POST", path, {"stoppedAt": "soon"}, token=token), 400, "invalid_request")
        self.assertEqual(self.timers()[timer_id]["status"], "running")

    def test_summary_read_rules(self):
        self.assertEqual(self.put_timer(new_id()).status, 201)
        for user in (PARENT, COACH_WRITER, COACH_VIEWER):
            with self.subTest(user=user):
                response = self.summary(user)
                self.assertEqual(response.status, 200, response.body)
                self.assertEqual(len(response.json["timers"]), 1)
        self.assert_error(self.summary(COACH_DORMANT), 403, "forbidden")
        self.assert_error(self.summary(STRANGER), 403, "forbidden")
        self.assert_error(self.platform.api("GET", "/active-timers", token=self.tokens[PARENT]),
                          400, "invalid_request")
        self.assert_error(self.platform.api("GET", "/active-timers?familySubjectId=x", token=self.tokens[PARENT]),
                          400, "invalid_request")
        self.assert_error(self.platform.api("GET", f"/active-timers?familySubjectId={FAMILY}"), 401, "unauthorized")


class NativeCompletionTest(PlatformTestCase):
    def test_completion_creates_one_sleep_activity_and_closes_the_timer(self):
        started_at = iso_from_now(-3600)
        timer_id, token = self.start_sleep_with_token(startedAt=started_at)
        completed_at = iso_from_now(-10)
        response = self.complete(timer_id, self.complete_body(token, completed_at))
        self.assertEqual(response.status, 201, response.body)
        self.assertEqual(response.headers["Content-Type"], "application/json")
        reply = response.json
        self.assertEqual(reply["timerId"], timer_id)
        activity = reply["activity"]
        self.assertEqual(set(activity), {"id", "babyId", "type", "startedAt", "endedAt"})
        self.assertEqual((activity["babyId"], activity["type"], activity["startedAt"], activity["endedAt"]),
                         (MAYA, "sleep", started_at, completed_at))

        [stored] = self.activities()
        self.assertEqual((stored["id"], stored["source"], stored["timerId"], stored["familySubjectId"]),
                         (activity["id"], "native", timer_id, FAMILY))
        timer = self.timers()[timer_id]
        self.assertEqual((timer["status"], timer["activityId"]), ("completed", activity["id"]))
        self.assertEqual(self.summary().json, {"timers": [], "stoppedDrafts": []})

    def test_identical_retry_replays_and_different_body_is_422(self):
        timer_id, token = self.start_sleep_with_token()
        body = self.complete_body(token)
        first = self.complete(timer_id, body)
        self.assertEqual(first.status, 201)
        again = self.complete(timer_id, body)
        self.assertEqual((again.status, again.body), (201, first.body))
        self.assert_error(self.complete(timer_id, self.complete_body(token, iso_from_now(-1))),
                          422, "idempotency_mismatch")
        # Byte identity is what counts: the same JSON with other spacing is a different body.
        self.assert_error(self.complete(timer_id, body.replace(b'", "', b'",  "')), 422, "idempotency_mismatch")
        # A replay is answered even after the token expired (the replay check comes first).
        self.platform.control_json("POST", "/control/tokens/expire", {"timerId": timer_id})
        late = self.complete(timer_id, body)
        self.assertEqual((late.status, late.body), (201, first.body))
        self.assertEqual(len(self.activities()), 1)

    def test_authorization_header_is_ignored(self):
        timer_id, token = self.start_sleep_with_token()
        self.assert_error(self.complete(timer_id, self.complete_body("dflnat_unknown"), token=self.tokens[PARENT]),
                          401, "invalid_token")
        response = self.complete(timer_id, self.complete_body(token), headers={"Authorization": "Bearer garbage"})
        self.assertEqual(response.status, 201, response.body)

    def test_unknown_token_or_token_of_another_timer_is_401(self):
        timer_a, token_a = self.start_sleep_with_token()
        timer_b, _ = self.start_sleep_with_token(babyId=LEO)
        self.assert_error(self.complete(timer_b, self.complete_body(token_a)), 401, "invalid_token")
        self.assert_error(self.complete(timer_a, self.complete_body("dflnat_" + "A" * 43)), 401, "invalid_token")
        self.assert_error(self.complete(timer_a, self.complete_body(self.tokens[PARENT])), 401, "invalid_token")
        self.assertEqual(self.activities(), [])

    def test_expired_token_is_410(self):
        timer_id, token = self.start_sleep_with_token()
        self.assertEqual(self.platform.control_json("POST", "/control/tokens/expire", {"timerId": timer_id}),
                         {"expired": 1})
        self.assert_error(self.complete(timer_id, self.complete_body(token)), 410, "token_expired")
        # Expiry is checked before the timer's state.
        self.platform.api("DELETE", f"/active-timers/{timer_id}", token=self.tokens[PARENT])
        self.assert_error(self.complete(timer_id, self.complete_body(token)), 410, "token_expired")
        self.assertEqual(self.activities(), [])

    def test_invalid_bodies_are_400_and_leave_the_token_unused(self):
        timer_id, token = self.start_sleep_with_token(startedAt=iso_from_now(-600))
        bad_bodies = [
            b"not json", b"[]", json.dumps({"actionToken": token}).encode(),
            json.dumps({"actionToken": token, "completedAt": iso_from_now(-5), "extra": 1}).encode(),
            json.dumps({"actionToken": token, "completedAt": 1700000000}).encode(),
            json.dumps({"actionToken": 7, "completedAt": iso_from_now(-5)}).encode(),
            json.dumps({"actionToken": token, "completedAt": "last night"}).encode(),
            self.complete_body(token, iso_from_now(-3600)),  # before startedAt
            self.complete_body(token, iso_from_now(600)),  # too far in the future
        ]
        for raw in bad_bodies:
            with self.subTest(raw=raw):
                self.assert_error(self.complete(timer_id, raw), 400, "invalid_request")
        self.assert_error(self.complete("not-a-uuid", self.complete_body(token)), 400, "invalid_request")
        self.assertEqual(self.complete(timer_id, self.complete_body(token)).status, 201)

    def test_timer_closed_in_the_app_is_404(self):
        stopped, token_stopped = self.start_sleep_with_token()
        self.platform.api("POST", f"/active-timers/{stopped}/stop", token=self.tokens[PARENT])
        self.assert_error(self.complete(stopped, self.complete_body(token_stopped)), 404, "timer_not_found")

        discarded, token_discarded = self.start_sleep_with_token(babyId=LEO)
        self.platform.api("DELETE", f"/active-timers/{discarded}", token=self.tokens[PARENT])
        self.assert_error(self.complete(discarded, self.complete_body(token_discarded)), 404, "timer_not_found")
        self.assertEqual(self.activities(), [])

    def test_app_save_with_active_timer_id_makes_native_completion_409(self):
        started_at = iso_from_now(-3600)
        timer_id, token = self.start_sleep_with_token(startedAt=started_at)
        save = self.platform.api("POST", "/activities", {
            "clientMutationId": new_id(), "familySubjectId": FAMILY, "babyId": MAYA, "type": "sleep",
            "startedAt": started_at, "endedAt": iso_from_now(-60), "activeTimerId": timer_id,
        }, token=self.tokens[PARENT])
        self.assertEqual(save.status, 201, save.body)
        self.assert_error(self.complete(timer_id, self.complete_body(token)), 409, "already_completed")
        [activity] = self.activities()
        self.assertEqual(activity["source"], "app")

    def test_stderr_log_never_contains_token_values(self):
        timer_id, token = self.start_sleep_with_token()
        self.assertEqual(self.complete(timer_id, self.complete_body(token)).status, 201)
        log = self.platform.stderr_text()
        self.assertIn(f"/native/sleep-timers/{timer_id}/complete 201", log)
        self.assertNotIn(token, log)
        for access_token in self.tokens.values():
            self.assertNotIn(access_token, log)

    def test_twenty_identical_concurrent_completions_make_one_activity(self):
        timer_id, token = self.start_sleep_with_token()
        body = self.complete_body(token)
        results = self.run_concurrently([body] * 20, timer_id)
        self.assertEqual({status for status, _ in results}, {201})
        self.assertEqual(len({reply for _, reply in results}), 1)
        [activity] = self.activities()
        self.assertEqual(activity["id"], json.loads(results[0][1])["activity"]["id"])

    def test_twenty_different_concurrent_completions_make_one_activity(self):
        timer_id, token = self.start_sleep_with_token()
        bodies = [self.complete_body(token, iso_from_now(-100 - index)) for index in range(20)]
        results = self.run_concurrently(bodies, timer_id)
        statuses = sorted(status for status, _ in results)
        self.assertEqual(statuses, [201] + [422] * 19)
        for status, reply in results:
            if status == 422:
                self.assertEqual(json.loads(reply)["error"]["code"], "idempotency_mismatch")
        self.assertEqual(len(self.activities()), 1)

    def run_concurrently(self, bodies: list[bytes], timer_id: str) -> list[tuple[int, bytes]]:
        barrier = threading.Barrier(len(bodies))
        results: list = [None] * len(bodies)

        def worker(index: int) -> None:
            barrier.wait()
            try:
                response = self.complete(timer_id, bodies[index])
                results[index] = (response.status, response.body)
            except Exception as error:  # reported by the assertion below
                results[index] = (0, repr(error).encode())

        threads = [threading.Thread(target=worker, args=(index,)) for index in range(len(bodies))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertNotIn(0, [status for status, _ in results], results)
        return results


class ActivitySaveTest(PlatformTestCase):
    def activity_body(self, **overrides) -> dict:
        """A valid Save body for a diaper change; an override of ... removes that member."""
        body = {"clientMutationId": new_id(), "familySubjectId": FAMILY, "babyId": MAYA, "type": "diaper",
                "startedAt": iso_from_now(-120), "endedAt": None, "details": {"kind": "wet"}, "note": None}
        body.update(overrides)
        return {key: value for key, value in body.items() if value is not Ellipsis}

    def save(self, body: dict, user: str = PARENT):
        return self.platform.api("POST", "/activities", body, token=self.tokens[user])

    def test_save_is_idempotent_by_client_mutation_id(self):
        body = self.activity_body()
        created = self.save(body)
        self.assertEqual(created.status, 201, created.body)
        activity = created.json["activity"]
        self.assertEqual(set(activity), {"id", "babyId", "type", "startedAt", "endedAt"})
        self.assertEqual((activity["type"], activity["endedAt"]), ("diaper", None))
        repeated = self.save(body)
        self.assertEqual(repeated.status, 200)
        self.assertEqual(repeated.json, created.json)
        self.assert_error(self.save({**body, "note": "changed"}), 422, "idempotency_mismatch")
        self.assertEqual(len(self.activities()), 1)

    def test_save_closes_a_running_timer_or_a_stopped_draft(self):
        running, drafted = new_id(), new_id()
        self.assertEqual(self.put_timer(running).status, 201)
        self.assertEqual(self.put_timer(drafted, babyId=LEO).status, 201)
        self.platform.api("POST", f"/active-timers/{drafted}/stop", token=self.tokens[PARENT])
        for timer_id, baby in ((running, MAYA), (drafted, LEO)):
            with self.subTest(timer=timer_id):
                body = self.activity_body(type="sleep", babyId=baby, startedAt=iso_from_now(-1800),
                                          endedAt=iso_from_now(-5), activeTimerId=timer_id)
                saved = self.save(body)
                self.assertEqual(saved.status, 201, saved.body)
                self.assertEqual(self.timers()[timer_id]["status"], "completed")
                self.assertEqual(self.timers()[timer_id]["activityId"], saved.json["activity"]["id"])
                # The repeat of a save that closed a timer is still answered.
                self.assertEqual(self.save(body).status, 200)
        self.assertEqual(self.summary().json, {"timers": [], "stoppedDrafts": []})

    def test_timer_link_errors(self):
        timer_id = new_id()
        self.assertEqual(self.put_timer(timer_id).status, 201)
        sleep = {"type": "sleep", "endedAt": iso_from_now(-5)}
        self.assert_error(self.save(self.activity_body(activeTimerId=new_id(), **sleep)), 404, "timer_not_found")
        self.assert_error(self.save(self.activity_body(activeTimerId=timer_id, type="pumping")),
                          400, "invalid_request")
        self.assertEqual(self.save(self.activity_body(activeTimerId=timer_id, **sleep)).status, 201)
        self.assert_error(self.save(self.activity_body(activeTimerId=timer_id, **sleep)), 409, "already_completed")

    def test_actor_validation_and_ownership(self):
        self.assertEqual(self.save(self.activity_body(), user=COACH_WRITER).status, 201)
        for user in (COACH_VIEWER, COACH_DORMANT, STRANGER):
            with self.subTest(user=user):
                self.assert_error(self.save(self.activity_body(), user=user), 403, "forbidden")
        self.assert_error(self.save(self.activity_body(babyId=NOAH)), 404, "baby_not_found")
        self.assert_error(self.platform.api("POST", "/activities", self.activity_body()), 401, "unauthorized")
        for field, value in (("clientMutationId", "x"), ("clientMutationId", ...), ("type", "Sleep!"),
                             ("startedAt", ...), ("endedAt", iso_from_now(-3600)), ("details", [])):
            with self.subTest(field=field, value=value):
                body = self.assert_error(self.save(self.activity_body(**{field: value})), 400, "invalid_request")
                self.assertIn(field, body["error"]["message"])


class HttpSurfaceTest(PlatformTestCase):
    def test_unknown_route_and_wrong_method(self):
        self.assert_error(self.platform.api("GET", "/nothing-here"), 404, "not_found")
        self.assert_error(self.platform.api("GET", "/control/health"), 404, "not_found")
        wrong = self.platform.api("GET", "/activities", token=self.tokens[PARENT])
        self.assert_error(wrong, 405, "method_not_allowed")
        self.assertEqual(wrong.headers["Allow"], "POST")
        self.assert_error(self.platform.api("GET", f"/native/sleep-timers/{new_id()}/complete"),
                          405, "method_not_allowed")
        self.assert_error(self.platform.api("POST", f"/active-timers/{new_id()}", self.timer_body(),
                                            token=self.tokens[PARENT]), 405, "method_not_allowed")

    def test_body_over_64_kib_is_413(self):
        body = self.timer_body(note="x" * (64 * 1024))
        self.assert_error(self.platform.api("PUT", f"/active-timers/{new_id()}", body, token=self.tokens[PARENT]),
                          413, "payload_too_large")
        self.assert_error(self.platform.api("POST", f"/native/sleep-timers/{new_id()}/complete",
                                            raw=b" " * (64 * 1024 + 1)), 413, "payload_too_large")
        self.assertEqual(self.timers(), {})

    def test_control_api(self):
        self.assertEqual(self.platform.control_json("GET", "/control/health"), {"ok": True})
        users = {user["id"]: user for user in self.platform.control_json("GET", "/control/users")["users"]}
        self.assertEqual(users[PARENT]["accessToken"], self.tokens[PARENT])
        self.assertEqual(users[PARENT]["name"], "Parent")
        self.assertEqual(self.platform.control("GET", "/control/nothing").status, 404)
        self.assertEqual(self.platform.control("PUT", "/control/faults").status, 405)
        self.assertEqual(self.platform.control("POST", "/control/faults", {"route": "complete"}).status, 400)
        self.assertEqual(self.platform.control("POST", "/control/faults",
                                               {"route": "upsert", "mode": "drop_after_commit"}).status, 400)
        self.assertEqual(self.platform.control("POST", "/control/fixtures",
                                               {"families": [{"familySubjectId": new_id(), "members": [new_id()]}]}
                                               ).status, 400)
        self.assertEqual(self.platform.control_json("POST", "/control/config", {"tokenTtlSeconds": 7}),
                         {"tokenTtlSeconds": 7})

    def test_reset_keeps_fixtures(self):
        self.assertEqual(self.put_timer(new_id()).status, 201)
        self.platform.control_json("POST", "/control/config", {"tokenTtlSeconds": 7})
        self.platform.control_json("POST", "/control/reset")
        self.assertEqual(self.timers(), {})
        self.assertEqual(self.platform.control_json("GET", "/control/config"), {"tokenTtlSeconds": 43200})
        self.assertEqual(self.put_timer(new_id()).status, 201)


class FaultModeTest(PlatformTestCase):
    def add_fault(self, **spec) -> dict:
        return self.platform.control_json("POST", "/control/faults", spec)["fault"]

    def test_status_faults_with_and_without_retry_after(self):
        timer_id, token = self.start_sleep_with_token()
        body = self.complete_body(token)
        cases = [(429, "2", "rate_limited"), (503, "Wed, 21 Oct 2026 07:28:00 GMT", "unavailable"),
                 (503, "soon-ish", "unavailable"), (500, None, "internal")]
        for status, retry_after, code in cases:
            with self.subTest(status=status, retry_after=retry_after):
                spec = {"route": "complete", "mode": "status", "status": status, "count": 1}
                if retry_after is not None:
                    spec["retryAfter"] = retry_after
                self.add_fault(**spec)
                response = self.complete(timer_id, body)
                self.assert_error(response, status, code)
                self.assertEqual(response.headers["Retry-After"], retry_after)
        self.assertEqual(self.activities(), [])
        self.assertEqual(self.complete(timer_id, body).status, 201)

    def test_redirect_fault(self):
        location = "https://127.0.0.1:1/elsewhere"
        self.add_fault(route="upsert", mode="redirect", location=location, count=1)
        timer_id = new_id()
        response = self.put_timer(timer_id)
        self.assertEqual(response.status, 307)
        self.assertEqual(response.headers["Location"], location)
        self.assertEqual(self.timers(), {})
        self.assertEqual(self.put_timer(timer_id).status, 201)

    def test_oversized_and_non_json_replies_change_nothing(self):
        timer_id, token = self.start_sleep_with_token()
        body = self.complete_body(token)
        self.add_fault(route="complete", mode="oversized_body", count=1)
        self.add_fault(route="complete", mode="non_json_body", count=1)
        oversized = self.complete(timer_id, body)
        self.assertEqual(oversized.status, 201)
        self.assertEqual(len(oversized.body), 8 * 1024 * 1024)
        self.assertIsInstance(oversized.json, dict)
        html = self.complete(timer_id, body)
        self.assertEqual((html.status, html.body), (201, b"<html>oops</html>"))
        self.assertTrue(html.headers["Content-Type"].startswith("text/html"))
        self.assertEqual(self.activities(), [])
        self.assertEqual(self.complete(timer_id, body).status, 201)

    def test_never_answer_holds_the_request_without_blocking_others(self):
        timer_id, token = self.start_sleep_with_token()
        body = self.complete_body(token)
        self.add_fault(route="complete", mode="never_answer", count=1)
        self.platform.control_json("DELETE", "/control/requests")
        outcome = {}

        def held_request() -> None:
            try:
                self.complete(timer_id, body, timeout=3)
            except (TimeoutError, socket.timeout) as error:
                outcome["error"] = error

        thread = threading.Thread(target=held_request)
        thread.start()
        self.platform.wait_for(lambda: self.platform.control_json("GET", "/control/requests")["requests"],
                               "the held request to arrive")
        # Other requests are served while the first one is held.
        self.assertEqual(self.summary().status, 200)
        thread.join()
        self.assertIsInstance(outcome.get("error"), (TimeoutError, socket.timeout))
        held = self.platform.control_json("GET", "/control/requests")["requests"][0]
        self.assertEqual((held["status"], held["fault"]), (None, "never_answer"))
        self.assertEqual(self.activities(), [])
        self.assertEqual(self.complete(timer_id, body).status, 201)

    def test_drop_after_commit_then_retry_gets_the_replayed_reply(self):
        timer_id, token = self.start_sleep_with_token()
        body = self.complete_body(token)
        self.add_fault(route="complete", mode="drop_after_commit", count=1)
        with self.assertRaises((OSError, http.client.HTTPException)):
            self.complete(timer_id, body)
        [activity] = self.activities()
        self.assertEqual(self.timers()[timer_id]["status"], "completed")
        retry = self.complete(timer_id, body)
        self.assertEqual(retry.status, 201)
        self.assertEqual(retry.json["activity"]["id"], activity["id"])
        self.assertEqual(len(self.activities()), 1)

    def test_delay_after_commit_commits_before_the_reply_is_sent(self):
        timer_id, token = self.start_sleep_with_token()
        self.add_fault(route="complete", mode="delay_after_commit", ms=300, count=1)
        reply = self.complete(timer_id, self.complete_body(token))
        self.assertEqual(reply.status, 201)
        [activity] = self.activities()
        self.assertEqual(reply.json["activity"]["id"], activity["id"])
        [entry] = [entry for entry in self.platform.control_json("GET", "/control/requests")["requests"]
                   if entry["method"] == "POST"]
        self.assertEqual((entry["fault"], entry["status"]), ("delay_after_commit", 201))

    def test_latency_fault_still_answers_normally(self):
        self.add_fault(route="upsert", mode="latency", ms=200, count=1)
        self.assertEqual(self.put_timer(new_id()).status, 201)
        self.assertEqual(self.platform.control_json("GET", "/control/faults")["faults"], [])
        [entry] = [entry for entry in self.platform.control_json("GET", "/control/requests")["requests"]
                   if entry["method"] == "PUT"]
        self.assertEqual(entry["fault"], "latency")

    def test_faults_match_by_route_apply_in_order_and_can_be_cleared(self):
        timer_id, token = self.start_sleep_with_token()
        self.add_fault(route="upsert", mode="status", status=503)
        self.add_fault(route="any", mode="status", status=500, count=2)
        self.assertEqual(len(self.platform.control_json("GET", "/control/faults")["faults"]), 2)
        self.assert_error(self.put_timer(new_id(), babyId=LEO), 503, "unavailable")
        self.assert_error(self.complete(timer_id, self.complete_body(token)), 500, "internal")
        self.assert_error(self.summary(), 500, "internal")
        self.assert_error(self.put_timer(new_id(), babyId=LEO), 503, "unavailable")
        self.assertEqual(self.summary().status, 200)
        self.assertEqual(self.platform.control_json("DELETE", "/control/faults"), {"cleared": 1})
        self.assertEqual(self.put_timer(new_id(), babyId=LEO).status, 201)
        self.assertEqual(self.complete(timer_id, self.complete_body(token)).status, 201)


class PlainHttpDemoTest(unittest.TestCase):
    """Plain HTTP on loopback with the built-in demo fixtures."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.platform = start_platform_for_class(cls, fixtures="demo")

    def test_ready_line(self):
        ready = self.platform.ready
        self.assertEqual(set(ready), {"api", "control", "pid"})
        self.assertRegex(ready["api"], r"^http://127\.0\.0\.1:\d+$")
        self.assertRegex(ready["control"], r"^http://127\.0\.0\.1:\d+$")
        self.assertEqual(ready["pid"], self.platform.process.pid)

    def test_demo_family_sleep_round_trip(self):
        users = self.platform.control_json("GET", "/control/users")["users"]
        self.assertEqual(len(users), 2)
        parent, coach = (user["accessToken"] for user in users)
        demo_family = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
        maya = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21"
        body = {"familySubjectId": demo_family, "babyId": maya, "activityType": "sleep",
                "startedAt": iso_from_now(-900), "timezone": "America/New_York", "details": {}, "note": None,
                "requestNativeActionToken": True}
        self.assert_error_code(self.platform.api("PUT", f"/active-timers/{new_id()}", body, token=coach),
                               403, "native_token_forbidden")
        timer_id = new_id()
        started = self.platform.api("PUT", f"/active-timers/{timer_id}", body, token=parent)
        self.assertEqual(started.status, 201, started.body)
        token = started.json["nativeActionToken"]["token"]
        done = self.platform.api("POST", f"/native/sleep-timers/{timer_id}/complete",
                                 {"actionToken": token, "completedAt": iso_from_now(-1)})
        self.assertEqual(done.status, 201, done.body)
        self.assertEqual(done.json["activity"]["babyId"], maya)

    def assert_error_code(self, response, status: int, code: str) -> None:
        self.assertEqual(response.status, status, response.body)
        self.assertEqual(response.json["error"]["code"], code)


class ProcessTest(unittest.TestCase):
    def setUp(self) -> None:
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        self.directory = Path(directory.name)

    def start(self, **kwargs) -> PlatformProcess:
        platform = PlatformProcess(**kwargs).start()
        self.addCleanup(lambda: platform.process and platform.stop())
        return platform

    def test_state_survives_a_restart_with_db(self):
        fixtures = self.directory / "fixtures.json"
        fixtures.write_text(json.dumps(FIXTURES))
        db = str(self.directory / "state.sqlite")
        first = self.start(certs=CERTS, db=db, fixtures=str(fixtures))
        tokens = {user["id"]: user["accessToken"] for user in first.control_json("GET", "/control/users")["users"]}
        running, drafted = str(uuid.uuid4()), str(uuid.uuid4())
        body = {"familySubjectId": FAMILY, "babyId": MAYA, "activityType": "sleep", "startedAt": iso_from_now(-900),
                "timezone": "Europe/London", "details": {}, "note": None, "requestNativeActionToken": True}
        started = first.api("PUT", f"/active-timers/{running}", body, token=tokens[PARENT])
        self.assertEqual(started.status, 201, started.body)
        action_token = started.json["nativeActionToken"]["token"]
        first.api("PUT", f"/active-timers/{drafted}", {**body, "babyId": LEO}, token=tokens[PARENT])
        first.api("POST", f"/active-timers/{drafted}/stop", token=tokens[PARENT])
        self.assertEqual(first.stop(), 0)

        second = self.start(certs=CERTS, db=db)
        users = {user["id"]: user["accessToken"] for user in second.control_json("GET", "/control/users")["users"]}
        self.assertEqual(users, tokens)
        summary = second.api("GET", f"/active-timers?familySubjectId={FAMILY}", token=tokens[PARENT]).json
        self.assertEqual([timer["id"] for timer in summary["timers"]], [running])
        self.assertEqual([draft["id"] for draft in summary["stoppedDrafts"]], [drafted])
        complete_body = json.dumps({"actionToken": action_token, "completedAt": iso_from_now(-1)}).encode()
        done = second.api("POST", f"/native/sleep-timers/{running}/complete", raw=complete_body)
        self.assertEqual(done.status, 201, done.body)
        self.assertEqual(second.stop(), 0)

        third = self.start(db=db)
        replay = third.api("POST", f"/native/sleep-timers/{running}/complete", raw=complete_body)
        self.assertEqual((replay.status, replay.body), (201, done.body))
        self.assertEqual(len(third.control_json("GET", "/control/activities")["activities"]), 1)

    def test_a_db_from_before_revocation_gains_the_column_and_keeps_its_tokens(self):
        db = str(self.directory / "old.sqlite")
        first = self.start(certs=CERTS, db=db, fixtures="demo")
        parent = next(u for u in first.control_json("GET", "/control/users")["users"] if "parent" in u["name"])
        timer_id = str(uuid.uuid4())
        body = {"familySubjectId": DEMO_FAMILY, "babyId": DEMO_MAYA, "activityType": "sleep",
                "startedAt": iso_from_now(-900), "timezone": "Europe/Berlin", "requestNativeActionToken": True}
        token = first.api("PUT", f"/active-timers/{timer_id}", body, token=parent["accessToken"]).json
        self.assertEqual(first.stop(), 0)
        # The file as a platform without revocation wrote it: the column is not there.
        with sqlite3.connect(db) as connection:
            connection.execute("ALTER TABLE native_action_tokens DROP COLUMN revoked_at")
        second = self.start(certs=CERTS, db=db)
        renewed = second.api("PUT", f"/active-timers/{timer_id}", body, token=parent["accessToken"])
        self.assertEqual(renewed.status, 200, renewed.body)
        stale = second.api("POST", f"/native/sleep-timers/{timer_id}/complete", raw=json.dumps(
            {"actionToken": token["nativeActionToken"]["token"], "completedAt": iso_from_now(-1)}).encode())
        self.assertEqual((stale.status, stale.json["error"]["code"]), (401, "token_revoked"))

    def test_ready_file_matches_the_ready_line(self):
        ready_file = self.directory / "ready.json"
        platform = self.start(certs=CERTS, extra_args=("--ready-file", str(ready_file)))
        self.assertEqual(json.loads(ready_file.read_text()), platform.ready)
        self.assertRegex(platform.ready["api"], r"^https://127\.0\.0\.1:\d+$")
        self.assertEqual(platform.control_json("GET", "/control/health"), {"ok": True})
        self.assertEqual(platform.stop(), 0)

    def test_ipv6_loopback(self):
        try:
            with socket.socket(socket.AF_INET6) as probe:
                probe.bind(("::1", 0))
        except OSError:
            self.skipTest("IPv6 loopback is not available")
        platform = self.start(certs=CERTS, host="::1")
        self.assertRegex(platform.ready["api"], r"^https://\[::1\]:\d+$")
        self.assertRegex(platform.ready["control"], r"^http://\[::1\]:\d+$")
        self.assertEqual(platform.control_json("GET", "/control/health"), {"ok": True})
        self.assert_status(platform.api("GET", "/active-timers"), 401)

    def test_plain_http_is_refused_off_loopback(self):
        result = subprocess.run([sys.executable, str(SERVER_SCRIPT), "--host", "0.0.0.0"],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, "")
        self.assertIn("loopback", result.stderr)

    def test_invalid_fixtures_refuse_to_start(self):
        fixtures = self.directory / "fixtures.json"
        fixtures.write_text(json.dumps({"users": [{"id": "nope", "name": "x"}]}))
        result = subprocess.run([sys.executable, str(SERVER_SCRIPT), "--fixtures", str(fixtures)],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertIn("users[0].id", result.stderr)

    def assert_status(self, response, status: int) -> None:
        self.assertEqual(response.status, status, response.body)


if __name__ == "__main__":
    unittest.main()
