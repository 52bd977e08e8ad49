"""One tick's vitality from the golem's records: the three clocks, the composite, the
phase with hysteresis, and whether (and why) the golem dies now. Pure. The epistemic level
is the prediction engine's fitness and its senescence stage, stepped by the runtime."""

from __future__ import annotations

from datetime import datetime, timedelta

from msgspec import Struct

from golem.mortality.hazard import roll
from golem.mortality.params import MortalityPolicy
from golem.mortality.senescence import Senescence
from golem.mortality.vitality import DeathCause, Phase, composite_vitality, death_cause, phase_of

__all__ = ["Vitals", "assess", "economic_level"]


class Vitals(Struct, frozen=True):
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
    tick: int,
    now: datetime,
    age: timedelta,
    interval: timedelta,
    credits_usd: float,
    initial_credits_usd: float,
    burn_rate_usd: float,
    epistemic: float,
    previous: Phase | None,
    params: MortalityPolicy,
    kill_switch: bool = False,
    in_terminal: timedelta | None = None,
    senescence: Senescence | None = None,
    reserve_usd: float = 0.0,
) -> Vitals:
    """The golem's vitals after tick number `tick`, at `now`, `age` after its birth and
    `interval` after the last assessment (the stretch of time the hazard is rolled over).

    `epistemic`: the prediction engine's epistemic fitness in [0, 1] (0 = no better than
    chance); it is the epistemic clock and feeds the hazard's multiplier (Bardo
    03-stochastic-mortality.md: the hazard is fed by epistemic fitness, not vitality).
    Epistemic senescence (`senescence`, stepped by the caller at `now`): the golem dies of
    it only when confirmed (Stage 2) and composite vitality is below the policy's floor
    (Bardo 01-architecture.md). `in_terminal`: how long the golem has been in Terminal,
    from when it entered to now (None when the last tick was not in Terminal); still in
    Terminal once it reaches the policy's `terminal_grace`, the golem dies of it.

    The economic clock reads the money the golem may spend: its credits less the apoptotic
    reserve (`reserve_usd`, death's alone), as a share of its initial credits less the
    reserve (Bardo: the reserve is subtracted from the operational balance). A golem
    funded with no more than the reserve has nothing to live on: its clock reads 0.

    An immortal golem (`params.immortal`, Bardo's control group) is held at vitality 1.0
    in Thriving and rolls no hazard; its economic and epistemic levels are still measured,
    and only the kill switch ends it."""
    economic = economic_level(credits_usd, initial_credits_usd, reserve_usd)
    level = min(1.0, max(0.0, epistemic))
    if params.immortal:
        cause = DeathCause.KILL_SWITCH if kill_switch else None
        return Vitals(1.0, Phase.THRIVING, economic, level, burn_rate_usd, 0.0, cause)
    vitality = composite_vitality(economic, level, age, params.vitality)
    phase = phase_of(vitality, previous, params.phases)
    survived, probability = True, 0.0
    if params.hazard is not None:
        # Golems that predict worse carry more hazard: the multiplier runs from 1 (full
        # epistemic fitness) to its `max_fitness_multiplier` (none).
        verdict = roll(
            params.seed,
            golem_id,
            tick,
            age=age,
            interval=interval,
            fitness=level,
            params=params.hazard,
        )
        survived, probability = verdict.survived, verdict.probability
    cause = death_cause(
        vitality=vitality,
        economic=economic,
        senescent=senescence is not None and senescence.dies(vitality, params.senescence),
        survived_roll=survived,
        kill_switch=kill_switch,
        terminal_expired=in_terminal is not None
        and phase is Phase.TERMINAL
        and params.terminal_grace is not None
        and in_terminal >= params.terminal_grace,
    )
    return Vitals(vitality, phase, economic, level, burn_rate_usd, probability, cause)


def economic_level(credits_usd: float, initial_credits_usd: float, reserve_usd: float) -> float:
    """The economic clock: the credits above the reserve as a share of the initial credits
    above it, in [0, 1] (0 when the initial credits do not exceed the reserve)."""
    spendable = initial_credits_usd - reserve_usd
    if spendable > 0:
        return min(1.0, max(0.0, (credits_usd - reserve_usd) / spendable))
    return 0.0
