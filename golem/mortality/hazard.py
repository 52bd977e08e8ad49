"""The stochastic clock: a Gompertz–Makeham hazard, raised by low fitness and capped, rolled
against a uniform draw hashed from (seed, golem id, tick) so that the same golem dies on the
same tick on every machine and in every replay.

Time, not ticks: the parameters are Bardo's values per ~40 s tick (`reference_tick`), read
as rates per second; age is a duration, and a roll covers the time since the last one, so
the chance of surviving a stretch of time is the same whether the golem beats every 15 s or
every 30 s (Conservation doubles the interval): exp(−∫h) either way.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from datetime import timedelta

from pydantic import BaseModel, ConfigDict, Field

from golem.inference.durations import Duration

__all__ = [
    "HazardParams",
    "StochasticRoll",
    "background",
    "chance",
    "death_probability",
    "roll",
    "uniform_draw",
]

_DRAW_SPACE = float(2**64)


class HazardParams(BaseModel):
    """h(age) = λ + α·e^(β·age), times a fitness multiplier from 1 (fit) up to
    `max_fitness_multiplier` (unfit). λ, α, β and `cap` (the highest chance of dying) are
    per `reference_tick` of age and of time (Bardo's ~40 s); a roll over an interval of
    another length takes the same rate for that length."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    makeham: float = Field(default=1e-6, ge=0)  # λ, the age-independent background hazard
    gompertz: float = Field(default=1e-8, ge=0)  # α
    ageing: float = Field(default=5e-5, ge=0)  # β, per tick
    max_fitness_multiplier: float = Field(default=3.0, ge=1)
    cap: float = Field(default=0.001, ge=0, le=1)
    reference_tick: Duration = timedelta(seconds=40)


@dataclass(frozen=True, slots=True)
class StochasticRoll:
    tick: int
    probability: float
    draw: float

    @property
    def survived(self) -> bool:
        return self.draw >= self.probability


def uniform_draw(seed: int | str, golem_id: str, tick: int) -> float:
    """A uniform number in [0, 1) that depends only on its arguments (BLAKE2b, not `random`
    or `hash()`, whose values differ between processes)."""
    digest = hashlib.blake2b(f"{seed}:{golem_id}:{tick}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / _DRAW_SPACE


def death_probability(
    age: timedelta, fitness: float, interval: timedelta, params: HazardParams
) -> float:
    """The chance of dying within `interval`, at `age`. `fitness` in [0, 1]: 1 leaves the
    hazard as it is, 0 multiplies it by `max_fitness_multiplier`."""
    if age < timedelta(0) or interval < timedelta(0):
        raise ValueError("age and interval must be non-negative")
    reference = params.reference_tick.total_seconds()
    ticks = interval.total_seconds() / reference  # the interval in reference ticks
    return chance(background(age.total_seconds(), params), fitness, ticks, params)


def background(age_seconds: float, params: HazardParams) -> float:
    """λ + α·e^(β·age): the hazard per reference tick at `age_seconds`, before fitness."""
    # The exponent is clamped so a very old golem reaches the cap instead of overflowing.
    exponent = min(params.ageing * age_seconds / params.reference_tick.total_seconds(), 700.0)
    return params.makeham + params.gompertz * math.exp(exponent)


def chance(background: float, fitness: float, ticks: float, params: HazardParams) -> float:
    """The chance of dying over `ticks` reference ticks at the `background` hazard, raised
    by low `fitness` and capped (`death_probability`'s arithmetic, for a caller that keeps
    the background of each age)."""
    fitness = min(1.0, max(0.0, fitness))
    multiplier = 1.0 + (params.max_fitness_multiplier - 1.0) * (1.0 - fitness)
    hazard = background * multiplier * ticks
    # The cap is a chance per reference tick: over `ticks` of them, 1 − (1 − cap)^ticks.
    capped = -math.log1p(-params.cap) * ticks if params.cap < 1.0 else math.inf
    return -math.expm1(-min(hazard, capped))


def roll(
    seed: int | str,
    golem_id: str,
    tick: int,
    *,
    age: timedelta,
    interval: timedelta,
    fitness: float,
    params: HazardParams,
) -> StochasticRoll:
    """The stochastic clock's verdict on tick number `tick`, `interval` after the last roll,
    at `age`."""
    return StochasticRoll(
        tick=tick,
        probability=death_probability(age, fitness, interval, params),
        draw=uniform_draw(seed, golem_id, tick),
    )
