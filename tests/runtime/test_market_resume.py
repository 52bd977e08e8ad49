"""The simulated market is part of the golem's state: a life stopped and resumed sees the
same market, and marks the same portfolio, as one that never stopped."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from structlog.testing import capture_logs

from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.config.sections import GolemConfig
from golem.runtime.store.state import DB_NAME, StateStore
from golem.world import Observation, Regime, TradeAction
from tests.runtime.test_life import life

START = datetime(2026, 3, 1, tzinfo=UTC)
TICK = timedelta(seconds=15)
# 20 heartbeats fire at 0 s, 15 s, ... 285 s; the run ends at 299 s, before the 21st.
TWENTY_TICKS = 20 * TICK - timedelta(seconds=1)


def _regime(mean_s: int, **rest: Any) -> dict[str, Any]:
    others = dict.fromkeys(Regime, 1.0)
    return {"mean_duration": mean_s, "transitions": others, **rest}


def config(tmp_path: Path) -> GolemConfig:
    """A market that moves in 40 ticks: regimes that last a couple of minutes, random
    shocks, and a scheduled one that is under way when the life is stopped."""
    regimes = {
        "calm": _regime(90, drift=0.05, volatility=0.4),
        "trending": _regime(60, drift=4.0, volatility=0.6, volume_multiplier=1.3),
        "volatile": _regime(45, drift=-0.3, volatility=1.2, volume_multiplier=1.8),
        "crash": _regime(30, drift=-50.0, volatility=1.5, volume_multiplier=4.0),
    }
    return parse_config(
        {
            "golem": {"id": "g-market", "state_dir": str(tmp_path / "state"), "seed": 11},
            "mortality": {"initial_credits_usd": 5.0, "stochastic_death": False},
            "heartbeat": {"interval": "15s"},
            "world": {
                "market": {
                    "regimes": regimes,
                    "random_shocks": {"rate_per_day": 300.0, "duration": 40},
                    "shocks": [{"at": 280, "magnitude": -0.05, "duration": 60}],
                }
            },
        }
    )


async def _live(
    cfg: GolemConfig, clock: VirtualClock, duration: timedelta, *, buy: bool
) -> tuple[list[Observation], dict[str, Any], float]:
    """Run one stretch of the life; the observations it saw, its portfolio, its equity."""
    with StateStore.open(cfg.golem.state_dir) as store:
        made = life(cfg, clock, store)
        golem = made.golem
        if buy:  # a position, so that the portfolio's value follows the market
            golem.portfolio.apply(TradeAction.REBALANCE, 3_000.0, 5_000.0)
        await made.run(duration=duration)
        return list(golem.window.observations), golem.portfolio.to_dict(), golem.portfolio.equity()


async def test_a_resumed_life_sees_the_market_of_one_that_never_stopped(tmp_path: Path) -> None:
    once, twice = config(tmp_path / "once"), config(tmp_path / "twice")
    whole, portfolio, equity = await _live(
        once, VirtualClock(START), 2 * TWENTY_TICKS + timedelta(seconds=1), buy=True
    )
    clock = VirtualClock(START)
    first, _, _ = await _live(twice, clock, TWENTY_TICKS, buy=True)
    with capture_logs() as logs:
        second, resumed_portfolio, resumed_equity = await _live(
            twice, clock, TWENTY_TICKS + timedelta(seconds=1), buy=False
        )
    assert len(whole) == 40 and len(first) == 20
    assert [o.tick for o in whole] == list(range(40))
    assert second == whole  # prices, volumes, health factors, regimes, times; the window
    # of the resumed life holds the ticks before the restart too
    assert len({o.regime for o in whole}) > 1  # the regime chain moved, and was resumed
    assert resumed_portfolio == portfolio
    assert resumed_equity == equity
    assert not [e for e in logs if e["event"] == "market_not_resumed"]


async def test_a_state_without_market_state_resumes_from_the_seed_with_a_warning(
    tmp_path: Path,
) -> None:
    """A state dir written before the market was saved still resumes; the market starts
    again from its seed, and the log says so."""
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    first, _, _ = await _live(cfg, clock, TWENTY_TICKS, buy=False)
    with closing(sqlite3.connect(Path(cfg.golem.state_dir) / DB_NAME)) as db, db:
        db.execute("DELETE FROM meta WHERE key = 'market'")
    with capture_logs() as logs:
        second, _, _ = await _live(cfg, clock, TWENTY_TICKS + timedelta(seconds=1), buy=False)
    warnings = [e for e in logs if e["event"] == "market_not_resumed"]
    assert len(warnings) == 1 and warnings[0]["log_level"] == "warning"
    assert "no market state" in warnings[0]["reason"]
    assert second[:20] == first  # the window was saved, the market was not
    assert second[20].tick == 0 and second[20].price == first[0].price


async def test_a_restarted_golem_s_probes_see_the_ticks_before_it(tmp_path: Path) -> None:
    """The market window is saved with each tick: a restarted golem's first heartbeat
    has the 20-tick price change, the band and the volume ratio at once, and the market
    summary it starts from is the one the stopped golem ended with."""
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        made = life(cfg, clock, store)
        await made.run(duration=TWENTY_TICKS + TICK)
        window, ended = made.golem.window.observations, made.golem.window.summary()
    assert len(window) == 21
    with StateStore.open(cfg.golem.state_dir) as store:
        restarted = life(cfg, clock, store).golem
        assert restarted.window.observations == window
        assert restarted.previous == ended
        summary = restarted.window.summary()
        assert None not in (summary.delta_period, summary.zscore, summary.volume_ratio)
        assert summary.return_volatility is not None
        stored = store.observed.newest(1000)
    assert stored == list(window)


def test_the_store_keeps_the_newest_observations_a_window_holds(tmp_path: Path) -> None:
    seen = [Observation(n, START + n * TICK, 100.0 + n, 1.0 + n) for n in range(10)]
    with StateStore.open(tmp_path) as store:
        for start in range(0, 10, 3):
            with store.transaction():
                store.observed.save(seen[start : start + 3], keep=4)
        assert store.observed.newest(100) == seen[-4:]
        assert store.observed.newest(2) == seen[-2:]
