"""Episodes: what the market looked like, what the golem decided and predicted, and what
came of it N ticks later. Dreams replay them; the epistemic clock scores the predictions.
Held in memory here; `to_dict`/`from_dict` use JSON types only, for the daemon's store.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator, Mapping
from datetime import datetime
from itertools import islice
from typing import Any

from msgspec import Struct
from msgspec.structs import asdict, replace

from golem.world.observation import Regime
from golem.world.window import MarketSummary

__all__ = ["DecisionSummary", "Episode", "EpisodeLog", "EpisodeOutcome", "features"]


class DecisionSummary(Struct, frozen=True):
    """The decision as episodes remember it. `predicted_delta` is the expected fractional
    price change over `horizon_ticks` (the number the epistemic clock scores)."""

    action: str
    tier: str = "t0"
    confidence: float = 0.5
    predicted_delta: float = 0.0
    horizon_ticks: int = 20
    size_usd: float | None = None
    rationale: str = ""


class EpisodeOutcome(Struct, frozen=True):
    """What happened `horizon_ticks` after the decision."""

    horizon_ticks: int
    actual_delta: float
    pnl_usd: float


class Episode(Struct, frozen=True):
    id: int
    observation: MarketSummary
    decision: DecisionSummary
    outcome: EpisodeOutcome | None = None

    @property
    def prediction_error(self) -> float | None:
        """Actual minus predicted price change, once the outcome is known."""
        if self.outcome is None:
            return None
        return self.outcome.actual_delta - self.decision.predicted_delta

    def to_dict(self) -> dict[str, Any]:
        # Every field of the three records is a scalar: msgspec's asdict (shallow) is
        # their JSON form but for the observation's time and regime.
        observation = asdict(self.observation)
        observation["time"] = self.observation.time.isoformat()
        regime = self.observation.regime
        observation["regime"] = None if regime is None else regime.value
        return {
            "id": self.id,
            "observation": observation,
            "decision": asdict(self.decision),
            "outcome": None if self.outcome is None else asdict(self.outcome),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Episode:
        """The inverse of `to_dict`; a malformed dict raises ValueError."""
        try:
            observation = dict(data["observation"])
            observation["time"] = datetime.fromisoformat(observation["time"])
            if observation.get("regime") is not None:
                observation["regime"] = Regime(observation["regime"])
            outcome = data.get("outcome")
            return cls(
                id=int(data["id"]),
                observation=MarketSummary(**observation),
                decision=DecisionSummary(**data["decision"]),
                outcome=None if outcome is None else EpisodeOutcome(**outcome),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not an episode: {exc}") from exc


def features(summary: MarketSummary) -> tuple[float, ...]:
    """The market moment as a short vector in comparable units: each feature divided by
    the size of a move the heartbeat would notice. Unknown values count as unremarkable."""
    hf = summary.health_factor
    volume_ratio = summary.volume_ratio
    return (
        (summary.delta_1 or 0.0) / 0.005,
        (summary.delta_period or 0.0) / 0.02,
        summary.zscore or 0.0,
        math.log2(volume_ratio) if volume_ratio else 0.0,
        (summary.return_volatility or 0.0) / 0.001,
        0.0 if hf is None else (min(hf, 3.0) - 1.5) / 0.3,
    )


def _pair(episode: Episode, outcome: EpisodeOutcome) -> tuple[float, float]:
    """An episode's (predicted, actual) return over its horizon: each is the price at the
    horizon ÷ the price when the episode was made (`observation.price`) − 1, which is
    what the decision's `predicted_delta` and the outcome's `actual_delta` already hold."""
    return episode.decision.predicted_delta, outcome.actual_delta


def _forecast(episode: Episode) -> bool:
    """Whether the episode's decision forecast a move. A predicted change of 0 (the rules
    observing, a model with no view) is the naive forecast itself: scored, it adds the
    same error to the forecast's and the naive forecast's side, so it only pulls skill
    toward 0 by how often the golem had no view. The epistemic clock scores what the
    golem actually forecasts, so these are not scored."""
    return episode.decision.predicted_delta != 0.0


class EpisodeLog:
    """The most recent `capacity` episodes, by id (ids grow with time)."""

    def __init__(self, capacity: int = 10_000) -> None:
        if capacity < 1:
            raise ValueError("capacity must be positive")
        self._capacity = capacity
        self._episodes: dict[int, Episode] = {}
        self._features: dict[int, tuple[float, ...]] = {}
        self._pending: dict[int, None] = {}  # unresolved ids, oldest first: `due` reads only these
        # The (predicted, actual) returns of the resolved episodes, by id in id order: kept
        # as they resolve, so the epistemic clock's pairs need no walk over the log.
        self._pairs: dict[int, tuple[float, float]] = {}
        # No pending episode is due before this tick: `due`, asked every tick, then has
        # nothing to read. Resolving or dropping an episode only makes it an earlier bound.
        self._due_from: float = math.inf
        self._next_id = 0

    def __len__(self) -> int:
        return len(self._episodes)

    def __iter__(self) -> Iterator[Episode]:
        return iter(self._episodes.values())

    def get(self, episode_id: int) -> Episode | None:
        return self._episodes.get(episode_id)

    def record(self, observation: MarketSummary, decision: DecisionSummary) -> Episode:
        """A new episode without outcome, given the next id."""
        episode = Episode(self._next_id, observation, decision)
        self.append(episode)
        return episode

    def append(self, episode: Episode) -> None:
        """Add an episode made elsewhere (one restored from storage, say)."""
        if episode.id < self._next_id:
            raise ValueError(f"episode id {episode.id} is not after the last ({self._next_id - 1})")
        self._episodes[episode.id] = episode
        self._features[episode.id] = features(episode.observation)
        if episode.outcome is None:
            self._pending[episode.id] = None
            due_at = episode.observation.tick + episode.decision.horizon_ticks
            self._due_from = min(self._due_from, due_at)
        elif _forecast(episode):
            self._pairs[episode.id] = _pair(episode, episode.outcome)
        self._next_id = episode.id + 1
        while len(self._episodes) > self._capacity:
            oldest = next(iter(self._episodes))
            del self._episodes[oldest], self._features[oldest]
            self._pending.pop(oldest, None)
            self._pairs.pop(oldest, None)

    def resolve(self, episode_id: int, outcome: EpisodeOutcome) -> Episode:
        """Attach the outcome to an episode still held."""
        episode = self._episodes.get(episode_id)
        if episode is None:
            raise KeyError(f"no episode {episode_id} in the log")
        if episode.outcome is not None:
            raise ValueError(f"episode {episode_id} already has an outcome")
        resolved = replace(episode, outcome=outcome)
        self._episodes[episode_id] = resolved
        del self._pending[episode_id]
        if not _forecast(episode):
            return resolved
        pairs = self._pairs
        newest = next(reversed(pairs), -1)
        pairs[episode_id] = _pair(episode, outcome)
        if episode_id < newest:  # resolved out of order (a shorter horizon): keep id order
            self._pairs = dict(sorted(pairs.items()))
        return resolved

    def due(self, tick: int) -> list[Episode]:
        """Unresolved episodes whose horizon has passed by `tick`, oldest first."""
        if tick < self._due_from:
            return []
        episodes = self._episodes
        due: list[Episode] = []
        due_from = math.inf
        for episode_id in self._pending:
            episode = episodes[episode_id]
            due_at = episode.observation.tick + episode.decision.horizon_ticks
            if due_at <= tick:
                due.append(episode)
            # The due ones count too: they stay pending until the caller resolves them.
            due_from = min(due_from, due_at)
        self._due_from = due_from
        return due

    def recent(self, n: int) -> list[Episode]:
        """The last `n` episodes, newest first."""
        return list(islice(reversed(self._episodes.values()), max(n, 0)))

    def most_similar(
        self, observation: MarketSummary, k: int = 5, *, resolved_only: bool = False
    ) -> list[Episode]:
        """The `k` episodes whose market looked most like `observation` (Euclidean
        distance over `features`), nearest first; ties go to the newer episode."""
        target = features(observation)
        episodes = self._episodes
        candidates = (
            (math.dist(target, vector), -episode_id)
            for episode_id, vector in self._features.items()
            if not resolved_only or episodes[episode_id].outcome is not None
        )
        return [episodes[-neg_id] for _, neg_id in heapq.nsmallest(k, candidates)]

    def prediction_pairs(self, n: int = 100) -> list[tuple[float, float]]:
        """(predicted, actual) returns of the last `n` resolved episodes that forecast a move
        (see `_forecast`), oldest first: the epistemic clock's input. Returns, not price
        levels: any forecast that repeats the last price matches price levels closely, so
        levels would measure nothing."""
        pairs = list(islice(reversed(self._pairs.values()), max(n, 0)))
        pairs.reverse()
        return pairs
