"""The OpenAI error object (`{"error": {message, type, code, param}}`) as a typed error, for
OpenAI and every OpenAI-compatible vendor (which copy it more or less faithfully)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import orjson

from golem.inference.codecs._errors import error_class_for_status, header, retry_after_seconds
from golem.inference.errors import (
    AuthError,
    InvalidRequest,
    ProviderError,
    RateLimited,
    ResponseFormatRejected,
    Timeout,
)

__all__ = ["error_for", "status_of"]

# Out of money rather than out of rate: retrying cannot help and the key's account, not
# the request, is at fault, so these are AuthErrors (non-transient; a fallback chain moves
# on to the next provider, as it does for a revoked key).
_BILLING = frozenset(
    {
        "insufficient_quota",
        "billing_hard_limit_reached",
        "billing_not_active",
        "insufficient_credits",
    }
)
_STATUS_BY_KIND = {
    "insufficient_quota": 429,
    "rate_limit_exceeded": 429,
    "rate_limit_error": 429,
    "tokens": 429,
    "requests": 429,
    "invalid_request_error": 400,
    "invalid_api_key": 401,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "model_not_found": 404,
    "server_error": 500,
    "api_error": 500,
    "overloaded_error": 529,
}
# "Request too large ... Limit 400000, Requested 2500013": a request bigger than the whole
# per-minute allowance never fits, however long we wait.
_OVER_LIMIT = re.compile(r"Limit (\d+), Requested (\d+)")
_FORMAT_WORDS = ("response_format", "json_schema")
# Where the schema goes: Chat Completions' response_format, the Responses API's text.format.
_FORMAT_PARAMS = ("response_format", "text.format")


def error_for(provider: str, status: int, headers: Mapping[str, str], body: bytes) -> ProviderError:
    """The typed error for an OpenAI-style error response."""
    error = _error_object(body)
    message = _message(error, status, body)
    kinds = {str(error.get(k)) for k in ("type", "code") if error.get(k) is not None}
    kw: dict[str, Any] = {"provider": provider, "status": status, "body": body, "headers": headers}
    if kinds & _BILLING or status == 402:
        return AuthError(f"out of credit or quota: {message}", **kw)
    if status == 429:
        over = _OVER_LIMIT.search(message)
        if over and int(over.group(2)) > int(over.group(1)):
            return InvalidRequest(f"larger than the rate limit allows: {message}", **kw)
        return RateLimited(message, retry_after=_retry_after(headers), **kw)
    if status in (400, 422) and _about_response_format(error, message):
        return ResponseFormatRejected(message, **kw)
    if status == 408:
        return Timeout(message, **kw)
    return error_class_for_status(status)(message, **kw)


def status_of(error: Mapping[str, Any]) -> int:
    """The HTTP status an error object implies, for one that arrived without one (a 200
    body, a stream event, a recorded file)."""
    code = error.get("code")
    if isinstance(code, int) and 400 <= code < 600:
        return code
    for key in ("type", "code"):
        status = _STATUS_BY_KIND.get(str(error.get(key)))
        if status is not None:
            return status
    return 400


def _error_object(body: bytes) -> Mapping[str, Any]:
    try:
        value = orjson.loads(body.strip() or b"null")
    except orjson.JSONDecodeError:
        return {}
    if isinstance(value, dict):
        error = value.get("error")
        if isinstance(error, dict):
            return error
        if isinstance(error, str):
            return {"message": error}
        detail = value.get("detail")  # FastAPI-style servers, such as Mistral's 401
        if isinstance(detail, str):
            return {"message": detail}
    return {}


def _message(error: Mapping[str, Any], status: int, body: bytes) -> str:
    message = error.get("message")
    if not isinstance(message, str) or not message:
        text = body.decode("utf-8", "replace").strip()
        return f"HTTP {status}: {text[:200]}" if text else f"HTTP {status}"
    metadata = error.get("metadata")
    raw = metadata.get("raw") if isinstance(metadata, dict) else None
    if isinstance(raw, str) and raw:  # OpenRouter: the upstream provider's own words
        message = f"{message}: {raw}"
    return message


def _about_response_format(error: Mapping[str, Any], message: str) -> bool:
    param = error.get("param")
    if isinstance(param, str):
        return param.startswith(_FORMAT_PARAMS)
    lowered = message.lower()
    return any(word in lowered for word in _FORMAT_WORDS)


def _retry_after(headers: Mapping[str, str]) -> float | None:
    millis = header(headers, "retry-after-ms")
    if millis is not None:
        try:
            value = float(millis) / 1000
        except ValueError:
            value = -1.0
        if value >= 0:
            return value
    return retry_after_seconds(headers)
