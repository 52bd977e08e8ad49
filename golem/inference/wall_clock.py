"""The wall clock, for the one thing inference needs it for: turning an HTTP-date
Retry-After into a delay. Callers inject their own `now`; this is only the default."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["utc_now"]


def utc_now() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)
