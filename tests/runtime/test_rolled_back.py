"""A tick that rolls back (a job that raised, a golem killed before its commit) leaves no
decision in the log, and the provider's bill for the calls it made stays in the ledger:
voided, under a key of its own, at once or when the killed golem's store is opened again.
The real Golem, StateStore, journal file and log summary; a scripted provider."""

from __future__ import annotations

import math
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from structlog.testing import capture_logs

from golem.inference import Usage
from golem.inference.scripted import ScriptedProvider
from golem.mortality import Charge, ModelTier, SubsystemName
from golem.runtime.asking import Route, Routes
from golem.runtime.clock import VirtualClock
from golem.runtime.life import assemble
from golem.runtime.logs.summary import summarize
from golem.runtime.record import DecisionRecord
from golem.runtime.store.bills import BILLS_NAME
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record
from tests.runtime.test_life import PRICE, START, answer, config


def paid_routes() -> Routes:
    provider = ScriptedProvider([answer] * 100, price=PRICE)
    route = Route(provider, "scripted-1", PRICE)
    return Routes({ModelTier.T1: route, ModelTier.T2: route}, death=route)


def charge(key: str, usd: float) -> Charge:
    return Charge(
        subsystem=SubsystemName.RISK,
        provider="anthropic",
        model="claude-test",
        tokens=Usage(input_tokens=100, output_tokens=20),
        usd=usd,
        diem=0.0,
        time=START,
        idempotency_key=key,
    )


async def test_a_tick_that_rolls_back_logs_nothing_and_keeps_its_bill(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    published: list[Record] = []
    with StateStore.open(cfg.golem.state_dir) as store:
        life, _ = assemble(
            cfg,
            clock=VirtualClock(START),
            store=store,
            routes=paid_routes(),
            subscribers=[published.append],
        )

        def full_disk(*_: object) -> None:  # after the daimon's paid birth appraisal
            raise OSError("No space left on device")

        store.record_mood = full_disk  # type: ignore[method-assign]
        with capture_logs() as logs, pytest.raises(OSError), store.transaction():
            await life.golem.tick()
        assert not [r for r in published if isinstance(r, DecisionRecord)]
        (void,) = store.ledger.charges(START.date())
        assert void.subsystem is SubsystemName.DAIMON and void.usd > 0
        assert void.idempotency_key.startswith("g-test:0:0:daimon:1:void:")
        told = [e for e in logs if e["event"] == "charge_voided"]
        assert [(e["key"], e["cost_usd"]) for e in told] == [(void.idempotency_key, void.usd)]
        # The tick, run again, pays for its new call; the log says both, once each.
        del store.record_mood
        with store.transaction():
            await life.golem.tick()
        lines = [r.fields() | {"event": "decision"} for r in published]
        summary = summarize([*lines, *told])
        assert summary.spend_usd == pytest.approx(store.ledger.total_usd(), abs=1e-12)
        assert store.ledger.total_usd() == pytest.approx(2 * void.usd)
        assert summary.subsystems["daimon"].voided == 1


def test_a_kill_before_the_commit_leaves_the_bill_to_the_next_opening(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    store.fund(10.0, START)
    store.transaction().__enter__()  # the tick that is killed: never left
    store.ledger.record(charge("g:4:0:risk:T2", 0.25))
    store.hold_bill(charge("g:4:0:heartbeat:T1", 0.5))  # attempts of a call not yet charged
    store.hold_bill(charge("g:4:0:heartbeat:T1", 0.25))
    store._conn.close()  # the kill: no commit, no rollback
    assert (tmp_path / BILLS_NAME).exists()
    with StateStore.open(tmp_path) as again:
        assert again.ledger.get("g:4:0:risk:T2") is None  # the tick rolled back
        with capture_logs() as logs:
            settled = again.settle_bills()
        assert sorted((c.idempotency_key.split(":void:")[0], c.usd) for c in settled) == [
            ("g:4:0:heartbeat:T1", 0.75),
            ("g:4:0:risk:T2", 0.25),
        ]
        assert settled[0].tokens.input_tokens == 100
        assert again.credits() == pytest.approx(9.0)
        assert [e["event"] for e in logs] == ["charge_voided", "charge_voided"]
        assert not (tmp_path / BILLS_NAME).exists()
        assert again.settle_bills() == []  # settled once
    with sqlite3.connect(tmp_path / "golem.db") as db:
        assert db.execute("select count(*) from charges").fetchone() == (2,)


def test_a_committed_tick_leaves_no_journal(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as store:
        with store.transaction():
            store.ledger.record(charge("g:1:0:risk:T2", 0.25))
            assert (tmp_path / BILLS_NAME).exists()
        assert not (tmp_path / BILLS_NAME).exists()
        assert store.settle_bills() == []
        assert store.ledger.total_usd() == 0.25


def test_records_wait_for_the_commit(tmp_path: Path) -> None:
    told: list[str] = []
    with StateStore.open(tmp_path) as store:
        with store.transaction():
            store.at_commit(lambda: told.append("kept"))
            assert told == []
        with pytest.raises(ValueError), store.transaction():
            store.at_commit(lambda: told.append("undone"))
            raise ValueError
        store.at_commit(lambda: told.append("at once"))
    assert told == ["kept", "at once"]


# -- the property: over random ticks that commit, raise or are killed ---------------------

calls = st.lists(  # a call's attempts, each billed; the call charged once they are all in
    st.lists(st.integers(1, 10_000).map(lambda n: n / 1e6), min_size=1, max_size=3),
    min_size=0,
    max_size=3,
)
ticks = st.lists(
    st.tuples(calls, st.sampled_from(["commit", "raise", "kill"]), st.booleans()),
    min_size=1,
    max_size=8,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ticks)
def test_the_ledger_holds_every_bill_whatever_becomes_of_the_ticks(
    plan: list[tuple[list[list[float]], str, bool]],
) -> None:
    """Each tick makes its calls (each attempt's bill held as it comes, the call charged
    with their sum), then commits, raises, or is killed; a tick killed may be killed before
    its last call is charged. A tick that did not commit runs again under its number, as a
    golem's does. Whatever happened, the ledger holds every attempt's bill."""
    billed: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        state = Path(folder)
        store = StateStore.open(state)
        tick = 0
        for made, end, mid_call in plan:
            transaction = store.transaction()
            transaction.__enter__()
            for number, attempts in enumerate(made):
                key = f"g:{tick}:0:heartbeat:T{number}"
                for usd in attempts:
                    store.hold_bill(charge(key, usd))
                    billed.append(usd)
                if end == "kill" and mid_call and number == len(made) - 1:
                    break  # killed before this call's charge was recorded
                store.ledger.record(charge(key, math.fsum(attempts)))
            if end == "commit":
                transaction.__exit__(None, None, None)
                tick += 1
            elif end == "raise":
                transaction.__exit__(RuntimeError, RuntimeError("bug"), None)
            else:
                store._conn.close()
                store = StateStore.open(state)
                store.settle_bills()
        total = store.ledger.total_usd()
        store.close()
    assert total == pytest.approx(math.fsum(billed), abs=1e-12)
