"""A client-side rate limiter per provider and model, so a golem waits before a 429 rather
than after one: requests and tokens per minute from config, and what the provider says of
its own limits in every response's headers (OpenAI's `x-ratelimit-*`, Anthropic's
`anthropic-ratelimit-*`). Time is the caller's clock (trio's, injectable): never the wall
clock, but for turning Anthropic's reset timestamps into delays, which uses the `now` the
transport is given."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Mapping
from datetime import datetime

import httpx
import structlog
import trio
from pydantic import BaseModel, ConfigDict, Field

__all__ = ["RateLimit", "RateLimiter", "reset_seconds"]

log = structlog.get_logger(__name__)

WINDOW_S = 60.0
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")
_UNIT_S = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_PREFIXES = (b"x-ratelimit-", b"anthropic-ratelimit-")


def _raw(headers: Mapping[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


class RateLimit(BaseModel):
    """One provider's (or model's) limits, per minute; None: no limit from config."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    requests_per_minute: int | None = Field(default=None, gt=0)
    tokens_per_minute: int | None = Field(default=None, gt=0)


def reset_seconds(value: str, now: Callable[[], datetime]) -> float | None:
    """A reset header as seconds from now: OpenAI's duration (`1s`, `6m0s`, `20ms`) or
    Anthropic's RFC 3339 time (from `now()`). None when unreadable."""
    value = value.strip()
    parts = _DURATION.findall(value)
    if parts and "".join(n + u for n, u in parts) == value:
        return sum(float(n) * _UNIT_S[u] for n, u in parts)
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - now()).total_seconds())


class _Learned:
    """What the provider last said of one quota: how much is left, and when it refills."""

    __slots__ = ("remaining", "reset_at")

    def __init__(self) -> None:
        self.remaining: int | None = None
        self.reset_at = 0.0


class RateLimiter:
    """Waits, before each request, until it fits: within the configured requests and tokens
    of the last minute, and within what the provider last said remains (until the reset it
    named). `acquire` records the request; `observe` reads a response's headers."""

    def __init__(
        self,
        provider: str,
        model: str,
        limit: RateLimit | None = None,
        *,
        learn: bool = True,
        clock: Callable[[], float] = trio.current_time,
    ) -> None:
        self.provider, self.model = provider, model
        self.limit = limit or RateLimit()
        self.learn = learn
        self._clock = clock
        self._sent: deque[tuple[float, int]] = deque()  # (time, tokens) in the last minute
        self._requests = _Learned()
        self._tokens = _Learned()
        self._counting = bool(self.limit.requests_per_minute or self.limit.tokens_per_minute)

    @property
    def active(self) -> bool:
        limit = self.limit
        return self.learn or bool(limit.requests_per_minute or limit.tokens_per_minute)

    def delay(self, tokens: int) -> tuple[float, str]:
        """(seconds to wait before a request of `tokens` fits, what bounds it)."""
        now = self._clock()
        sent = self._sent
        while sent and now - sent[0][0] >= WINDOW_S:
            sent.popleft()
        waits: list[tuple[float, str]] = [(0.0, "")]
        rpm, tpm = self.limit.requests_per_minute, self.limit.tokens_per_minute
        if rpm is not None and len(sent) >= rpm:
            waits.append((sent[len(sent) - rpm][0] + WINDOW_S - now, "requests_per_minute"))
        if tpm is not None and sent:
            used, total = 0, sum(t for _, t in sent)
            for at, spent in sent:  # the oldest sends leave the window first
                if total - used + tokens <= tpm:
                    break
                used += spent
                waits.append((at + WINDOW_S - now, "tokens_per_minute"))
        for quota, need, name in (
            (self._requests, 1, "requests"),
            (self._tokens, tokens, "tokens"),
        ):
            if quota.remaining is not None and quota.remaining < need and now < quota.reset_at:
                waits.append((quota.reset_at - now, f"provider's remaining {name}"))
        return max(waits)

    async def acquire(self, tokens: int) -> None:
        """Wait until a request of about `tokens` tokens fits, then count it as sent."""
        learned = self._requests.remaining is not None or self._tokens.remaining is not None
        if not (self._counting or learned):
            return  # nothing configured, nothing learned yet: nothing to wait for
        wait, reason = self.delay(tokens)
        if wait > 0:
            log.info(
                "rate limit: waiting before the request",
                provider=self.provider,
                model=self.model,
                wait_s=round(wait, 3),
                bound=reason,
            )
            await trio.sleep(wait)
        if self._counting:
            self._sent.append((self._clock(), tokens))
        for quota, spent in ((self._requests, 1), (self._tokens, tokens)):
            if quota.remaining is not None:
                quota.remaining -= spent

    def observe(self, headers: Mapping[str, str], now: Callable[[], datetime]) -> None:
        """Learn the provider's remaining quota and its reset from a response's headers
        (an httpx.Headers, or names in lower case); `now` reads a reset given as a time."""
        if not self.learn:
            return
        # One pass over the raw headers (a lookup by name costs more, and most responses
        # of a local server carry none of these).
        pairs = headers.raw if isinstance(headers, httpx.Headers) else _raw(headers)
        found = {
            name.lower().decode("latin-1"): value.decode("latin-1")
            for name, value in pairs
            if name.lower().startswith(_PREFIXES)
        }
        if not found:
            return
        get = found.get
        for quota, name in ((self._requests, "requests"), (self._tokens, "tokens")):
            remaining = get(f"x-ratelimit-remaining-{name}") or get(
                f"anthropic-ratelimit-{name}-remaining"
            )
            if remaining is None or not remaining.strip().isdigit():
                continue
            reset = get(f"x-ratelimit-reset-{name}") or get(f"anthropic-ratelimit-{name}-reset")
            seconds = None if reset is None else reset_seconds(reset, now)
            quota.remaining = int(remaining)
            # No readable reset: the quota refills within the minute it is counted over.
            quota.reset_at = self._clock() + (WINDOW_S if seconds is None else seconds)
