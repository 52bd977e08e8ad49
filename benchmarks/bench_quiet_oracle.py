"""The prediction engine's cost per quiet tick (issue [speed]): the step-by-step reference
(`Predictor.observe` + `hold` + `calibration_alarms` each tick) against its quiet part
(`Predictor.quiet`: begin, step per tick, end), over the same simulated day of quiet ticks
(a seeded random walk at a 15 s heartbeat, its zscore an AR(1) that crosses the ±1σ
regime bands every few minutes, a portfolio half in the asset), in stretches
of `--stretch` ticks, the store batching its writes as a simulation's does. Each side
runs in its own fresh store; the figure is CPU µs per tick (best of `--repeat`), with the
part's step alone beside it. The two sides' ledgers are compared at the end.

Run: .venv/bin/python benchmarks/bench_quiet_oracle.py [--ticks 5760] [--stretch 240] [--quick]
(--quick: 960 ticks, one repeat: a smoke run)
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import structlog

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golem.oracle import GateParams  # noqa: E402
from golem.runtime.predictions import Predictor  # noqa: E402
from golem.runtime.quiet import Stretch  # noqa: E402
from golem.runtime.store.state import StateStore  # noqa: E402
from golem.world import MarketSummary, PaperPortfolio, PortfolioConfig  # noqa: E402
from golem.world.costs import CostModel  # noqa: E402

INTERVAL = timedelta(seconds=15)
START = datetime(2026, 1, 1, tzinfo=UTC)
CONFIDENCE = 0.6


def world(ticks: int, seed: int = 7) -> Data:
    rng = random.Random(seed)
    portfolio = PaperPortfolio(1000.0, PortfolioConfig(initial_weight=0.5))
    times: list[datetime] = []
    summaries: list[MarketSummary] = []
    equities: list[float] = []
    price, z = 3000.0, 0.0
    for tick in range(ticks):
        now = START + INTERVAL * tick
        price *= 1 + rng.gauss(0, 0.001)
        z = 0.95 * z + rng.gauss(0, 0.35)  # a window's zscore moves slowly
        portfolio.mark(price)
        times.append(now)
        equities.append(portfolio.equity())
        summaries.append(
            MarketSummary(
                tick=tick,
                time=now,
                price=price,
                delta_1=None,
                delta_period=None,
                zscore=z,
                volume_ratio=1.0,
                return_volatility=0.001,
                health_factor=None,
            )
        )
    return times, summaries, equities


def predictor(store: StateStore) -> Predictor:
    return Predictor(
        store.predictions,
        golem_id="g",
        horizon=INTERVAL * 20,
        costs=CostModel(),
        gate=GateParams(),
    )


Data = tuple[list[datetime], list[MarketSummary], list[float]]
Rows = list[tuple[object, ...]]


def reference(ticks: int, stretch: int, data: Data) -> tuple[float, Rows]:
    times, summaries, _ = data
    portfolio = PaperPortfolio(1000.0, PortfolioConfig(initial_weight=0.5))
    portfolio.mark(summaries[0].price)  # born holding
    with (
        tempfile.TemporaryDirectory() as tmp,
        StateStore.open(Path(tmp), synchronous="OFF", commit_every=64) as store,
    ):
        p = predictor(store)
        spent = 0.0
        for start in range(0, ticks, stretch):
            t0 = time.process_time()
            with store.transaction():
                for i in range(start, min(ticks, start + stretch)):
                    portfolio.mark(summaries[i].price)
                    p.observe(times[i], summaries[i], portfolio)
                    p.hold(times[i], portfolio.equity(), CONFIDENCE)
                    p.calibration_alarms(times[i])
            spent += time.process_time() - t0
        store.flush()
        rows = store._read("SELECT * FROM checkpoints ORDER BY rowid").fetchall()
        rows += store._read("SELECT * FROM predictions ORDER BY id").fetchall()
    return spent, rows


def bulk(ticks: int, stretch: int, data: Data) -> tuple[float, float, Rows]:
    times, summaries, equities = data
    with (
        tempfile.TemporaryDirectory() as tmp,
        StateStore.open(Path(tmp), synchronous="OFF", commit_every=64) as store,
    ):
        p = predictor(store)
        spent = stepping = 0.0
        for start in range(0, ticks, stretch):
            window = slice(start, min(ticks, start + stretch))
            t0 = time.process_time()
            with store.transaction():
                part = p.quiet(CONFIDENCE)
                n = part.begin(
                    Stretch(
                        first_tick=start,
                        times=times[window],
                        summaries=summaries[window],
                        equities=np.array(equities[window]),
                    )
                )
                t1 = time.process_time()
                for i in range(n):
                    part.step(i)
                stepping += time.process_time() - t1
                part.end(n)
            spent += time.process_time() - t0
        store.flush()
        rows = store._read("SELECT * FROM checkpoints ORDER BY rowid").fetchall()
        rows += store._read("SELECT * FROM predictions ORDER BY id").fetchall()
    return spent, stepping, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=5760)
    parser.add_argument("--stretch", type=int, default=240)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    # The hourly `oracle` line is built on both sides; printing it is not what is measured.
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    ticks, repeat = (960, 1) if args.quick else (args.ticks, args.repeat)
    data = world(ticks)
    ref = min(reference(ticks, args.stretch, data)[0] for _ in range(repeat))
    runs = [bulk(ticks, args.stretch, data) for _ in range(repeat)]
    part, step = min(r[0] for r in runs), min(r[1] for r in runs)
    same = reference(ticks, args.stretch, data)[1] == runs[0][2]
    us = 1e6 / ticks
    print(f"quiet ticks {ticks}, stretches of {args.stretch}")
    print(f"reference observe+hold+alarms  {ref * us:7.2f} µs/tick")
    print(f"quiet part begin+step+end      {part * us:7.2f} µs/tick  ({ref / part:.1f}x)")
    print(f"  of which step                {step * us:7.2f} µs/tick")
    print(f"ledger rows identical: {same}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
