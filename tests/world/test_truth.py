"""SimulatedMarket.ahead and Truth: looking ahead never moves the real path, and what it
sees is exactly what the real path then does."""

from datetime import UTC, datetime, timedelta

import pytest

from golem.world import MarketParams, Observation, Regime, ScheduledShock, SimulatedMarket
from golem.world.truth import MoveSize, Truth

T0 = datetime(2025, 1, 1, tzinfo=UTC)
STEP = timedelta(seconds=15)
# Random shocks and a scheduled crash inside the walk: the generator and both shock lists
# are exercised while the copy walks ahead.
PARAMS = MarketParams(
    shocks=(ScheduledShock(at=timedelta(hours=2), magnitude=-0.2, duration=timedelta(hours=1)),),
    random_shocks={"rate_per_day": 40.0},  # type: ignore[arg-type]
)


def walk(seed: int, n: int, *, look: int = 0, params: MarketParams = PARAMS) -> list[Observation]:
    market = SimulatedMarket(seed, params)
    seen = []
    for k in range(n):
        seen.append(market.observe(T0 + k * STEP))
        if look:
            market.ahead(look)
    return seen


def test_looking_ahead_every_tick_leaves_the_path_as_it_was() -> None:
    plain = walk(9, 2_000)
    assert walk(9, 2_000, look=20) == plain
    assert walk(9, 2_000, look=1) == plain
    assert {o.regime for o in plain} >= {Regime.CRASH}  # the shocks were on the way


def test_what_it_sees_ahead_is_what_then_happens() -> None:
    market = SimulatedMarket(4, PARAMS)
    for k in range(500):
        market.observe(T0 + k * STEP)
    seen = market.ahead(20)
    then = [market.observe(T0 + (500 + k) * STEP) for k in range(20)]
    assert seen == then


def test_it_looks_ahead_at_the_spacing_of_its_last_step() -> None:
    """A golem whose heartbeat slowed steps two intervals at a time: so does the look."""
    market = SimulatedMarket(2, PARAMS)
    market.observe(T0)
    market.observe(T0 + 2 * STEP)
    seen = market.ahead(5)
    assert [o.time for o in seen] == [T0 + 2 * STEP * k for k in range(2, 7)]
    assert seen == [market.observe(T0 + 2 * STEP * k) for k in range(2, 7)]


def test_a_market_not_yet_observed_cannot_look_ahead() -> None:
    with pytest.raises(ValueError, match="from an observation"):
        SimulatedMarket(1).ahead(3)


def test_the_truth_of_a_tick() -> None:
    now = Observation(tick=7, time=T0, price=100.0, volume=1.0, regime=Regime.CALM)
    prices = (99.0, 97.0, 101.0, 98.5)
    ahead = [
        Observation(tick=8 + i, time=T0 + (i + 1) * STEP, price=p, volume=1.0, regime=Regime.CRASH)
        for i, p in enumerate(prices)
    ]
    truth = Truth.of(now, ahead)
    assert truth.future_return == pytest.approx(-0.015)
    assert truth.trough == pytest.approx(-0.03)
    assert (truth.regime, truth.regime_ahead, truth.horizon_ticks) == (
        Regime.CALM,
        Regime.CRASH,
        4,
    )
    assert truth.direction == -1.0
    assert truth.size(0.005, 0.02) is MoveSize.MINOR
    assert truth.size(0.005, 0.01) is MoveSize.MAJOR
    assert truth.size(0.02, 0.05) is MoveSize.NONE
    rising = Truth.of(now, [ahead[2]])
    assert (rising.trough, rising.direction) == (0.0, 1.0)
