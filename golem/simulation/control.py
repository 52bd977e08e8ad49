"""The control experiment of the Bardo design (prd/02-mortality/11-immortal-control.md):
an immortal golem against the mortal lineage on the same market paths, judged on the
design's six dimensions, with the thesis status the design defines.

`WouldHaveDied` follows an immortal life's vitality records and runs the mortal clocks
on them (`assess` with the same config compiled as mortal: the same economic and
epistemic levels, the same hazard draws by golem and tick, Terminal's grace on the phases
a mortal golem would have had): the first moment one would have killed it, and why.

`thesis` tests each dimension's figure, mortal lineages against immortal ones, with the
two-sided Mann–Whitney U test at α = 0.05: "mortal wins" or "immortal wins" when it
rejects (by the dimension's better direction), else "inconclusive". The status, as the
design's `ThesisStatus`: supported when mortal wins 4 or more dimensions, weakly supported
at 3 (immortal fewer), refuted and weakly refuted the same way for immortal, else
inconclusive; and inconclusive whatever the dimensions say when the lives were shorter
than the design's 30-day minimum (`MINIMUM_DAYS`), the dimensions' count then given.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from golem.mortality import MortalityPolicy, Phase, PolicyName, Senescence, assess
from golem.runtime import Record, VitalityRecord
from golem.runtime.config import GolemConfig
from golem.runtime.quiet_stretch import QuietStretch
from golem.simulation.ranktest import mann_whitney_u

__all__ = [
    "ALPHA",
    "DIMENSIONS",
    "MINIMUM_DAYS",
    "ControlDimension",
    "Thesis",
    "WouldHaveDied",
    "status_of",
    "thesis",
]

ALPHA = 0.05
MINIMUM_DAYS = 30.0  # the design's minimum_duration_days for a valid comparison
_DAY_S = 86_400.0
_TERMINAL = Phase.TERMINAL

Better = Literal["higher", "lower"]
# The design's six dimensions, each by the figure golem measures of it.
DIMENSIONS: tuple[tuple[str, str, str, Better], ...] = (
    ("epistemic", "epistemic fitness", "fitness_mean", "higher"),
    ("diversity", "strategy diversity", "strategy_entropy_bits", "higher"),
    ("novelty", "novel insights", "insights_per_day", "higher"),
    ("returns", "risk-adjusted return", "sharpe", "higher"),
    ("grimoire", "grimoire health", "grimoire_validated_share", "higher"),
    ("adaptation", "regime adaptation", "adaptation_ticks_median", "lower"),
)
MORTAL, IMMORTAL, INCONCLUSIVE = "mortal wins", "immortal wins", "inconclusive"


@dataclass
class WouldHaveDied:
    """When and of what a mortal golem living the immortal's life would have died:
    `policy` is the same config compiled mortal; call it with the immortal's records."""

    policy: MortalityPolicy
    golem_id: str
    start: datetime  # the scenario's, which `day` counts from
    day: float | None = None
    cause: str | None = None
    _born: datetime | None = field(default=None, repr=False)
    _last: datetime | None = field(default=None, repr=False)
    _phase: Phase | None = field(default=None, repr=False)
    _terminal_since: datetime | None = field(default=None, repr=False)
    _senescence: Senescence = field(default_factory=Senescence, repr=False)

    def hear_quiet(self, stretch: QuietStretch) -> None:
        """A fast-forward's quiet decisions: nothing to hear (vitality records are its)."""

    def __call__(self, record: Record) -> None:
        if not isinstance(record, VitalityRecord) or self.cause is not None:
            return
        now = record.time
        born = self._born = self._born or now
        interval = now - self._last if self._last is not None else timedelta(0)
        self._last = now
        # Staged senescence on the record's fitness (the regime's learning grace taken as
        # past: a record does not carry the regime's resolved claims).
        params = self.policy.senescence
        self._senescence = self._senescence.step(
            now, record.epistemic, regime_samples=params.learning_samples, params=params
        )
        since = self._terminal_since
        vitals = assess(
            golem_id=self.golem_id,
            tick=record.tick,
            now=now,
            age=now - born,
            interval=interval,
            # The economic level as the record has it (credits less the reserve, of the
            # lineage's funding): fed through as a share of 1.0 with no reserve.
            credits_usd=record.economic,
            initial_credits_usd=1.0,
            burn_rate_usd=record.burn_rate_usd,
            epistemic=record.epistemic,
            previous=self._phase,
            params=self.policy,
            in_terminal=None if since is None else now - since,
            senescence=self._senescence,
        )
        self._phase = vitals.phase
        if vitals.phase is _TERMINAL:
            self._terminal_since = since or now
        else:
            self._terminal_since = None
        if vitals.cause is not None:
            self.day = round((now - self.start).total_seconds() / _DAY_S, 9)
            self.cause = str(vitals.cause)

    @classmethod
    def of(cls, config: GolemConfig, start: datetime) -> WouldHaveDied | None:
        """For an immortal golem (Bardo's control), its config's clocks compiled mortal;
        None for a mortal one."""
        if config.mortality.policy is not PolicyName.IMMORTAL:
            return None
        policy = config.mortality.compile(seed=config.mortality_seed)
        return cls(replace(policy, immortal=False), config.golem.id, start)

    @staticmethod
    def summary_of(shadow: WouldHaveDied | None, lifespan_days: float) -> dict[str, Any]:
        """`shadow`'s summary; a mortal life's keys are None."""
        if shadow is None:
            return dict.fromkeys(
                ("would_have_died_day", "would_have_died_cause", "mortal_lifetimes")
            )
        return shadow.summary(lifespan_days)

    def summary(self, lifespan_days: float) -> dict[str, Any]:
        """would_have_died_day (since the scenario's start) and its cause, and how many
        mortal lifetimes the immortal lived (its lifespan over that day; None: none
        would have ended it)."""
        lifetimes = None
        if self.day is not None and self.day > 0:
            lifetimes = round(lifespan_days / self.day, 9)
        return {
            "would_have_died_day": self.day,
            "would_have_died_cause": self.cause,
            "mortal_lifetimes": lifetimes,
        }


@dataclass(frozen=True, slots=True)
class ControlDimension:
    key: str
    label: str
    figure: str
    better: Better
    mortal_median: float | None
    immortal_median: float | None
    p_value: float | None
    verdict: str


@dataclass(frozen=True, slots=True)
class Thesis:
    """The control experiment's verdict: the dimensions, the mortal and immortal wins,
    the status, and the immortal's would-have-died times."""

    mortal: str
    dimensions: tuple[ControlDimension, ...]
    mortal_wins: int
    immortal_wins: int
    status: str  # supported, weakly supported, inconclusive, weakly refuted, refuted
    valid: bool  # the lives were at least MINIMUM_DAYS long
    horizon_days: float
    would_have_died: int  # immortal lives a mortal clock would have ended
    immortal_lives: int
    would_have_died_day_median: float | None
    would_have_died_causes: dict[str, int]

    def fields(self) -> dict[str, Any]:
        return {
            "mortal": self.mortal,
            "dimensions": [
                {
                    "dimension": d.key,
                    "figure": d.figure,
                    "better": d.better,
                    "mortal_median": d.mortal_median,
                    "immortal_median": d.immortal_median,
                    "p_value": d.p_value,
                    "verdict": d.verdict,
                }
                for d in self.dimensions
            ],
            "mortal_wins": self.mortal_wins,
            "immortal_wins": self.immortal_wins,
            "status": self.status,
            "valid": self.valid,
            "horizon_days": self.horizon_days,
            "would_have_died": self.would_have_died,
            "immortal_lives": self.immortal_lives,
            "would_have_died_day_median": self.would_have_died_day_median,
            "would_have_died_causes": self.would_have_died_causes,
        }


def status_of(mortal_wins: int, immortal_wins: int) -> str:
    """The design's ThesisStatus from the dimensions each side won."""
    if mortal_wins >= 4:
        return "supported"
    if immortal_wins >= 4:
        return "refuted"
    if mortal_wins == 3 and immortal_wins < 3:
        return "weakly supported"
    if immortal_wins == 3 and mortal_wins < 3:
        return "weakly refuted"
    return "inconclusive"


def thesis(
    mortal: Sequence[Mapping[str, Any]],
    immortal: Sequence[Mapping[str, Any]],
    *,
    mortal_name: str,
    horizon_days: float,
) -> Thesis:
    """The verdict of `mortal` lineages (summaries or rows) against `immortal` lives."""
    dimensions = tuple(_dimension(mortal, immortal, d) for d in DIMENSIONS)
    wins = sum(d.verdict == MORTAL for d in dimensions)
    losses = sum(d.verdict == IMMORTAL for d in dimensions)
    valid = horizon_days >= MINIMUM_DAYS
    days = [float(d) for r in immortal if (d := r.get("would_have_died_day")) is not None]
    causes: dict[str, int] = {}
    for r in immortal:
        cause = r.get("would_have_died_cause")
        if cause is not None:
            causes[str(cause)] = causes.get(str(cause), 0) + 1
    return Thesis(
        mortal_name,
        dimensions,
        wins,
        losses,
        status_of(wins, losses) if valid else "inconclusive",
        valid,
        horizon_days,
        len(days),
        len(immortal),
        round(statistics.median(days), 4) if days else None,
        dict(sorted(causes.items())),
    )


def _dimension(
    mortal: Sequence[Mapping[str, Any]],
    immortal: Sequence[Mapping[str, Any]],
    dimension: tuple[str, str, str, Better],
) -> ControlDimension:
    key, label, figure, better = dimension
    ours, theirs = _values(mortal, figure), _values(immortal, figure)
    if not ours or not theirs:
        return ControlDimension(
            key, label, figure, better, _median(ours), _median(theirs), None, INCONCLUSIVE
        )
    test = mann_whitney_u(ours, theirs)
    verdict = INCONCLUSIVE
    if test.p_value < ALPHA and test.first_larger is not None:
        verdict = MORTAL if test.first_larger == (better == "higher") else IMMORTAL
    return ControlDimension(
        key,
        label,
        figure,
        better,
        _median(ours),
        _median(theirs),
        float(f"{test.p_value:.6g}"),
        verdict,
    )


def _values(lives: Sequence[Mapping[str, Any]], key: str) -> list[float]:
    return [float(v) for life in lives if (v := life.get(key)) is not None]


def _median(values: Sequence[float]) -> float | None:
    return round(statistics.median(values), 6) if values else None
