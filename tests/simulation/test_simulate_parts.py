"""The pieces the simulator adds: batched commits in the state store (a failed tick still
undoes only its own writes), the fixed-budget allocator policy, the income schedule and
the forecast bias of a scenario, and exact running sums in the ledger."""

from __future__ import annotations

import math
import random
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest

from golem.inference.pricing import Price
from golem.mortality import (
    FIXED_BUDGET,
    Allocation,
    AllocatorPolicy,
    CallEstimate,
    Degradation,
    DegradationReason,
    FixedClock,
    InMemoryLedger,
    ModelTier,
    MortalityState,
    Phase,
    SubsystemName,
    allocate,
)
from golem.runtime.store.ledger import ExactSum
from golem.runtime.store.state import DB_NAME, StateStore, VitalityRow
from golem.simulation.scenario import PredictionBias, SimulationSection

NOW = datetime(2026, 1, 5, 12, tzinfo=UTC)
MORTAL = AllocatorPolicy()  # the vitality policy, every knob at its default


def test_a_batch_commits_every_n_and_a_failed_tick_undoes_only_itself(tmp_path: Path) -> None:
    with StateStore.open(tmp_path, synchronous="OFF", commit_every=3) as store:
        for tick in range(2):
            with store.transaction():
                store.set_tick(tick + 1)
        with pytest.raises(RuntimeError), store.transaction():
            store.set_meta("doomed", True)
            raise RuntimeError("mid-tick")
        assert store.get_meta("doomed") is None and store.tick() == 2
        assert committed_tick(tmp_path) is None  # nothing committed yet: the batch is open
        with store.transaction():
            store.set_tick(3)
        assert committed_tick(tmp_path) == "3"  # the third transaction closed the batch
        with store.transaction():
            store.set_tick(4)
    assert committed_tick(tmp_path) == "4"  # close() commits the open batch


def test_a_batch_holds_writes_back_yet_reads_see_them_and_rollbacks_undo_them(
    tmp_path: Path,
) -> None:
    with StateStore.open(tmp_path, synchronous="OFF", commit_every=10) as store:
        with store.transaction():
            store.set_meta("kept", 1)
        with pytest.raises(RuntimeError), store.transaction():
            store.set_meta("doomed", 1)
            assert store.get_meta("doomed") == 1  # the read sends the held writes first
            store.set_meta("also_doomed", 2)
            with store.transaction():
                store.set_meta("inner", 3)
            raise RuntimeError("mid-tick")
        assert store.get_meta("kept") == 1
        assert [store.get_meta(k) for k in ("doomed", "also_doomed", "inner")] == [None] * 3
        with store.transaction():
            store.set_tick(6)
            with pytest.raises(RuntimeError), store.transaction():
                store.set_tick(7)
                raise RuntimeError("inner")
            store.set_meta("after", True)
        assert store.tick() == 6 and store.get_meta("after") is True
        assert committed_tick(tmp_path) is None
    assert committed_tick(tmp_path) == "6"


def test_a_batch_sends_only_the_last_write_to_a_replaced_row(tmp_path: Path) -> None:
    executed: list[str] = []
    with StateStore.open(tmp_path, synchronous="OFF", commit_every=100) as store:
        store._conn.set_trace_callback(executed.append)
        for tick in range(1, 6):
            with store.transaction():
                store.set_tick(tick)
                store.record_fire("heartbeat", NOW)
        with store.transaction():
            store.set_tick(6)
            with pytest.raises(RuntimeError), store.transaction():
                store.set_tick(7)  # undone: the row keeps 6, though 7 was written later
                raise RuntimeError("inner")
        assert store.tick() == 6  # the read sends the held writes
        with store.transaction():
            store.set_tick(8)
            assert store.tick() == 8  # sent at the read: a savepoint between 8 and 9
            with pytest.raises(RuntimeError), store.transaction():
                store.set_tick(9)
                assert store.tick() == 9
                raise RuntimeError("inner")
        assert store.tick() == 8
    assert committed_tick(tmp_path) == "8"
    tick_writes = [sql for sql in executed if "INTO meta" in sql and "'tick'" in sql]
    fire_writes = [sql for sql in executed if "INTO job_fires" in sql]
    assert len(tick_writes) == 3  # 6 (for ticks 1..7, 7 undone before any send), 8, 9
    assert len(fire_writes) == 1


@pytest.mark.parametrize("seed", range(12))
def test_a_batched_store_ends_as_one_that_commits_every_write(tmp_path: Path, seed: int) -> None:
    # Random ticks of writes (replacing and appending, to several tables), reads that send
    # the held writes mid-tick, and inner transactions that fail: the same rows either way.
    def life(store: StateStore) -> None:
        rng = random.Random(seed)
        for tick in range(rng.randint(20, 60)):
            with store.transaction():
                for _ in range(rng.randint(0, 6)):
                    write(store, rng, tick)
                if rng.random() < 0.3:
                    assert store.tick() is not None  # a read: the held writes go first
                if rng.random() < 0.4:
                    with pytest.raises(RuntimeError), store.transaction():
                        for _ in range(rng.randint(1, 4)):
                            write(store, rng, tick)
                        if rng.random() < 0.5:
                            store.get_meta("k0")
                        raise RuntimeError("inner")
                write(store, rng, tick)

    def write(store: StateStore, rng: random.Random, tick: int) -> None:
        kind = rng.randrange(4)
        if kind == 0:
            store.set_meta(f"k{rng.randrange(3)}", rng.randrange(100))
        elif kind == 1:
            store.set_tick(tick * 10 + rng.randrange(10))
        elif kind == 2:
            store.record_fire(f"job{rng.randrange(2)}", NOW)
        else:
            row = VitalityRow(rng.randrange(5), NOW, rng.random(), "stable", 0.5, 0.5)
            store.record_vitality(row)

    dumps = []
    for commit_every in (1, 7):
        state = tmp_path / str(commit_every)
        with StateStore.open(state, synchronous="OFF", commit_every=commit_every) as store:
            life(store)
        with closing(sqlite3.connect(state / DB_NAME)) as conn:
            dumps.append(
                [
                    sorted(conn.execute(f"SELECT * FROM {table}").fetchall())
                    for table in ("meta", "job_fires", "vitality")
                ]
            )
    assert dumps[0] == dumps[1]


def committed_tick(state_dir: Path) -> str | None:
    """The tick another connection sees (WAL: readers never wait for the writer)."""
    with closing(sqlite3.connect(state_dir / DB_NAME)) as conn:
        row = conn.execute("SELECT value FROM meta WHERE key = 'tick'").fetchone()
    return None if row is None else str(row[0])


def test_the_fixed_budget_policy_ignores_vitality_and_phase() -> None:
    call = CallEstimate(price=Price(input=1.0, output=5.0), input_tokens=800, max_output_tokens=400)
    dying = MortalityState(vitality=0.05, phase=Phase.TERMINAL, daily_budget_usd=1.0)
    clock, ledger = FixedClock(NOW), InMemoryLedger()
    mortal = allocate(
        SubsystemName.HEARTBEAT, ModelTier.T2, dying, ledger, clock, call=call, policy=MORTAL
    )
    assert isinstance(mortal, Degradation) and mortal.reason is DegradationReason.TERMINAL
    fixed = allocate(
        SubsystemName.HEARTBEAT, ModelTier.T2, dying, ledger, clock, call=call, policy=FIXED_BUDGET
    )
    assert isinstance(fixed, Allocation) and fixed.tier is ModelTier.T2


def test_income_steps_and_forecast_bias() -> None:
    sim = SimulationSection.model_validate(
        {
            "start": NOW,
            "horizon_days": 20,
            "income": [{"from_day": 0, "usd_per_day": 0}, {"from_day": 8, "usd_per_day": 1.5}],
        }
    )
    assert [sim.income_on(d, 9.0) for d in (0, 7.9, 8, 19)] == [0.0, 0.0, 1.5, 1.5]
    assert SimulationSection(start=NOW, horizon_days=1).income_on(3, 2.0) == 2.0
    bias = PredictionBias(from_day=2, per_day=0.01, max=0.05)
    assert [bias.at(d) for d in (0, 2, 3, 100)] == [0.0, 0.0, pytest.approx(0.01), 0.05]
    with pytest.raises(ValueError, match="increasing from_day"):
        SimulationSection.model_validate(
            {"start": NOW, "horizon_days": 1, "income": [{"from_day": 2, "usd_per_day": 1}] * 2}
        )


def test_running_sums_equal_sums_made_afresh() -> None:
    draw = random.Random(7)
    values = [draw.random() * 10 ** draw.randint(-9, 1) for _ in range(2_000)]
    kept = ExactSum()
    for i, value in enumerate(values, start=1):
        kept.add(value)
        if i % 97 == 0:
            assert kept.value == math.fsum(values[:i])
    assert kept.value == math.fsum(values)
