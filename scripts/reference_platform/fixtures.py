"""Users, families, babies and coach assignments: loaded through the control API
or --fixtures, with the demo family built in."""

from __future__ import annotations

import json
import sqlite3

from .access import current_access_token
from .common import canonical_uuid
from .fields import Fields
from .messages import invalid
from .state import Platform

DEMO_PARENT_ID = "5f0c2a8e-4b1d-4e7a-9c3f-6d2e8a1b0c01"
DEMO_COACH_ID = "5f0c2a8e-4b1d-4e7a-9c3f-6d2e8a1b0c02"
DEMO_FIXTURES = {
    "users": [
        {"id": DEMO_PARENT_ID, "name": "Sam (parent)"},
        {"id": DEMO_COACH_ID, "name": "Jordan (coach)"},
    ],
    "families": [{
        "familySubjectId": "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10",
        "members": [DEMO_PARENT_ID],
        "babies": [
            {"id": "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21", "name": "Maya"},
            {"id": "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d22", "name": "Leo"},
        ],
        "coaches": [{"userId": DEMO_COACH_ID, "live": True, "canWriteActivities": True}],
    }],
}


def load_fixture_document(source: str) -> object:
    """--fixtures: 'demo' for the built-in family, else a JSON file."""
    if source == "demo":
        return DEMO_FIXTURES
    with open(source, encoding="utf-8") as handle:
        return json.load(handle)


def _parse_family(item: object, index: int) -> tuple:
    fields = Fields(item, f"families[{index}].")
    fields.only({"familySubjectId", "members", "babies", "coaches"})
    family_id = fields.uuid("familySubjectId")
    members = []
    for n, member in enumerate(fields.items("members")):
        member_id = canonical_uuid(member)
        if member_id is None:
            raise invalid(f"families[{index}].members[{n}] must be a UUID")
        members.append(member_id)
    babies = []
    for n, baby in enumerate(fields.items("babies")):
        baby_fields = Fields(baby, f"families[{index}].babies[{n}].")
        baby_fields.only({"id", "name"})
        babies.append((baby_fields.uuid("id"), baby_fields.string("name")))
    coaches = []
    for n, coach in enumerate(fields.items("coaches")):
        coach_fields = Fields(coach, f"families[{index}].coaches[{n}].")
        coach_fields.only({"userId", "live", "canWriteActivities"})
        coaches.append((coach_fields.uuid("userId"), coach_fields.boolean("live", True),
                        coach_fields.boolean("canWriteActivities", False)))
    return family_id, members, babies, coaches


def load_fixtures(platform: Platform, document: object) -> list[dict]:
    """Adds or replaces users and families; each listed family's members, coaches
    and babies become exactly what is given (removed babies lose their timer state
    and activities).  Returns the listed users with their access tokens."""
    doc = Fields(document, "fixtures.")
    doc.only({"users", "families"})
    users = []
    for index, item in enumerate(doc.items("users")):
        fields = Fields(item, f"users[{index}].")
        fields.only({"id", "name", "accessToken"})
        users.append((fields.uuid("id"), fields.string("name"), fields.string("accessToken", required=False)))
    families = [_parse_family(item, index) for index, item in enumerate(doc.items("families"))]

    with platform.store.transaction() as db:
        for user_id, name, fixed_token in users:
            try:
                db.execute("INSERT INTO users (id, name, fixed_token) VALUES (?, ?, ?) "
                           "ON CONFLICT (id) DO UPDATE SET name = excluded.name, "
                           "fixed_token = excluded.fixed_token",
                           (user_id, name, fixed_token))
            except sqlite3.IntegrityError:
                raise invalid(f"the accessToken of user {user_id} is already used by another user") from None
        for family_id, members, babies, coaches in families:
            _apply_family(db, family_id, members, babies, coaches)
        listed = {user_id for user_id, _, _ in users}
        rows = db.execute("SELECT * FROM users ORDER BY rowid").fetchall()
        return [{"id": row["id"], "accessToken": current_access_token(platform, db, row)}
                for row in rows if row["id"] in listed]


def _apply_family(db: sqlite3.Connection, family_id: str, members: list, babies: list, coaches: list) -> None:
    for user_id in members + [coach[0] for coach in coaches]:
        if db.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            raise invalid(f"family {family_id} refers to unknown user {user_id}")
    db.execute("INSERT OR IGNORE INTO families (id) VALUES (?)", (family_id,))
    db.execute("DELETE FROM memberships WHERE family_subject_id = ?", (family_id,))
    db.executemany("INSERT OR IGNORE INTO memberships (user_id, family_subject_id) VALUES (?, ?)",
                   [(user_id, family_id) for user_id in members])
    db.execute("DELETE FROM coach_assignments WHERE family_subject_id = ?", (family_id,))
    db.executemany("INSERT OR REPLACE INTO coach_assignments VALUES (?, ?, ?, ?)",
                   [(user_id, family_id, int(live), int(write)) for user_id, live, write in coaches])
    kept = {baby_id for baby_id, _ in babies}
    for row in db.execute("SELECT id FROM babies WHERE family_subject_id = ?", (family_id,)).fetchall():
        if row["id"] not in kept:
            # Deleting a baby removes its timer state with the dependent subject data.
            db.execute("DELETE FROM native_action_tokens WHERE timer_id IN "
                       "(SELECT id FROM timers WHERE baby_id = ?)", (row["id"],))
            db.execute("DELETE FROM timers WHERE baby_id = ?", (row["id"],))
            db.execute("DELETE FROM activities WHERE baby_id = ?", (row["id"],))
            db.execute("DELETE FROM babies WHERE id = ?", (row["id"],))
    for baby_id, name in babies:
        owner = db.execute("SELECT family_subject_id FROM babies WHERE id = ?", (baby_id,)).fetchone()
        if owner is not None and owner["family_subject_id"] != family_id:
            raise invalid(f"baby {baby_id} already belongs to family {owner['family_subject_id']}")
        db.execute("INSERT INTO babies (id, family_subject_id, name) VALUES (?, ?, ?) "
                   "ON CONFLICT (id) DO UPDATE SET name = excluded.name", (baby_id, family_id, name))
