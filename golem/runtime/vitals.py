"""One tick's vitality from the golem's records: the three clocks, the composite, the
phase with hysteresis, and whether (and why) the golem dies now. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from golem.mortality import (
    DeathCause,
    EpistemicClock,
    Phase,
    composite_vitality,
    death_cause,
    phase_of,
    roll,
)
from golem.runtime.config_sections import MortalitySection

__all__ = ["Vitals", "assess"]

_MAX_FITNESS_MULTIPLIER = 3.0


@dataclass(frozen=True, slots=True)
class Vitals:
    vitality: float
    phase: Phase
    economic: float
    epistemic: float
    burn_rate_usd: float
    death_probability: float = 0.0
    cause: DeathCause | None = None


def assess(
    *,
    golem_id: str,
    seed: int,
    tick: int,
    credits_usd: float,
    initial_credits_usd: float,
    burn_rate_usd: float,
    predictions: Sequence[tuple[float, float]],
    previous: Phase | None,
    params: MortalitySection,
    kill_switch: bool = False,
) -> Vitals:
    """The golem's vitals after tick `tick` (its age in ticks).

    The epistemic clock can kill only once its window is full, and its R² counts in
    proportion to the window's fill: a young golem with a few unlucky predictions is not
    "no longer predicting anything"."""
    economic = min(1.0, max(0.0, credits_usd / initial_credits_usd))
    clock = EpistemicClock(
        pairs=tuple(predictions)[-params.epistemic_window :],
        window=params.epistemic_window,
        min_samples=params.epistemic_min_samples,
    )
    # R² of a handful of pairs is mostly noise: trust it in proportion to how full the
    # window is, starting from the prior, so a young golem is not judged on ten samples.
    trust = min(1.0, len(clock.pairs) / params.epistemic_window)
    epistemic = clock.prior + trust * (clock.level - clock.prior)
    vitality = composite_vitality(economic, epistemic, tick, params.vitality)
    phase = phase_of(vitality, previous, params.phases)
    survived, probability = True, 0.0
    if params.stochastic_death:
        # Weaker golems carry more hazard: the fitness multiplier runs 1 (full vitality)
        # to 3 (none).
        fitness = 1.0 + (_MAX_FITNESS_MULTIPLIER - 1.0) * (1.0 - vitality)
        verdict = roll(seed, golem_id, tick, fitness=fitness, params=params.hazard)
        survived, probability = verdict.survived, verdict.probability
    full_window = len(clock.pairs) >= params.epistemic_window
    cause = death_cause(
        vitality=vitality,
        economic=economic,
        epistemic=epistemic if full_window else max(epistemic, 1e-9),
        survived_roll=survived,
        kill_switch=kill_switch,
    )
    return Vitals(vitality, phase, economic, epistemic, burn_rate_usd, probability, cause)
