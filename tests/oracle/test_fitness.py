"""Epistemic fitness on a chance-corrected scale (issue 37's acceptance): a forecaster at
chance scores 0 ± noise, an always-informed one near 1, one informed a share p of the time
near p; the same skill claimed ten times as often gives the same fitness; a newborn sits at
the prior, in Thriving."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.mortality import composite_vitality, phase_of
from golem.mortality.senescence import Senescence, SenescenceParams, Stage
from golem.mortality.vitality import Phase
from golem.oracle import Category, EpistemicFitness, FitnessParams, Resolution, peirce
from tests.policy import MORTALITY

T0 = datetime(2026, 1, 1, tzinfo=UTC)
CLASSES = ("up", "flat", "down")
FLAT_HEAVY = (0.015, 0.97, 0.015)  # 97% of short moves are flat


def _resolution(
    category: Category, forecast: str, observed: str, regime: str = "calm"
) -> Resolution:
    return Resolution(
        prediction_id=0,
        checkpoint=0,
        resolved_at=T0,
        category=category,
        regime=regime,
        actual=0.0,
        residual=0.0,
        correct=forecast == observed,
        forecast=forecast,
        observed=observed,
        confidence=0.5,
    )


def _stream(
    rng: random.Random, n: int, informed: float, guess: str | None = None
) -> list[tuple[str, str]]:
    """(forecast, observed): informed a share `informed` of the time, else a guess that is
    independent of the outcome (`guess`, or a uniform class when None)."""
    pairs = []
    for _ in range(n):
        observed = rng.choices(CLASSES, FLAT_HEAVY)[0]
        if rng.random() < informed:
            forecast = observed
        else:
            forecast = guess if guess is not None else rng.choice(CLASSES)
        pairs.append((forecast, observed))
    return pairs


def _table(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], float]:
    table: dict[tuple[str, str], float] = {}
    for pair in pairs:
        table[pair] = table.get(pair, 0.0) + 1.0
    return table


@pytest.mark.parametrize("guess", [None, "flat", "up"])
@pytest.mark.parametrize("p", [0.0, 0.25, 0.5, 0.75, 1.0])
def test_peirce_scores_the_informed_share_whatever_the_guess(p: float, guess: str | None) -> None:
    """With enough claims to see the rare moves (20,000: about 300 up and 300 down), the
    score is p ± sampling noise (its standard error here is under 0.04)."""
    skill = peirce(_table(_stream(random.Random(7), 20_000, p, guess)))
    assert skill is not None
    assert skill == pytest.approx(p, abs=0.06)


def test_peirce_is_undefined_without_two_observed_classes() -> None:
    assert peirce({}) is None
    assert peirce({("up", "flat"): 3.0, ("flat", "flat"): 2.0}) is None


@given(st.dictionaries(st.sampled_from(CLASSES), st.integers(1, 50), min_size=2))
def test_a_perfect_forecaster_scores_one(counts: dict[str, int]) -> None:
    assert peirce({(c, c): float(n) for c, n in counts.items()}) == pytest.approx(1.0)


@given(
    st.dictionaries(st.sampled_from(CLASSES), st.integers(1, 20), min_size=2),
    st.dictionaries(st.sampled_from(CLASSES), st.integers(1, 20), min_size=1),
)
def test_a_forecast_independent_of_the_outcome_scores_zero(
    observed: dict[str, int], forecast: dict[str, int]
) -> None:
    """The product table (forecast independent of outcome) scores exactly 0."""
    table = {(f, o): float(nf * no) for f, nf in forecast.items() for o, no in observed.items()}
    assert peirce(table) == pytest.approx(0.0, abs=1e-12)


def _fitness_of(
    pairs: list[tuple[str, str]], params: FitnessParams | None = None
) -> EpistemicFitness:
    fitness = EpistemicFitness(params)
    for forecast, observed in pairs:
        fitness.record(_resolution(Category.PRICE_DIRECTION, forecast, observed))
    return fitness


# Volatility regimes: three classes seen often enough that the EMA's ~1/α = 200 weight
# resolves the score (price direction's rare moves need far more claims than its α keeps).
BALANCED = (0.3, 0.4, 0.3)


def _regime_stream(rng: random.Random, n: int, informed: float) -> list[tuple[str, str]]:
    names = ("calm", "normal", "wild")
    pairs = []
    for _ in range(n):
        observed = rng.choices(names, BALANCED)[0]
        forecast = observed if rng.random() < informed else rng.choice(names)
        pairs.append((forecast, observed))
    return pairs


@pytest.mark.parametrize("p", [0.0, 0.3, 0.6, 1.0])
def test_fitness_is_the_informed_share_shrunk_toward_the_prior(p: float) -> None:
    """The domain's fitness after 3,000 claims is (n·clip(skill) + k·prior)/(n + k) with n
    near 1/α = 200 and k = 5: p within noise (the EMA keeps ~200 claims: SE about 0.06)."""
    fitness = EpistemicFitness()
    for forecast, observed in _regime_stream(random.Random(11), 3000, p):
        fitness.record(_resolution(Category.VOLATILITY_REGIME, forecast, observed))
    expected = (200 * p + 5 * 0.6) / 205
    assert fitness.level == pytest.approx(expected, abs=0.15)
    assert fitness.domain_level(Category.VOLATILITY_REGIME) == fitness.level


def test_chance_and_knowledge_are_far_apart() -> None:
    """Averaged over 20 seeds the chance forecaster is near 0 + the prior's share, the
    informed one near 1."""
    levels = {}
    for p in (0.0, 1.0):
        runs = []
        for seed in range(20):
            fitness = EpistemicFitness()
            for f, o in _regime_stream(random.Random(seed), 1500, p):
                fitness.record(_resolution(Category.VOLATILITY_REGIME, f, o))
            runs.append(fitness.level)
        levels[p] = sum(runs) / len(runs)
    assert levels[0.0] == pytest.approx(5 * 0.6 / 205, abs=0.03)
    assert levels[1.0] == pytest.approx((200 + 5 * 0.6) / 205, abs=0.01)


def test_claiming_ten_times_as_often_does_not_move_fitness() -> None:
    """Same skill (informed half the time), one golem resolving 300 claims and one 3,000 over
    the same life: their fitness agrees within noise; a countdown would part them."""
    few = [EpistemicFitness() for _ in range(20)]
    many = [EpistemicFitness() for _ in range(20)]
    for seed in range(20):
        for f, o in _regime_stream(random.Random(seed), 300, 0.5):
            few[seed].record(_resolution(Category.VOLATILITY_REGIME, f, o))
        for f, o in _regime_stream(random.Random(100 + seed), 3000, 0.5):
            many[seed].record(_resolution(Category.VOLATILITY_REGIME, f, o))
    mean_few = sum(f.level for f in few) / 20
    mean_many = sum(f.level for f in many) / 20
    assert mean_few == pytest.approx(mean_many, abs=0.03)


def test_a_newborn_sits_at_the_prior_in_thriving() -> None:
    fitness = EpistemicFitness()
    assert fitness.level == 0.6
    vitality = composite_vitality(1.0, fitness.level, timedelta(0), MORTALITY.vitality)
    assert phase_of(vitality, None, MORTALITY.phases) is Phase.THRIVING
    # inaction's claims count toward the regime's samples but are not scored
    fitness.record(_resolution(Category.INACTION, "true", "true"))
    assert fitness.level == 0.6 and fitness.regime_samples("calm") == 1


def test_the_composite_renormalises_over_the_domains_claimed() -> None:
    fitness = EpistemicFitness(FitnessParams(pseudo_count=0.0))
    for f, o in _regime_stream(random.Random(1), 2000, 1.0):
        fitness.record(_resolution(Category.VOLATILITY_REGIME, f, o))
    assert fitness.level == pytest.approx(1.0)
    for f, o in _stream(random.Random(2), 2000, 0.0, guess="flat"):
        fitness.record(_resolution(Category.PRICE_DIRECTION, f, o))
    price = fitness.domain_level(Category.PRICE_DIRECTION)
    assert fitness.level == pytest.approx((0.35 * price + 0.25 * 1.0) / 0.60)
    assert price == pytest.approx(0.0, abs=0.05)


def test_no_golem_grows_senescent_by_claiming_more() -> None:
    """Two golems of the same skill (informed half the time) over the same two days, one
    resolving a claim every 10 minutes and one every minute: neither is ever confirmed
    senescent; a chance forecaster at either rate is."""
    params = SenescenceParams()

    def stages(every: timedelta, informed: float) -> set[Stage]:
        rng, fitness, state = random.Random(5), EpistemicFitness(), Senescence()
        seen, t = set(), timedelta(0)
        while t <= timedelta(days=2):
            [(f, o)] = _regime_stream(rng, 1, informed)
            fitness.record(_resolution(Category.VOLATILITY_REGIME, f, o))
            state = state.step(
                T0 + t, fitness.level, regime_samples=fitness.regime_samples("calm"), params=params
            )
            seen.add(state.stage)
            t += every
        return seen

    for every in (timedelta(minutes=10), timedelta(minutes=1)):
        assert Stage.SENESCENT not in stages(every, 0.5)
        assert Stage.SENESCENT in stages(every, 0.0)
