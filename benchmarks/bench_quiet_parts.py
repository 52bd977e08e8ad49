"""µs per quiet tick of the vitals chart's and the episode book's parts ([speed], issue 40)
against their step-by-step methods, on the same inputs.

Vitals: `VitalsChart.update(tick, 0.0, …)` once a tick (the default mortality policy, the
stochastic clock on, fitness drifting near 0.7: no phase change) against the part's
`begin`, `step` per tick and `end` over stretches of an hour of 15 s heartbeats (240
ticks, the longest a stretch runs). Episodes: `EpisodeBook.resolve` each tick and `record`
every HORIZON_TICKS against its part (each loop marks the portfolio at each price too,
as the senses do). Both write to a state store as a simulation opens it
(writes held, sent every `_COMMIT_EVERY` ticks); what the two runs leave is compared.

Run: .venv/bin/python benchmarks/bench_quiet_parts.py [--quick]   (--quick: 2,400 ticks)
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golem.mortality import ModelTier, MortalityParams, Phase, SubsystemName
from golem.runtime.episodes import EpisodeBook, QuietEpisodes, forecast
from golem.runtime.quiet import Stretch
from golem.runtime.quiet_vitals import QuietVitals
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.runtime.vitals import VitalsChart
from golem.subsystems.context import Memory
from golem.subsystems.contract import Outcome
from golem.subsystems.heartbeat import HORIZON_TICKS
from golem.subsystems.heartbeat.decision import HeartbeatDecision
from golem.world import EpisodeLog, MarketSummary, PaperPortfolio, PortfolioConfig

START = datetime(2026, 3, 1, tzinfo=UTC)
BEAT = timedelta(seconds=15)
STRETCH = 240
COMMIT_EVERY = 200
POLICY = MortalityParams(seed=1).compile(seed=1)


def inputs(ticks: int) -> tuple[list[datetime], list[float], list[float], list[MarketSummary]]:
    rng = random.Random(7)
    times = [START + k * BEAT for k in range(ticks)]
    fitness, level = [], 0.7
    for _ in range(ticks):
        level = min(0.75, max(0.65, level + rng.gauss(0.0, 0.002)))
        fitness.append(level)
    prices, price = [], 100.0
    for _ in range(ticks):
        price *= 1.0 + rng.gauss(0.0, 0.002)
        prices.append(price)
    summaries = [
        MarketSummary(k, times[k], prices[k], None, None, None, None, 0.003, None)
        for k in range(ticks)
    ]
    return times, fitness, prices, summaries


def chart(path: Path, at: list[datetime]) -> tuple[StateStore, VitalsChart]:
    store = StateStore.open(path, synchronous="OFF", commit_every=COMMIT_EVERY)
    store.fund(POLICY.initial_credits_usd, START)
    store.set_meta("born", START.isoformat())
    made = VitalsChart(
        store, POLICY, golem_id="g", now=lambda: at[0], publish=lambda _: None, last=None
    )
    return store, made


def vitals(ticks: int, root: Path) -> tuple[float, float]:
    times, fitness, prices, _ = inputs(ticks)
    at = [START]
    store, reference = chart(root / "reference", at)
    began = time.perf_counter()
    for first in range(0, ticks, STRETCH):
        with store.transaction():  # one a stretch, as the part's: the tick's, not the chart's
            for k in range(first, min(ticks, first + STRETCH)):
                at[0] = times[k]
                reference.update(
                    k, 0.0, lambda k=k: prices[k], fitness=fitness[k], regime_samples=40
                )
    by_update = time.perf_counter() - began
    store.flush()
    rows = store.vitality_history()

    store2, parted = chart(root / "part", at)
    cur = [0]
    part = QuietVitals(
        parted, fitness=lambda: fitness[cur[0]], regime_samples=lambda: 40, reserve_usd=0
    )
    equities = np.array(prices)
    began = time.perf_counter()
    for first in range(0, ticks, STRETCH):
        span = range(first, min(ticks, first + STRETCH))
        with store2.transaction():
            part.begin(
                Stretch(first, times[span.start : span.stop], equities=equities[span.start :])
            )
            for i in range(len(span)):
                cur[0] = first + i
                part.step(i)
            part.end(len(span))
    by_part = time.perf_counter() - began
    store2.flush()
    assert store2.vitality_history() == rows and parted.vitals == reference.vitals
    return by_update / ticks * 1e6, by_part / ticks * 1e6


def book(path: Path) -> tuple[StateStore, EpisodeBook, PaperPortfolio]:
    store = StateStore.open(path, synchronous="OFF", commit_every=COMMIT_EVERY)
    log = EpisodeLog()
    return (
        store,
        EpisodeBook(log, store, Memory.of((), log)),
        PaperPortfolio(1000.0, PortfolioConfig(initial_weight=0.5)),
    )


def episodes(ticks: int, root: Path) -> tuple[float, float]:
    times, _, prices, summaries = inputs(ticks)
    decision = HeartbeatDecision.of(
        {"severity": "none", "action": "observe", "confidence": 0.5, "rationale": "rules"}
    )
    record = DecisionRecord(
        golem="g",
        time=START,
        vitality=0.8,
        phase=Phase.THRIVING,
        subsystem=SubsystemName.HEARTBEAT,
        tick=0,
        tier_asked=ModelTier.T0,
        tier=ModelTier.T0,
        source="deterministic",
        decision=decision,
        outcome=Outcome(summary="none: observe"),
    )
    store, reference, portfolio = book(root / "reference")
    began = time.perf_counter()
    for first in range(0, ticks, STRETCH):
        with store.transaction():
            for k in range(first, min(ticks, first + STRETCH)):
                portfolio.mark(prices[k])
                reference.resolve(summaries[k], portfolio)
                if not k % HORIZON_TICKS:
                    reference.record(summaries[k], forecast(record, summaries[k], None))
    by_tick = time.perf_counter() - began
    store.flush()

    store2, parted, portfolio2 = book(root / "part")
    equities = np.array([_equity(portfolio2, price) for price in prices])  # the senses'
    decided: Callable[[int], DecisionRecord] = lambda _: record  # noqa: E731
    part = QuietEpisodes(parted, portfolio2, decided, None)
    began = time.perf_counter()
    for first in range(0, ticks, STRETCH):
        span = range(first, min(ticks, first + STRETCH))
        stretch = Stretch(
            first,
            times[span.start : span.stop],
            summaries=summaries[span.start : span.stop],
            equities=equities[span.start : span.stop],
        )
        with store2.transaction():
            part.begin(stretch)
            for i in range(len(span)):
                portfolio2.mark(prices[first + i])  # as the reference's loop (the senses')
                part.step(i)
            part.end(len(span))
    by_part = time.perf_counter() - began
    store2.flush()
    assert store2.episodes() == store.episodes() and list(parted.log) == list(reference.log)
    return by_tick / ticks * 1e6, by_part / ticks * 1e6


def _equity(portfolio: PaperPortfolio, price: float) -> float:
    portfolio.mark(price)
    return portfolio.equity()


def main(quick: bool) -> int:
    ticks = 2_400 if quick else 48_000
    print(f"{ticks:,} quiet ticks, stretches of {STRETCH}{' (quick)' if quick else ''}")
    for name, bench in (("vitals", vitals), ("episodes", episodes)):
        runs = []
        for _ in range(3):
            with tempfile.TemporaryDirectory() as tmp:
                runs.append(bench(ticks, Path(tmp)))
        reference, part = min(r[0] for r in runs), min(r[1] for r in runs)
        print(
            f"  {name:<9} per-tick {reference:6.2f} µs/tick   part {part:6.2f} µs/tick"
            f"   ({reference / part:4.1f}x)"
        )
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,400 ticks: a smoke run")
    raise SystemExit(main(parser.parse_args().quick))
