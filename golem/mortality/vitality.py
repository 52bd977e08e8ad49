"""Vitality, the one number a golem's behaviour follows: the economic and epistemic clocks
through sigmoids, times an age term. Also the phases it passes through on the way down
(with hysteresis on the way up) and the causes of death.
"""

from __future__ import annotations

import functools
import math
from datetime import timedelta
from enum import StrEnum

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field, model_validator

from golem.inference.durations import Duration

__all__ = [
    "VITALITY_FLOOR",
    "DeathCause",
    "Phase",
    "PhaseThresholds",
    "VitalityParams",
    "age_factor",
    "age_factors",
    "composite_vitality",
    "death_cause",
    "economic_factor",
    "epistemic_factor",
    "phase_bands",
    "phase_of",
]


class VitalityParams(BaseModel):
    """sigmoid(economic) × sigmoid(epistemic) × max(0, 1 − age_weight·age/age_horizon), age
    a duration: Bardo's 200,000 ticks at its ~40 s tick, about 92.6 days."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    economic_centre: float = 0.3
    economic_steepness: float = Field(default=10.0, gt=0)
    epistemic_centre: float = 0.4
    epistemic_steepness: float = Field(default=8.0, gt=0)
    age_weight: float = Field(default=0.3, ge=0)
    age_horizon: Duration = timedelta(seconds=200_000 * 40)


def _sigmoid(x: float, centre: float, steepness: float) -> float:
    z = steepness * (x - centre)
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def composite_vitality(
    economic: float,
    epistemic: float,
    age: timedelta,
    params: VitalityParams,
) -> float:
    """Vitality in [0, 1] from the two clock levels (each in [0, 1]) and the age."""
    if not 0.0 <= economic <= 1.0:
        raise ValueError(f"economic must be in [0, 1], got {economic}")
    if not 0.0 <= epistemic <= 1.0:
        raise ValueError(f"epistemic must be in [0, 1], got {epistemic}")
    if age < timedelta(0):
        raise ValueError("age must be non-negative")
    clocks = economic_factor(economic, params) * epistemic_factor(epistemic, params)
    return min(1.0, max(0.0, clocks * age_factor(age, params)))


def economic_factor(economic: float, params: VitalityParams) -> float:
    """The economic clock's sigmoid, a factor of vitality."""
    return _sigmoid(economic, params.economic_centre, params.economic_steepness)


def epistemic_factor(epistemic: float, params: VitalityParams) -> float:
    """The epistemic clock's sigmoid, a factor of vitality."""
    return _sigmoid(epistemic, params.epistemic_centre, params.epistemic_steepness)


def age_factor(age: timedelta, params: VitalityParams) -> float:
    """max(0, 1 − age_weight·age/age_horizon), a factor of vitality."""
    return max(0.0, 1.0 - params.age_weight * (age / params.age_horizon))


def age_factors(ages_us: npt.NDArray[np.int64], params: VitalityParams) -> list[float]:
    """`age_factor` of each age in whole microseconds, value for value: `age / horizon`
    divides the two durations' microseconds (ints below 2^53, exact as float64), and
    numpy's / * − are correctly rounded like Python's."""
    horizon = params.age_horizon // timedelta(microseconds=1)
    factors: list[float] = np.maximum(0.0, 1.0 - params.age_weight * (ages_us / horizon)).tolist()
    return factors


class Phase(StrEnum):
    """From best to worst. Conservation doubles the heartbeat interval and caps inference at
    the cheap tier; Declining unwinds positions; Terminal allows only the death reflection."""

    THRIVING = "thriving"
    STABLE = "stable"
    CONSERVATION = "conservation"
    DECLINING = "declining"
    TERMINAL = "terminal"

    @property
    def rank(self) -> int:
        """0 for Terminal up to 4 for Thriving: higher is healthier."""
        return _RANKS[self]


_RANKS = {phase: rank for rank, phase in enumerate(reversed(Phase))}


_FLOOR_NAMES = ("thriving", "stable", "conservation", "declining")


class PhaseThresholds(BaseModel):
    """The lowest vitality of each phase; moving up also needs `hysteresis` more."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    thriving: float = 0.70
    stable: float = 0.50
    conservation: float = 0.30
    declining: float = 0.10
    hysteresis: float = Field(default=0.05, ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> PhaseThresholds:
        # Out of order, a golem would be "thriving" below its stable floor.
        floors = (self.thriving, self.stable, self.conservation, self.declining)
        if not 1 >= floors[0] > floors[1] > floors[2] > floors[3] > 0:
            given = ", ".join(f"{p} = {f:g}" for p, f in zip(_FLOOR_NAMES, floors, strict=True))
            raise ValueError(
                "the floors must fall from thriving to declining, within (0, 1]: need "
                f"1 >= thriving > stable > conservation > declining > 0, got {given}"
            )
        return self

    @functools.cached_property
    def floors(self) -> tuple[tuple[Phase, float], ...]:
        """(phase, floor) from Thriving down to Declining; read on every tick."""
        return (
            (Phase.THRIVING, self.thriving),
            (Phase.STABLE, self.stable),
            (Phase.CONSERVATION, self.conservation),
            (Phase.DECLINING, self.declining),
        )

    def floor(self, phase: Phase) -> float:
        """The lowest vitality at which `phase` holds (Terminal: 0)."""
        return {
            Phase.THRIVING: self.thriving,
            Phase.STABLE: self.stable,
            Phase.CONSERVATION: self.conservation,
            Phase.DECLINING: self.declining,
            Phase.TERMINAL: 0.0,
        }[phase]


def phase_of(
    vitality: float,
    previous: Phase | None,
    thresholds: PhaseThresholds,
) -> Phase:
    """The phase at `vitality`. Falling is immediate (below a phase's floor leaves it); rising
    from `previous` to a healthier phase needs that phase's floor plus the hysteresis, so a
    vitality hovering at a threshold does not flap between two phases."""
    floors = thresholds.floors
    plain = _first_at_or_above(vitality, floors)
    if previous is None or _RANKS[plain] <= _RANKS[previous]:
        return plain
    # The tolerance makes 0.15 clear 0.10 + 0.05, which floats add up to 0.15000000000000002.
    lifted, hysteresis = vitality + 1e-12, thresholds.hysteresis
    risen = _first_at_or_above(lifted, tuple((p, floor + hysteresis) for p, floor in floors))
    return risen if _RANKS[risen] > _RANKS[previous] else previous


def phase_bands(thresholds: PhaseThresholds) -> dict[Phase, tuple[float, float]]:
    """Each phase's [floor, next floor up): where `phase_of` finds it first, so that a
    golem already in it stays in it (a caller's shortcut past `phase_of`)."""
    floors = [-math.inf, *(floor for _, floor in reversed(thresholds.floors)), math.inf]
    phases = [Phase.TERMINAL, *(phase for phase, _ in reversed(thresholds.floors))]
    return {phase: (floors[k], floors[k + 1]) for k, phase in enumerate(phases)}


def _first_at_or_above(vitality: float, floors: tuple[tuple[Phase, float], ...]) -> Phase:
    """The healthiest phase whose floor `vitality` reaches (Terminal below them all)."""
    for phase, floor in floors:
        if vitality >= floor:
            return phase
    return Phase.TERMINAL


VITALITY_FLOOR = 0.01  # below it the golem dies of vitality (`death_cause`'s default)


class DeathCause(StrEnum):
    KILL_SWITCH = "kill_switch"  # the operator ended it
    ECONOMIC = "economic"  # credits at 0
    EPISTEMIC = "epistemic"  # senescent: its forecasts no longer beat a naive one
    STOCHASTIC = "stochastic"  # the hazard roll failed
    VITALITY = "vitality"  # vitality below the floor
    TERMINAL = "terminal"  # in Terminal for longer than its grace


def death_cause(
    *,
    vitality: float,
    economic: float,
    senescent: bool = False,
    survived_roll: bool = True,
    kill_switch: bool = False,
    vitality_floor: float = VITALITY_FLOOR,
    terminal_expired: bool = False,
) -> DeathCause | None:
    """Why the golem dies now, or None if it lives. When several triggers hold, the first in
    DeathCause's order is reported: the operator's decision, then the clocks, then vitality,
    then Terminal's grace (`terminal_expired`: it has run out). `senescent`: predictive
    fitness has stayed below the senescence threshold for the grace period."""
    if kill_switch:
        return DeathCause.KILL_SWITCH
    if economic <= 0.0:
        return DeathCause.ECONOMIC
    if senescent:
        return DeathCause.EPISTEMIC
    if not survived_roll:
        return DeathCause.STOCHASTIC
    if vitality < vitality_floor:
        return DeathCause.VITALITY
    if terminal_expired:
        return DeathCause.TERMINAL
    return None
