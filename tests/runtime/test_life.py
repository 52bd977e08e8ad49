"""The Golem's life on a virtual clock: ticks, state, restarts and death."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
from structlog.testing import capture_logs

from golem.inference import Request, Response, Usage
from golem.inference.pricing import Price
from golem.inference.scripted import ScriptedProvider
from golem.mortality import Charge, DeathCause, ModelTier, SubsystemName
from golem.runtime.asking import Route, Routes
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.config.sections import GolemConfig
from golem.runtime.life import Life, assemble
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record, Subscriber, VitalityRecord
from golem.subsystems.contract import Mood
from golem.subsystems.death import DeathTestament

START = datetime(2026, 3, 1, tzinfo=UTC)
PRICE = Price(input=1.0, output=4.0)

ANSWERS: dict[str, dict[str, Any]] = {
    "heartbeat_decision": {
        "severity": "moderate",
        "action": "observe",
        "confidence": 0.6,
        "rationale": "nothing that needs a trade",
        "signals": [],
        "escalate": False,
    },
    "daimon_appraisal": {
        "pleasure": -0.2,
        "arousal": 0.6,
        "dominance": -0.3,
        "primary_emotion": "surprise",
        "secondary_emotion": None,
        "trigger": "regime_shift",
        "memory_bias": "the band flipped: recall past flips",
        "intensity": 0.5,
    },
}


def answer(request: Request) -> Response | str:
    schema = request.response_schema
    name = schema.name if schema is not None else ""
    return orjson.dumps(ANSWERS[name]).decode() if name in ANSWERS else "no idea"


def config(tmp_path: Path, **mortality: Any) -> GolemConfig:
    return parse_config(
        {
            "golem": {"id": "g-test", "state_dir": str(tmp_path / "state"), "seed": 3},
            "mortality": {"initial_credits_usd": 5.0, "daily_budget_usd": 1.0, **mortality},
            "heartbeat": {"interval": "15s"},
            "subsystems": {"curator": {"schedule": "10m"}, "dream": {"schedule": "30m"}},
        }
    )


def routes() -> tuple[Routes, ScriptedProvider]:
    provider = ScriptedProvider([answer] * 10_000)
    route = Route(provider, "scripted-1", PRICE)
    return Routes({ModelTier.T1: route, ModelTier.T2: route}, death=route), provider


def life(
    cfg: GolemConfig, clock: VirtualClock, store: StateStore, subscribers: Iterable[Subscriber] = ()
) -> Life:
    made, pool = assemble(
        cfg, clock=clock, store=store, routes=routes()[0], subscribers=subscribers
    )
    assert pool is None
    return made


async def test_an_hour_of_life_is_recorded(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    published: list[Record] = []
    with StateStore.open(cfg.golem.state_dir) as store:
        ended = await life(cfg, clock, store, [published.append]).run(duration=timedelta(hours=1))
        assert ended == "duration"
        ticks = store.tick()
        history = store.vitality_history()
        phases = {row.phase for row in history}
        assert 230 <= ticks <= 241 or "thriving" not in phases, (ticks, phases)
        assert len(history) == ticks
    decisions = [r for r in published if isinstance(r, DecisionRecord)]
    assert {"heartbeat", "curator", "dream"} <= {r.subsystem for r in decisions}
    assert sum(r.subsystem is SubsystemName.HEARTBEAT for r in decisions) >= ticks
    assert [r.time for r in decisions] == sorted(r.time for r in decisions)
    # Vitality is published when it is news: the first tick's, and at least every 40th.
    vitality = [r for r in published if isinstance(r, VitalityRecord)]
    assert vitality[0].tick == 0 and vitality[0].vitality == history[0].vitality
    assert all(b.tick - a.tick <= 40 for a, b in itertools.pairwise(vitality))


async def test_a_golem_without_its_daimon_feels_nothing(tmp_path: Path) -> None:
    """[subsystems.daimon] enabled = false: no emotional appraisal, so no daimon decision
    and a neutral mood, even resumed from a state whose golem had feelings."""
    felt = config(tmp_path)
    data = felt.model_dump(mode="json")
    data["subsystems"]["daimon"] = {"enabled": False}
    numb = parse_config(data)
    clock = VirtualClock(START)
    published: list[Record] = []
    with StateStore.open(felt.golem.state_dir) as store:
        await life(felt, clock, store).run(duration=timedelta(minutes=10))
        assert store.mood() not in (None, Mood())  # the daimon appraised its birth
    with StateStore.open(numb.golem.state_dir) as store:
        resumed = life(numb, clock, store, [published.append])
        assert resumed.golem.mood == Mood()
        await resumed.run(duration=timedelta(minutes=30))
        assert resumed.golem.mood == Mood()
    subsystems = {r.subsystem for r in published if isinstance(r, DecisionRecord)}
    assert SubsystemName.HEARTBEAT in subsystems
    assert SubsystemName.DAIMON not in subsystems


async def test_a_restart_resumes_where_it_stopped(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        await life(cfg, clock, store).run(duration=timedelta(minutes=10))
        ticks, credits = store.tick(), store.credits()
        fires = store.fire_times()
    with StateStore.open(cfg.golem.state_dir) as store:
        again = life(cfg, clock, store)
        assert again.golem.tick_no == ticks
        assert store.credits() == credits
        assert store.fire_times() == fires
        await again.run(duration=timedelta(minutes=5))
        assert store.tick() > ticks


async def test_credits_run_out_and_death_writes_the_testament(tmp_path: Path) -> None:
    cfg = config(tmp_path, initial_credits_usd=0.5)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store, capture_logs() as logs:
        living = life(cfg, clock, store)
        store.ledger.record(
            Charge(
                subsystem=SubsystemName.OPERATOR,
                provider="elsewhere",
                model="m",
                tokens=Usage(),
                usd=0.5,
                diem=0.0,
                time=START,
                idempotency_key="drain",
            )
        )
        ended = await living.run(duration=timedelta(hours=1))
        death = store.death()
    assert ended == "died"
    assert death is not None and death["cause"] == DeathCause.ECONOMIC
    state = Path(cfg.golem.state_dir)
    testament = DeathTestament.model_validate_json((state / "testament.json").read_bytes())
    assert testament.killed_by
    assert (state / "testament.md").read_text().strip()
    assert [e for e in logs if e["event"] == "death"]


async def test_a_dead_golem_stays_dead(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    clock = VirtualClock(START)
    with StateStore.open(cfg.golem.state_dir) as store:
        first = life(cfg, clock, store)
        await first.run(duration=timedelta(minutes=1))
        await first.golem.die(DeathCause.KILL_SWITCH)
        assert store.death() is not None
    with StateStore.open(cfg.golem.state_dir) as store:
        assert await life(cfg, clock, store).run(duration=timedelta(hours=1)) == "died"
        assert store.tick() == first.golem.tick_no
