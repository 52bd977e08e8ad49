"""SimulatedMarket.state() / restore(): a market restored from its state, as plain JSON,
walks on exactly as the one it was taken from."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golem.world import (
    MarketParams,
    RandomShocks,
    Regime,
    RegimeParams,
    ScheduledShock,
    SimulatedMarket,
)

T0 = datetime(2025, 1, 1, tzinfo=UTC)
STEP = timedelta(seconds=15)


def busy() -> MarketParams:
    """Regimes of minutes, frequent random shocks and scheduled ones: every part of the
    state changes within a few hundred ticks."""
    regimes = {
        r: RegimeParams(
            drift=0.1,
            volatility=0.8,
            mean_duration=timedelta(minutes=3),
            transitions={o: 1.0 for o in Regime if o is not r},
        )
        for r in Regime
    }
    return MarketParams(
        regimes=regimes,
        random_shocks=RandomShocks(rate_per_day=200.0, duration=timedelta(minutes=2)),
        shocks=(
            ScheduledShock(at=timedelta(minutes=5), magnitude=-0.2),
            ScheduledShock(at=timedelta(minutes=30), magnitude=0.1, duration=timedelta(hours=2)),
        ),
    )


def through_json(state: dict[str, Any]) -> Any:
    return orjson.loads(orjson.dumps(state))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**63 - 1), st.text(max_size=8)),
    before=st.integers(0, 400),
    after=st.integers(1, 200),
    gaps=st.lists(st.integers(1, 7), min_size=1, max_size=5),
    params=st.sampled_from([None, busy()]),
)
def test_restore_then_continue_equals_uninterrupted(
    seed: int | str, before: int, after: int, gaps: list[int], params: MarketParams | None
) -> None:
    """Times on an irregular grid (a slowed heartbeat steps several intervals at once)."""
    times = [T0]
    for k in range(before + after - 1):
        times.append(times[-1] + STEP * gaps[k % len(gaps)])
    uninterrupted = SimulatedMarket(seed, params)
    whole = [uninterrupted.observe(t) for t in times]

    stopped = SimulatedMarket(seed, params)
    for t in times[:before]:
        stopped.observe(t)
    resumed = SimulatedMarket(seed, params)
    resumed.restore(through_json(stopped.state()))
    assert [resumed.observe(t) for t in times[before:]] == whole[before:]
    assert resumed.state() == uninterrupted.state()


def test_a_restored_market_runs_on_the_tick_grid() -> None:
    market = SimulatedMarket(4, busy())
    path = list(market.run(T0, 300))
    stopped = SimulatedMarket(4, busy())
    head = list(stopped.run(T0, 120))
    resumed = SimulatedMarket(4, busy())
    resumed.restore(through_json(stopped.state()))
    assert head + list(resumed.run(T0 + 120 * STEP, 180)) == path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 99}, "version 99"),
        ({"seed": 5}, "seed 5"),
        ({"price": "high"}, "not a market state"),
        ({"rng": [3, [1, 2, 3], None]}, "not a market state"),
        ({"start": "2025-01-01T00:00:00"}, "no timezone"),
        ({"extra": 1}, "not a market state"),
    ],
)
def test_a_state_that_cannot_be_restored_is_refused_and_changes_nothing(
    change: dict[str, Any], message: str
) -> None:
    source = SimulatedMarket(4)
    list(source.run(T0, 50))
    market = SimulatedMarket(4)
    fresh = market.state()
    with pytest.raises(ValueError, match=message):
        market.restore({**through_json(source.state()), **change})
    assert market.state() == fresh


def test_a_missing_state_key_is_refused() -> None:
    state = through_json(SimulatedMarket(4).state())
    del state["rng"]
    with pytest.raises(ValueError, match="not a market state"):
        SimulatedMarket(4).restore(state)
