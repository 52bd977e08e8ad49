"""The time source mortality reads, and the economic clock (credits left, burn rate), an
immutable value: each tick returns a new clock. The stochastic clock is in hazard.py; the
epistemic clock is the prediction engine's fitness (golem/oracle), read by the runtime.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

__all__ = [
    "Clock",
    "EconomicClock",
    "FixedClock",
    "utc_day",
]


class Clock(Protocol):
    """Where time comes from. `now()` is timezone-aware; the runtime supplies a real clock
    for the daemon and a virtual one for the simulator."""

    def now(self) -> datetime: ...


@dataclass(frozen=True, slots=True)
class FixedClock:
    """A clock that always reads `at`: for one-shot computations (`golem budget`) and tests."""

    at: datetime

    def __post_init__(self) -> None:
        if self.at.tzinfo is None:
            raise ValueError("FixedClock needs a timezone-aware datetime")

    def now(self) -> datetime:
        return self.at


def utc_day(moment: datetime) -> date:
    """The ledger's day: the UTC calendar date of `moment` (which must be aware)."""
    if moment.tzinfo is None:
        raise ValueError("a naive datetime has no UTC day")
    return moment.astimezone(UTC).date()


@dataclass(frozen=True, slots=True)
class EconomicClock:
    """Credits left out of the initial credits, and the burn rate per tick as an EMA
    (`burn = decay·burn + (1 − decay)·tick cost`)."""

    initial_credits: float
    credits: float
    burn_rate: float = 0.0
    decay: float = 0.95

    def __post_init__(self) -> None:
        if not self.initial_credits > 0:
            raise ValueError("initial_credits must be positive")
        if not 0.0 <= self.decay < 1.0:
            raise ValueError("decay must be in [0, 1)")

    @classmethod
    def new(cls, initial_credits: float, *, decay: float = 0.95) -> EconomicClock:
        return cls(initial_credits, initial_credits, decay=decay)

    @property
    def level(self) -> float:
        """Credits left ÷ initial credits, in [0, 1]; income may refill it, never past 1."""
        return min(1.0, max(0.0, self.credits / self.initial_credits))

    def tick(self, cost: float, income: float = 0.0) -> EconomicClock:
        """The clock after one tick that spent `cost` and earned `income`."""
        if cost < 0 or income < 0:
            raise ValueError("cost and income are amounts, never negative")
        burn = self.decay * self.burn_rate + (1.0 - self.decay) * cost
        return replace(self, credits=max(0.0, self.credits + income - cost), burn_rate=burn)

    def ticks_left(self) -> float:
        """Ticks until the credits run out at the current burn rate (infinite at zero burn)."""
        if self.credits <= 0:
            return 0.0
        if self.burn_rate <= 0:
            return math.inf
        return self.credits / self.burn_rate

    def time_left(self, tick_interval: timedelta) -> timedelta | None:
        """Projected time until the credits run out; None when nothing is burning."""
        ticks = self.ticks_left()
        if math.isinf(ticks):
            return None
        return tick_interval * ticks
