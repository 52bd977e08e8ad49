"""The prediction engine's quiet part (issue [speed]): begin/step×n/end leaves a Predictor
as `observe` + `hold` + `calibration_alarms` on each of the n ticks leaves it: fitness,
the tallies and reports, the book (ids, pending checkpoints, kept resolutions), the
calibrator and corrector, the ledger's rows and the log lines, value for value; including
the resolutions of model-made claims made before the stretch."""

from __future__ import annotations

import random
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from structlog.testing import capture_logs

from golem.oracle import CalibrationParams, CorrectorParams, GateParams
from golem.runtime.predictions import Predictor
from golem.runtime.quiet import Stretch
from golem.runtime.store.state import StateStore
from golem.subsystems import HeartbeatDecision
from golem.subsystems.contract import Event
from golem.world import Fill, MarketSummary, PaperPortfolio, PortfolioConfig, TradeAction
from golem.world.costs import CostModel
from tests.subsystems.support import NOW, market

INTERVAL = timedelta(seconds=15)
HORIZON = INTERVAL * 20
CONFIDENCE = 0.6  # the rules' decision's


class World:
    """A seeded market path observed at (possibly irregular) times, and a portfolio half
    in the asset marked along it."""

    def __init__(self, seed: int, ticks: int, *, irregular: bool, health: bool) -> None:
        rng = random.Random(seed)
        self.times: list[datetime] = []
        self.summaries: list[MarketSummary] = []
        self.equities: list[float] = []
        portfolio = self.portfolio = PaperPortfolio(1000.0, PortfolioConfig(initial_weight=0.5))
        now, price = NOW, 3000.0
        for tick in range(ticks):
            step = INTERVAL * (rng.choice((1, 1, 1, 2, 7)) if irregular else 1)
            now += step
            price *= 1 + rng.gauss(0, 0.004)
            portfolio.mark(price)
            self.times.append(now)
            self.equities.append(portfolio.equity())
            self.summaries.append(
                market(
                    price=price,
                    health_factor=0.8 + rng.random() if health else None,
                    tick=tick,
                    time=now,
                    zscore=None if rng.random() < 0.02 else rng.gauss(0, 1.1),
                    return_volatility=None if rng.random() < 0.05 else rng.uniform(0, 0.01),
                )
            )

    def at(self, i: int) -> PaperPortfolio:
        """The portfolio marked at tick `i`'s price (born holding, its equity a function
        of the price)."""
        self.portfolio.mark(self.summaries[i].price)
        return self.portfolio


def predictor(store: StateStore, alarm: float = 0.25) -> Predictor:
    return Predictor(
        store.predictions,
        golem_id="g",
        horizon=HORIZON,
        costs=CostModel(),
        gate=GateParams(window=timedelta(minutes=40)),
        corrector=CorrectorParams(buffer_size=16),
        calibration=CalibrationParams(
            min_samples=5, refit_interval=7, max_history=40, ece_alarm_threshold=alarm
        ),
    )


def reference_tick(p: Predictor, world: World, i: int) -> list[Event]:
    now = world.times[i]
    portfolio = world.at(i)
    p.observe(now, world.summaries[i], portfolio)
    p.hold(now, portfolio.equity(), CONFIDENCE)
    return p.calibration_alarms(now)


def model_tick(p: Predictor, world: World, i: int, rng: random.Random) -> None:
    """A tick the model decided: its claims (direction, volatility, health)."""
    now, seen = world.times[i], world.summaries[i]
    p.observe(now, seen, world.at(i))
    decision = HeartbeatDecision.of(
        {
            "severity": rng.choice(("none", "low", "high")),
            "action": "observe",
            "confidence": round(rng.uniform(0.3, 0.9), 2),
            "expected_move": rng.choice((None, -0.01, 0.0, 0.01)),
        }
    )
    p.claim(now, decision, seen, tier="t1")
    p.calibration_alarms(now)


def state(p: Predictor, store: StateStore) -> dict[str, Any]:
    oracle = p.oracle
    fitness, book = oracle.fitness, oracle.book
    return {
        "fitness": p.fitness,
        "regime": p.regime,
        "regime_samples": dict(fitness._regime_samples),
        "domains": {c: (d.table, d.weight) for c, d in fitness._domains.items()},
        "next_id": book.next_id(),
        "due": [(d, i, k, x) for d, i, k, x in book.due()],
        "recent": book.recent(),
        "tally": (p.tally.resolved, p.tally.windowed, list(p.tally._recent)),
        "curves": {
            key: (list(c.history), c.pooled, c.since_fit, c.xs, c.ys)
            for key, c in oracle.calibrator._curves.items()
        },
        "corrector": (oracle.corrector._stats, oracle.corrector._regime),
        "clocks": (p._last, p._reported, p._checked, p._alarmed),
        "report": p.report(p._last or NOW),
        "predictions": store._read("SELECT * FROM predictions ORDER BY id").fetchall(),
        "checkpoints": store._read("SELECT * FROM checkpoints ORDER BY rowid").fetchall(),
    }


def bulk(
    p: Predictor, world: World, before: int, stretch: int, *, cut: int | None, events: list[Event]
) -> int:
    """Live ticks `before` to `before + stretch` in bulk: a first stretch that the driver
    stops after `cut` ticks (as another part's event would), the rest in a second; both
    end early on a calibration alarm. How many ticks were lived."""
    done, end = 0, before + stretch
    for limit in (stretch if cut is None else cut, stretch):
        window = slice(before + done, end)
        part = p.quiet(CONFIDENCE)
        n = part.begin(
            Stretch(
                first_tick=before + done,
                times=world.times[window],
                summaries=world.summaries[window],
                prices=np.array([s.price for s in world.summaries[window]]),
                equities=np.array(world.equities[window]),
            )
        )
        lived = 0
        for i in range(min(n, limit)):
            events += part.step(i)
            lived = i + 1
            if events:
                break
        part.end(lived)
        done += lived
        if events:
            break
    return done


def live(
    seed: int,
    before: int,
    stretch: int,
    *,
    irregular: bool,
    health: bool,
    quiet: bool,
    alarm: float = 0.25,
    cut: int | None = None,
) -> tuple[dict[str, Any], dict[str, Any], list[Event], list[Any], int]:
    """`before` ticks (a few of them model-made), a quiet stretch of `stretch` ticks (in
    bulk when `quiet`, cut after `cut` ticks into two), 25 ticks after it; the state
    after the stretch and at the end, the stretch's events and log lines, and how many
    ticks the stretch lived."""
    after = 25
    world = World(seed, before + stretch + after, irregular=irregular, health=health)
    rng = random.Random(seed + 1)
    with tempfile.TemporaryDirectory() as tmp, StateStore.open(Path(tmp)) as store:
        p = predictor(store, alarm)
        for i in range(before):
            if rng.random() < 0.3:
                model_tick(p, world, i, rng)
            else:
                reference_tick(p, world, i)
        events: list[Event] = []
        with capture_logs() as logs:
            if quiet:
                done = bulk(p, world, before, stretch, cut=cut, events=events)
            else:
                done = 0
                for i in range(before, before + stretch):
                    events += reference_tick(p, world, i)
                    done += 1
                    if events:
                        break
        middle = state(p, store)
        for i in range(before + done, before + done + after):
            reference_tick(p, world, i)
        return middle, state(p, store), events, logs, done


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    before=st.integers(0, 60),
    stretch=st.integers(0, 200),
    knobs=st.fixed_dictionaries(
        {
            "irregular": st.booleans(),  # heartbeats 15 s apart, or 15 s to 105 s
            "health": st.booleans(),  # a lending position's health to resolve, or none
            "cut": st.none() | st.integers(0, 200),  # the driver stops the first stretch
        }
    ),
)
def test_a_quiet_stretch_in_bulk_leaves_the_predictor_as_its_ticks_do(
    seed: int, before: int, stretch: int, knobs: dict[str, Any]
) -> None:
    reference = live(seed, before, stretch, quiet=False, **knobs)
    bulk = live(seed, before, stretch, quiet=True, **knobs)
    assert bulk[4] == reference[4]  # as many ticks (calibration alarms end a stretch)
    assert bulk[2] == reference[2]  # the same events
    assert bulk[3] == reference[3]  # the same log lines (the hourly `oracle` line)
    assert bulk[0] == reference[0]  # the same state after the stretch
    assert bulk[1] == reference[1]  # and 25 ticks later


def test_the_stretch_covers_model_claims_made_before_it_and_hourly_lines() -> None:
    """A fixed case that holds what the property ranges over: model claims resolved in the
    stretch, the `oracle` line logged in it, refits, a regime change."""
    knobs: dict[str, Any] = {"irregular": False, "health": True, "alarm": 1.0}  # no alarm
    reference = live(3, 60, 400, quiet=False, **knobs)
    bulk = live(3, 60, 400, quiet=True, **knobs)
    start = World(3, 61, irregular=False, health=True).times[60].isoformat()
    model = {row[0] for row in reference[0]["predictions"] if row[2] != "inaction"}
    in_stretch = {row[0] for row in reference[0]["checkpoints"] if row[2] >= start}
    assert model & in_stretch  # model claims made before the stretch resolved in it
    assert reference[4] == 400
    assert sum(x["event"] == "oracle" for x in reference[3]) == 1  # the hour at tick 240
    assert bulk == reference


def test_a_blocked_trade_due_in_the_stretch_bounds_it() -> None:
    """A blocked trade's would-be P&L is logged step by step: the part lives the ticks
    before its horizon only."""
    world = World(1, 60, irregular=False, health=False)
    with tempfile.TemporaryDirectory() as tmp, StateStore.open(Path(tmp)) as store:
        p = predictor(store)
        fill = Fill(
            *(TradeAction.REBALANCE, "ETH", "buy", 0.1, 3000.0, 3001.0, 300.1, 0.3, 0.1, 3.3),
            *(0.0, 700.0, 0.1, 300.0),
        )
        p.gated(world.times[0], 0, "rebalance", fill)
        stretch = Stretch(
            first_tick=0,
            times=world.times,
            summaries=world.summaries,
            equities=np.array(world.equities),
        )
        due = world.times.index(world.times[0] + HORIZON)
        assert p.quiet(CONFIDENCE).begin(stretch) == due


def test_a_stretch_that_lives_no_tick_gives_the_book_back_its_checkpoints() -> None:
    """`begin` takes the checkpoints due within the stretch out of the book; `end(0)` (the
    driver stopped before the first tick) puts every one back and writes nothing."""
    world = World(2, 120, irregular=False, health=True)
    rng = random.Random(2)
    with tempfile.TemporaryDirectory() as tmp, StateStore.open(Path(tmp)) as store:
        p = predictor(store)
        for i in range(60):
            if i % 3:
                model_tick(p, world, i, rng)
            else:
                reference_tick(p, world, i)
        before = state(p, store)
        part = p.quiet(CONFIDENCE)
        window = slice(60, 120)
        n = part.begin(
            Stretch(
                first_tick=60,
                times=world.times[window],
                summaries=world.summaries[window],
                equities=np.array(world.equities[window]),
            )
        )
        assert n == 60
        assert len(p.oracle.book.due()) < len(before["due"])  # taken for the stretch
        part.end(0)
        assert state(p, store) == before
