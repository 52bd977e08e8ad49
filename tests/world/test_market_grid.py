"""The simulated market steps on its own grid (issue 37, item 1): observers at different
heartbeat intervals, or one whose interval doubles mid-life (Conservation), see the same
price at every time they share, for the same seed; between grid steps the price stands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.world import (
    EXAMPLE_CSV,
    CSVReplay,
    MarketParams,
    RandomShocks,
    ScheduledShock,
    SimulatedMarket,
)

T0 = datetime(2026, 1, 5, tzinfo=UTC)
PARAMS = MarketParams(
    shocks=(ScheduledShock(at=timedelta(hours=5), magnitude=-0.2, duration=timedelta(hours=1)),),
    random_shocks=RandomShocks(rate_per_day=4.0),
)


def prices(times: list[datetime], seed: int = 3) -> dict[datetime, float]:
    market = SimulatedMarket(seed, PARAMS)
    return {t: market.observe(t).price for t in times}


def test_two_heartbeats_see_the_same_path_at_common_times() -> None:
    day = [T0 + timedelta(seconds=15 * k) for k in range(5760)]
    fast = prices(day)
    slow = prices(day[::2])  # a 30 s heartbeat
    forty = prices([T0 + timedelta(seconds=40 * k) for k in range(2160)])
    assert all(slow[t] == fast[t] for t in slow)
    # 40 s is no multiple of the 15 s grid: the price of the last grid step before it
    for t, price in forty.items():
        on_grid = T0 + timedelta(seconds=15 * ((t - T0).total_seconds() // 15))
        assert price == fast[on_grid]
    assert len(set(fast.values())) > 5000  # the path moves


def test_conservation_doubling_the_interval_mid_life_stays_on_the_path() -> None:
    times = [T0 + timedelta(seconds=15 * k) for k in range(1000)]
    times += [times[-1] + timedelta(seconds=30 * k) for k in range(1, 1000)]
    reference = prices([T0 + timedelta(seconds=15 * k) for k in range(3000)])
    assert prices(times) == {t: reference[t] for t in times}


def test_an_observer_between_grid_steps_sees_the_price_stand() -> None:
    market = SimulatedMarket(1, PARAMS)
    first = market.observe(T0)
    early = market.observe(T0 + timedelta(seconds=5))
    assert early.price == first.price
    assert early.volume == pytest.approx(first.volume / 3)
    step = market.observe(T0 + timedelta(seconds=15))
    assert step.price == list(SimulatedMarket(1, PARAMS).run(T0, 2))[1].price


def test_volume_is_what_traded_since_the_last_look() -> None:
    grid = list(SimulatedMarket(2, PARAMS).run(T0, 5))
    market = SimulatedMarket(2, PARAMS)
    market.observe(T0)
    seen = market.observe(T0 + timedelta(seconds=60))
    assert seen.volume == pytest.approx(sum(o.volume for o in grid[1:5]))
    assert seen.price == grid[4].price


def test_a_restored_market_continues_on_the_grid() -> None:
    market = SimulatedMarket(4, PARAMS)
    market.observe(T0)
    market.observe(T0 + timedelta(seconds=40))
    resumed = SimulatedMarket(4, PARAMS)
    resumed.restore(market.state())
    later = T0 + timedelta(hours=6)
    assert resumed.observe(later) == market.observe(later)
    assert resumed.observe(later).price == prices([T0, later], seed=4)[later]


def test_a_replay_gives_every_observer_the_row_in_force() -> None:
    """CSV replay was already a pure function of time: the row in force at each instant,
    whoever asks and however often (unchanged here; the markets helper owns replay.py)."""
    replay, other = CSVReplay(EXAMPLE_CSV), CSVReplay(EXAMPLE_CSV)
    span = replay.end - replay.start
    fast = {replay.start + span * k / 90: 0.0 for k in range(91)}
    for t in fast:
        fast[t] = replay.observe(t).price
    for t in list(fast)[::3]:
        assert other.observe(t).price == fast[t]
