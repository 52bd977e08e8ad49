"""What a market source says about one tick: the Observation, and the Regime labels a
simulation knows for certain (ground truth kept as metadata, never shown to a model).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

import msgspec
from msgspec import Struct

__all__ = [
    "ForeseeableSource",
    "MarketSource",
    "Observation",
    "RecordedSource",
    "Regime",
    "ResumableSource",
    "saved_state",
]


class Regime(StrEnum):
    """The hidden state of the simulated market; a replay may carry it as a label too."""

    CALM = "calm"
    TRENDING = "trending"
    VOLATILE = "volatile"
    CRASH = "crash"


class Observation(Struct, frozen=True):
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


class MarketSource(Protocol):
    """Anything the runtime can ask for the market as of a time on its clock."""

    def observe(self, time: datetime) -> Observation: ...


@runtime_checkable
class ResumableSource(MarketSource, Protocol):
    """A source whose next observation depends on those it gave (a simulation): its
    state is part of the golem's, saved with the portfolio it marks."""

    def state(self) -> dict[str, Any]:
        """Where the source is, as JSON-ready data."""
        ...

    def restore(self, state: Any) -> None:
        """Continue from `state()`; ValueError (changing nothing) if it cannot."""
        ...


class _Versioned(Protocol):
    @property
    def version(self) -> int: ...


_S = TypeVar("_S", bound=_Versioned)


def saved_state(state: Any, kind: type[_S], version: int, what: str) -> _S:
    """`state` (a ResumableSource's `state()`) read as `kind`; ValueError naming `what`
    when it is not one, or was saved by another `version`."""
    try:
        saved = msgspec.convert(state, kind)
    except msgspec.ValidationError as exc:
        raise ValueError(f"not a {what}: {exc}") from exc
    if saved.version != version:
        raise ValueError(f"{what} version {saved.version}, not {version}")
    return saved


@runtime_checkable
class ForeseeableSource(MarketSource, Protocol):
    """A source that knows the path ahead (a simulation, a replay of real candles): the
    truth a simulation's minds read and no golem can."""

    def ahead(self, steps: int) -> list[Observation]:
        """The next `steps` observations at the spacing of the last step, leaving the
        source as it was."""
        ...


@runtime_checkable
class RecordedSource(MarketSource, Protocol):
    """Recorded data (a CSV, candles): it ends, and a life that outlasts it ends with it."""

    @property
    def path(self) -> Path: ...

    @property
    def end(self) -> datetime: ...

    def check_serves(self, start: datetime, end: datetime | None = None) -> None:
        """Raise a WorldDataError unless the data covers `start`."""
        ...
