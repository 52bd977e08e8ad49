"""What every codec needs to type a failure: case-insensitive header lookup, the
Retry-After delay in seconds, the error class a bare status implies, and stream events
that are not JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from golem.inference.errors import (
    AuthError,
    InvalidRequest,
    InvalidResponse,
    Overloaded,
    ProviderError,
    RateLimited,
    ServerError,
)

__all__ = [
    "error_body",
    "error_class_for_status",
    "error_object",
    "event_json",
    "header",
    "retry_after_seconds",
    "typed_error",
]


def header(headers: Mapping[str, str], name: str) -> str | None:
    """A header's value whatever its case (a plain dict is case-sensitive, httpx's is not)."""
    value = headers.get(name)
    if value is not None:
        return value
    lowered = name.lower()
    return next((v for k, v in headers.items() if k.lower() == lowered), None)


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Retry-After given in seconds. An HTTP date needs the clock, so the transport reads
    it from the headers the error keeps."""
    value = header(headers, "retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None


def error_class_for_status(status: int | None) -> type[ProviderError]:
    """The error a status implies when the body names no error type we know."""
    if status == 429:
        return RateLimited
    if status == 529:
        return Overloaded
    if status in (401, 403):
        return AuthError
    if status is not None and status >= 500:
        return ServerError
    if status is not None and status >= 400:
        return InvalidRequest
    return ProviderError


def event_json(data: str, provider: str) -> Mapping[str, Any]:
    """One SSE event's JSON object, or InvalidResponse."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InvalidResponse(
            f"stream event is not JSON: {exc}", provider=provider, body=data
        ) from exc
    if not isinstance(value, dict):
        raise InvalidResponse("stream event is not a JSON object", provider=provider, body=data)
    return value


def error_body(body: bytes) -> dict[str, Any]:
    """An error response's JSON object, or {} when it is not one. Some Google endpoints
    wrap the object in a one-element list."""
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError:
        return {}
    if isinstance(parsed, list) and parsed:
        parsed = parsed[0]
    return parsed if isinstance(parsed, dict) else {}


def error_object(body: Mapping[str, Any]) -> Mapping[str, Any]:
    """The `error` object of an error body, or {} when it has none."""
    error = body.get("error")
    return error if isinstance(error, dict) else {}


def typed_error(
    cls: type[ProviderError],
    kind: str,
    message: str,
    *,
    provider: str,
    status: int | None,
    headers: Mapping[str, str],
    raw: bytes,
    retry_after: float | None,
) -> ProviderError:
    """The error of class `cls`, its detail "kind: message" (the message alone without a
    kind); a RateLimited one carries `retry_after`."""
    detail = f"{kind}: {message}" if kind else message
    common: dict[str, Any] = {
        "provider": provider,
        "status": status,
        "body": raw,
        "headers": headers,
    }
    if cls is RateLimited:
        return RateLimited(detail, retry_after=retry_after, **common)
    return cls(detail, **common)
