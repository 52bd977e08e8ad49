"""The simulated market's saved state (market.py's `state()` / `restore()`): its shocks,
scheduled or under way, and the JSON-ready record of everything its path depends on, with
a clock that never runs out saved as None.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

import msgspec

from golem.world.observation import Regime

__all__ = ["SavedMarket", "Shock", "finite", "infinite"]


@dataclass(slots=True)
class Shock:
    start: float  # seconds after the first observation
    end: float
    log_move: float  # log(1 + magnitude), spread evenly over [start, end]
    regime: Regime

    def saved(self) -> tuple[float, float, float, Regime]:
        return (self.start, self.end, self.log_move, self.regime)


class SavedMarket(msgspec.Struct, forbid_unknown_fields=True):
    """`SimulatedMarket.state()`, as JSON-ready data (times as seconds after the first
    observation; a clock that never runs out as None, since JSON has no infinity)."""

    version: int
    seed: int | str
    rng: tuple[int, tuple[int, ...], float | None]  # random.Random.getstate()
    tick: int
    start: datetime | None
    elapsed: float
    grid: int  # grid steps walked
    last_volume: float  # of the last grid step
    price: float
    regime: Regime
    regime_end: float | None
    next_random: float | None
    pending: list[tuple[float, float, float, Regime]]
    active: list[tuple[float, float, float, Regime]]


def finite(seconds: float) -> float | None:
    return None if math.isinf(seconds) else seconds


def infinite(seconds: float | None) -> float:
    return math.inf if seconds is None else seconds
