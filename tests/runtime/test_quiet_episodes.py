"""The episode book's part of a quiet stretch ([speed], issue 40): begin, step per tick and
end leave the episode log, the memory's index, the Situation's recent episodes and the
store's rows exactly as `EpisodeBook.resolve` each tick and `record` every HORIZON_TICKS
(the tick's decision, the life's forecast bias) do, tick by tick."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime.episodes import EpisodeBook, QuietEpisodes, forecast
from golem.runtime.quiet import Stretch
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.subsystems.context import Memory
from golem.subsystems.contract import Outcome
from golem.subsystems.heartbeat import HORIZON_TICKS
from golem.subsystems.heartbeat.decision import HeartbeatDecision
from golem.world import Episode, EpisodeLog, MarketSummary, PaperPortfolio, PortfolioConfig

START = datetime(2026, 3, 1, tzinfo=UTC)
BEAT = timedelta(seconds=15)


@dataclass(frozen=True)
class Market:
    """What the ticks saw (the window's summaries) and what the golem decided."""

    summaries: list[MarketSummary]
    records: list[DecisionRecord]


def market_of(seed: int, n: int) -> Market:
    rng = random.Random(seed)
    price, summaries, records = 100.0, [], []
    for k in range(n):
        price *= 1.0 + rng.gauss(0.0, 0.004)
        time = START + k * BEAT
        volatility = None if k < 3 else abs(rng.gauss(0.004, 0.001))
        summaries.append(MarketSummary(k, time, price, None, None, None, None, volatility, None))
        action = rng.choice(["observe", "observe", "hedge", "rebalance"])
        decision = HeartbeatDecision.of(
            {
                "severity": "none",
                "action": action,
                "confidence": round(rng.uniform(0.3, 0.9), 2),
                "rationale": "rules: PE 0.00 against θ 0.40; no probe fired",
            }
        )
        records.append(
            DecisionRecord(
                golem="g",
                time=time,
                vitality=0.8,
                phase=Phase.THRIVING,
                subsystem=SubsystemName.HEARTBEAT,
                tick=k,
                tier_asked=ModelTier.T0,
                tier=ModelTier.T0,
                source="deterministic",
                decision=decision,
                outcome=Outcome(summary=f"none: {action}"),
            )
        )
    return Market(summaries, records)


@dataclass
class Book:
    store: StateStore
    book: EpisodeBook
    memory: Memory
    portfolio: PaperPortfolio


def book(path: Path, commit_every: int) -> Book:
    store = StateStore.open(path, commit_every=commit_every)
    log = EpisodeLog()
    memory = Memory.of((), log)
    portfolio = PaperPortfolio(1000.0, PortfolioConfig(initial_weight=0.4))
    return Book(store, EpisodeBook(log, store, memory), memory, portfolio)


def by_tick(
    b: Book, m: Market, ticks: range, bias: Callable[[datetime], float] | None
) -> list[tuple[Episode, ...]]:
    """The reference, as `Golem.tick` calls the book on a quiet tick; returns what the
    tick's decision saw of the episodes (`recent()` between the resolutions and the
    record)."""
    seen = []
    for k in ticks:
        market = m.summaries[k]
        with b.store.transaction():
            b.portfolio.mark(market.price)
            b.book.resolve(market, b.portfolio)
            seen.append(b.book.recent())
            if not k % HORIZON_TICKS:
                biased = None if bias is None else bias(market.time)
                b.book.record(market, forecast(m.records[k], market, biased))
    return seen


def by_part(
    b: Book, m: Market, ticks: range, bias: Callable[[datetime], float] | None, stop: int
) -> list[tuple[Episode, ...]]:
    """The part over `ticks`, the driver stopping after tick index `stop`; the equities
    are the portfolio's marked at each price, as the senses part fills them. Returns what
    the decisions' part, stepped after this one, would see of the episodes."""
    equities = []
    for k in ticks[: stop + 1]:
        b.portfolio.mark(m.summaries[k].price)
        equities.append(b.portfolio.equity())
    stretch = Stretch(
        ticks.start,
        [m.summaries[k].time for k in ticks],
        summaries=[m.summaries[k] for k in ticks],
        equities=np.array(equities),
    )
    part = QuietEpisodes(b.book, b.portfolio, lambda i: m.records[ticks.start + i], bias)
    with b.store.transaction():
        allowed = part.begin(stretch)
        done, seen = 0, []
        for i in range(min(allowed, stop + 1)):
            assert part.step(i) == ()
            seen.append(b.book.recent())
            done = i + 1
        part.end(done)
    return seen


def state(b: Book) -> dict[str, Any]:
    b.store.flush()
    log = b.book.log
    return {
        "log": list(log),
        "pending": log.due(10**9),
        "recent": b.book.recent(),
        "stored": b.store.episodes(),
        "similar": b.memory.similar(b.book.log.recent(1)[0].observation, 8) if len(log) else [],
        "cash": b.portfolio.cash,
    }


def twin(
    tmp_path: Path,
    seed: int,
    *,
    warm: int,
    n: int,
    stop: int,
    bias: Callable[[datetime], float] | None,
    commit_every: int = 1,
) -> dict[str, Any]:
    m = market_of(seed, warm + n)
    a, b = book(tmp_path / "a", commit_every), book(tmp_path / "b", commit_every)
    by_tick(a, m, range(warm), bias)
    by_tick(b, m, range(warm), bias)
    seen = by_part(b, m, range(warm, warm + n), bias, stop)
    assert by_tick(a, m, range(warm, warm + len(seen)), bias) == seen
    reference = state(a)
    assert state(b) == reference
    a.store.close()
    b.store.close()
    return reference


def test_a_long_stretch_records_and_resolves_as_tick_by_tick(tmp_path: Path) -> None:
    made = twin(tmp_path, 1, warm=7, n=230, stop=229, bias=None)
    assert len(made["log"]) == 12  # ticks 0, 20, …, 220
    resolved = [e for e in made["log"] if e.outcome is not None]
    assert len(resolved) == 11  # the last one's horizon has not come
    assert any(e.decision.predicted_delta != 0 for e in made["log"])  # hedges, rebalances


def test_the_forecast_bias_and_a_stretch_cut_short(tmp_path: Path) -> None:
    # The stretch ends on a recording tick (its episode still made, at the end) and
    # again just after one.
    def bias(at: datetime) -> float:
        return 0.001 * (at.minute % 7)

    made = twin(tmp_path / "on", 2, warm=20, n=100, stop=40, bias=bias)
    assert made["log"][-1].observation.tick == 60
    assert any(e.decision.predicted_delta != 0 for e in made["log"])
    twin(tmp_path / "after", 2, warm=20, n=100, stop=41, bias=bias)


def test_held_writes(tmp_path: Path) -> None:
    twin(tmp_path, 3, warm=45, n=120, stop=119, bias=None, commit_every=30)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    warm=st.integers(0, 60),
    n=st.integers(1, 120),
    data=st.data(),
)
def test_any_seed_and_stretch(
    tmp_path_factory: Any, seed: int, warm: int, n: int, data: st.DataObject
) -> None:
    stop = data.draw(st.integers(0, n - 1))
    twin(tmp_path_factory.mktemp("any"), seed, warm=warm, n=n, stop=stop, bias=None)
