"""What a golem sees of its market (`Senses`): each observation (a live market polled
first), the window of recent ones the probes read (kept across a restart), the market's
own state resumed from the last snapshot, and, in a simulation whose quality table asks
for it, the world's truth at this tick (a capability the world offers: the daemon's
market offers none, and its path is the same code with no truth).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import structlog
import trio

from golem.runtime.store.state import StateStore
from golem.subsystems.heartbeat import HORIZON_TICKS
from golem.world import (
    ForeseeableSource,
    LiveMarket,
    MarketSource,
    MarketStale,
    MarketWindow,
    Observation,
    ResumableSource,
    Truth,
)
from golem.world.costs import CostModel

__all__ = ["Senses"]

log = structlog.get_logger("golem")


class Senses:
    """`market` observed for `golem_id`; `foreseeing`: the truth may be looked up (a
    simulation's quality table asks for it); `costs`: what a trade on it costs (the
    truth's move is net of them)."""

    def __init__(
        self,
        market: MarketSource,
        store: StateStore,
        *,
        golem_id: str,
        foreseeing: bool,
        costs: CostModel,
    ) -> None:
        self.market, self._golem_id, self._costs = market, golem_id, costs
        # The probes see the ticks before a restart at once: the window is saved each tick.
        self.window = MarketWindow()
        for observation in store.observations(self.window.capacity):
            self.window.push(observation)
        self.unsaved = 0  # observations pushed since the last snapshot
        self.resumable = market if isinstance(market, ResumableSource) else None
        self._live = market if isinstance(market, LiveMarket) else None
        # The market a simulation can look ahead in, when a quality table asks for truth.
        seer = market if foreseeing and isinstance(market, ForeseeableSource) else None
        self.seer = seer
        self._truth: Truth | None = None  # the last tick's, kept for the tick's other calls

    def push(self, observation: Observation) -> None:
        self.window.push(observation)
        self.unsaved += 1

    async def observe(self, now: datetime) -> Observation | None:
        """The market at `now`; a live market is asked first (in a worker thread, its
        failures logged), and None when it is stale (a `market_stale` line)."""
        live = self._live
        if live is not None:
            poll = await trio.to_thread.run_sync(live.poll, now)
            for failure in poll.failures:
                log.warning(
                    "exchange_error",
                    golem=self._golem_id,
                    kind=type(failure).__name__,
                    retried=failure.retried,
                    error=str(failure),
                )
        try:
            return self.market.observe(now)
        except MarketStale as stale:
            since = None if stale.since is None else stale.since.isoformat()
            log.warning("market_stale", golem=self._golem_id, since=since, error=str(stale))
            return None

    def truth(self) -> Truth | None:
        """The world's truth at this tick (the regime and the move over the episode horizon),
        when a simulation gives one: looked ahead at most once a tick, and only when a model
        call asks (a look costs some thirty observations' time)."""
        seer, now = self.seer, self.window.latest
        if seer is None or now is None:
            return None
        if self._truth is None or self._truth.tick != now.tick:
            self._truth = Truth.of(now, seer.ahead(HORIZON_TICKS), self._costs)
        return self._truth

    def resume(self, saved: Any, tick: int) -> None:
        """Continue the market where the last snapshot left it. A state written before
        markets were saved (or for another seed) cannot be: the market starts again from
        its seed, with a warning."""
        market = self.resumable
        if market is None or (saved is None and tick == 0):
            return
        reason = "the state holds no market state (written by an older golem)"
        if saved is not None:
            try:
                market.restore(saved)
                return
            except ValueError as exc:
                reason = str(exc)
        log.warning(
            "market_not_resumed",
            golem=self._golem_id,
            tick=tick,
            reason=reason,
            consequence="the market starts again from its seed",
        )
