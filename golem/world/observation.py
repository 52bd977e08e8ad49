"""What a market source says about one tick: the Observation, and the Regime labels a
simulation knows for certain (ground truth kept as metadata, never shown to a model).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

__all__ = ["MarketSource", "Observation", "Regime"]


class Regime(StrEnum):
    """The hidden state of the simulated market; a replay may carry it as a label too."""

    CALM = "calm"
    TRENDING = "trending"
    VOLATILE = "volatile"
    CRASH = "crash"


@dataclass(frozen=True, slots=True)
class Observation:
    """One tick of market data.

    `time` is timezone-aware and comes from the caller's clock. `health_factor` is that of
    the watched lending position (collateral value × liquidation threshold ÷ debt; below 1
    it can be liquidated). `funding_rate` is per 8 hours, as perpetual venues quote it.
    `regime` is the true label of a simulation: metadata for scoring, hidden from prompts.
    """

    tick: int
    time: datetime
    price: float
    volume: float
    health_factor: float | None = None
    funding_rate: float | None = None
    regime: Regime | None = None


_new = object.__new__
_FIELDS = ("tick", "time", "price", "volume", "health_factor", "funding_rate", "regime")
(_set_tick, _set_time, _set_price, _set_volume, _set_hf, _set_funding, _set_regime) = (
    getattr(Observation, name).__set__ for name in _FIELDS
)


def make_observation(  # noqa: PLR0917  (positional on purpose: it runs on every tick)
    tick: int,
    time: datetime,
    price: float,
    volume: float,
    health_factor: float | None,
    funding_rate: float | None,
    regime: Regime | None,
) -> Observation:
    """Observation(...) without validation, for sources that emit millions of them: the
    frozen dataclass's own __init__ sets each slot through object.__setattr__ by name,
    which costs twice as much as the slot descriptors used here."""
    obs: Observation = _new(Observation)
    _set_tick(obs, tick)
    _set_time(obs, time)
    _set_price(obs, price)
    _set_volume(obs, volume)
    _set_hf(obs, health_factor)
    _set_funding(obs, funding_rate)
    _set_regime(obs, regime)
    return obs


class MarketSource(Protocol):
    """Anything the runtime can ask for the market as of a time on its clock."""

    def observe(self, time: datetime) -> Observation: ...
