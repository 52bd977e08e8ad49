"""A life's episodes: a forecast recorded for every model-made decision (and one per
horizon otherwise), scored when its horizon comes, kept in step with the store and the
memory the context layers read (the epistemic clock is the prediction engine's fitness:
predictions.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from golem.runtime.quiet import Stretch
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.subsystems.context import Memory
from golem.subsystems.contract import RECENT_EPISODES, Event
from golem.subsystems.heartbeat import HORIZON_TICKS
from golem.world import (
    DecisionSummary,
    Episode,
    EpisodeLog,
    EpisodeOutcome,
    MarketSummary,
    PaperPortfolio,
)

if TYPE_CHECKING:
    from golem.runtime.golem import Golem

__all__ = ["EpisodeBook", "QuietEpisodes", "forecast"]

_IMPLIED_DIRECTION = {"exit": -1.0, "hedge": -0.5, "rebalance": 0.5}


def forecast(record: DecisionRecord, market: MarketSummary, bias: float | None) -> DecisionSummary:
    """What an episode keeps of a decision. Its prediction is the decision's `expected_move`
    when it states one, else the move its action implies; `bias` is added to it."""
    decision = record.decision
    action = str(getattr(decision, "action", "observe"))
    confidence = float(getattr(decision, "confidence", 0.5))
    stated = getattr(decision, "expected_move", None)
    if stated is not None:  # the model's own forecast of the move over the horizon
        predicted = float(stated)
    else:
        # None stated (the rules, or a model with no view): the move the action implies,
        # a hedge or an exit a fall, a rebalance a rise, of about one horizon's
        # volatility; observing expects the price to stay.
        volatility = (market.return_volatility or 0.0) * HORIZON_TICKS**0.5
        predicted = _IMPLIED_DIRECTION.get(action, 0.0) * confidence * volatility
    if bias is not None:
        predicted += bias
    return DecisionSummary(
        action=action,
        tier=str(record.tier).lower(),
        confidence=confidence,
        predicted_delta=predicted,
        horizon_ticks=HORIZON_TICKS,
        rationale=record.outcome.summary[:200] if record.outcome else "",
    )


class EpisodeBook:
    """The episodes of a life (`log`), written through to the store and the memory; the
    tuple a Situation shows, rebuilt only after a change."""

    def __init__(self, log: EpisodeLog, store: StateStore, memory: Memory) -> None:
        self.log, self._store, self._memory = log, store, memory
        self._recent: tuple[Episode, ...] | None = None

    def recent(self) -> tuple[Episode, ...]:
        """The last RECENT_EPISODES episodes, as a Situation shows them."""
        if self._recent is None:
            self._recent = tuple(self.log.recent(RECENT_EPISODES))
        return self._recent

    def record(self, market: MarketSummary, summary: DecisionSummary) -> None:
        """A new episode: the decision `summary` made on `market`."""
        self._store.save_episode(self._recorded(market, summary))

    def resolve(self, market: MarketSummary, portfolio: PaperPortfolio) -> None:
        """Score the episodes whose horizon has come, against `market` and the exposure."""
        for episode in self.log.due(market.tick):
            self._store.save_episode(
                self._scored(episode, market, portfolio.equity(), portfolio.cash)
            )

    def quiet(self, golem: Golem, records: Callable[[int], DecisionRecord]) -> QuietEpisodes:
        """This book's part of a quiet stretch of `golem` (quiet.py): `resolve` each tick,
        and every HORIZON_TICKS the episode of the tick's decision (`records(i)`: the
        stretch's tick i's heartbeat record, the records part's `record`), biased as the
        life's forecasts are."""
        return QuietEpisodes(self, golem.portfolio, records, golem.options.forecast_bias)

    def _scored(
        self, episode: Episode, market: MarketSummary, equity: float, cash: float
    ) -> Episode:
        """`episode` resolved against `market` and the exposure (`equity` less `cash`),
        kept in the log and the memory (the caller stores it)."""
        actual = market.price / episode.observation.price - 1.0
        exposure = equity - cash
        outcome = EpisodeOutcome(episode.decision.horizon_ticks, actual, exposure * actual)
        resolved = self.log.resolve(episode.id, outcome)
        self._memory.put_episode(resolved)
        self._recent = None
        return resolved

    def _recorded(self, market: MarketSummary, summary: DecisionSummary) -> Episode:
        """A new episode in the log and the memory (the caller stores it)."""
        episode = self.log.record(market, summary)
        self._memory.put_episode(episode)
        self._recent = None
        return episode


class QuietEpisodes:
    """`EpisodeBook.resolve` on each tick of a quiet stretch, and `record` on those whose
    number is a multiple of HORIZON_TICKS (quiet.py's QuietPart), the book's log and the
    memory current after each step, the store's rows written at the end in one statement.

    A tick's episode is recorded once its decision is made: at the start of the next step
    (before that tick's resolutions, as in `Golem.tick`) or at `end`. So the driver steps
    this part before the part that makes the decisions (whose step `i` may read `recent()`:
    it then holds every episode of the ticks before, and none of tick `i`'s, as it would)."""

    def __init__(
        self,
        book: EpisodeBook,
        portfolio: PaperPortfolio,
        decision: Callable[[int], DecisionRecord],
        bias: Callable[[datetime], float] | None,
    ) -> None:
        self._book, self._portfolio, self._decision, self._bias = book, portfolio, decision, bias
        self._saved: list[Episode] = []
        self._owed: int | None = None  # the step whose episode waits for its decision

    def begin(self, stretch: Stretch) -> int:
        self._stretch, self._cash = stretch, self._portfolio.cash
        self._saved, self._owed = [], None
        return len(stretch)

    def step(self, i: int) -> Sequence[Event]:
        if self._owed is not None:
            self._record(self._owed)
        stretch, book = self._stretch, self._book
        market = stretch.summaries[i]
        for episode in book.log.due(market.tick):
            equity = float(stretch.equities[i])
            self._saved.append(book._scored(episode, market, equity, self._cash))
        if not (stretch.first_tick + i) % HORIZON_TICKS:
            self._owed = i
        return ()

    def end(self, done: int) -> None:
        if self._owed is not None and self._owed < done:
            self._record(self._owed)
        self._owed = None
        self._book._store.save_episodes(self._saved)
        self._saved = []

    def _record(self, i: int) -> None:
        """The episode of the stretch's tick `i`'s decision."""
        market, bias = self._stretch.summaries[i], self._bias
        biased = None if bias is None else bias(self._stretch.times[i])
        summary = forecast(self._decision(i), market, biased)
        self._saved.append(self._book._recorded(market, summary))
        self._owed = None
