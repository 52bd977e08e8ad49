"""The transport's small pieces of HTTP: where a key is read from, which response headers
an error may keep, reading a body that may be abandoned mid-way under trio, Retry-After."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from email.utils import parsedate_to_datetime

import httpx
import trio

__all__ = ["Enough", "KeySource", "consume", "retry_after_seconds", "safe_headers"]

# Response headers never copied into an error: they may echo credentials or session state.
_SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie"}
)
_SECRET_HEADERS_PREFIX = "set-cookie"


class KeySource:
    """Where a provider's key is read from. Its repr names the variable only, so neither
    a provider's repr nor a dump of its attributes shows the environment."""

    __slots__ = ("_environ", "variable")

    def __init__(self, variable: str | None, environ: Mapping[str, str]) -> None:
        self.variable = variable
        self._environ = environ

    def __repr__(self) -> str:
        return f"KeySource({self.variable!r})"

    def read(self) -> str | None:
        """The key ("" when the variable is unset or blank), or None when none is needed."""
        if not self.variable:
            return None
        return self._environ.get(self.variable, "").strip()


class Enough(Exception):
    """A sink has read all it wants."""


async def consume(response: httpx.Response, sink: Callable[[bytes], object]) -> None:
    """Feed the body to `sink` until it ends or `sink` raises; then raise what it raised.

    httpx's body iterators are nested async generators: leaving the loop mid-body leaves
    the inner ones suspended, and trio warns when they are collected (httpx #3686). So a
    sink's exception cancels the read instead, which unwinds them from the inside; a body
    already in memory reaches no checkpoint and is simply passed over to its end."""
    failure: Exception | None = None
    with trio.CancelScope() as reading:
        async for chunk in response.aiter_bytes():
            if failure is not None:
                continue
            try:
                sink(chunk)
            except Exception as exc:
                failure = exc
                reading.cancel()
    if failure is not None and not isinstance(failure, Enough):
        raise failure


def safe_headers(headers: httpx.Headers) -> dict[str, str]:
    return {
        name: value
        for name, value in headers.items()
        if name not in _SECRET_HEADERS and not name.startswith(_SECRET_HEADERS_PREFIX)
    }


def retry_after_seconds(headers: Mapping[str, str], now: datetime) -> float | None:
    """The delay a response asks for: `retry-after-ms`, or `retry-after` in seconds or as
    an HTTP date (measured from `now`, never negative). None when absent or unreadable."""
    lowered = {name.lower(): value for name, value in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # an HTTP date is always GMT
        when = when.replace(tzinfo=now.tzinfo)
    return max(0.0, (when - now).total_seconds())
