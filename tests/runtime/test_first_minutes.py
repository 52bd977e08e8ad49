"""The default golem (configs/golem.toml) shows every subsystem deciding by a model within
its first ten minutes: its world opens volatile, with a rally the heartbeat's probes see as
soon as their window is full, and it dreams from its first resolved episode. Run on a
virtual clock, every tier on the synthetic provider priced at nothing, as the embedded
model is; everything else as configured."""

from __future__ import annotations

import contextlib
import tempfile
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from golem.mortality import SubsystemName
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.life import assemble
from golem.runtime.markets import make_market
from golem.runtime.record import DecisionRecord
from golem.runtime.routes import ProviderPool, build_routes
from golem.runtime.scheduler import ANY_LATENESS
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record

DEFAULT = Path(__file__).resolve().parents[2] / "configs" / "golem.toml"
BIRTH = datetime(2026, 1, 5, 12, tzinfo=UTC)
WITHIN = timedelta(minutes=10)
_FREE = {"price": {"input": 0.0, "output": 0.0}}
EVERY = {
    SubsystemName.HEARTBEAT,
    SubsystemName.DAIMON,
    SubsystemName.RISK,
    SubsystemName.DREAM,
    SubsystemName.CURATOR,
}


def default_config() -> dict[str, Any]:
    """configs/golem.toml with the synthetic provider in place of the embedded model."""
    data = tomllib.loads(DEFAULT.read_text(encoding="utf-8"))
    data["inference"] |= {
        "t1": ["synthetic:claude-haiku-4-5"],
        "t2": ["synthetic:claude-sonnet-4"],
        "death": ["synthetic:claude-sonnet-4"],
    }
    data["providers"] = {
        "synthetic": {"emulate": "anthropic", "model": "claude-haiku-4-5"},
        "anthropic": {"models": {"claude-haiku-4-5": _FREE, "claude-sonnet-4": _FREE}},
    }
    return data


async def first_model_decisions(data: dict[str, Any]) -> dict[SubsystemName, timedelta]:
    """How long after birth each subsystem first decided by a model, within WITHIN."""
    published: list[Record] = []
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        config = parse_config(data)
        with StateStore.open(Path(tmp) / "state") as store:
            life, _ = assemble(
                config,
                clock=VirtualClock(BIRTH),
                store=store,
                routes=build_routes(ProviderPool(config, {})),
                market=make_market(config),
                subscribers=[published.append],
            )
            await life.run(duration=WITHIN)
    first: dict[SubsystemName, timedelta] = {}
    for record in published:
        if isinstance(record, DecisionRecord) and record.source == "model":
            first.setdefault(record.subsystem, record.time - BIRTH)
    return first


async def born_holding(data: dict[str, Any]) -> float:
    """The share of its equity the golem holds in ETH after its first heartbeat."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        config = parse_config(data)
        with StateStore.open(Path(tmp) / "state") as store:
            life, _ = assemble(
                config,
                clock=VirtualClock(BIRTH),
                store=store,
                routes=build_routes(ProviderPool(config, {})),
                market=make_market(config),
            )
            await life.run(duration=timedelta(seconds=1))
            return life.golem.portfolio.weight()


async def test_the_default_golem_is_born_holding_what_a_hedge_can_trade() -> None:
    # Born in cash, a hedge or an exit has nothing to trade and never reaches risk.
    assert await born_holding(default_config()) == pytest.approx(0.5)
    data = default_config()
    del data["world"]["portfolio"]["initial_weight"]
    assert await born_holding(data) == 0.0


async def test_every_subsystem_decides_by_a_model_within_ten_minutes() -> None:
    first = await first_model_decisions(default_config())
    assert set(first) == EVERY, first
    # The heartbeat's window holds 20 ticks of 15 s: its probes read the rally from then on.
    assert timedelta(minutes=5) <= first[SubsystemName.HEARTBEAT] <= timedelta(minutes=6)
    # The birth's episode resolves at tick 20; the dream's next run (every 2 minutes) dreams
    # of it, and the curator reviews what that dream staged.
    assert first[SubsystemName.DREAM] == timedelta(minutes=6)
    assert first[SubsystemName.DREAM] < first[SubsystemName.CURATOR]


async def test_with_ten_episodes_needed_the_default_golem_does_not_dream_so_soon() -> None:
    data = default_config()
    data["subsystems"]["dream"]["min_episodes"] = 10  # the dream's own default
    first = await first_model_decisions(data)
    assert SubsystemName.DREAM not in first and SubsystemName.CURATOR not in first, first


async def test_without_its_volatile_opening_the_default_golem_decides_by_the_rules() -> None:
    data = default_config()
    del data["world"]["market"]["shocks"], data["world"]["market"]["initial_regime"]
    first = await first_model_decisions(data)
    # The daimon's appraisal of its birth, and the dream of the birth's episode and the
    # curator's review of it (they come with time, not with the market); never the
    # heartbeat, hence never risk.
    assert set(first) == {SubsystemName.DAIMON, SubsystemName.DREAM, SubsystemName.CURATOR}


def test_a_slow_tick_never_drops_a_dream_or_a_curator_run() -> None:
    """A local model's tick can hold the loop for minutes: the scheduled subsystems then
    run once when it frees (ANY_LATENESS), rather than wait for their next time."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        config = parse_config(default_config())
        with StateStore.open(Path(tmp) / "state") as store:
            life, _ = assemble(
                config,
                clock=VirtualClock(BIRTH),
                store=store,
                routes=build_routes(ProviderPool(config, {})),
                market=make_market(config),
            )
            jobs = life.scheduler._slots
            assert jobs["dream"].job.grace == jobs["curator"].job.grace == ANY_LATENESS
            assert jobs["heartbeat"].job.grace is None  # the scheduler's minute
