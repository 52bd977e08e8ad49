"""What a simulated life's log says, counted as the events stream past (a log tap): the
decisions by tier and source, degradations, re-asks, fallbacks, risk and death coverage,
per-day mixes, and a vitality / credits / phase series for the plots. Nothing is kept of
the events themselves, so memory stays flat however long the life.
"""

from __future__ import annotations

from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

__all__ = ["PHASES", "Tally"]

PHASES = ("thriving", "stable", "conservation", "declining", "terminal")
_PHASE_CODE = {name: code for code, name in enumerate(PHASES)}
_DAY_S = 86_400.0
_TIERS = {"0": "T0", "1": "T1", "2": "T2"}


@dataclass
class Tally:
    """Counts of one life's events since `start`; call it with each finished event.
    `on_tick(days)` hears of every vitality event (the progress bar).

    Each decision is one count of its (day, subsystem, tier, source, in Terminal) in
    `decisions`; the tallies by tier, source, risk and day are read from those counts."""

    start: datetime
    on_tick: Callable[[float], None] | None = None
    decisions: Counter[tuple[int, str, str, str, bool]] = field(default_factory=Counter)
    degradations_by_reason: Counter[str] = field(default_factory=Counter)
    reasks: int = 0
    death_source: str | None = None
    degradations_by_day: defaultdict[int, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )
    days: array[float] = field(default_factory=lambda: array("d"))
    vitality: array[float] = field(default_factory=lambda: array("d"))
    credits: array[float] = field(default_factory=lambda: array("d"))
    phase: array[int] = field(default_factory=lambda: array("b"))
    _stamp: str = field(default="", repr=False)
    _stamp_days: float = field(default=0.0, repr=False)
    # The day of the last decision, and the UTC timestamps that begin it and the next.
    _day: int = field(default=0, repr=False)
    _day_from: str = field(default="~", repr=False)  # after every timestamp: none is in
    _day_until: str = field(default="", repr=False)

    def __call__(self, event: Mapping[str, Any]) -> None:
        name = event.get("event")
        if name == "decision":
            self._decision(event)
        elif name == "vitality":
            self._vitality(event)

    @property
    def decisions_by_tier(self) -> Counter[str]:
        return self._count(lambda day, subsystem, tier, source, terminal: tier)

    @property
    def decisions_by_source(self) -> Counter[str]:
        return self._count(lambda day, subsystem, tier, source, terminal: source)

    @property
    def fallbacks(self) -> int:
        return self.decisions_by_source["fallback"]

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
        """Each day's heartbeat decisions by tier, days in order."""
        by_day: defaultdict[int, Counter[str]] = defaultdict(Counter)
        for (day, subsystem, tier, _, _), n in self.decisions.items():
            if subsystem == "heartbeat":
                by_day[day][tier] += n
        return dict(sorted(by_day.items()))

    def _count(self, key: Callable[[int, str, str, str, bool], str]) -> Counter[str]:
        counts: Counter[str] = Counter()
        for decision, n in self.decisions.items():
            counts[key(*decision)] += n
        return counts

    def _risk(self, counted: Callable[[str, bool], bool]) -> int:
        return sum(
            n
            for (_, subsystem, _, source, terminal), n in self.decisions.items()
            if subsystem == "risk" and counted(source, terminal)
        )

    def _elapsed_days(self, event: Mapping[str, Any]) -> float:
        stamp = event.get("timestamp")
        if not isinstance(stamp, str):
            return self.days[-1] if self.days else 0.0
        if stamp != self._stamp:  # a tick's events share their time: parse it once
            self._stamp = stamp
            self._stamp_days = (datetime.fromisoformat(stamp) - self.start).total_seconds() / _DAY_S
        return self._stamp_days

    def _day_of(self, event: Mapping[str, Any]) -> int:
        """The day since `start` of a decision. While the day lasts its timestamps are
        only compared, as text (UTC ISO timestamps sort as text as they do in time); a
        stamp outside it is parsed, and its day's bounds kept."""
        stamp = event.get("timestamp")
        if (
            stamp.__class__ is str
            and self._day_from <= stamp < self._day_until
            and stamp.endswith("+00:00")
            and stamp[10] == "T"  # as isoformat() writes it: other separators sort apart
        ):
            return self._day
        day = int(self._elapsed_days(event))
        if day < 0:  # before `start`: int() makes day 0 two days wide there; parse each
            self._day_from, self._day_until = "~", ""
            return day
        begins = self.start.astimezone(UTC) + timedelta(days=day)
        self._day = day
        self._day_from = begins.isoformat()
        self._day_until = (begins + timedelta(days=1)).isoformat()
        return day

    def _vitality(self, event: Mapping[str, Any]) -> None:
        days = self._elapsed_days(event)
        self.days.append(days)
        self.vitality.append(float(event.get("vitality", 0.0)))
        self.credits.append(float(event.get("credits_usd", 0.0)))
        self.phase.append(_PHASE_CODE.get(str(event.get("phase")), 0))
        if self.on_tick is not None:
            self.on_tick(days)

    def _decision(self, event: Mapping[str, Any]) -> None:
        # One count per decision (a tick's worth of work in a long life): the tallies are
        # read from the counts at the end.
        get = event.get
        raw_tier, source, subsystem = get("tier"), get("source"), get("subsystem")
        tier = _TIERS.get(raw_tier) if isinstance(raw_tier, str) else None
        if tier is None:
            tier = f"T{raw_tier}"
        if not isinstance(source, str):
            source = str(source)
        if not isinstance(subsystem, str):
            subsystem = str(subsystem)
        day = self._day_of(event)
        terminal = subsystem == "risk" and get("phase") == "terminal"
        self.decisions[day, subsystem, tier, source, terminal] += 1
        attempts = get("attempts")
        if isinstance(attempts, int) and attempts > 1:
            self.reasks += attempts - 1
        degradations = get("degradation")
        if degradations:
            for entry in degradations:
                reason = str(entry.get("reason")) if isinstance(entry, Mapping) else "unknown"
                self.degradations_by_reason[reason] += 1
                self.degradations_by_day[day][reason] += 1
        if subsystem == "death":
            self.death_source = source
