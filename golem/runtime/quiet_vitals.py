"""Vitality over a quiet stretch of heartbeats (fast-forward, quiet.py's QuietPart):
`VitalsChart.update(tick, 0.0, …)` for each of its ticks, value for value."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import numpy as np

from golem.mortality import Phase, Stage, Vitals
from golem.mortality.hazard import background, chance, uniform_draw
from golem.mortality.vitality import (
    VITALITY_FLOOR,
    age_factors,
    death_cause,
    economic_factor,
    epistemic_factor,
    phase_bands,
    phase_of,
)
from golem.mortality.vitals import economic_level
from golem.runtime.logs import lines_ahead
from golem.runtime.quiet import Stretch
from golem.runtime.store.rows import VitalityRow
from golem.subsystems.contract import Event

if TYPE_CHECKING:
    from golem.runtime.vitals import VitalsChart

__all__ = ["QuietVitals"]

_TERMINAL = Phase.TERMINAL  # read every tick: `Enum.MEMBER` is a slow read on Python 3.11
_MICROSECOND = timedelta(microseconds=1)
_STAGE_NORMAL = Stage.NORMAL


class QuietVitals:
    """`VitalsChart.update(tick, 0.0, …)` over a quiet stretch (quiet.py's QuietPart), value
    for value. `begin` computes what does not wait on the prediction engine: the economic
    clock (the credits and the reserve hold still), each tick's age factor, its age in
    seconds and its interval in the hazard's reference ticks; `step` does the rest of
    `assess` on the tick's fitness (the hazard's draw, a pure function of the tick, with
    it); `end` writes the vitality rows in one statement, and senescence's stage once if it
    changed. The chart's `vitals` is current after each step (the next tick's gate reads
    it); a death cause is `chart.vitals.cause`, as after `update`. A reading that is news
    is published `late` (told when the stretch commits, its line stamped with its tick's
    time), after `before_reading(i + 1)` (the records part's `tell`: the decisions up to
    its tick published first, as step by step)."""

    def __init__(
        self,
        chart: VitalsChart,
        *,
        fitness: Callable[[], float],
        regime_samples: Callable[[], int],
        reserve_usd: float,
        before_reading: Callable[[int], None] | None = None,
    ) -> None:
        self._chart, self._policy = chart, chart._policy
        self._fitness, self._samples, self._reserve = fitness, regime_samples, reserve_usd
        self._before_reading = before_reading
        self._rows: list[VitalityRow] = []
        self._saves = False  # senescence changed: saved at the end
        self._bands = phase_bands(chart._policy.phases)

    def begin(self, stretch: Stretch) -> int:
        chart, policy, times = self._chart, self._policy, stretch.times
        self._times, self._first, self._equities = times, stretch.first_tick, stretch.equities
        self._rows, self._saves = [], False
        if not times:
            return 0
        self._credits = credits = chart._store.credits()
        self._economic = economic_level(credits, chart._initial_credits(), self._reserve)
        self._economic_factor = economic_factor(self._economic, policy.vitality)
        self._level, self._clocks = math.nan, math.nan  # both clocks' factor at a fitness
        self._born = born = chart._born or times[0]
        # Microseconds since birth: ints, so numpy's float64 arithmetic on them is Python's.
        micros = np.array([(now - born) // _MICROSECOND for now in times], dtype=np.int64)
        last = chart._last_assessed
        since_last = np.diff(micros, prepend=(last - born) // _MICROSECOND if last else micros[0])
        ages = np.maximum(0, micros)
        self._ageing = age_factors(ages, policy.vitality)
        hazard = policy.hazard
        if hazard is not None:
            # `total_seconds()` is µs ÷ 10^6, correctly rounded in numpy as in Python.
            self._seconds = (ages / 1e6).tolist()
            reference = hazard.reference_tick.total_seconds()
            self._ticks = (np.maximum(0, since_last) / 1e6 / reference).tolist()
        return len(times)

    def step(self, i: int) -> Sequence[Event]:
        chart, policy = self._chart, self._policy
        now, tick, before = self._times[i], self._first + i, chart.vitals
        previous = before.phase
        decay = policy.burn_decay
        burn = decay * before.burn_rate_usd + (1 - decay) * 0.0
        fitness = self._fitness()
        senescence = chart.senescence
        normal = senescence.stage is _STAGE_NORMAL and senescence.since is None
        if not normal or fitness < policy.senescence.threshold:  # (else Normal stays)
            self._saves |= chart._senescence_at(tick, now, fitness, self._samples())
        level = min(1.0, max(0.0, fitness))
        if policy.immortal:
            chart.vitals = Vitals(1.0, Phase.THRIVING, self._economic, level, burn, 0.0, None)
        else:
            chart.vitals = self._assess(i, now, level, burn)
        vitals = chart.vitals
        chart._terminal(vitals.phase, now)
        self._rows.append(
            VitalityRow(tick, now, vitals.vitality, str(vitals.phase), self._economic, level)
        )
        # A phase change's line before the reading, as `update` writes them.
        events = () if vitals.phase is previous else chart._events(tick, previous)
        if events or vitals.cause is not None:  # the stretch's last tick
            if self._before_reading is not None:
                self._before_reading(i)  # the decisions before it told ahead of its lines
            lines_ahead()  # its lines to come (the death's, the heartbeat's new interval)
        if chart._news(tick, 0.0, previous):
            if self._before_reading is not None:
                self._before_reading(i + 1)  # the decisions up to this tick's told first
            equity = float(self._equities[i])
            chart._publish(chart._reading(tick, now, self._credits, equity, late=True))
        return events

    def _assess(self, i: int, now: datetime, level: float, burn: float) -> Vitals:
        """`assess` of the stretch's tick `i` (mortality/vitals.py: the same operations in
        the same order), the chart's vitals still the last tick's."""
        chart, policy = self._chart, self._policy
        previous, since = chart.vitals.phase, chart.terminal_since
        if level != self._level:  # fitness moves only when a scored claim resolves
            self._level = level
            self._clocks = self._economic_factor * epistemic_factor(level, policy.vitality)
        clocks = self._clocks
        vitality = min(1.0, max(0.0, clocks * self._ageing[i]))
        low, high = self._bands[previous]
        # Inside its own band the previous phase holds (`phase_of`'s first answer).
        phase = previous if low <= vitality < high else phase_of(vitality, previous, policy.phases)
        survived, probability, hazard = True, 0.0, policy.hazard
        if hazard is not None:
            background_ = background(self._seconds[i], hazard)  # math.exp: one a tick
            probability = chance(background_, level, self._ticks[i], hazard)
            survived = uniform_draw(policy.seed, chart._golem_id, self._first + i) >= probability
        senescent = chart.senescence.dies(vitality, policy.senescence)
        grace = policy.terminal_grace
        expired = (
            since is not None and phase is _TERMINAL and grace is not None and now - since >= grace
        )
        cause = None
        if (
            self._economic <= 0.0
            or senescent
            or not survived
            or vitality < VITALITY_FLOOR
            or expired
        ):
            cause = death_cause(
                vitality=vitality,
                economic=self._economic,
                senescent=senescent,
                survived_roll=survived,
                terminal_expired=expired,
            )
        return Vitals(vitality, phase, self._economic, level, burn, probability, cause)

    def end(self, done: int) -> None:
        chart = self._chart
        chart._store.record_vitalities(self._rows[:done])
        if self._saves:
            chart._save_senescence()
        if done:
            chart._born, chart._last_assessed = self._born, self._times[done - 1]
        self._rows, self._saves = [], False
