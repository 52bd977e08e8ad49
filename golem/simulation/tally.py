"""What a simulated life did, counted from its records as they are published (a
subscriber of the golem's stream): the decisions by tier and source, degradations,
re-asks, fallbacks, risk and death coverage, per-day mixes, and a vitality / credits /
phase series for the plots. Nothing is kept of the records themselves, so memory stays
flat however long the life.
"""

from __future__ import annotations

from array import array
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime import DecisionRecord, Record, VitalityRecord
from golem.runtime.quiet_stretch import QuietStretch

__all__ = ["PHASES", "Tally"]

PHASES = tuple(str(phase) for phase in Phase)  # best to worst, as `Phase` has them
_PHASE_CODE = {phase: code for code, phase in enumerate(Phase)}
_DAY = timedelta(days=1)
_DAY_S = 86_400.0
_NEVER = datetime.max.replace(tzinfo=UTC)  # a day that begins after every moment
_RISK, _DEATH, _TERMINAL = SubsystemName.RISK, SubsystemName.DEATH, Phase.TERMINAL
_HEARTBEAT, _T0 = SubsystemName.HEARTBEAT, ModelTier.T0

Decision = tuple[int, SubsystemName, ModelTier, str, bool]


@dataclass
class Tally:
    """Counts of one life's records since `start`; call it with each published record.
    `on_tick(days)` hears of every vitality record (the progress bar).

    Each decision is one count of its (day, subsystem, tier, source, in Terminal) in
    `decisions`; the tallies by tier, source, risk and day are read from those counts."""

    start: datetime
    on_tick: Callable[[float], None] | None = None
    decisions: Counter[Decision] = field(default_factory=Counter)
    degradations_by_reason: Counter[str] = field(default_factory=Counter)
    reasks: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    verdicts_reused: int = 0  # risk verdicts applied again instead of asked again
    death_source: str | None = None
    degradations_by_day: defaultdict[int, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    days: array[float] = field(default_factory=lambda: array("d"))
    vitality: array[float] = field(default_factory=lambda: array("d"))
    credits: array[float] = field(default_factory=lambda: array("d"))
    phase: array[int] = field(default_factory=lambda: array("b"))
    # The day of the last decision, and the moments that begin it and the next.
    _day: int = field(default=0, repr=False)
    _day_from: datetime = field(default=_NEVER, repr=False)
    _day_until: datetime = field(default=_NEVER, repr=False)

    def __call__(self, record: Record) -> None:
        if isinstance(record, DecisionRecord):
            self._decision(record)
        elif isinstance(record, VitalityRecord):
            self._vitality(record)

    @property
    def decisions_by_tier(self) -> Counter[str]:
        """Keyed T0, T1, T2."""
        return self._count(lambda day, subsystem, tier, source, terminal: tier.name)

    @property
    def decisions_by_source(self) -> Counter[str]:
        return self._count(lambda day, subsystem, tier, source, terminal: source)

    @property
    def fallbacks(self) -> int:
        return self.decisions_by_source["fallback"]

    @property
    def cache_hit_rate(self) -> float | None:
        """Hits ÷ lookups of the decision cache (None when it was never asked)."""
        lookups = self.cache_hits + self.cache_misses
        return self.cache_hits / lookups if lookups else None

    @property
    def risk_assessments(self) -> int:
        return self._risk(lambda source, terminal: True)

    @property
    def risk_by_model(self) -> int:
        return self._risk(lambda source, terminal: source == "model")

    @property
    def risk_in_terminal(self) -> int:
        """By the rules, as DESIGN has it: Terminal asks no model."""
        return self._risk(lambda source, terminal: terminal and source != "model")

    @property
    def heartbeat_tiers(self) -> dict[int, Counter[str]]:
        """Each day's heartbeat decisions by tier (T0, T1, T2), days in order."""
        by_day: defaultdict[int, Counter[str]] = defaultdict(Counter)
        for (day, subsystem, tier, _, _), n in self.decisions.items():
            if subsystem is SubsystemName.HEARTBEAT:
                by_day[day][tier.name] += n
        return dict(sorted(by_day.items()))

    def _count(
        self, key: Callable[[int, SubsystemName, ModelTier, str, bool], str]
    ) -> Counter[str]:
        counts: Counter[str] = Counter()
        for decision, n in self.decisions.items():
            counts[key(*decision)] += n
        return counts

    def _risk(self, counted: Callable[[str, bool], bool]) -> int:
        return sum(
            n
            for (_, subsystem, _, source, terminal), n in self.decisions.items()
            if subsystem is _RISK and counted(source, terminal)
        )

    def _elapsed_days(self, moment: datetime) -> float:
        return (moment - self.start).total_seconds() / _DAY_S

    def _day_of(self, moment: datetime) -> int:
        """The day since `start` of a decision; while the day lasts, two comparisons."""
        if self._day_from <= moment < self._day_until:
            return self._day
        day = int(self._elapsed_days(moment))
        if day < 0:  # before `start`: int() makes day 0 two days wide there; work each out
            self._day_from = _NEVER
            return day
        self._day = day
        self._day_from = self.start + day * _DAY
        self._day_until = self._day_from + _DAY
        return day

    def _vitality(self, record: VitalityRecord) -> None:
        days = self._elapsed_days(record.time)
        self.days.append(days)
        self.vitality.append(record.vitality)
        self.credits.append(record.credits_usd)
        self.phase.append(_PHASE_CODE[record.phase])
        if self.on_tick is not None:
            self.on_tick(days)

    def hear_quiet(self, stretch: QuietStretch) -> None:
        """A fast-forward's quiet decisions (the rules' T0 heartbeats): counted by day."""
        counts, day_of = self.decisions, self._day_of
        for time in stretch.times:
            counts[day_of(time), _HEARTBEAT, _T0, "deterministic", False] += 1

    def _decision(self, record: DecisionRecord) -> None:
        # One count per decision (a tick's worth of work in a long life): the tallies are
        # read from the counts at the end.
        subsystem, source = record.subsystem, record.source
        day = self._day_of(record.time)
        terminal = subsystem is _RISK and record.phase is _TERMINAL
        self.decisions[day, subsystem, record.tier, source, terminal] += 1
        if record.cache is not None:
            if record.cache == "hit":
                self.cache_hits += 1
            else:
                self.cache_misses += 1
        elif record.reused is not None:
            self.verdicts_reused += 1
        response = record.response
        if response is not None and response.attempts > 1:
            self.reasks += response.attempts - 1
        for degradation in record.degradations:
            reason = str(degradation.reason)
            self.degradations_by_reason[reason] += 1
            self.degradations_by_day[day][reason] += 1
        if subsystem is _DEATH:
            self.death_source = source
