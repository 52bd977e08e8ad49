"""Epistemic senescence through the real golem on a virtual clock: once its window is full
and its forecast skill is below `[mortality] senescence_threshold`, it dies of it once
`senescence_grace` of time has passed, not before, and a resumed golem keeps when it began; an
episode predicts the move its decision expects."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from golem.mortality import DeathCause, ModelTier, Phase, SubsystemName
from golem.runtime.clock import VirtualClock
from golem.runtime.golem import Golem
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.subsystems import HeartbeatDecision
from tests.runtime.test_life import START, life
from tests.runtime.test_life_terminal import TICK, config
from tests.subsystems.support import market

GRACE = 30 * TICK  # a duration: 30 ticks of this heartbeat


def wrong(golem: Golem) -> Golem:
    """The golem with every forecast 5% off: each episode is a forecast, and a bad one."""
    golem.options = replace(golem.options, forecast_bias=lambda now: 0.05)
    return golem


async def live_until(golem: Golem, clock: VirtualClock, stop: timedelta | None) -> None:
    """Heartbeats until the golem dies, or until it has been senescent for `stop`."""
    for _ in range(2000):
        if golem.dead:
            return
        since = golem.chart.senescent_since
        if stop is not None and since is not None and clock.now() - since >= stop:
            return
        await golem.tick()
        clock.advance(TICK)
    raise AssertionError("the golem neither died nor became senescent")


async def test_senescence_kills_after_its_grace_across_a_restart(tmp_path: Path) -> None:
    # Every forecast 5% off (the simulator's forecast bias): fitness 0 once 10 are scored.
    cfg = config(
        tmp_path,
        epistemic_window=10,
        senescence_grace="5h",
        terminal_grace="off",  # nothing but senescence ends this life
    )
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = wrong(life(cfg, clock, store).golem)
        await live_until(golem, clock, stop=GRACE // 2)
        assert not golem.dead  # half the grace: alive
        since = golem.chart.senescent_since
        assert since is not None and golem.vitals.epistemic < 0.35
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = wrong(life(cfg, clock, store).golem)
        assert golem.chart.senescent_since == since  # the restart does not reset the grace
        await live_until(golem, clock, stop=None)
        death = store.death()
    assert death is not None and death["cause"] == DeathCause.EPISTEMIC
    # the first tick past the grace, not before (the clock moved on once after it)
    assert clock.now() - TICK - since == GRACE


async def test_an_episode_predicts_the_move_the_decision_expects(tmp_path: Path) -> None:
    """A stated `expected_move` is the episode's prediction; with none, the move the action
    implies (observing: none)."""
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        golem = life(cfg, clock, store).golem
        seen = market(tick=golem.tick_no)
        for move, predicted in ((-0.02, -0.02), (None, 0.0)):
            decision = HeartbeatDecision.of(
                {"severity": "low", "action": "observe", "expected_move": move}
            )
            record = DecisionRecord(
                golem="g",
                time=START,
                vitality=1.0,
                phase=Phase.THRIVING,
                subsystem=SubsystemName.HEARTBEAT,
                tick=golem.tick_no,
                tier_asked=ModelTier.T1,
                tier=ModelTier.T1,
                source="model",
                decision=decision,
            )
            golem._record_episode(seen, record)
            assert store.episodes()[-1].decision.predicted_delta == predicted
