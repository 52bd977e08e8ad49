"""The senses over a quiet stretch (issue [speed]): what the market shows at each of the
stretch's heartbeats, looked ahead without consuming the market (`Senses.lookahead`),
pushed through the golem's window the way `Senses.push` does, and the portfolio marked at
each price.

`QuietSenses.begin` is the first part's: it fills the stretch's summaries, prices and
equities for the leading ticks that are quiet from the market's side, and returns how many
they are. A tick is not quiet when a T0 probe fires (`readings`, on the credits of the
stretch's start and the burn rate as quiet ticks decay it; a driver may `allow` some
probes, see `_look`), when a world-feed item falls due by its observation, when recorded
data has ended before it (the heartbeat job ends the life there), when the market cannot
say (stale, or an error the step-by-step tick raises itself), or when its price is one no
portfolio can be marked at. `step(i)` does nothing (the parts read tick i's equity from
the stretch; nothing reads the portfolio during a stretch). `end(done)` leaves the
market, the window (and what the next snapshot saves of it), what the golem heard and the
portfolio's marks exactly as `done` step-by-step ticks would have.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from golem.runtime.knowledge import Knowledge
from golem.runtime.quiet import Stretch
from golem.runtime.store.state import StateStore
from golem.runtime.vitals import VitalsChart
from golem.subsystems.contract import Event
from golem.subsystems.heartbeat.probes import ProbePolicy, Reading, readings
from golem.world import (
    MarketStale,
    MarketSummary,
    Observation,
    PaperPortfolio,
    Pushed,
)

if TYPE_CHECKING:
    from golem.runtime.golem import Golem
    from golem.runtime.senses import Senses

__all__ = ["QuietSenses"]

_NONE = np.empty(0, dtype=np.float64)
_NONE.flags.writeable = False


class QuietSenses:
    """The `senses` part of the fast-forward (a `QuietPart`).

    `previous` gives the summary the golem's last tick probed (the regime probe compares
    bands with it); after `end(done)` with `done` > 0 the golem's previous is `last`, the
    stretch's `summaries[done - 1]`."""

    def __init__(
        self,
        senses: Senses,
        *,
        portfolio: PaperPortfolio,
        knowledge: Knowledge,
        probes: ProbePolicy,
        store: StateStore,
        chart: VitalsChart,
        burn_decay: float,
        previous: Callable[[], MarketSummary | None],
        allows: Callable[[tuple[Reading, ...]], bool] | None = None,
    ) -> None:
        self._senses, self._portfolio, self._knowledge = senses, portfolio, knowledge
        self._probes, self._store, self._chart = probes, store, chart
        self._decay, self._previous, self._allows = burn_decay, previous, allows
        self._ends, self._ahead = senses.ends, senses.lookahead
        self._looking = False  # `begin` has started the lookahead: `end` keeps from it
        self._pushes: list[Pushed] = []
        self._observations: list[Observation] = []
        self._prices: list[float] = []
        self._summaries: list[MarketSummary] = []
        self.fired: list[tuple[Reading, ...]] = []  # the probes of each tick `begin` allows
        self.last: MarketSummary | None = None  # the last tick lived's summary (`end`)

    @classmethod
    def of(
        cls, golem: Golem, allows: Callable[[tuple[Reading, ...]], bool] | None = None
    ) -> QuietSenses:
        """`golem`'s senses part, as the golem is now (cheap to make for each stretch:
        what lasts across stretches, the market's lookahead, is kept by its `Senses`)."""
        return cls(
            golem.senses,
            portfolio=golem.portfolio,
            knowledge=golem.knowledge,
            probes=golem.probes,
            store=golem.store,
            chart=golem.chart,
            burn_decay=golem.policy.burn_decay,
            previous=lambda: golem.previous,
            allows=allows,
        )

    def begin(self, stretch: Stretch) -> int:
        self._looking, self._pushes, self._observations = False, [], []
        self._prices, self._summaries, self.fired = [], [], []
        quiet = self._look(stretch) if len(stretch) else 0
        stretch.summaries, stretch.fired = self._summaries, self.fired
        if quiet:
            prices = stretch.prices = np.array(self._prices, dtype=np.float64)
            stretch.equities = self._equities(prices)
        else:
            stretch.prices = stretch.equities = _NONE
        return quiet

    def _look(self, stretch: Stretch) -> int:
        """Observe, push and probe tick by tick while the ticks are quiet: no probe fires
        (or `allows` the probes that fire, which `fired` keeps), on the credits of the
        stretch's start (a quiet tick spends nothing) and the burn rate as each quiet
        tick's vitality update decays it (`VitalsChart.update` with nothing spent)."""
        window, ahead = self._senses.window, self._ahead
        if ahead is None:  # a live exchange: every tick is lived step by step
            return 0
        if not len(window) or not self._portfolio.marks:  # a birth, an endowment
            return 0
        ahead.start(stretch.times)
        self._looking = True
        ends, allows, decay = self._ends, self._allows, self._decay
        knowledge, policy = self._knowledge, self._probes
        credits, burn = self._store.credits(), self._chart.vitals.burn_rate_usd
        previous = self._previous()
        pushes, observations, prices, summaries, fired = (
            self._pushes,
            self._observations,
            self._prices,
            self._summaries,
            self.fired,
        )
        push, summary_of, hears_nothing = window.pushed, window.summary, knowledge.hears_nothing
        for time in stretch.times:
            if ends is not None and time > ends:
                break
            try:
                observation = ahead.next()
            except (MarketStale, ValueError):
                break
            price = observation.price
            if not (math.isfinite(price) and price > 0) or not hears_nothing(observation.time):
                break
            pushed = push(observation)
            summary = summary_of()
            probes = readings(
                summary, previous, credits_usd=credits, burn_rate_usd=burn, policy=policy
            )
            if probes and (allows is None or not allows(probes)):
                window.unpush(pushed)
                break
            pushes.append(pushed)
            observations.append(observation)
            prices.append(price)
            summaries.append(summary)
            fired.append(probes)
            previous = summary
            burn = decay * burn + (1 - decay) * 0.0
        return len(observations)

    def _equities(self, prices: np.ndarray) -> np.ndarray:
        """`portfolio.equity()` after `mark(price)` at each price: cash plus each position
        at its mark, added in the portfolio's order (elementwise, the same roundings)."""
        portfolio = self._portfolio
        asset, marks = portfolio.config.asset, portfolio.marks
        held = np.zeros(len(prices), dtype=np.float64)
        for name, quantity in portfolio.quantities().items():
            held = held + (quantity * prices if name == asset else quantity * marks[name])
        equities: np.ndarray = portfolio.cash + held
        return equities

    def step(self, i: int) -> Sequence[Event]:
        # Nothing: the parts read tick i's equity from `Stretch.equities`, and `end`
        # marks the portfolio at the last tick's price (what each tick's mark leaves).
        return ()

    def end(self, done: int) -> None:
        if self._looking:
            assert self._ahead is not None
            self._ahead.keep(done)
        self._looking = False
        window = self._senses.window
        for pushed in reversed(self._pushes[done:]):
            window.unpush(pushed)
        self._senses.unsaved += done
        self._knowledge.hear_quiet(self._observations[:done])
        if done:
            self._portfolio.mark(self._prices[done - 1])
        self.last = self._summaries[done - 1] if done else None
        self._pushes, self._observations, self._prices, self._summaries = [], [], [], []
