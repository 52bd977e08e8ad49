"""The economic and epistemic clocks, the fixed clock and the ledger's day."""

import math
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.mortality import EconomicClock, EpistemicClock, FixedClock, forecast_skill, utc_day


def test_economic_level_and_burn_ema() -> None:
    clock = EconomicClock.new(100.0)
    assert clock.level == 1.0
    assert clock.ticks_left() == math.inf
    clock = clock.tick(10.0)
    assert clock.credits == 90.0
    assert clock.level == pytest.approx(0.9)
    assert clock.burn_rate == pytest.approx(0.5)  # 0.95·0 + 0.05·10
    clock = clock.tick(10.0)
    assert clock.burn_rate == pytest.approx(0.95 * 0.5 + 0.05 * 10)
    assert clock.ticks_left() == pytest.approx(80.0 / clock.burn_rate)
    assert clock.time_left(timedelta(seconds=15)) == timedelta(seconds=15) * clock.ticks_left()


def test_economic_clock_bottoms_out_and_income_refills() -> None:
    clock = EconomicClock.new(10.0).tick(25.0)
    assert clock.credits == 0.0
    assert clock.level == 0.0
    assert clock.ticks_left() == 0.0
    refilled = clock.tick(0.0, income=50.0)
    assert refilled.credits == 50.0
    assert refilled.level == 1.0  # never above the initial credits
    assert EconomicClock.new(10.0).time_left(timedelta(seconds=1)) is None


def test_economic_clock_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="positive"):
        EconomicClock.new(0.0)
    with pytest.raises(ValueError, match="negative"):
        EconomicClock.new(1.0).tick(-1.0)


# Returns of a hand-made market: up, down, flat, a bigger move down, ...
_ACTUAL = [0.01, -0.02, 0.0, -0.03, 0.015, 0.005, -0.01, 0.02, -0.005, 0.01]


def test_epistemic_prior_until_ten_samples() -> None:
    clock = EpistemicClock()
    for actual in _ACTUAL[:9]:
        clock = clock.record(actual, actual)
        assert clock.level == 0.5
    assert clock.record(_ACTUAL[9], _ACTUAL[9]).level == 1.0


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ([(a, a) for a in _ACTUAL], 1.0),  # a perfect forecast
        ([(0.0, a) for a in _ACTUAL], 0.0),  # the naive forecast: no change
        ([(a / 2, a) for a in _ACTUAL], 0.75),  # half of every move: 1 − 1/4
        ([(-a, a) for a in _ACTUAL], 0.0),  # the wrong sign: skill −3, clipped
        ([(0.01, a) for a in _ACTUAL], 0.0),  # worse than naive: clipped
        ([(0.0, 0.0)] * 10, 0.0),  # a flat market, predicted flat: no better than naive
        ([(0.01, 0.0)] * 10, 0.0),  # a flat market, a move predicted: worse than naive
    ],
)
def test_epistemic_skill_table(pairs: list[tuple[float, float]], expected: float) -> None:
    clock = EpistemicClock()
    for predicted, actual in pairs:
        clock = clock.record(predicted, actual)
    assert clock.level == pytest.approx(expected)


def test_forecast_skill_is_one_minus_mse_over_naive_mse() -> None:
    pairs = [(0.01, 0.02), (-0.01, -0.03), (0.0, 0.01)]
    mse = (0.01**2 + 0.02**2 + 0.01**2) / 3
    naive = (0.02**2 + 0.03**2 + 0.01**2) / 3
    assert forecast_skill(pairs) == pytest.approx(1 - mse / naive)
    assert forecast_skill([(-a, a) for a in _ACTUAL]) == pytest.approx(-3.0)  # unclipped
    assert forecast_skill([(0.01, 0.0)] * 3) == -1.0  # zero naive MSE, missed


def test_epistemic_window_keeps_the_last_pairs() -> None:
    clock = EpistemicClock(window=10)
    for actual in _ACTUAL:
        clock = clock.record(-actual, actual)  # wrong sign: 0
    for actual in _ACTUAL:
        clock = clock.record(actual, actual)
    assert len(clock.pairs) == 10
    assert clock.level == 1.0
    assert EpistemicClock(window=1, min_samples=1).record(1, 1).record(2, 2).pairs == ((2, 2),)


@given(st.lists(st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)), min_size=1, max_size=120))
def test_epistemic_level_in_unit_interval(pairs: list[tuple[float, float]]) -> None:
    clock = EpistemicClock()
    for predicted, actual in pairs:
        clock = clock.record(predicted, actual)
    assert 0.0 <= clock.level <= 1.0
    assert forecast_skill(pairs) <= 1.0 + 1e-9


def test_fixed_clock_and_utc_day() -> None:
    at = datetime(2026, 3, 1, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert FixedClock(at).now() == at
    assert utc_day(at) == date(2026, 3, 2)  # 04:30 UTC the next day
    assert utc_day(datetime(2026, 3, 1, tzinfo=UTC)) == date(2026, 3, 1)
    with pytest.raises(ValueError, match="aware"):
        FixedClock(datetime(2026, 3, 1))
    with pytest.raises(ValueError, match="naive"):
        utc_day(datetime(2026, 3, 1))
