"""The stochastic clock: Gompertz–Makeham hazard and its deterministic roll."""

import math
import subprocess
import sys
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.mortality import HazardParams, death_probability, roll, uniform_draw
from tests.policy import HAZARD

seeds = st.one_of(st.integers(), st.text(max_size=20))
golem_ids = st.text(max_size=30)
ticks = st.integers(0, 10**9)
REF = timedelta(seconds=40)  # Bardo's tick, which the parameters are given per


def p_at(age_ticks: int, fitness: float, params: HazardParams = HAZARD) -> float:
    """The chance of dying over one reference tick at an age of so many reference ticks."""
    return death_probability(age_ticks * REF, fitness, REF, params)


@given(seeds, golem_ids, ticks, st.floats(0, 1))
def test_roll_is_deterministic(seed: int | str, golem_id: str, tick: int, fitness: float) -> None:
    first = roll(seed, golem_id, tick, age=tick * REF, interval=REF, fitness=fitness, params=HAZARD)
    assert first == roll(
        seed, golem_id, tick, age=tick * REF, interval=REF, fitness=fitness, params=HAZARD
    )
    assert 0.0 <= first.draw < 1.0
    assert first.survived == (first.draw >= first.probability)


def test_roll_is_the_same_in_another_process() -> None:
    # hash() is salted per process; the draw must not be.
    script = "from golem.mortality import uniform_draw; print(repr(uniform_draw(7, 'g-1', 42)))"
    other = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert float(other) == uniform_draw(7, "g-1", 42)


def test_draw_pinned_value() -> None:
    # Pinned: a change of hash, encoding or scaling would change every recorded life.
    assert uniform_draw(7, "g-1", 42) == 0.29341666837591335
    assert uniform_draw("seed", "golem-a", 0) == 0.013749090425577357
    assert uniform_draw(7, "g-1", 42) != uniform_draw(7, "g-1", 43)
    assert uniform_draw(7, "g-1", 42) != uniform_draw(8, "g-1", 42)
    assert uniform_draw(7, "g-1", 42) != uniform_draw(7, "g-2", 42)


def test_draws_look_uniform() -> None:
    draws = [uniform_draw(1, "g", t) for t in range(20_000)]
    mean = math.fsum(draws) / len(draws)
    assert mean == pytest.approx(0.5, abs=0.01)
    assert sum(d < 0.1 for d in draws) == pytest.approx(2_000, rel=0.1)


@pytest.mark.parametrize(
    ("age", "fitness", "expected"),
    [
        (0, 1.0, 1e-6 + 1e-8),
        (0, 0.0, 3 * (1e-6 + 1e-8)),
        (0, 0.5, 2 * (1e-6 + 1e-8)),
        (100_000, 1.0, 1e-6 + 1e-8 * math.exp(5.0)),
        (200_000, 1.0, 1e-6 + 1e-8 * math.exp(10.0)),
        (300_000, 0.0, 0.001),  # 3·(1e-6 + 1e-8·e^15) ≈ 0.098, capped
    ],
)
def test_hazard_table(age: int, fitness: float, expected: float) -> None:
    assert p_at(age, fitness) == pytest.approx(expected, rel=1e-3)


@given(st.integers(0, 10**7), st.integers(0, 10**7), st.floats(0, 1), st.floats(0, 1))
def test_hazard_grows_with_age_and_unfitness(a: int, b: int, f: float, g: float) -> None:
    young, old = sorted((a, b))
    fit, unfit = sorted((f, g), reverse=True)
    assert p_at(young, fit) <= p_at(old, fit)
    assert p_at(young, fit) <= p_at(young, unfit)
    assert 0.0 < p_at(old, unfit) <= 0.001 + 1e-15


def test_hazard_params_are_configuration() -> None:
    params = HazardParams(makeham=0.5, gompertz=0.0, cap=1.0, max_fitness_multiplier=1.0)
    assert p_at(0, 0.0, params) == pytest.approx(-math.expm1(-0.5))
    never = roll("s", "g", 3, age=REF, interval=REF, fitness=1.0, params=HazardParams(cap=0.0))
    assert never.survived
    with pytest.raises(ValueError, match="non-negative"):
        death_probability(-REF, 1.0, REF, HAZARD)


@pytest.mark.parametrize("interval", [timedelta(seconds=15), timedelta(seconds=30)])
@pytest.mark.parametrize("fitness", [1.0, 0.3])
def test_survival_over_a_stretch_of_time_does_not_depend_on_the_heartbeat(
    interval: timedelta, fitness: float
) -> None:
    """Surviving 10 days of rolls every 15 s, every 30 s (Conservation's doubling) or every
    40 s: the same chance within 0.1% (rates per second; the ageing term integrated on each
    grid differs only by discretisation)."""
    params = HazardParams(makeham=5e-5, ageing=5e-4, cap=0.01)  # large enough to see

    def survival(step: timedelta) -> float:
        log_survival, age = 0.0, timedelta(0)
        while age < timedelta(days=10):
            log_survival += math.log1p(-death_probability(age, fitness, step, params))
            age += step
        return math.exp(log_survival)

    assert survival(interval) == pytest.approx(survival(REF), rel=1e-3)
    assert 0.0 < survival(REF) < 0.99
    # the cap too is a rate: capped over a 20 s interval is capped twice over 40 s
    capped = HazardParams(makeham=1.0, cap=0.001)
    assert (1 - death_probability(REF, 1.0, REF / 2, capped)) ** 2 == pytest.approx(0.999)
