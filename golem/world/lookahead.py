"""The market at times to come, without consuming it (the fast-forward's lookahead, issue
[speed]): `Lookahead.of(market)`, once a life; then for each stretch `start(times)`,
`next()` for the observation at each of `times` in turn, and `keep(done)`, which leaves
the market exactly as `done` step-by-step observations at the first `done` times would.

A simulated market is looked ahead on a *shadow*: a copy of it (its own generator in the
same state) that walks the same path. The market itself only ever observes the times a
life lives, so it is exact whatever the lookahead saw; the shadow is a cache, kept while
it is where the market is or one observation ahead of it at a time the market is then
asked (the tick that ended a stretch is the next the life lives), walked on when it is a
few grid steps behind (ticks lived step by step), and copied again from the market
otherwise; a shadow that saw a long stretch all kept becomes the market.
(Taking the market back instead would cost its generator's state, ~16 µs, each stretch.)
A candle replay is walked itself and taken back through `state()`/`restore()`; a CSV
replay is a pure function of the time asked. Any other source (a live exchange) cannot be
looked ahead: `of` gives None.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from golem.world.candles import CandleReplay
from golem.world.csv_market import CSVReplay
from golem.world.market import SimulatedMarket
from golem.world.observation import MarketSource, Observation

__all__ = ["Lookahead"]

_NO_TIMES: Sequence[datetime] = ()
# A shadow that saw only ticks kept, this many or more, becomes the market (its slots
# taken over) rather than the market walking them again; a new shadow costs a copy of
# the generator's state (~10 µs, the walk of ~10 ticks; 8 to 16 measured alike).
_ADOPT_AFTER = 16
# A shadow this many grid steps or fewer behind the market walks them (~1 µs each)
# rather than be copied again.
_CATCH_UP = 16


class Lookahead:
    """A source's observations at times to come, for one life (see the module)."""

    __slots__ = ("_market", "_saved", "_seen", "_shadow", "_shown", "_times")

    def __init__(self, market: MarketSource) -> None:
        self._market = market
        self._shadow: SimulatedMarket | None = None
        self._times, self._seen = _NO_TIMES, 0
        self._saved: Any = None
        self._shown: tuple[Observation | None, Observation | None] = (None, None)  # last 2

    @classmethod
    def of(cls, market: MarketSource) -> Lookahead | None:
        """A lookahead over `market`, or None when it cannot be looked ahead."""
        if isinstance(market, SimulatedMarket | CSVReplay | CandleReplay):
            return cls(market)
        return None

    def start(self, times: Sequence[datetime]) -> None:
        """Look ahead at `times` (the market as it is now; the last stretch kept)."""
        self._times, self._seen = times, 0
        market = self._market
        if isinstance(market, SimulatedMarket):
            shadow = self._shadow
            if shadow is None or not (_where(shadow, market) or _caught_up(shadow, market)):
                self._shadow = market._twin()
        elif isinstance(market, CandleReplay):
            self._saved = market.state()

    def next(self) -> Observation:
        """The observation at the next of `times` (the market's own errors propagate)."""
        time = self._times[self._seen]
        source = self._shadow if self._shadow is not None else self._market
        observation = source.observe(time)
        self._seen += 1
        self._shown = (self._shown[1], observation)
        return observation

    def keep(self, done: int) -> None:
        """Leave the market as `done` observations at the first `done` times leave it."""
        if done > self._seen:
            raise ValueError(f"kept {done} observations of {self._seen} seen")
        market, times = self._market, self._times
        if isinstance(market, SimulatedMarket):
            if done == self._seen >= _ADOPT_AFTER and self._shadow is not None:
                _adopt(market, self._shadow)  # it is where the market is to be
                self._shadow = None
            elif done and not _walked(market, times[:done], self._kept(done)):
                observe = market.observe
                for time in times[:done]:
                    observe(time)
        elif isinstance(market, CandleReplay) and done < self._seen:
            market.restore(self._saved)
            for time in times[:done]:
                market.observe(time)
        self._times, self._seen, self._saved = _NO_TIMES, 0, None
        self._shown = (None, None)

    def _kept(self, done: int) -> Observation | None:
        """The observation the lookahead showed at the `done`th time, if one of the last
        two it showed (the last kept: all were, or all but the one that ended the stretch)."""
        back = self._seen - done
        return self._shown[1 - back] if back in (0, 1) else None


def _walked(market: SimulatedMarket, times: Sequence[datetime], last: Observation | None) -> bool:
    """Whether `market` was walked to where observing each of `times` in turn would leave
    it (the same grid steps walked, the same clocks, `last` the last observation): the
    observations between are not made again. False, the market untouched, when `last`
    is not known or the times do not move forward from the market's last."""
    start = market._start
    if last is None or start is None or last.time != times[-1]:
        return False
    elapsed = (times[-1] - start).total_seconds()
    before = market._elapsed if len(times) == 1 else (times[-2] - start).total_seconds()
    if not market._elapsed < (times[0] - start).total_seconds() or not before < elapsed:
        return False
    target = int((elapsed + 1e-6) // market._interval_s)
    walk = market._walk
    while market._grid < target:
        walk()
    market._tick = last.tick
    market._elapsed, market._last_step, market._last = elapsed, elapsed - before, last
    return True


def _adopt(market: SimulatedMarket, shadow: SimulatedMarket) -> None:
    """`market` takes over `shadow`'s state (its generator, lists and all): the shadow
    is not used again."""
    for name in SimulatedMarket.__slots__:
        setattr(market, name, getattr(shadow, name))


def _caught_up(shadow: SimulatedMarket, market: SimulatedMarket) -> bool:
    """Whether `shadow`, a copy of `market` that is behind it (the ticks after a stretch
    lived step by step), walked the grid steps it lacks (a grid step's draws and moves
    depend on its number alone) and took the market's observation clocks: then it is where
    the market is. Further behind, or ahead, it is not touched: a new copy is cheaper."""
    behind = market._grid - shadow._grid
    if not 0 <= behind <= _CATCH_UP or shadow._elapsed > market._elapsed:
        return False
    walk = shadow._walk
    for _ in range(behind):
        walk()
    shadow._tick, shadow._elapsed = market._tick, market._elapsed
    shadow._last_step, shadow._last = market._last_step, market._last
    return (
        _where(shadow, market)
        and shadow._price == market._price
        and shadow._grid_volume == market._grid_volume
        and shadow._regime is market._regime
    )


def _where(shadow: SimulatedMarket, market: SimulatedMarket) -> bool:
    """Whether `shadow` (a copy of `market` that walked on) is where `market` is: the same
    grid steps walked (so the same draws of their generators, the same price, regime and
    shocks), the same observations counted, at the same time and spacing, the same last."""
    return (
        shadow._grid == market._grid
        and shadow._tick == market._tick
        and shadow._elapsed == market._elapsed
        and shadow._last_step == market._last_step
        and shadow._last == market._last
    )
