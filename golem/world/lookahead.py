"""The market at times to come, without consuming it (the fast-forward's lookahead, issue
[speed]): `Lookahead.of(market, times)` observes the market at `times`, one at a time, and
`keep(done)` leaves the market exactly as `done` step-by-step observations would have.

A simulated market is walked itself from a mark of where it was (its generator's state and
its slots: `SimulatedMarket.restore` would lose the last observation and the last step's
spacing, which the next observation and `ahead` read), then taken back and walked again
when fewer ticks are kept than were seen. Another resumable source (a candle replay) is
taken back through `state()`/`restore()`; a CSV replay is a pure function of the time
asked. Any other source (a live exchange) cannot be looked ahead: `of` gives None.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from golem.world.candles import CandleReplay
from golem.world.csv_market import CSVReplay
from golem.world.market import SimulatedMarket
from golem.world.observation import MarketSource, Observation, ResumableSource

__all__ = ["Lookahead"]


class Lookahead:
    """`market` observed at `times` (`next()` gives the next one), kept up to `keep(n)`."""

    __slots__ = ("_keep_all", "_mark", "_market", "_restore", "_seen", "_times")

    def __init__(
        self,
        market: MarketSource,
        times: Sequence[datetime],
        *,
        mark: Any,
        restore: Callable[[Any, Any], None] | None,
    ) -> None:
        self._market, self._times = market, times
        self._mark, self._restore = mark, restore
        self._seen = 0
        self._keep_all = restore is None  # a pure source: nothing to take back

    @classmethod
    def of(cls, market: MarketSource, times: Sequence[datetime]) -> Lookahead | None:
        """A lookahead over `market`, or None when it cannot be taken back."""
        if isinstance(market, SimulatedMarket):
            return cls(market, times, mark=_mark(market), restore=_rewind)
        if isinstance(market, CSVReplay):
            return cls(market, times, mark=None, restore=None)
        if isinstance(market, CandleReplay):
            return cls(market, times, mark=market.state(), restore=_restored)
        return None

    def next(self) -> Observation:
        """The observation at the next of `times` (the market's own errors propagate)."""
        observation = self._market.observe(self._times[self._seen])
        self._seen += 1
        return observation

    def keep(self, done: int) -> None:
        """Leave the market as `done` observations at the first `done` times leave it."""
        if self._keep_all or done == self._seen:
            return
        if done > self._seen:
            raise ValueError(f"kept {done} observations of {self._seen} seen")
        assert self._restore is not None
        self._restore(self._market, self._mark)
        observe = self._market.observe
        for time in self._times[:done]:
            observe(time)
        self._seen = done


def _restored(market: ResumableSource, state: Any) -> None:
    market.restore(state)


# What a simulated market's walk changes in place (besides its generator): copied by value.
_LISTS = ("_pending", "_active")


def _mark(market: SimulatedMarket) -> tuple[dict[str, Any], Any]:
    """Where `market` is: its slots (the lists copied) and its generator's state."""
    slots = {name: getattr(market, name) for name in SimulatedMarket.__slots__}
    for name in _LISTS:
        slots[name] = list(slots[name])
    rng: random.Random = slots["_rng"]
    return slots, rng.getstate()


def _rewind(market: SimulatedMarket, mark: tuple[dict[str, Any], Any]) -> None:
    """Take `market` back to `mark` (the same generator object, in its marked state)."""
    slots, rng_state = mark
    for name, value in slots.items():
        setattr(market, name, list(value) if name in _LISTS else value)
    market._rng.setstate(rng_state)
