"""The time source mortality reads, and two of the three clocks a golem dies by: the economic
clock (credits left, burn rate) and the epistemic clock (how well it still predicts).
Both are immutable values: each tick returns a new clock. The stochastic clock is in hazard.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

__all__ = [
    "Clock",
    "EconomicClock",
    "EpistemicClock",
    "FixedClock",
    "forecast_skill",
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


@dataclass(frozen=True, slots=True)
class EpistemicClock:
    """Forecast skill of the last `window` (predicted, actual) return pairs, clipped to
    [0, 1]; `prior` (0.5) until `min_samples` pairs exist. A pair is one resolved
    prediction: the predicted return (predicted price ÷ price when predicted − 1) and the
    actual return over the same horizon. See `forecast_skill` for the formula."""

    pairs: Sequence[tuple[float, float]] = field(default_factory=tuple)
    window: int = 100
    min_samples: int = 10
    prior: float = 0.5

    def __post_init__(self) -> None:
        if not 0 < self.min_samples <= self.window:
            raise ValueError("need 0 < min_samples <= window")

    def record(self, predicted: float, actual: float) -> EpistemicClock:
        if not (math.isfinite(predicted) and math.isfinite(actual)):
            raise ValueError("predictions and outcomes must be finite")
        kept = (*self.pairs, (predicted, actual))[-self.window :]
        return replace(self, pairs=kept)

    @property
    def level(self) -> float:
        if len(self.pairs) < self.min_samples:
            return self.prior
        return min(1.0, max(0.0, forecast_skill(self.pairs)))


def forecast_skill(pairs: Sequence[tuple[float, float]]) -> float:
    """Skill of (predicted, actual) returns against the naive forecast of a zero return:

        skill = 1 − MSE(predicted, actual) / MSE(0, actual)
              = 1 − Σ(actual − predicted)² / Σ actual²

    1 for a perfect forecast, 0 for one no better than predicting no change, negative
    (unbounded) for a worse one. When every actual return is 0 the naive forecast is
    perfect and the ratio undefined: a forecast that also predicted 0 everywhere scores
    0 (no better than naive), any other scores −1 (worse)."""
    ss_naive = math.fsum([actual * actual for _, actual in pairs])
    ss_res = math.fsum([(actual - predicted) ** 2 for predicted, actual in pairs])
    if ss_naive == 0.0:
        return 0.0 if ss_res == 0.0 else -1.0
    return 1.0 - ss_res / ss_naive
