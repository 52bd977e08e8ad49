"""One tick's vitality from the golem's records: the three clocks, the composite, the
phase with hysteresis, and whether (and why) the golem dies now. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from msgspec import Struct

from golem.mortality.death_clocks import EpistemicClock
from golem.mortality.hazard import roll
from golem.mortality.params import MortalityPolicy
from golem.mortality.vitality import DeathCause, Phase, composite_vitality, death_cause, phase_of

__all__ = ["Epistemic", "Vitals", "assess", "epistemic_of"]


class Vitals(Struct, frozen=True):
    vitality: float
    phase: Phase
    economic: float
    epistemic: float
    burn_rate_usd: float
    death_probability: float = 0.0
    cause: DeathCause | None = None


class Epistemic(Struct, frozen=True):
    """The epistemic clock's level as vitality reads it, and whether its window is full
    (only a full window can kill)."""

    level: float
    full_window: bool

    def below(self, params: MortalityPolicy) -> bool:
        """Whether this level counts toward senescence: a full window, and fitness below
        the policy's senescence threshold."""
        return self.full_window and self.level < params.senescence_threshold


def epistemic_of(predictions: Sequence[tuple[float, float]], params: MortalityPolicy) -> Epistemic:
    """The epistemic level of the last (predicted, actual) return pairs. It changes only
    when they do, so a caller may keep it between ticks.

    Skill over a handful of pairs is mostly noise: it is trusted in proportion to how full the
    window is, starting from the prior, so a young golem is not judged on ten samples."""
    clock = EpistemicClock(
        pairs=tuple(predictions)[-params.epistemic_window :],
        window=params.epistemic_window,
        min_samples=params.epistemic_min_samples,
    )
    trust = min(1.0, len(clock.pairs) / params.epistemic_window)
    level = clock.prior + trust * (clock.level - clock.prior)
    return Epistemic(level, len(clock.pairs) >= params.epistemic_window)


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
    epistemic: Epistemic,
    previous: Phase | None,
    params: MortalityPolicy,
    kill_switch: bool = False,
    in_terminal: timedelta | None = None,
    senescent_since: datetime | None = None,
    reserve_usd: float = 0.0,
) -> Vitals:
    """The golem's vitals after tick number `tick`, at `now`, `age` after its birth and
    `interval` after the last assessment (the stretch of time the hazard is rolled over).

    Epistemic senescence: the golem dies once its fitness has been below the policy's
    `senescence_threshold` (with a full window: a young golem is not judged on a few
    predictions) on every tick from `senescent_since` (when the current run below it
    began, None when the last tick was not below) to now, and `now − senescent_since` has
    reached `senescence_grace`. `in_terminal`: how long the golem has been in Terminal,
    from when it entered to now (None when the last tick was not in Terminal); still in
    Terminal once it reaches the policy's `terminal_grace`, the golem dies of it.

    The economic clock reads the money the golem may spend: its credits less the apoptotic
    reserve (`reserve_usd`, death's alone), as a share of its initial credits less the
    reserve (Bardo: the reserve is subtracted from the operational balance). A golem
    funded with no more than the reserve has nothing to live on: its clock reads 0.

    An immortal golem (`params.immortal`, Bardo's control group) is held at vitality 1.0
    in Thriving and rolls no hazard; its economic and epistemic levels are still measured,
    and only the kill switch ends it."""
    spendable = initial_credits_usd - reserve_usd
    economic = min(1.0, max(0.0, (credits_usd - reserve_usd) / spendable)) if spendable > 0 else 0.0
    level = epistemic.level
    if params.immortal:
        cause = DeathCause.KILL_SWITCH if kill_switch else None
        return Vitals(1.0, Phase.THRIVING, economic, level, burn_rate_usd, 0.0, cause)
    vitality = composite_vitality(economic, level, age, params.vitality)
    phase = phase_of(vitality, previous, params.phases)
    survived, probability = True, 0.0
    if params.hazard is not None:
        # Weaker golems carry more hazard: vitality is the fitness, and the hazard's
        # multiplier runs from 1 (full vitality) to its `max_fitness_multiplier` (none).
        verdict = roll(
            params.seed,
            golem_id,
            tick,
            age=age,
            interval=interval,
            fitness=vitality,
            params=params.hazard,
        )
        survived, probability = verdict.survived, verdict.probability
    below_since = now if senescent_since is None else senescent_since
    cause = death_cause(
        vitality=vitality,
        economic=economic,
        senescent=epistemic.below(params) and now - below_since >= params.senescence_grace,
        survived_roll=survived,
        kill_switch=kill_switch,
        terminal_expired=in_terminal is not None
        and phase is Phase.TERMINAL
        and params.terminal_grace is not None
        and in_terminal >= params.terminal_grace,
    )
    return Vitals(vitality, phase, economic, level, burn_rate_usd, probability, cause)
