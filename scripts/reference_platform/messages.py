"""What an endpoint operation gets (ApiRequest) and answers (Reply, or an ApiError:
{"error": {"code", "message"}} plus optional sibling members)."""

from __future__ import annotations

from dataclasses import dataclass

from .common import encode_json, parse_json


@dataclass(frozen=True)
class ApiRequest:
    """One API request as an operation sees it: the id captured from the path, the
    query string, the body and the Authorization header."""
    path_id: str | None
    query: str
    body: bytes
    authorization: str | None


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes = b""
    content_type: str = "application/json"
    headers: tuple[tuple[str, str], ...] = ()


class ApiError(Exception):
    """An error reply: {"error": {"code", "message"}} plus optional sibling members."""

    def __init__(self, status: int, code: str, message: str, extra: dict | None = None,
                 headers: tuple[tuple[str, str], ...] = ()):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra or {}
        self.headers = headers

    def reply(self) -> Reply:
        body = {"error": {"code": self.code, "message": self.message}, **self.extra}
        return Reply(self.status, encode_json(body), headers=self.headers)


def invalid(message: str) -> ApiError:
    return ApiError(400, "invalid_request", message)


def json_reply(status: int, payload: object) -> Reply:
    return Reply(status, encode_json(payload))


def decode_json(raw: bytes) -> object:
    try:
        return parse_json(raw)
    except (ValueError, RecursionError):
        raise invalid("request body is not valid JSON") from None
