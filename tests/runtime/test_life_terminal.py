"""Terminal ends: a golem held in Terminal dies of it once `[mortality] terminal_grace` has
passed (a day by default), through the real golem on a virtual clock; leaving Terminal
restarts the grace, and a resumed golem keeps the time it entered."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from golem.inference import Usage
from golem.mortality import Charge, DeathCause, SubsystemName
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.config.sections import GolemConfig
from golem.runtime.life import Life
from golem.runtime.store.state import StateStore
from tests.runtime.test_life import START, life

TICK = timedelta(minutes=10)  # a slow heartbeat: days of Terminal in a few hundred ticks


def config(tmp_path: Path, **mortality: Any) -> GolemConfig:
    return parse_config(
        {
            "golem": {"id": "g-terminal", "state_dir": str(tmp_path / "state"), "seed": 3},
            "mortality": {
                "initial_credits_usd": 5.0,
                "stochastic_death": False,  # nothing but Terminal's grace ends these lives
                **mortality,
            },
            "heartbeat": {"interval": "10m"},
            "subsystems": {"curator": {"schedule": "6h"}, "dream": {"schedule": "12h"}},
        }
    )


def drain(store: StateStore, usd: float, at: datetime, key: str) -> None:
    """The operator spends `usd` of the golem's credits: what is left holds it in Terminal
    ($0.40 of $5, $0.10 above the $0.30 reserve: vitality about 0.04, above the 0.01
    floor; with less than the reserve left it would die of the economic clock)."""
    store.ledger.record(
        Charge(SubsystemName.OPERATOR, "elsewhere", "m", Usage(), usd, 0.0, at, key)
    )


def entered_terminal(store: StateStore) -> datetime:
    """The first tick in Terminal of the last run of Terminal ticks."""
    since = store.phase_since("terminal")
    assert since is not None, "the golem is not in Terminal"
    return since


async def held_in_terminal(cfg: GolemConfig, days: float) -> tuple[str, Any, datetime]:
    """Drain the golem into Terminal at birth and live up to `days`: why the life ended,
    the death record, and when it entered Terminal."""
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        living = life(cfg, clock, store)
        drain(store, 4.6, START, "drain")
        ended = await living.run(duration=timedelta(days=days))
        return ended, store.death(), entered_terminal(store)


@pytest.mark.parametrize(("grace", "length"), [("6h", 6), ("1d", 24), ("2d", 48)])
async def test_terminal_ends_after_its_grace_not_before(
    tmp_path: Path, grace: str, length: float
) -> None:
    cfg = config(tmp_path, terminal_grace=grace)
    ended, death, since = await held_in_terminal(cfg, 3)
    assert ended == "died"
    assert death["cause"] == DeathCause.TERMINAL
    lasted = datetime.fromisoformat(death["time"]) - since
    # The first tick at or past the grace: not before it, at most one heartbeat after.
    assert timedelta(hours=length) <= lasted < timedelta(hours=length) + TICK
    assert (Path(cfg.golem.state_dir) / "testament.json").exists()  # the death protocol ran


async def test_the_default_grace_is_a_day(tmp_path: Path) -> None:
    ended, death, since = await held_in_terminal(config(tmp_path), 2)
    assert ended == "died" and death["cause"] == DeathCause.TERMINAL
    lasted = datetime.fromisoformat(death["time"]) - since
    assert timedelta(days=1) <= lasted < timedelta(days=1) + TICK


async def test_off_lets_terminal_last(tmp_path: Path) -> None:
    ended, death, _ = await held_in_terminal(config(tmp_path, terminal_grace="off"), 3)
    assert (ended, death) == ("duration", None)


async def test_leaving_terminal_restarts_the_grace(tmp_path: Path) -> None:
    """20 hours in Terminal, rescued by income, drained again: the second stay gets a whole
    day of its own, counted from when it began. (One golem, its heartbeats driven here.)"""
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = life(cfg, clock, store).golem
        drain(store, 4.6, START, "drain")

        async def live(hours: float) -> None:
            end = clock.now() + timedelta(hours=hours)
            while clock.now() < end and not golem.dead:
                await golem.tick()
                clock.advance(TICK)

        await live(20)
        first = entered_terminal(store)
        golem.credit_income("patron", 4.9)
        await live(2)
        assert golem.vitals.phase != "terminal" and golem.chart.terminal_since is None
        drain(store, 4.6, clock.now(), "drain-again")
        await live(48)
        second = entered_terminal(store)
        death = store.death()
    assert death is not None and death["cause"] == DeathCause.TERMINAL
    died = datetime.fromisoformat(death["time"])
    assert second > first + timedelta(hours=20)
    assert timedelta(days=1) <= died - second < timedelta(days=1) + TICK


async def test_a_resumed_golem_keeps_the_time_it_entered_terminal(tmp_path: Path) -> None:
    """Stopped after 20 hours in Terminal and started again: it dies a day after it
    entered, not a day after the restart."""
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        first = life(cfg, clock, store)
        drain(store, 4.6, START, "drain")
        assert await first.run(duration=timedelta(hours=20)) == "duration"
        since = entered_terminal(store)
    with StateStore.open(cfg.golem.state_dir) as store:
        again: Life = life(cfg, clock, store)
        assert again.golem.chart.terminal_since == since
        assert await again.run(duration=timedelta(days=2)) == "died"
        death = store.death()
    assert death is not None and death["cause"] == DeathCause.TERMINAL
    lasted = datetime.fromisoformat(death["time"]) - since
    assert timedelta(days=1) <= lasted < timedelta(days=1) + TICK
