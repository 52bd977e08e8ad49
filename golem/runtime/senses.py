"""What a golem sees of its market (`Senses`): each observation (a live market polled
first), the window of recent ones the probes read (kept across a restart), and the
market's own state resumed from the last snapshot. What the market will do is no part of
it: a simulation's truth is offered by its world to the minds that read it
(golem.simulation.foresight)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import structlog
import trio

from golem.runtime.knowledge import Knowledge
from golem.runtime.quiet_senses import QuietSenses
from golem.runtime.store.state import StateStore
from golem.runtime.vitals import VitalsChart
from golem.subsystems.heartbeat.probes import ProbePolicy, Reading
from golem.world import (
    LiveMarket,
    Lookahead,
    MarketSource,
    MarketStale,
    MarketSummary,
    MarketWindow,
    Observation,
    PaperPortfolio,
    RecordedSource,
    ResumableSource,
)

__all__ = ["Senses"]

log = structlog.get_logger("golem")


class Senses:
    """`market` observed for `golem_id`."""

    def __init__(
        self,
        market: MarketSource,
        store: StateStore,
        *,
        golem_id: str,
    ) -> None:
        self.market, self._golem_id = market, golem_id
        # The probes see the ticks before a restart at once: the window is saved each tick.
        self.window = MarketWindow()
        for observation in store.observed.newest(self.window.capacity):
            self.window.push(observation)
        self.unsaved = 0  # observations pushed since the last snapshot
        self.resumable = market if isinstance(market, ResumableSource) else None
        self._live = market if isinstance(market, LiveMarket) else None
        # The fast-forward's (quiet_senses.py), kept for the life: the market looked ahead
        # (None: it cannot be), and where recorded data ends.
        self.lookahead = Lookahead.of(market)
        self.ends = market.end if isinstance(market, RecordedSource) else None

    def quiet(
        self,
        *,
        portfolio: PaperPortfolio,
        knowledge: Knowledge,
        probes: ProbePolicy,
        store: StateStore,
        chart: VitalsChart,
        burn_decay: float,
        previous: Callable[[], MarketSummary | None],
        allows: Callable[[tuple[Reading, ...]], bool] | None = None,
    ) -> QuietSenses:
        """These senses' part of the fast-forward (quiet_senses.py), for this life."""
        return QuietSenses(
            self,
            portfolio=portfolio,
            knowledge=knowledge,
            probes=probes,
            store=store,
            chart=chart,
            burn_decay=burn_decay,
            previous=previous,
            allows=allows,
        )

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
