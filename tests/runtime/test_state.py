"""The SQLite state store: the ledger contract, migrations, one transaction per tick,
credits derived from the wallet and the ledger, and a restart that resumes everything."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from golem.mortality import Ledger
from golem.runtime.clock import VirtualClock
from golem.runtime.scheduler import Firing, Job, Scheduler, every
from golem.runtime.store.migrations import MIGRATIONS, SCHEMA_VERSION, migrate
from golem.runtime.store.state import DB_NAME, StateError, StateStore, VitalityRow
from golem.subsystems.contract import GrimoireEntry, Mood
from golem.world import EpisodeOutcome, PaperPortfolio
from tests.mortality.ledger_contract import LedgerContract, charge
from tests.runtime.state_writer import tick_charge, tick_episode

T0 = datetime(2026, 5, 4, 12, 0, tzinfo=UTC)
TABLES = {
    "meta",
    "predictions",
    "checkpoints",
    "control",
    "approvals",
    "charges",
    "wallet",
    "vitality",
    "episodes",
    "grimoire",
    "mood",
    "portfolio",
    "job_fires",
    "requests",
    "observations",
    "schema_version",
}


class TestSQLiteLedger(LedgerContract):
    @pytest.fixture
    def ledger(self, tmp_path: Path) -> Iterator[Ledger]:
        # NORMAL: the contract records a thousand charges, each its own commit
        with StateStore.open(tmp_path, synchronous="NORMAL") as store:
            yield store.ledger


@pytest.fixture
def store(tmp_path: Path) -> Iterator[StateStore]:
    with StateStore.open(tmp_path / "state") as opened:
        yield opened


def tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {name for (name,) in rows} - {"sqlite_sequence"}
    finally:
        conn.close()


# --- opening and migrations ---------------------------------------------------------------


def test_open_creates_the_directory_and_a_wal_database(tmp_path: Path) -> None:
    state_dir = tmp_path / "deep" / "state"
    with StateStore.open(state_dir) as store:
        assert store.path == state_dir / DB_NAME
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert tables(state_dir / DB_NAME) == TABLES
    with StateStore.open(state_dir, synchronous="NORMAL") as store:
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 1


def test_reopening_migrates_nothing_and_keeps_the_data(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as store:
        store.set_tick(7)
    for _ in range(2):
        with StateStore.open(tmp_path) as store:
            assert store.tick() == 7
            version = store._conn.execute("SELECT * FROM schema_version").fetchall()
            assert version == [(SCHEMA_VERSION,)]


def test_migrations_run_in_order_and_a_failing_one_changes_nothing(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    try:
        assert migrate(conn) == SCHEMA_VERSION

        def add_notes(c: sqlite3.Connection) -> None:
            c.execute("CREATE TABLE notes (text TEXT)")

        def broken(c: sqlite3.Connection) -> None:
            c.execute("CREATE TABLE half (x)")
            raise RuntimeError("migration bug")

        with pytest.raises(RuntimeError, match="migration bug"):
            migrate(conn, (*MIGRATIONS, add_notes, broken))
        assert "notes" not in {n for (n,) in conn.execute("SELECT name FROM sqlite_master")}
        assert migrate(conn, (*MIGRATIONS, add_notes)) == SCHEMA_VERSION + 1
        version = conn.execute("SELECT version FROM schema_version").fetchall()
        assert version == [(SCHEMA_VERSION + 1,)]
    finally:
        conn.close()


_V1_DECISIONS = (
    """CREATE TABLE decisions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        tick INTEGER NOT NULL,
        time TEXT NOT NULL,
        subsystem TEXT NOT NULL,
        source TEXT NOT NULL,
        tier TEXT NOT NULL,
        cost_usd REAL NOT NULL,
        summary TEXT NOT NULL,
        log_offset INTEGER
    )""",
    "CREATE INDEX decisions_by_subsystem ON decisions (subsystem, time)",
)


@pytest.mark.parametrize("version", [1, 2])
def test_v3_drops_the_decisions_index_of_an_older_database(tmp_path: Path, version: int) -> None:
    """A state written by a golem that indexed its decisions (v1, v2) loses the index
    and keeps everything else."""
    conn = sqlite3.connect(tmp_path / DB_NAME, isolation_level=None)
    try:
        migrate(conn, MIGRATIONS[:1])
        for statement in _V1_DECISIONS:  # as v1 and v2 left them
            conn.execute(statement)
        conn.execute("UPDATE schema_version SET version = ?", (version,))
        conn.execute(
            "INSERT INTO decisions (tick, time, subsystem, source, tier, cost_usd, summary)"
            " VALUES (0, '2026-01-05T00:00:00+00:00', 'risk', 'model', '1', 0.5, 'ok')"
        )
        conn.execute("INSERT INTO meta (key, value) VALUES ('tick', '7')")
    finally:
        conn.close()
    with StateStore.open(tmp_path) as store:
        assert store.tick() == 7
    assert tables(tmp_path / DB_NAME) == TABLES
    conn = sqlite3.connect(tmp_path / DB_NAME)
    try:
        indexes = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'").fetchall()
        assert ("decisions_by_subsystem",) not in indexes
    finally:
        conn.close()


def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as store:
        store._conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StateError, match="newer than this golem"):
        StateStore.open(tmp_path)


def test_a_state_belongs_to_one_golem(store: StateStore) -> None:
    store.identify("golem-a", 7)
    store.identify("golem-a", 7)
    with pytest.raises(StateError, match="golem-a"):
        store.identify("golem-b", 7)
    with pytest.raises(StateError, match="seed 7"):
        store.identify("golem-a", 8)


# --- credits ------------------------------------------------------------------------------


def test_credits_are_initial_plus_income_minus_charges(store: StateStore) -> None:
    assert store.credits() == 0.0
    assert store.fund(100.0, T0) == 100.0
    assert store.fund(250.0, T0) == 100.0  # a config edit does not refill a living golem
    store.ledger.record(charge("a", usd=1.5))
    store.ledger.record(charge("a", usd=1.5))
    store.ledger.record(charge("b", usd=0.25))
    assert store.add_income("trade-1", 2.0, T0)
    assert not store.add_income("trade-1", 2.0, T0)
    assert store.credits() == pytest.approx(100.0 + 2.0 - 1.75)
    assert store.initial_credits() == 100.0
    assert store.income() == 2.0


def test_credits_read_between_changes_follow_each_one(store: StateStore) -> None:
    # Credits are kept between reads: each change must show at the next read.
    store.fund(10.0, T0)
    assert store.credits() == 10.0
    store.ledger.record(charge("a", usd=1.0))
    assert store.credits() == 9.0
    store.ledger.record(charge("a", usd=1.0))  # the same key: nothing more is charged
    assert store.credits() == 9.0
    store.add_income("day-1", 0.5, T0)
    assert store.credits() == 9.5
    with pytest.raises(RuntimeError), store.transaction():
        store.ledger.record(charge("b", usd=2.0))
        assert store.credits() == 7.5
        raise RuntimeError("rolled back")
    # The call behind charge b was billed: the rollback undoes the tick, not the bill.
    assert store.credits() == 7.5


def test_credits_sum_exactly(store: StateStore) -> None:
    store.fund(1.0, T0)
    with store.transaction():
        for i in range(1000):
            store.ledger.record(charge(f"k{i}", usd=0.001))
    assert store.credits() == 0.0


# --- one transaction per tick -------------------------------------------------------------


def write_tick(store: StateStore, tick: int, portfolio: PaperPortfolio) -> None:
    when = T0 + timedelta(seconds=15 * tick)
    store.ledger.record(tick_charge(tick))
    store.record_vitality(VitalityRow(tick, when, 0.9, "thriving", 0.95, 0.5))
    store.save_episode(tick_episode(tick))
    store.save_portfolio(tick, portfolio.to_dict())
    store.record_fire("heartbeat", when)
    store.set_tick(tick + 1)


def test_a_tick_commits_whole_or_not_at_all(store: StateStore) -> None:
    store.fund(10.0, T0)
    portfolio = PaperPortfolio(100.0)
    with store.transaction():
        write_tick(store, 0, portfolio)
    before = store.resume()
    with pytest.raises(RuntimeError, match="mid-tick"), store.transaction():
        write_tick(store, 1, portfolio)
        raise RuntimeError("mid-tick")
    after = store.resume()
    # All of tick 1 is undone but its charge: the call was billed, so it comes back
    # voided, under a key of its own (the tick, run again, is charged for its new call).
    billed = tick_charge(1).usd
    assert after == replace(before, credits=pytest.approx(before.credits - billed))
    assert store.ledger.get("tick-1") is None
    (void,) = [c for c in store.ledger.charges(T0.date()) if c.idempotency_key != "tick-0"]
    assert void.idempotency_key.startswith("tick-1:void:") and void.usd == billed
    assert store.last_fire("heartbeat") == T0
    assert [e.id for e in store.episodes()] == [0]


def test_nested_transactions_are_savepoints(store: StateStore) -> None:
    with store.transaction():
        store.set_tick(1)
        with pytest.raises(ValueError), store.transaction():
            store.set_tick(2)
            raise ValueError
        with store.transaction():
            store.set_meta("note", "kept")
    assert store.tick() == 1
    assert store.get_meta("note") == "kept"


def test_a_second_writer_waits_for_the_first(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as first, StateStore.open(tmp_path) as second:
        second._conn.execute("PRAGMA busy_timeout = 0")
        with first.transaction():
            first.set_tick(1)
            with pytest.raises(sqlite3.OperationalError, match="locked"), second.transaction():
                pass
            assert second.tick() == 0  # readers see the last commit meanwhile
        assert second.tick() == 1


async def test_a_scheduled_job_and_its_fire_time_commit_together(store: StateStore) -> None:
    clock = VirtualClock(T0)
    scheduler = Scheduler(clock, store)
    failures: list[datetime] = []

    async def tick(firing: Firing) -> None:
        n = store.tick()
        store.ledger.record(tick_charge(n))
        store.set_tick(n + 1)
        if n == 2 and not failures:
            failures.append(firing.at)
            raise RuntimeError("bug in tick 2")
        if n == 3:
            scheduler.stop()

    scheduler.add(Job("tick", every(timedelta(seconds=15), start=T0), tick))
    await scheduler.run()
    # tick 2's writes rolled back, its fire time kept: the next run was tick 2 again
    # ... but for the bill of its call: voided, beside the charge of the tick run again
    keys = [c.idempotency_key.split(":")[0] for c in store.ledger.charges(T0.date())]
    assert keys == ["tick-0", "tick-1", "tick-2", "tick-2", "tick-3"]
    assert failures == [T0 + timedelta(seconds=30)]
    assert store.last_fire("tick") == T0 + timedelta(seconds=60)


# --- what a restart finds -----------------------------------------------------------------


def test_a_restart_resumes_everything(tmp_path: Path) -> None:
    portfolio = PaperPortfolio(500.0)
    portfolio.apply("buy", 3000.0, 100.0, volatility=0.001)
    grimoire = [
        GrimoireEntry("g1", "calm markets revert", 0.7, "belief", "dream", "calm", 0, False),
        GrimoireEntry("g2", "old hunch", 0.05, "staged", "", None, 3, True),
    ]
    resolved = tick_episode(0).__class__(
        0, tick_episode(0).observation, tick_episode(0).decision, EpisodeOutcome(20, 0.01, 1.5)
    )
    with StateStore.open(tmp_path) as store, store.transaction():
        store.identify("golem-a", 7)
        store.fund(100.0, T0)
        write_tick(store, 0, portfolio)
        write_tick(store, 1, portfolio)
        store.save_episode(resolved)
        store.record_mood(1, T0, Mood(0.2, -0.1, 0.3))
        store.record_mood(0, T0, Mood(0.0, 0.0, 0.0))
        for entry in grimoire:
            store.save_grimoire_entry(entry)
        store.record_death({"cause": "economic", "tick": 1})

    with StateStore.open(tmp_path) as store:
        resumed = store.resume()
        assert resumed.tick == 2
        assert resumed.initial_credits == 100.0
        assert resumed.credits == pytest.approx(100.0 - 0.001 - 0.002)
        assert resumed.vitality == VitalityRow(
            1, T0 + timedelta(seconds=15), 0.9, "thriving", 0.95, 0.5
        )
        assert resumed.mood == Mood(0.2, -0.1, 0.3)  # the latest tick's
        assert list(resumed.grimoire) == grimoire
        assert store.grimoire(include_archived=False) == grimoire[:1]
        assert resumed.episodes == (resolved, tick_episode(1))
        assert resumed.fire_times == {"heartbeat": T0 + timedelta(seconds=15)}
        assert resumed.death == {"cause": "economic", "tick": 1}
        restored = PaperPortfolio.from_dict(resumed.portfolio or {})
        assert restored.to_dict() == portfolio.to_dict()
        assert restored.equity() == portfolio.equity()
        store.identify("golem-a", 7)


def test_histories_and_indexes_read_back_in_order(store: StateStore) -> None:
    for tick in range(5):
        when = T0 + timedelta(seconds=tick)
        store.record_vitality(VitalityRow(tick, when, 1 - tick / 10, "stable", 0.9, 0.5))
        store.save_episode(tick_episode(tick))
    assert [r.tick for r in store.vitality_history(since_tick=3)] == [3, 4]
    assert [e.id for e in store.episodes(limit=2)] == [3, 4]
    store.remove_grimoire_entry("nothing")
    assert store.mood() is None
    assert store.portfolio() is None
    assert store.death() is None
    assert store.last_vitality() == store.vitality_history()[-1]
    assert store.integrity_check() == "ok"


def test_malformed_portfolio_snapshots_are_refused() -> None:
    with pytest.raises(ValueError, match="not a portfolio"):
        PaperPortfolio.from_dict({"cash": 1.0})


def test_naive_times_are_refused(store: StateStore) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        store.record_fire("job", datetime(2026, 1, 1))


def test_a_stored_time_is_its_instant_in_utc_whatever_its_zone(store: StateStore) -> None:
    paris = timezone(timedelta(hours=1))
    store.record_fire("a", T0)
    store.record_fire("b", T0.astimezone(paris))  # the same instant: the same text
    store.record_fire("c", T0 + timedelta(seconds=15))
    stored = store._conn.execute("SELECT job, last_fire FROM job_fires ORDER BY job").fetchall()
    assert stored == [
        ("a", "2026-05-04T12:00:00+00:00"),
        ("b", "2026-05-04T12:00:00+00:00"),
        ("c", "2026-05-04T12:00:15+00:00"),
    ]
    with pytest.raises(ValueError, match="timezone-aware"):
        store.record_fire("d", datetime(2026, 5, 4))
