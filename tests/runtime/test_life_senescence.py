"""Staged epistemic senescence through the real golem on a virtual clock (Bardo
02-epistemic-decay.md): the prediction engine's fitness falls below `[mortality]
senescence_threshold` (Stage 1, the dream and the curator hear of it), stays below for
`senescence_grace` of time (Stage 2, confirmed), a resumed golem keeps its stage and when it
began, and the golem dies of it only once composite vitality is below 0.1."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

from golem.mortality import DeathCause, Stage
from golem.runtime.clock import VirtualClock
from golem.runtime.golem import Golem
from golem.runtime.jobs import senescence
from golem.runtime.store.state import StateStore
from tests.runtime.test_life import START, life
from tests.runtime.test_life_terminal import TICK, config

GRACE = 30 * TICK  # a duration: 30 ticks of this heartbeat


def wrong(golem: Golem) -> Golem:
    """The golem with every forecast 5% up (the simulator's forecast bias): its claims are
    a constant, which knows nothing of the outcome (skill 0)."""
    golem.options = replace(golem.options, forecast_bias=lambda now: 0.05)
    return golem


async def live_until(golem: Golem, clock: VirtualClock, stage: Stage | None) -> datetime:
    """Heartbeats until the golem dies, or reaches `stage`; when it entered the stage."""
    for _ in range(3000):
        senescence = golem.chart.senescence
        if golem.dead or (stage is not None and senescence.stage is stage):
            return senescence.since or clock.now()
        await golem.tick()
        clock.advance(TICK)
    raise AssertionError(f"the golem neither died nor reached {stage}")


async def test_senescence_is_staged_and_kills_only_at_low_vitality(tmp_path: Path) -> None:
    cfg = config(tmp_path, senescence_grace="5h", terminal_grace="off")
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = wrong(life(cfg, clock, store).golem)
        warned = await live_until(golem, clock, Stage.WARNING)
        assert golem.predictor.fitness < 0.35 and not golem.dead
        assert senescence(golem) == "warning"  # what the dream's and curator's say
        confirmed = await live_until(golem, clock, Stage.SENESCENT)
        assert confirmed - warned >= GRACE  # Stage 2 only after the grace, in time
        fitness = golem.predictor.fitness
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = wrong(life(cfg, clock, store).golem)
        assert golem.chart.senescence.stage is Stage.SENESCENT  # the restart keeps it
        assert golem.chart.senescence.since == confirmed
        assert golem.predictor.fitness == fitness  # rebuilt from the ledger
        await live_until(golem, clock, None)
        death = store.death()
    assert death is not None and death["cause"] == DeathCause.EPISTEMIC
    assert death["vitality"] < 0.1  # confirmed AND composite vitality below 0.1
