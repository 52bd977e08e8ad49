"""Scheduled jobs that run more often than the heartbeat: every run is its own decision,
with its own id and charge key, so every paid call is charged; a restart that runs an
uncommitted run again gives it the same id and key (charged once)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pytest

from golem.inference import Request, Response
from golem.inference.pricing import Price
from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, SubsystemName
from golem.runtime.asking import Route, Routes
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.config.sections import GolemConfig
from golem.runtime.http.feed import DecisionFeed
from golem.runtime.jobs import curate
from golem.runtime.life import Life, assemble
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record, Subscriber
from golem.subsystems.contract import GrimoireEntry

START = datetime(2026, 3, 1, tzinfo=UTC)
PRICE = Price(input=1.0, output=4.0)
CURATED = {
    "entries_evaluated": 1,
    "entries_retained": 1,
    "entries_pruned": 0,
    "cross_references": [],
    "promotions": [],
    "grimoire_health": 0.8,
    "prune_ids": [],
}


def answer(request: Request) -> Response | str:
    schema = request.response_schema
    return orjson.dumps(CURATED).decode() if schema and schema.name == "curator_evaluation" else "?"


def config(tmp_path: Path, heartbeat: str, curator: str) -> GolemConfig:
    return parse_config(
        {
            "golem": {
                "id": "g-jobs",
                "state_dir": str(tmp_path / "state"),
                "seed": 3,
                "keep_requests": "1h",
            },
            "mortality": {"initial_credits_usd": 5.0, "daily_budget_usd": 1.0},
            "heartbeat": {"interval": heartbeat},
            "subsystems": {
                "curator": {"schedule": curator},
                "dream": {"enabled": False},
                "daimon": {"enabled": False},
            },
        }
    )


def life(
    cfg: GolemConfig,
    clock: VirtualClock,
    store: StateStore,
    out: list[Record],
    subscribers: Sequence[Subscriber] = (),
) -> Life:
    provider = ScriptedProvider([answer] * 10_000, price=PRICE)
    route = Route(provider, "scripted-1", PRICE)
    routes = Routes({ModelTier.T1: route, ModelTier.T2: route}, death=route)
    made, _ = assemble(
        cfg, clock=clock, store=store, routes=routes, subscribers=[out.append, *subscribers]
    )
    return made


def with_an_entry(store: StateStore) -> None:
    with store.transaction():
        store.save_grimoire_entry(GrimoireEntry("g1", "calm markets revert", 0.7, "belief"))


def curator_runs(published: list[Record]) -> list[DecisionRecord]:
    return [
        r
        for r in published
        if isinstance(r, DecisionRecord) and r.subsystem is SubsystemName.CURATOR
    ]


async def test_every_curator_run_between_two_heartbeats_is_charged(tmp_path: Path) -> None:
    # The case: heartbeat 20 s, curator 3 s (some 6 curator runs a heartbeat).
    cfg = config(tmp_path, "20s", "3s")
    published: list[Record] = []
    feed = DecisionFeed()  # what /decisions?id= answers from
    with StateStore.open(cfg.golem.state_dir) as store:
        with_an_entry(store)
        living = life(cfg, VirtualClock(START), store, published, [feed.publish])
        await living.run(duration=timedelta(minutes=2))
        charges = [c for c in store.ledger.charges(START.date()) if c.subsystem == "curator"]
        archived = store.requests.select(["curator"])
    paid = [r for r in curator_runs(published) if r.source == "model"]
    assert len(paid) >= 30  # 2 minutes of 3 s runs (33)
    ids = Counter(r.decision_id for r in paid)
    assert ids.most_common(1)[0][1] == 1  # one id per decision
    assert max(Counter(r.tick for r in paid).values()) >= 5  # several runs a tick
    assert len(charges) == len(paid)  # before: 5 charges for 33 paid calls
    assert sum(c.usd for c in charges) == sum(r.cost_usd for r in paid) > 0
    assert {c.idempotency_key for c in charges} == {
        f"g-jobs:{r.tick}:{r.run}:curator:{r.tier}" for r in paid
    }
    # The replay archive keeps each run's request, and /decisions?id= finds each alone.
    assert sorted(kept.id for kept in archived) == sorted(ids)
    assert all(len(feed.recent(decision_id=id)) == 1 for id in ids)


async def test_a_restart_gives_an_uncommitted_run_the_same_id(tmp_path: Path) -> None:
    cfg = config(tmp_path, "20s", "3s")
    clock = VirtualClock(START)
    first: list[Record] = []
    with StateStore.open(cfg.golem.state_dir) as store:
        with_an_entry(store)
        living = life(cfg, clock, store, first)
        await living.run(duration=timedelta(seconds=50))
        committed = store.ledger.total_usd()
        try:  # a run whose transaction never commits: the process was killed in it
            with store.transaction():
                await curate(living.golem)
                raise KeyboardInterrupt
        except KeyboardInterrupt:
            pass
        # The call was billed though its run rolled back: its charge stays, voided.
        billed = store.ledger.total_usd() - committed
        assert billed > 0
        [void] = [
            c for c in store.ledger.charges(clock.now().date()) if ":void:" in c.idempotency_key
        ]
    last = curator_runs(first)[-1]  # the last committed run; the voided one was never logged
    again: list[Record] = []
    with StateStore.open(cfg.golem.state_dir) as store:
        restarted = life(cfg, clock, store, again)
        golem = restarted.golem  # as the tick it resumes would have seen the market:
        golem.window.push(golem.market.observe(clock.now()))
        with store.transaction():
            await curate(golem)
        rerun = curator_runs(again)[-1]
        key = f"g-jobs:{rerun.tick}:{rerun.run}:curator:{rerun.tier}"
        assert void.idempotency_key.startswith(f"{key}:void:")  # the voided run's own key
        assert (rerun.tick, rerun.run) == (last.tick, last.run + 1)
        assert store.ledger.get(key) is not None
        assert store.ledger.total_usd() == pytest.approx(committed + billed + rerun.cost_usd)
        with store.transaction():  # the next run is the next number
            await curate(golem)
        assert curator_runs(again)[-1].run == rerun.run + 1
