"""Typed reads from request JSON; the first problem is a 400 that names the field."""

from __future__ import annotations

import re

from .common import canonical_uuid, iana_zones, parse_time
from .messages import invalid

_ACTIVITY_TYPE = re.compile(r"[a-z][a-z_]{0,39}")


class Fields:
    """Typed reads from a JSON object; the first problem is a 400 that names the field.

    For optional fields, a missing member and an explicit null both mean "not given".
    """

    def __init__(self, value: object, where: str = ""):
        if not isinstance(value, dict):
            raise invalid(f"{where.rstrip('.') or 'request body'} must be a JSON object")
        self._obj = value
        self._where = where

    def _name(self, name: str) -> str:
        return f"{self._where}{name}"

    def _get(self, name: str, required: bool) -> object:
        value = self._obj.get(name)
        if value is None and required:
            raise invalid(f"{self._name(name)} is required")
        return value

    def only(self, allowed: set[str]) -> None:
        unknown = sorted(set(self._obj) - allowed)
        if unknown:
            raise invalid(f"{self._name(unknown[0])} is not a recognised field")

    def uuid(self, name: str, required: bool = True) -> str | None:
        value = self._get(name, required)
        if value is None:
            return None
        result = canonical_uuid(value)
        if result is None:
            raise invalid(f"{self._name(name)} must be a UUID")
        return result

    def string(self, name: str, required: bool = True) -> str | None:
        value = self._get(name, required)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise invalid(f"{self._name(name)} must be a non-empty string")
        return value

    def header_value(self, name: str, required: bool = True) -> str | None:
        value = self.string(name, required)
        if value is not None and ("\r" in value or "\n" in value):
            raise invalid(f"{self._name(name)} must not contain line breaks")
        return value

    def note(self, name: str) -> str | None:
        value = self._get(name, False)
        if value is not None and not isinstance(value, str):
            raise invalid(f"{self._name(name)} must be a string or null")
        return value

    def choice(self, name: str, options: tuple[str, ...]) -> str:
        value = self._get(name, True)
        if value not in options:
            raise invalid(f"{self._name(name)} must be one of {', '.join(options)}")
        return value

    def activity_type(self, name: str) -> str:
        value = self._get(name, True)
        if not isinstance(value, str) or not _ACTIVITY_TYPE.fullmatch(value):
            raise invalid(f"{self._name(name)} must be a lower-case activity type such as sleep or diaper")
        return value

    def time(self, name: str, required: bool = True) -> int | None:
        value = self._get(name, required)
        if value is None:
            return None
        result = parse_time(value)
        if result is None:
            raise invalid(f"{self._name(name)} must be an ISO-8601 time such as 2026-11-29T21:41:00.000Z")
        return result

    def timezone(self, name: str) -> str:
        value = self._get(name, True)
        if not isinstance(value, str) or value not in iana_zones():
            raise invalid(f"{self._name(name)} must be an IANA time zone name such as Europe/Berlin")
        return value

    def object(self, name: str) -> dict:
        value = self._get(name, False)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise invalid(f"{self._name(name)} must be a JSON object")
        return value

    def boolean(self, name: str, default: bool) -> bool:
        value = self._get(name, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise invalid(f"{self._name(name)} must be true or false")
        return value

    def integer(self, name: str, minimum: int, maximum: int, required: bool = True) -> int | None:
        value = self._get(name, required)
        if value is None:
            return None
        if type(value) is not int or not minimum <= value <= maximum:
            raise invalid(f"{self._name(name)} must be an integer from {minimum} to {maximum}")
        return value

    def items(self, name: str) -> list:
        value = self._get(name, False)
        if value is None:
            return []
        if not isinstance(value, list):
            raise invalid(f"{self._name(name)} must be a JSON array")
        return value
