"""The state database's schema, as an ordered list of migrations. Version N of the schema
is what the first N migrations make; the pending ones run in order in one transaction with
the version bump, and a database newer than this code is refused.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "SchemaTooNew", "migrate", "schema_version"]

Migration = Callable[[sqlite3.Connection], None]


class SchemaTooNew(RuntimeError):
    """The database was written by a newer golem; this one must not touch it."""


_V1 = (
    """CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE charges (
        idempotency_key TEXT PRIMARY KEY,
        day TEXT NOT NULL,
        time TEXT NOT NULL,
        subsystem TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        input_tokens INTEGER NOT NULL,
        cached_input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        reasoning_tokens INTEGER NOT NULL,
        usd REAL NOT NULL CHECK (usd >= 0),
        diem REAL NOT NULL CHECK (diem >= 0)
    )""",
    "CREATE INDEX charges_by_day ON charges (day, subsystem)",
    """CREATE TABLE wallet (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('initial', 'income')),
        usd REAL NOT NULL CHECK (usd >= 0),
        time TEXT NOT NULL
    )""",
    "CREATE UNIQUE INDEX one_initial_credit ON wallet (kind) WHERE kind = 'initial'",
    """CREATE TABLE vitality (
        tick INTEGER PRIMARY KEY,
        time TEXT NOT NULL,
        vitality REAL NOT NULL,
        phase TEXT NOT NULL,
        economic REAL NOT NULL,
        epistemic REAL NOT NULL
    )""",
    """CREATE TABLE episodes (
        id INTEGER PRIMARY KEY,
        tick INTEGER NOT NULL,
        data TEXT NOT NULL
    )""",
    """CREATE TABLE grimoire (
        id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        confidence REAL NOT NULL,
        tier TEXT NOT NULL,
        provenance TEXT NOT NULL,
        regime TEXT,
        low_cycles INTEGER NOT NULL,
        archived INTEGER NOT NULL
    )""",
    """CREATE TABLE mood (
        tick INTEGER PRIMARY KEY,
        time TEXT NOT NULL,
        pleasure REAL NOT NULL,
        arousal REAL NOT NULL,
        dominance REAL NOT NULL
    )""",
    """CREATE TABLE portfolio (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        tick INTEGER NOT NULL,
        data TEXT NOT NULL
    )""",
    """CREATE TABLE job_fires (
        job TEXT PRIMARY KEY,
        last_fire TEXT NOT NULL
    )""",
)


def _v1(conn: sqlite3.Connection) -> None:
    for statement in _V1:
        conn.execute(statement)


def _v2(conn: sqlite3.Connection) -> None:
    """Once the rebuild of a decisions index for a cheaper insert; that index is gone
    (v3), so there is nothing left for it to do."""


def _v3(conn: sqlite3.Connection) -> None:
    """The decisions index dropped (v1 made it): every decision is in the log, whole, and
    nothing but tests read the index. A new database never had it."""
    conn.execute("DROP TABLE IF EXISTS decisions")  # and its index with it


def _v4(conn: sqlite3.Connection) -> None:
    """The request of each model decision, kept for `golem replay` (store/requests.py):
    keyed by the decision's log id, pruned by time."""
    conn.execute(
        """CREATE TABLE requests (
            id TEXT PRIMARY KEY,
            time TEXT NOT NULL,
            subsystem TEXT NOT NULL,
            data BLOB NOT NULL
        )"""
    )
    conn.execute("CREATE INDEX requests_by_time ON requests (time)")


def _v5(conn: sqlite3.Connection) -> None:
    """The market window's observations, the newest a window holds, so that a restarted
    golem's probes see the ticks before it at once (store.observed)."""
    conn.execute("CREATE TABLE observations (seq INTEGER PRIMARY KEY, data BLOB NOT NULL)")


def _v6(conn: sqlite3.Connection) -> None:
    """The owner's control commands (runtime/control.py): queued by the control API,
    `golem ctl` or a signal, each applied once at the start of a tick (`applied_tick`
    set in that tick's transaction); the table is also their audit trail."""
    conn.execute(
        """CREATE TABLE control (
            id INTEGER PRIMARY KEY,
            time TEXT NOT NULL,
            command TEXT NOT NULL,
            value REAL,
            source TEXT NOT NULL,
            applied_tick INTEGER,
            applied_time TEXT,
            result TEXT
        )"""
    )
    conn.execute(
        "CREATE INDEX control_pending ON control (applied_tick) WHERE applied_tick IS NULL"
    )


def _v7(conn: sqlite3.Connection) -> None:
    """The prediction ledger (store/predictions.py, Bardo 17-prediction-engine.md), append-
    only: a prediction's row is never changed; each resolved checkpoint appends a row."""
    conn.execute(
        """CREATE TABLE predictions (
            id INTEGER PRIMARY KEY,
            created_at TEXT NOT NULL,
            category TEXT NOT NULL,
            source TEXT NOT NULL,
            regime TEXT NOT NULL,
            confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
            confidence_raw REAL NOT NULL CHECK (confidence_raw BETWEEN 0 AND 1),
            action_ref TEXT,
            data BLOB NOT NULL
        )"""
    )
    conn.execute(
        """CREATE TABLE checkpoints (
            prediction_id INTEGER NOT NULL REFERENCES predictions (id),
            checkpoint INTEGER NOT NULL,
            resolved_at TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('resolved', 'failed', 'expired')),
            actual REAL,
            residual REAL,
            correct INTEGER,
            forecast TEXT,
            observed TEXT,
            PRIMARY KEY (prediction_id, checkpoint)
        )"""
    )


def _v8(conn: sqlite3.Connection) -> None:
    """The owner's message of a steer command (`golem ctl steer`), beside the budget's
    number: the control table's `text`."""
    conn.execute("ALTER TABLE control ADD COLUMN text TEXT")


def _v9(conn: sqlite3.Connection) -> None:
    """Trades held for the owner's approval (store/approvals.py): above `[subsystems.risk]
    approve_above_stake`, each waiting until approved, denied or timed out, then executed
    or blocked at a later tick; the table is also the record of who decided."""
    conn.execute(
        """CREATE TABLE approvals (
            id INTEGER PRIMARY KEY,
            time TEXT NOT NULL,
            tick INTEGER NOT NULL,
            action TEXT NOT NULL,
            size_usd REAL,
            stake_usd REAL NOT NULL,
            price REAL NOT NULL,
            reason TEXT NOT NULL,
            deadline TEXT NOT NULL,
            status TEXT NOT NULL,
            decided_by TEXT,
            decided_time TEXT,
            result TEXT
        )"""
    )
    conn.execute(
        "CREATE INDEX approvals_open ON approvals (status) WHERE status IN ('waiting', 'approved')"
    )


MIGRATIONS: Sequence[Migration] = (_v1, _v2, _v3, _v4, _v5, _v6, _v7, _v8, _v9)
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    """The version a database is at; 0 for an empty one."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ).fetchone()
    if exists is None:
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return 0 if row is None else int(row[0])


def migrate(conn: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring the database to `len(migrations)` and return that version. `conn` must be in
    autocommit mode (isolation_level=None): the transactions are explicit."""
    target = len(migrations)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = schema_version(conn)
        if current > target:
            raise SchemaTooNew(
                f"the state database is at schema version {current}, newer than this "
                f"golem's {target}: run a newer golem, or use another state_dir"
            )
        for version in range(current + 1, target + 1):
            migrations[version - 1](conn)
            conn.execute("DELETE FROM schema_version")
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return target
