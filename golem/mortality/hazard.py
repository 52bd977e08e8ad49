"""The stochastic clock: a Gompertz–Makeham hazard, raised by low fitness and capped per
tick, rolled against a uniform draw hashed from (seed, golem id, tick) so that the same
golem dies on the same tick on every machine and in every replay.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["HazardParams", "StochasticRoll", "death_probability", "roll", "uniform_draw"]

_DRAW_SPACE = float(2**64)


class HazardParams(BaseModel):
    """h(age) = λ + α·e^(β·age), times a fitness multiplier from 1 (fit) up to
    `max_fitness_multiplier` (unfit), turned into a per-tick probability capped at `cap`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    makeham: float = Field(default=1e-6, ge=0)  # λ, the age-independent background hazard
    gompertz: float = Field(default=1e-8, ge=0)  # α
    ageing: float = Field(default=5e-5, ge=0)  # β, per tick
    max_fitness_multiplier: float = Field(default=3.0, ge=1)
    cap: float = Field(default=0.001, ge=0, le=1)


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


def death_probability(age_ticks: int, fitness: float, params: HazardParams | None = None) -> float:
    """The chance of dying on this tick. `fitness` in [0, 1] (vitality is a fine proxy):
    1 leaves the hazard as it is, 0 multiplies it by `max_fitness_multiplier`."""
    params = params or _DEFAULT
    if age_ticks < 0:
        raise ValueError("age_ticks must be non-negative")
    fitness = min(1.0, max(0.0, fitness))
    multiplier = 1.0 + (params.max_fitness_multiplier - 1.0) * (1.0 - fitness)
    # The exponent is clamped so a very old golem reaches the cap instead of overflowing.
    gompertz = params.gompertz * math.exp(min(params.ageing * age_ticks, 700.0))
    hazard = (params.makeham + gompertz) * multiplier
    return min(params.cap, -math.expm1(-hazard))


def roll(
    seed: int | str,
    golem_id: str,
    tick: int,
    *,
    fitness: float,
    params: HazardParams | None = None,
) -> StochasticRoll:
    """The stochastic clock's verdict for `tick` (the golem's age in ticks)."""
    return StochasticRoll(
        tick=tick,
        probability=death_probability(tick, fitness, params),
        draw=uniform_draw(seed, golem_id, tick),
    )


_DEFAULT = HazardParams()
