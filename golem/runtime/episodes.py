"""A life's episodes: a forecast recorded for every model-made decision (and one per
horizon otherwise), scored when its horizon comes, kept in step with the store and the
memory the context layers read (the epistemic clock is the prediction engine's fitness:
predictions.py).
"""

from __future__ import annotations

from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.subsystems.context import Memory
from golem.subsystems.contract import RECENT_EPISODES
from golem.subsystems.heartbeat import HORIZON_TICKS
from golem.world import (
    DecisionSummary,
    Episode,
    EpisodeLog,
    EpisodeOutcome,
    MarketSummary,
    PaperPortfolio,
)

__all__ = ["EpisodeBook", "forecast"]

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
        episode = self.log.record(market, summary)
        self._store.save_episode(episode)
        self._memory.put_episode(episode)
        self._recent = None

    def resolve(self, market: MarketSummary, portfolio: PaperPortfolio) -> None:
        """Score the episodes whose horizon has come, against `market` and the exposure."""
        for episode in self.log.due(market.tick):
            actual = market.price / episode.observation.price - 1.0
            exposure = portfolio.equity() - portfolio.cash
            outcome = EpisodeOutcome(episode.decision.horizon_ticks, actual, exposure * actual)
            resolved = self.log.resolve(episode.id, outcome)
            self._store.save_episode(resolved)
            self._memory.put_episode(resolved)
            self._recent = None
