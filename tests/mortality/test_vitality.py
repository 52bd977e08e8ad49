"""Composite vitality, phases with hysteresis, and the causes of death."""

import itertools
import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.mortality import (
    DeathCause,
    MortalityParams,
    Phase,
    PhaseThresholds,
    Senescence,
    Stage,
    VitalityParams,
    assess,
    composite_vitality,
    death_cause,
    phase_of,
)
from tests.policy import MORTALITY

unit = st.floats(0, 1)


TICK = timedelta(seconds=40)  # Bardo's tick: the table's ages are in them
NOW = datetime(2026, 1, 1, tzinfo=UTC)
GRACE = timedelta(seconds=500 * 40)  # Bardo's 500 ticks


def _sigmoid(x: float, centre: float, steepness: float) -> float:
    return 1 / (1 + math.exp(-steepness * (x - centre)))


def test_bardo_worked_example() -> None:
    vitality = composite_vitality(0.9, 0.2, timedelta(0), MORTALITY.vitality)
    assert vitality == pytest.approx(0.168, abs=5e-4)
    assert phase_of(vitality, None, MORTALITY.phases) is Phase.DECLINING


@pytest.mark.parametrize(
    ("economic", "epistemic", "age", "expected"),
    [
        (1.0, 1.0, 0, _sigmoid(1, 0.3, 10) * _sigmoid(1, 0.4, 8)),
        (0.3, 0.4, 0, 0.25),  # both at their centres
        (0.0, 0.0, 0, _sigmoid(0, 0.3, 10) * _sigmoid(0, 0.4, 8)),
        (1.0, 1.0, 100_000, _sigmoid(1, 0.3, 10) * _sigmoid(1, 0.4, 8) * 0.85),
        (1.0, 1.0, 200_000, _sigmoid(1, 0.3, 10) * _sigmoid(1, 0.4, 8) * 0.7),
        (0.5, 0.5, 0, _sigmoid(0.5, 0.3, 10) * _sigmoid(0.5, 0.4, 8)),
    ],
)
def test_vitality_table(economic: float, epistemic: float, age: int, expected: float) -> None:
    assert composite_vitality(economic, epistemic, age * TICK, MORTALITY.vitality) == pytest.approx(
        expected
    )


def test_age_term_reaches_zero() -> None:
    params = VitalityParams(age_weight=1.0, age_horizon=timedelta(hours=1))
    assert composite_vitality(1.0, 1.0, timedelta(hours=1), params) == 0.0
    assert composite_vitality(1.0, 1.0, timedelta(days=10**5), params) == 0.0
    assert composite_vitality(1.0, 1.0, timedelta(minutes=30), params) > 0.0


def test_the_age_horizon_is_bardos_ticks_in_time() -> None:
    """Bardo's 200,000 ticks at ~40 s: about 92.6 days; written as a duration in config."""
    assert VitalityParams().age_horizon == timedelta(seconds=8_000_000)
    assert VitalityParams.model_validate({"age_horizon": "3d"}).age_horizon == timedelta(days=3)
    with pytest.raises(ValueError, match="duration"):
        VitalityParams.model_validate({"age_horizon": 20_000})  # ticks no longer


@given(unit, unit, unit, unit, st.integers(0, 10**6))
def test_vitality_is_monotone_and_bounded(
    e1: float, e2: float, k1: float, k2: float, age: int
) -> None:
    lo_e, hi_e = sorted((e1, e2))
    lo_k, hi_k = sorted((k1, k2))
    low = composite_vitality(lo_e, lo_k, age * TICK, MORTALITY.vitality)
    high = composite_vitality(hi_e, hi_k, age * TICK, MORTALITY.vitality)
    assert 0.0 <= low <= high <= 1.0
    assert composite_vitality(hi_e, hi_k, (age + 1000) * TICK, MORTALITY.vitality) <= high


def test_vitality_rejects_levels_outside_the_unit_interval() -> None:
    with pytest.raises(ValueError, match="economic"):
        composite_vitality(1.5, 0.5, timedelta(0), MORTALITY.vitality)
    with pytest.raises(ValueError, match="epistemic"):
        composite_vitality(0.5, math.nan, timedelta(0), MORTALITY.vitality)


@pytest.mark.parametrize(
    ("vitality", "phase"),
    [
        (1.0, Phase.THRIVING),
        (0.70, Phase.THRIVING),
        (0.6999, Phase.STABLE),
        (0.50, Phase.STABLE),
        (0.35, Phase.CONSERVATION),
        (0.30, Phase.CONSERVATION),
        (0.168, Phase.DECLINING),
        (0.10, Phase.DECLINING),
        (0.0999, Phase.TERMINAL),
        (0.0, Phase.TERMINAL),
    ],
)
def test_phase_thresholds(vitality: float, phase: Phase) -> None:
    assert phase_of(vitality, None, MORTALITY.phases) is phase


@pytest.mark.parametrize(
    ("vitality", "previous", "phase"),
    [
        (0.72, Phase.STABLE, Phase.STABLE),  # above 0.70 but not 0.75
        (0.75, Phase.STABLE, Phase.THRIVING),
        (0.69, Phase.THRIVING, Phase.STABLE),  # falling is immediate
        (0.12, Phase.TERMINAL, Phase.TERMINAL),
        (0.15, Phase.TERMINAL, Phase.DECLINING),
        (0.76, Phase.TERMINAL, Phase.THRIVING),  # a leap clears every threshold
        (0.54, Phase.CONSERVATION, Phase.CONSERVATION),
        (0.56, Phase.DECLINING, Phase.STABLE),
        (0.3, Phase.STABLE, Phase.CONSERVATION),
    ],
)
def test_phase_hysteresis_table(vitality: float, previous: Phase, phase: Phase) -> None:
    assert phase_of(vitality, previous, MORTALITY.phases) is phase


@given(st.lists(unit, min_size=1, max_size=60))
def test_phases_obey_hysteresis(vitalities: list[float]) -> None:
    thresholds = PhaseThresholds()
    previous: Phase | None = None
    for vitality in vitalities:
        phase = phase_of(vitality, previous, MORTALITY.phases)
        plain = phase_of(vitality, None, MORTALITY.phases)
        # Never healthier than the plain thresholds say; a fall is immediate.
        assert phase.rank <= plain.rank
        assert vitality >= thresholds.floor(phase)
        if previous is not None:
            if phase.rank > previous.rank:  # rose: cleared the new floor plus the margin
                assert vitality >= thresholds.floor(phase) + thresholds.hysteresis - 1e-12
            if plain.rank < previous.rank:
                assert phase is plain
            if plain.rank >= previous.rank:
                assert phase.rank >= previous.rank
        previous = phase


@given(unit, st.sampled_from(Phase))
def test_hovering_at_a_threshold_does_not_flap(jitter: float, start: Phase) -> None:
    thresholds = PhaseThresholds()
    centre = thresholds.stable
    wobble = [centre - 0.01 + 0.05 * jitter * (i % 2) for i in range(20)]  # within ±0.05
    phases = []
    previous: Phase | None = start
    for vitality in wobble:
        previous = phase_of(vitality, previous, MORTALITY.phases)
        phases.append(previous)
    changes = sum(a is not b for a, b in itertools.pairwise(phases))
    assert changes <= 1


@pytest.mark.parametrize(
    ("kwargs", "cause"),
    [
        ({"vitality": 0.5, "economic": 0.5}, None),
        ({"vitality": 0.009, "economic": 0.5}, DeathCause.VITALITY),
        ({"vitality": 0.5, "economic": 0.0}, DeathCause.ECONOMIC),
        ({"vitality": 0.5, "economic": 0.5, "senescent": True}, DeathCause.EPISTEMIC),
        (
            {"vitality": 0.5, "economic": 0.5, "survived_roll": False},
            DeathCause.STOCHASTIC,
        ),
        (
            {"vitality": 0.0, "economic": 0.0, "senescent": True, "kill_switch": True},
            DeathCause.KILL_SWITCH,
        ),
        ({"vitality": 0.0, "economic": 0.0, "senescent": True}, DeathCause.ECONOMIC),
        (
            {"vitality": 0.05, "economic": 0.1, "terminal_expired": True},
            DeathCause.TERMINAL,
        ),
        (
            {"vitality": 0.005, "economic": 0.1, "terminal_expired": True},
            DeathCause.VITALITY,
        ),
    ],
)
def test_death_causes(kwargs: dict[str, float | bool], cause: DeathCause | None) -> None:
    assert death_cause(**kwargs) is cause  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("grace", "credits", "in_terminal", "cause"),
    [
        ("1d", 0.1, timedelta(days=1), DeathCause.TERMINAL),  # the grace has passed
        ("1d", 0.1, timedelta(hours=23, minutes=59), None),  # not yet
        ("1d", 0.1, None, None),  # it has just entered
        ("1d", 2.0, timedelta(days=3), None),  # it has left Terminal this tick
        ("12h", 0.1, timedelta(hours=12), DeathCause.TERMINAL),
        ("off", 0.1, timedelta(days=30), None),  # Terminal has no end of its own
    ],
)
def test_terminal_ends_after_its_grace(
    grace: str, credits: float, in_terminal: timedelta | None, cause: DeathCause | None
) -> None:
    params = MortalityParams.model_validate(
        {"initial_credits_usd": 5.0, "stochastic_death": False, "terminal_grace": grace}
    )
    vitals = assess(
        golem_id="g",
        tick=100,
        now=NOW,
        age=100 * TICK,
        interval=TICK,
        credits_usd=credits,
        initial_credits_usd=5.0,
        burn_rate_usd=0.0,
        epistemic=0.5,
        previous=Phase.TERMINAL,
        params=params.compile(seed=0),
        in_terminal=in_terminal,
    )
    assert vitals.cause is cause


@pytest.mark.parametrize(
    ("stage", "credits", "cause"),
    [
        (Stage.SENESCENT, 0.05, DeathCause.EPISTEMIC),  # confirmed, and vitality below 0.1
        (Stage.SENESCENT, 4.0, None),  # confirmed, but vitality is still high
        (Stage.WARNING, 0.05, None),  # Stage 1 only: recovery actions, no death
        (Stage.NORMAL, 0.05, None),
    ],
)
def test_senescence_kills_only_when_confirmed_and_vitality_is_low(
    stage: Stage, credits: float, cause: DeathCause | None
) -> None:
    """Bardo 01-architecture.md: the death protocol runs only when senescent (Stage 2) AND
    composite vitality < 0.1; Stage 1 never kills."""
    policy = MortalityParams(stochastic_death=False).compile(seed=0)
    assert (policy.senescence.threshold, policy.senescence.grace) == (0.35, GRACE)
    vitals = assess(
        golem_id="g",
        tick=1000,
        now=NOW,
        age=1000 * TICK,
        interval=TICK,
        credits_usd=credits,
        initial_credits_usd=5.0,
        burn_rate_usd=0.0,
        epistemic=0.3,
        previous=Phase.STABLE,
        params=policy,
        senescence=Senescence(stage, NOW - GRACE),
    )
    assert vitals.cause is cause
    assert (vitals.vitality < 0.1) is (credits < 1)


@pytest.mark.parametrize(
    ("text", "grace"),
    [("1d", timedelta(days=1)), ("36h", timedelta(hours=36)), ("off", None)],
)
def test_terminal_grace_is_a_duration_or_off(text: str, grace: timedelta | None) -> None:
    params = MortalityParams.model_validate({"terminal_grace": text})
    assert params.compile(seed=0).terminal_grace == grace
    assert MortalityParams.model_validate(params.model_dump(mode="json")) == params


@pytest.mark.parametrize("text", ["0s", "0", 0, "never", ""])
def test_terminal_grace_refuses_what_is_not_a_duration(text: object) -> None:
    with pytest.raises(ValueError, match="duration"):
        MortalityParams.model_validate({"terminal_grace": text})


def test_the_default_terminal_grace_is_a_day() -> None:
    assert MortalityParams().compile(seed=0).terminal_grace == timedelta(days=1)


def test_the_hazard_is_fed_by_epistemic_fitness_not_vitality() -> None:
    """Bardo 03-stochastic-mortality.md: the multiplier 1 + 2(1 − fitness) reads epistemic
    fitness. Less money (lower vitality) at the same fitness: the same chance of dying;
    lower fitness at the same money: a higher one."""

    def chance(credits: float, fitness: float) -> float:
        return assess(
            golem_id="g",
            tick=1000,
            now=NOW,
            age=1000 * TICK,
            interval=TICK,
            credits_usd=credits,
            initial_credits_usd=5.0,
            burn_rate_usd=0.0,
            epistemic=fitness,
            previous=Phase.STABLE,
            params=MortalityParams().compile(seed=0),
        ).death_probability

    assert chance(1.0, 0.8) == chance(5.0, 0.8) > 0
    assert chance(5.0, 0.2) > chance(5.0, 0.8)
    assert chance(5.0, 0.0) == pytest.approx(3 * chance(5.0, 1.0), rel=1e-5)
