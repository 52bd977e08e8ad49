"""The records part of a fast-forward ([speed], golem.runtime.quiet_records): CPU a quiet
tick costs to decide and tell the heartbeat's decision, step by step against in bulk.

A golem lives `--hours` step by step (a scripted model, the synthetic market); its quiet
heartbeats (the rules' T0 observe, no probe fired) are kept with their situations. Then,
with a simulation's subscribers (the log's sink writing a buffered file, tally, outcomes,
judgement, strategies, the immortal shadow, the injection tally):
- step by step: each tick's gate, `Decisions.run(heartbeat, ctx)` on its situation (the
  rules' decision, its record, published to every subscriber), and the situation itself
  (`Golem.context`, timed apart on the living golem: it is built once a tick);
- in bulk: the part's begin, a step a tick, and its end (one `QuietStretch` published).
The figures are µs a tick, best of `--repeat`; the last is the bulk with one more subscriber
that does not hear stretches (telemetry's, the notifier's: handed the records one by one).

Run: .venv/bin/python benchmarks/bench_quiet_records.py [--hours 3] [--quick]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golem.inference.pricing import Price  # noqa: E402
from golem.inference.scripted import ScriptedProvider  # noqa: E402
from golem.mortality import ModelTier, SubsystemName, Vitals  # noqa: E402
from golem.runtime import (  # noqa: E402
    DecisionRecord,
    Record,
    RecordStream,
    Route,
    Routes,
    VirtualClock,
    assemble,
)
from golem.runtime.config.load import parse_config  # noqa: E402
from golem.runtime.decide import Decisions  # noqa: E402
from golem.runtime.golem import Golem  # noqa: E402
from golem.runtime.logs import configure_logging  # noqa: E402
from golem.runtime.quiet import Stretch  # noqa: E402
from golem.runtime.quiet_records import QuietRecords  # noqa: E402
from golem.runtime.store.state import StateStore  # noqa: E402
from golem.simulation.control import WouldHaveDied  # noqa: E402
from golem.simulation.diversity import Strategies  # noqa: E402
from golem.simulation.injection import InjectionTally  # noqa: E402
from golem.simulation.judgement import Judgement, Rightness  # noqa: E402
from golem.simulation.outcomes import Outcomes  # noqa: E402
from golem.simulation.tally import Tally  # noqa: E402
from golem.subsystems.contract import Situation  # noqa: E402
from golem.subsystems.heartbeat import Heartbeat  # noqa: E402
from golem.subsystems.heartbeat.probes import compute_probes  # noqa: E402

START = datetime(2026, 3, 1, tzinfo=UTC)


def _life(root: Path, hours: float) -> tuple[list[Situation], Golem, Any]:
    """The quiet heartbeats' situations of a life lived step by step, its golem, its config."""
    cfg = parse_config(
        {
            "golem": {"id": "g-bench", "state_dir": str(root / "state"), "seed": 3},
            "mortality": {"initial_credits_usd": 5.0, "daily_budget_usd": 1.0},
            "heartbeat": {"interval": "15s"},
        }
    )
    provider = ScriptedProvider(["no idea"] * 100_000)
    route = Route(provider, "scripted-1", Price(input=1.0, output=4.0))
    routes = Routes({ModelTier.T1: route, ModelTier.T2: route}, death=route)
    published: list[Record] = []
    store = StateStore.open(cfg.golem.state_dir)
    life, _ = assemble(
        cfg, clock=VirtualClock(START), store=store, routes=routes, subscribers=[published.append]
    )
    trio.run(partial(life.run, duration=timedelta(hours=hours)))
    quiet = [
        r.situation
        for r in published
        if isinstance(r, DecisionRecord)
        and r.subsystem is SubsystemName.HEARTBEAT
        and r.source == "deterministic"
        and r.situation is not None
        and r.situation.probes is not None
        and not r.situation.probes.flags
        and r.outcome is not None
        and not r.outcome.events
    ]
    return quiet, life.golem, cfg


def _stream(root: Path, name: str, golem: Golem, cfg: Any) -> tuple[RecordStream, Any]:
    sinks = configure_logging(
        now=lambda: START, file=root / f"{name}.log", console="off", buffered=True
    )
    shadow = WouldHaveDied.of(cfg, START)
    subscribers: list[Callable[[Record], None]] = [
        sinks.publish,
        Tally(START),
        Outcomes(START),
        Judgement(Rightness.of(golem)),
        Strategies(),
        *([shadow] if shadow is not None else []),
        InjectionTally(),
    ]
    return RecordStream(subscribers), sinks


def _step_by_step(ctxs: list[Situation], golem: Golem, stream: RecordStream) -> float:
    decisions = Decisions(golem.purse, None, stream.publish)
    heartbeat, policy = Heartbeat(golem.heartbeat.config), golem.probes
    confidence: float | None = None

    async def run() -> None:
        nonlocal confidence
        for ctx in ctxs:
            compute_probes(
                ctx.market,
                ctx.market,
                vitality=ctx.vitality,
                arousal=ctx.mood.arousal,
                credits_usd=ctx.credits_usd,
                burn_rate_usd=ctx.burn_rate_usd,
                confidence=confidence,
                policy=policy,
            )
            record = await decisions.run(heartbeat, ctx)
            confidence = float(getattr(record.decision, "confidence", 0.5))

    began = time.perf_counter()
    trio.run(run)
    return time.perf_counter() - began


def _bulk(ctxs: list[Situation], golem: Golem, stream: RecordStream) -> float:
    first = ctxs[0]
    now: list[Vitals] = [Vitals(first.vitality, first.phase, 1.0, 0.5, 0.0)]
    kept: list[float] = []
    began = time.perf_counter()
    part = QuietRecords(
        golem_id=first.golem_id,
        heartbeat=Heartbeat(golem.heartbeat.config),
        gate=golem.probes.gate,
        critical=golem.probes.health_critical,
        publish=stream.publish_quiet,
        vitals=lambda: now[0],
        arousal=first.mood.arousal,
        confidence=None,
        keep_confidence=kept.append,
        cash=first.portfolio.cash_usd,
        positions=first.portfolio.positions,
    )
    stretch = Stretch(
        first_tick=first.tick,
        times=[ctx.now for ctx in ctxs],
        summaries=[ctx.market for ctx in ctxs],
        equities=np.array([ctx.portfolio.equity_usd for ctx in ctxs]),
        fired=[()] * len(ctxs),  # no probe fired on these ticks
    )
    n = part.begin(stretch)
    for i in range(n):
        part.admits(i)
        part.step(i)
    part.end(n)
    return time.perf_counter() - began


def _context(golem: Golem, repeat: int) -> float:
    market = golem.window.summary()
    probes = compute_probes(
        market,
        market,
        vitality=golem.vitals.vitality,
        arousal=golem.mood.arousal,
        credits_usd=golem.store.credits(),
        burn_rate_usd=golem.vitals.burn_rate_usd,
        confidence=golem.confidence,
        policy=golem.probes,
    )
    began = time.perf_counter()
    for _ in range(repeat):
        golem.context(market, probes=probes, steer=golem.control.steer)
    return (time.perf_counter() - began) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hours", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="half an hour, twice: a smoke run")
    args = parser.parse_args()
    hours, repeat = (0.5, 2) if args.quick else (args.hours, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ctxs, golem, cfg = _life(root, hours)
        n = len(ctxs)
        one = bulk = handed = float("inf")
        for k in range(repeat):
            stream, sinks = _stream(root, f"one{k}", golem, cfg)
            with sinks:
                one = min(one, _step_by_step(ctxs, golem, stream))
            stream, sinks = _stream(root, f"bulk{k}", golem, cfg)
            with sinks:
                bulk = min(bulk, _bulk(ctxs, golem, stream))
            stream, sinks = _stream(root, f"handed{k}", golem, cfg)
            stream.subscribe(lambda record: None)  # hears no stretch: handed its records
            with sinks:
                handed = min(handed, _bulk(ctxs, golem, stream))
        context = _context(golem, 2_000)
        golem.store.close()
    us = 1e6 / n
    print(f"quiet heartbeats: {n} of {hours:g} h (15 s ticks), best of {repeat}")
    print(f"step by step: {one * us:6.1f} µs/tick decide+publish, +{context * 1e6:.1f} context")
    print(f"in bulk:      {bulk * us:6.1f} µs/tick (begin, step, end: one QuietStretch)")
    print(f"saved:        {(one + context * n - bulk) * us:6.1f} µs/tick")
    print(f"in bulk with a subscriber that hears no stretch: {handed * us:6.1f} µs/tick")


if __name__ == "__main__":
    main()
