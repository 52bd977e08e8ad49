"""The economic and epistemic clocks, the fixed clock and the ledger's day."""

import math
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from golem.mortality import EconomicClock, FixedClock, utc_day


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


def test_fixed_clock_and_utc_day() -> None:
    at = datetime(2026, 3, 1, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert FixedClock(at).now() == at
    assert utc_day(at) == date(2026, 3, 2)  # 04:30 UTC the next day
    assert utc_day(datetime(2026, 3, 1, tzinfo=UTC)) == date(2026, 3, 1)
    with pytest.raises(ValueError, match="aware"):
        FixedClock(datetime(2026, 3, 1))
    with pytest.raises(ValueError, match="naive"):
        utc_day(datetime(2026, 3, 1))
