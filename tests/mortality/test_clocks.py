"""The economic and epistemic clocks, the fixed clock and the ledger's day."""

import math
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.mortality import EconomicClock, EpistemicClock, FixedClock, r_squared, utc_day


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


def test_epistemic_prior_until_ten_samples() -> None:
    clock = EpistemicClock()
    for i in range(9):
        clock = clock.record(float(i), float(i))
        assert clock.level == 0.5
    assert clock.record(9.0, 9.0).level == 1.0


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ([(x, x) for x in range(10)], 1.0),
        ([(4.5, x) for x in range(10)], 0.0),  # always the mean: R² = 0
        ([(9 - x, x) for x in range(10)], 0.0),  # anti-correlated: R² = -3, floored
        ([(x + 1, x) for x in range(10)], 1 - 10 / 82.5),
        ([(1.0, 2.0)] * 10, 0.0),  # constant outcome, missed
        ([(2.0, 2.0)] * 10, 1.0),  # constant outcome, hit
    ],
)
def test_epistemic_r_squared_table(pairs: list[tuple[float, float]], expected: float) -> None:
    clock = EpistemicClock()
    for predicted, actual in pairs:
        clock = clock.record(float(predicted), float(actual))
    assert clock.level == pytest.approx(expected)


def test_epistemic_window_keeps_the_last_pairs() -> None:
    clock = EpistemicClock(window=10)
    for _ in range(10):
        clock = clock.record(0.0, 1.0)  # constant outcome, missed: 0
    for x in range(10):
        clock = clock.record(float(x), float(x))
    assert len(clock.pairs) == 10
    assert clock.level == 1.0
    assert EpistemicClock(window=1, min_samples=1).record(1, 1).record(2, 2).pairs == ((2, 2),)


@given(st.lists(st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)), min_size=1, max_size=120))
def test_epistemic_level_in_unit_interval(pairs: list[tuple[float, float]]) -> None:
    clock = EpistemicClock()
    for predicted, actual in pairs:
        clock = clock.record(predicted, actual)
    assert 0.0 <= clock.level <= 1.0
    assert r_squared(pairs) <= 1.0 + 1e-9


def test_fixed_clock_and_utc_day() -> None:
    at = datetime(2026, 3, 1, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert FixedClock(at).now() == at
    assert utc_day(at) == date(2026, 3, 2)  # 04:30 UTC the next day
    assert utc_day(datetime(2026, 3, 1, tzinfo=UTC)) == date(2026, 3, 1)
    with pytest.raises(ValueError, match="aware"):
        FixedClock(datetime(2026, 3, 1))
    with pytest.raises(ValueError, match="naive"):
        utc_day(datetime(2026, 3, 1))
