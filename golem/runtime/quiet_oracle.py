"""The prediction engine's part of a quiet stretch (issue [speed]; the contract is quiet.py):
what `Predictor.observe` + `Predictor.hold` + `Predictor.calibration_alarms` do on each of
a stretch's quiet ticks, with the same answers.

`begin` plans the stretch from its readings: the regime tag of each tick (the window's
zscore), which claim resolves at which tick (inaction's claim made at tick j at the first
tick at or after j's time plus the horizon, and a claim pending from before the stretch at
the first tick at or after its due time that has a reading of its item), and the outcome
of each inaction claim resolved in the stretch (its level, the equity it meets: numpy's
elementwise product and difference round as Python's do). It can live every tick before
a blocked trade's horizon (whose would-be P&L the step-by-step tick logs).

`step` runs, in the reference's order, what must be sequential and what the stretch
reads: each resolution taught to the calibrator (whose refits move inaction's calibrated
confidence) and to fitness (senescence reads the regime's samples), the hourly `oracle`
line (logged as `observe` logs it, on the tally brought up to that tick), inaction's claim
at the calibrator's confidence of the moment, and the hourly calibration alarms (their
events end the stretch after this tick).

`end` teaches the corrector (nothing in a stretch reads it: the ticks from its last reset
by a change of regime on, the same additions in the same order), brings the tally up to
the last tick (integer counts, a window left in order), writes the ledger rows the `done`
ticks made (inaction's from a template, each table's in one write), leaves the book as the
ticks would have (its ids, the claims still pending, the resolutions kept), and the
Predictor's last reading time.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import numpy as np
import structlog

from golem.oracle import (
    EQUITY,
    HEALTH,
    PRICE,
    VOLATILITY,
    Above,
    Category,
    Prediction,
    Resolution,
    Source,
)
from golem.runtime.quiet import Stretch
from golem.runtime.readings import REPORT_EVERY, health, hourly_volatility, regime_of
from golem.subsystems.contract import Event

if TYPE_CHECKING:
    from golem.runtime.predictions import Predictor

__all__ = ["QuietOracle"]

log = structlog.get_logger("golem")

_Entry = tuple[datetime, int, int, Prediction]  # the book's pending checkpoint
_INACTION, _ANALYTICAL = Category.INACTION, Source.ANALYTICAL
_TRUE, _FALSE = "true", "false"
_ALWAYS = frozenset((PRICE, EQUITY))  # the readings every tick has


class QuietOracle:
    """`QuietPart` of a `Predictor`; `confidence` is the rules' decision's (the confidence
    inaction's claim states on a quiet tick)."""

    def __init__(self, predictor: Predictor, confidence: float) -> None:
        self._p = predictor
        self._raw = min(1.0, max(0.0, confidence))
        # Per tick, what resolves there in the book's order: (pending entry | None, j).
        self._plan: list[list[tuple[_Entry | None, int]]] = []
        self._made: list[Resolution] = []  # the resolutions of the ticks stepped, in order
        self._calibrated: list[float] = []  # inaction's calibrated confidence per tick
        self._times: Sequence[datetime] = ()
        self._regimes: list[str] = []
        self._equities: list[float] = []
        self._levels: list[float] = []
        self._actual: dict[int, tuple[float, float, bool]] = {}  # j: (actual, residual, ok)
        self._reports: set[int] = set()
        self._alarms: set[int] = set()
        self._readings: _Readings | None = None
        self._first_id = 0
        self._ticks: list[int] = []  # per tick stepped: the index of its first resolution
        self._tallied = 0  # the resolutions the tally has counted
        self._taken: list[_Entry] = []  # the book's checkpoints due by the stretch's last tick

    def begin(self, stretch: Stretch) -> int:
        p = self._p
        times, summaries = stretch.times, stretch.summaries
        n = min(len(times), len(summaries), len(stretch.equities))
        if p._gated:  # a blocked trade's horizon: its P&L is logged step by step
            n = min(n, bisect_left(times, p._gated[0].due, 0, n))
        self._times, self._made, self._calibrated = times, [], []
        self._ticks, self._tallied = [], 0
        self._first_id = p.oracle.book.next_id()
        self._regimes = [regime_of(s) for s in summaries[:n]]
        equities = np.asarray(stretch.equities[:n], dtype=np.float64)
        self._equities = equities.tolist()
        self._levels = (equities * (1 - p.flat_bps / 10_000)).tolist()
        self._reports = _hourly(times, n, p._reported, REPORT_EVERY)
        self._alarms = _hourly(times, n, p._checked, REPORT_EVERY)
        self._plan = self._planned(stretch, n)
        return n

    def _planned(self, stretch: Stretch, n: int) -> list[list[tuple[_Entry | None, int]]]:
        """Which checkpoint resolves at which tick, in the order the book pops them."""
        p, times = self._p, self._times
        horizon = p._horizon
        # (tick, due, id, checkpoint, entry, j): unique before the entry (a claim made here
        # has an id above every one taken), so sorted in the tuples' own order, no key.
        keyed: list[tuple[int, datetime, int, int, _Entry | None, int]] = []
        readings = self._readings = _Readings(stretch, p)
        self._taken = taken = p.oracle.book.take(times[n - 1]) if n else []
        for entry in taken:
            k = bisect_left(times, entry[0], 0, n)
            item = entry[3].item
            while k < n and item not in _ALWAYS and readings.get(item, k) is None:
                k += 1
            if k < n:
                keyed.append((k, entry[0], entry[1], entry[2], entry, 0))
        # Inaction's claim of tick j against the equity at its resolution (Above: the
        # equity above equity_j·(1 − tolerance)).
        equities, levels, actual = self._equities, self._levels, self._actual
        actual.clear()
        k, first = 0, self._first_id
        for j in range(n):
            due = times[j] + horizon
            while k < n and times[k] < due:
                k += 1
            if k == n:
                break
            keyed.append((k, due, first + j, 0, None, j))
            level, seen = levels[j], equities[k]
            actual[j] = (seen, seen - level, seen > level)
        keyed.sort()  # two runs in order, merged
        plan: list[list[tuple[_Entry | None, int]]] = [[] for _ in range(n)]
        for k, _, _, _, pending, j in keyed:
            plan[k].append((pending, j))
        return plan

    def step(self, i: int) -> Sequence[Event]:
        p, made = self._p, self._made
        oracle = p.oracle
        now, regime = self._times[i], self._regimes[i]
        p.regime = regime
        self._ticks.append(len(made))
        for entry, j in self._plan[i]:
            r = self._resolved(now, i, entry, j)
            oracle.calibrator.record(r.category, r.regime, r.confidence, r.correct)
            oracle.fitness.record(r)
            made.append(r)
        if i in self._reports:
            self._counted(i)
            p._reported = now
            log.info("oracle", golem=p._golem_id, **p.report(now))
        calibrated = oracle.calibrator.calibrate(_INACTION, regime, self._raw)
        self._calibrated.append(calibrated)
        return p.calibration_alarms(now) if i in self._alarms else ()

    def _counted(self, i: int) -> None:
        """The tally as after tick `i`: its counts are integers, and the resolutions leave
        its window in the order they came, so counting the ticks' resolutions at once and
        forgetting by tick `i`'s window is what each tick's count and forget leave."""
        made, tally = self._made, self._p.tally
        tally.count(made[self._tallied :])
        self._tallied = len(made)
        tally.forget(self._times[i] - self._p.gate.window)

    def _resolved(self, now: datetime, i: int, entry: _Entry | None, j: int) -> Resolution:
        if entry is None:  # inaction's claim of tick j
            actual, residual, correct = self._actual[j]
            return Resolution(  # its fields in order (positional: half the cost of unpacking)
                self._first_id + j,  # prediction_id
                0,  # checkpoint
                now,  # resolved_at
                _INACTION,  # category
                self._regimes[j],  # regime
                actual,
                residual,
                correct,
                _TRUE,  # forecast
                _TRUE if correct else _FALSE,  # observed
                self._calibrated[j],  # confidence
            )
        prediction = entry[3]
        claim = prediction.claim
        assert self._readings is not None  # planned in `begin`
        item = prediction.item
        value = self._equities[i] if item == EQUITY else self._readings.get(item, i)
        assert value is not None  # planned only where the item has a reading
        observed, predicted = claim.label(value), claim.predicted
        return Resolution(  # (as `PredictionBook.resolve` makes it)
            prediction.id,  # prediction_id
            entry[2],  # checkpoint
            now,  # resolved_at
            prediction.category,
            prediction.regime,
            value,  # actual
            claim.residual(value),
            observed == predicted,  # correct
            predicted,  # forecast
            observed,
            prediction.confidence,
        )

    def end(self, done: int) -> None:
        p = self._p
        if done <= 0:  # the checkpoints taken go back as they were
            p.oracle.book.lived(self._taken, p.oracle.book.next_id(), (), None)
            self._taken = []
            return
        book, table = p.oracle.book, p._table
        times, regimes, calibrated = self._times, self._regimes, self._calibrated
        made = self._made
        self._corrected(done)
        self._counted(done - 1)
        texts, ticks = table.texts(times[:done]), self._ticks
        ticks.append(len(made))
        table.append_resolutions(
            made, [texts[i] for i in range(done) for _ in range(ticks[i + 1] - ticks[i])]
        )
        first, raw, levels = self._first_id, self._raw, self._levels
        table.append_holds(
            first,
            created=texts,
            regimes=regimes[:done],
            confidences=calibrated[:done],
            raw=raw,
            levels=levels[:done],
            checkpoints=p._checkpoints,
        )
        popped = {(r.prediction_id, r.checkpoint) for r in made}
        due = [e for e in self._taken if (e[1], e[2]) not in popped]
        checkpoints = p._checkpoints
        horizon = checkpoints[0]
        for j in range(done):
            if (first + j, 0) not in popped:  # still pending: the book keeps the claim
                prediction = Prediction(  # `holding_is_optimal`'s, field for field
                    first + j,  # id
                    times[j],  # created_at
                    _INACTION,  # category
                    _ANALYTICAL,  # source
                    Above(levels[j]),  # claim
                    EQUITY,  # item
                    checkpoints,
                    regimes[j],  # regime
                    calibrated[j],  # confidence
                    raw,  # confidence_raw
                )
                due.append((times[j] + horizon, first + j, 0, prediction))
        book.lived(due, first + done, made, times[done - 1])
        p._last = times[done - 1]
        self._made, self._plan, self._actual, self._ticks, self._taken = [], [], {}, [], []

    def _corrected(self, done: int) -> None:
        """The corrector as after the `done` ticks: each tick tells it the regime, then
        teaches it the tick's resolutions; a change of regime clears what it learnt, so
        only the ticks from the last change on are taught (the same additions in the same
        order)."""
        corrector, regimes = self._p.oracle.corrector, self._regimes
        last, start = corrector._regime, 0
        for i in range(done):
            if regimes[i] != last:
                if last is not None:
                    start = i  # tick i clears the corrector
                last = regimes[i]
        if start:
            corrector._regime = regimes[start - 1]  # as tick `start` finds it
        corrector.observe_regime(regimes[start])  # (the same regime changes nothing there)
        record = corrector.record
        for r in self._made[self._ticks[start] :]:
            record(r.category, r.regime, r.residual, r.correct)


def _hourly(times: Sequence[datetime], n: int, last: datetime | None, every: timedelta) -> set[int]:
    """The ticks among the first `n` at which an hourly reading last taken at `last` is
    taken again (the first tick when never)."""
    due: set[int] = set()
    i = 0
    while i < n:
        if last is not None:
            i = bisect_left(times, last + every, i, n)
            if i >= n:
                break
        due.add(i)
        last = times[i]
        i += 1
    return due


class _Readings:
    """The readings `observe` hands the book at a stretch's tick (price, equity, the hourly
    volatility and the lending position's health where there is one)."""

    def __init__(self, stretch: Stretch, predictor: Predictor) -> None:
        self._summaries = stretch.summaries
        self._equities = stretch.equities
        self._times = stretch.times
        self._last = predictor._last

    def get(self, item: str, k: int) -> float | None:
        summary = self._summaries[k]
        if item == PRICE:
            return summary.price
        if item == EQUITY:
            return float(self._equities[k])
        if item == VOLATILITY:
            times = self._times
            return hourly_volatility(summary, times[k - 1] if k else self._last, times[k])
        if item == HEALTH:
            return health(summary)
        return None
