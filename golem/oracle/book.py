"""The prediction book: predictions registered with their checkpoints, each checkpoint
resolved against the reading of its tracked item at the first tick at or after it falls due,
and accuracy reports per category, regime and window over the resolutions.

Append-only: a prediction is never changed after it is registered; resolutions are
appended. An optional `PredictionLedger` (the state database's, at the runtime's edge)
receives both as they happen; the book itself does no IO.

Cost: `resolve` pops due checkpoints from a heap, O(k log n) for k due; a report scans the
resolutions kept (those younger than the compaction window), O(n) per report, which the
gate asks once per trade.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from msgspec import Struct

from golem.oracle.claims import Claim

__all__ = [
    "AccuracyReport",
    "Category",
    "Prediction",
    "PredictionBook",
    "PredictionLedger",
    "Resolution",
    "Source",
]


_NO_TIME = timedelta(0)


class Category(StrEnum):
    """The categories golem's world can resolve (Bardo's DeFi list, narrowed): the price's
    direction, the volatility regime, the lending position's health, and inaction."""

    PRICE_DIRECTION = "price_direction"
    VOLATILITY_REGIME = "volatility_regime"
    POSITION_HEALTH = "position_health"
    INACTION = "inaction"


class Source(StrEnum):
    """Who made the prediction (Bardo: Analytical{tier}, Corrective, Creative, Collective,
    Retrospective); the tier or dream phase goes in `Prediction.source_detail`."""

    ANALYTICAL = "analytical"
    CORRECTIVE = "corrective"
    CREATIVE = "creative"
    COLLECTIVE = "collective"
    RETROSPECTIVE = "retrospective"


class Prediction(Struct, frozen=True):
    """A falsifiable claim about `item` (a reading the world gives each tick: "price",
    "volatility", "health", "equity"), resolved at each of `checkpoints` (offsets from
    `created_at`) independently. `regime` is the golem's own regime tag when it predicted;
    `confidence` the calibrated one, `confidence_raw` as stated; `correction` the centre
    shift the residual corrector applied (0 when none)."""

    id: int
    created_at: datetime
    category: Category
    source: Source
    claim: Claim
    item: str
    checkpoints: tuple[timedelta, ...]
    regime: str
    confidence: float
    confidence_raw: float
    source_detail: str = ""
    action_ref: str | None = None
    correction: float = 0.0

    def __post_init__(self) -> None:
        if not self.checkpoints or min(self.checkpoints) <= _NO_TIME:
            raise ValueError("a prediction needs at least one checkpoint after its creation")
        if not (0.0 <= self.confidence <= 1.0 and 0.0 <= self.confidence_raw <= 1.0):
            raise ValueError("confidence must be in [0, 1]")


class Resolution(Struct, frozen=True):
    """One checkpoint of one prediction, resolved: the reading, the residual, whether the
    claim held, and the class forecast against the class observed."""

    prediction_id: int
    checkpoint: int  # index into the prediction's checkpoints
    resolved_at: datetime
    category: Category
    regime: str
    actual: float
    residual: float
    correct: bool
    forecast: str
    observed: str
    confidence: float


@dataclass(frozen=True, slots=True)
class AccuracyReport:
    """Bardo's AccuracyReport: `sample_sufficient` once `total` reaches the minimum."""

    total: int
    hits: int
    mean_residual: float
    mean_abs_residual: float
    sample_sufficient: bool

    @property
    def hit_rate(self) -> float:
        return self.hits / self.total if self.total else 0.0


class PredictionLedger(Protocol):
    """Where predictions and resolutions are appended (the state database's table)."""

    def append_prediction(self, prediction: Prediction) -> None: ...

    def append_resolution(self, resolution: Resolution) -> None: ...


class PredictionBook:
    """Pending checkpoints and recent resolutions. `register` a prediction; `resolve` at
    each tick with the tick's readings; `report` for accuracy."""

    def __init__(
        self,
        *,
        ledger: PredictionLedger | None = None,
        compaction_window: timedelta = timedelta(days=7),
        sample_minimum: int = 30,
    ) -> None:
        self._ledger = ledger
        self._window = compaction_window
        self._minimum = sample_minimum
        self._next_id = 1
        self._due: list[tuple[datetime, int, int, Prediction]] = []  # (due, id, index, p)
        self._resolved: deque[Resolution] = deque()

    @property
    def pending(self) -> int:
        return len(self._due)

    def recent(self) -> tuple[Resolution, ...]:
        """The resolutions kept (those within the compaction window), oldest first."""
        return tuple(self._resolved)

    def next_id(self) -> int:
        """The id the next registered prediction gets (ids are monotonic)."""
        return self._next_id

    def register(self, prediction: Prediction) -> Prediction:
        if prediction.id != self._next_id:
            raise ValueError(f"prediction id {prediction.id}, expected {self._next_id}")
        self._next_id += 1
        for index, offset in enumerate(prediction.checkpoints):
            due = prediction.created_at + offset
            heapq.heappush(self._due, (due, prediction.id, index, prediction))
        if self._ledger is not None:
            self._ledger.append_prediction(prediction)
        return prediction

    def restore(
        self, predictions: Iterable[Prediction], resolutions: Iterable[Resolution]
    ) -> list[Resolution]:
        """Rebuild the book from its ledger's rows (a restart), writing nothing to it: the
        predictions in id order, their checkpoints pending unless `resolutions` holds
        them; returns the resolutions (the learners are fed them again by the caller).
        Resolutions older than the compaction window of the newest one are not kept."""
        done = list(resolutions)
        resolved = {(r.prediction_id, r.checkpoint) for r in done}
        for prediction in predictions:
            self._next_id = max(self._next_id, prediction.id + 1)
            for index, offset in enumerate(prediction.checkpoints):
                if (prediction.id, index) not in resolved:
                    due = prediction.created_at + offset
                    heapq.heappush(self._due, (due, prediction.id, index, prediction))
        if done:
            newest = max(r.resolved_at for r in done)
            self._resolved.extend(r for r in done if newest - r.resolved_at <= self._window)
        return done

    def resolve(self, now: datetime, readings: Mapping[str, float]) -> list[Resolution]:
        """Resolve every checkpoint due at or before `now` whose item has a reading; those
        whose item has none stay pending until it has. Old resolutions are compacted."""
        done: list[Resolution] = []
        waiting: list[tuple[datetime, int, int, Prediction]] = []
        while self._due and self._due[0][0] <= now:
            entry = heapq.heappop(self._due)
            prediction = entry[3]
            actual = readings.get(prediction.item)
            if actual is None:
                waiting.append(entry)
                continue
            claim = prediction.claim
            observed = claim.label(actual)
            resolution = Resolution(
                prediction_id=prediction.id,
                checkpoint=entry[2],
                resolved_at=now,
                category=prediction.category,
                regime=prediction.regime,
                actual=actual,
                residual=claim.residual(actual),
                correct=observed == claim.predicted,
                forecast=claim.predicted,
                observed=observed,
                confidence=prediction.confidence,
            )
            done.append(resolution)
        for entry in waiting:
            heapq.heappush(self._due, entry)
        self._resolved.extend(done)
        if self._ledger is not None:
            for resolution in done:
                self._ledger.append_resolution(resolution)
        self._compact(now)
        return done

    def _compact(self, now: datetime) -> None:
        while self._resolved and now - self._resolved[0].resolved_at > self._window:
            self._resolved.popleft()

    def due(self) -> list[tuple[datetime, int, int, Prediction]]:
        """The pending checkpoints (due, prediction id, checkpoint index, prediction), in
        the order `resolve` takes them."""
        return sorted(self._due)

    def take(self, until: datetime) -> list[tuple[datetime, int, int, Prediction]]:
        """Take out the pending checkpoints due at or before `until`, in the order `resolve`
        takes them (a stretch lived in bulk plans their resolutions and gives back, to
        `lived`, those it did not resolve). O(k log n) for k taken."""
        heap, taken = self._due, []
        while heap and heap[0][0] <= until:
            taken.append(heapq.heappop(heap))
        return taken

    def lived(
        self,
        pending: Iterable[tuple[datetime, int, int, Prediction]],
        next_id: int,
        resolved: Iterable[Resolution],
        now: datetime | None,
    ) -> None:
        """What a stretch of ticks lived in bulk (runtime/quiet_oracle.py) left: the
        checkpoints `pending` again (those it took and did not resolve, and the claims it
        made still pending), the next id, the resolutions made there (in order, already in
        the ledger), the kept ones compacted as `resolve` at `now` would (None: no tick
        was lived)."""
        heap = self._due
        for entry in pending:
            heapq.heappush(heap, entry)
        self._next_id = next_id
        self._resolved.extend(resolved)
        if now is not None:
            self._compact(now)

    def report(
        self,
        category: Category,
        *,
        now: datetime,
        window: timedelta,
        regime: str | None = None,
    ) -> AccuracyReport:
        """Accuracy of `category`'s resolutions in the `window` before `now` (in `regime`
        only, when given)."""
        chosen = [
            r
            for r in self._resolved
            if r.category is category
            and now - r.resolved_at <= window
            and (regime is None or r.regime == regime)
        ]
        total = len(chosen)
        hits = sum(1 for r in chosen if r.correct)
        residual = sum(r.residual for r in chosen) / total if total else 0.0
        absolute = sum(abs(r.residual) for r in chosen) / total if total else 0.0
        return AccuracyReport(total, hits, residual, absolute, total >= self._minimum)
