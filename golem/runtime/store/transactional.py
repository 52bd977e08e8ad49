"""A store's writes as transactions (`Transactional`, the StateStore's base): a tick's
writes are one commit; nested transactions are savepoints; in a batch (`commit_every`
> 1) writes that return nothing are held back (`_Pending`) and sent together; what must
wait for the commit waits (`at_commit`); and the charges a rollback undid come back
voided (bills.py): the provider billed those calls all the same.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from itertools import compress, count, groupby, repeat
from operator import eq, itemgetter
from pathlib import Path
from typing import Any

import structlog
import trio

from golem.mortality import Charge
from golem.runtime.store.bills import BILLS_NAME, BillJournal, JournaledLedger

__all__ = ["Transactional"]

log = structlog.get_logger("golem")


class Transactional:
    """The connection's transactions, held writes, commit callbacks and bills journal.
    See StateStore for the durability each `commit_every` gives."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, *, commit_every: int = 1, durable: bool = True
    ) -> None:
        if commit_every < 1:
            raise ValueError("commit_every must be at least 1")
        self._conn = conn
        self._pending = _Pending(conn) if commit_every > 1 else None
        self.bills = BillJournal(
            path.with_name(BILLS_NAME), durable=durable, file=commit_every == 1
        )
        self.ledger = JournaledLedger(conn, self.bills, lambda: self._depth, self._sync)
        self._at_commit: list[tuple[int, Callable[[], None]]] = []  # (level, callback)
        self._at_rollback: list[Callable[[], None]] = []
        self._depth = 0
        self._commit_every = commit_every
        self._batched = 0  # 1 + the transactions in the open batch; 0: no batch open

    def flush(self) -> None:
        """Commit the open batch, if any (a no-op when every transaction commits)."""
        if self._batched and self._depth == 1:
            self._sync()
            self._conn.execute("COMMIT")
            self._depth = self._batched = 0
            self.bills.released(0)

    def weigh(self, ticks: int) -> None:
        """The open transaction lives `ticks` ticks (a fast-forward's quiet stretch): a
        batch counts them all, so it commits after `commit_every` ticks however many
        transactions lived them, and holds no more writes than step by step."""
        if self._batched:
            self._batched += ticks - 1

    def at_rollback(self, callback: Callable[[], None]) -> None:
        """Call `callback` after every rollback, once the database holds only what stands:
        what is kept in memory from the undone writes is rebuilt from it."""
        self._at_rollback.append(callback)

    def at_commit(self, callback: Callable[[], None]) -> None:
        """Call `callback` once the open transaction commits (now, if none is open; in a
        batch, once the outermost transaction in it succeeds); never if it rolls back.
        What is told of a tick (its log lines) is told only of a tick that committed."""
        if self._depth <= (1 if self._batched else 0):
            callback()
        else:
            self._at_commit.append((self._depth, callback))

    def settle_bills(self) -> list[Charge]:
        """Record, voided, the charges a killed process left in the journal uncommitted
        (the provider billed their calls; the ticks that made them rolled back). Returns
        what it recorded; call it once logging is set up (each is logged)."""
        left = self.bills.left()
        if not left:
            return []
        ledger = self.ledger

        def original(charge: Charge) -> str:
            return charge.idempotency_key.rpartition(":void:")[0]

        # A call whose charge committed was not undone; one settled already, neither.
        undone = [c for c in left if ledger.get(original(c)) is None]
        undone = [c for c in undone if ledger.get(c.idempotency_key) is None]
        self._void(undone, "the process stopped before its tick committed")
        self.bills.path.unlink(missing_ok=True)
        return undone

    def hold_bill(self, charge: Charge) -> None:
        """An attempt's bill, as the provider answers it: kept in the journal until the
        tick commits with the call's charge (bills.py)."""
        if self._depth:
            self.bills.hold(charge, self._depth, attempt=True)

    def _void(self, charges: list[Charge], why: str) -> None:
        """Record `charges` (voided), each told first: a kill between the two leaves a
        line the next settling repeats (readers count a key once), never a charge
        recorded but not told."""
        for charge in charges:
            log.warning(
                "charge_voided",
                key=charge.idempotency_key,
                subsystem=str(charge.subsystem),
                provider=charge.provider,
                model=charge.model,
                cost_usd=charge.usd,
                diem=charge.diem,
                reason=f"{why}: the call was billed, its decision undone",
            )
        if charges:
            with self.transaction():
                for charge in charges:
                    self.ledger.record(charge)

    def _sync(self) -> None:
        """Send the held writes to SQLite: a read is about to look."""
        if self._pending is not None:
            self._pending.send()

    def _write(
        self, table: str, sql: str, params: tuple[Any, ...], *, replaces: object = None
    ) -> None:
        """A write whose result nobody reads: held in a batch, executed otherwise.
        `replaces`: the row's key, for a write that replaces the whole row (a batch
        then sends only the last of a run of writes to the same row)."""
        pending = self._pending
        if pending is not None and self._depth:
            # Held with its key: the row it replaces, or its own place (no other write's).
            writes = pending.writes
            key = len(writes) if replaces is None else (sql, replaces)
            writes.append((table, sql, params, key))
        else:
            self._conn.execute(sql, params)

    def _write_many(self, table: str, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """`_write` for each of `rows` in turn (none replaces a row), as one executemany
        when no batch holds them."""
        pending = self._pending
        if pending is not None and self._depth:
            writes, start = pending.writes, len(pending.writes)
            writes.extend(zip(repeat(table), repeat(sql), rows, count(start)))
        else:
            self._conn.executemany(sql, rows)

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        self._sync()
        return self._conn.execute(sql, params)

    def transaction(self) -> _Transaction:
        """All writes inside commit together or not at all. Nested uses are savepoints:
        an exception caught inside the outer block undoes only the inner block's writes."""
        return _Transaction(self)

    def _begin(self) -> int:
        """Open a transaction (or a savepoint in one); returns its depth."""
        pending = self._pending
        if pending is not None and self._depth == 0:
            self._conn.execute("BEGIN IMMEDIATE")
            self._depth = self._batched = 1
        depth = self._depth
        if pending is not None:
            pending.open(depth)
        else:
            self._conn.execute("BEGIN IMMEDIATE" if depth == 0 else f"SAVEPOINT s{depth}")
        self._depth += 1
        return depth

    def _roll_back(self, depth: int) -> None:
        pending = self._pending
        self._depth = depth
        self._forget()
        if depth == 0:
            self._conn.execute("ROLLBACK")
        elif pending is None or pending.roll_back():
            self._conn.execute(f"ROLLBACK TO s{depth}")
            self._conn.execute(f"RELEASE s{depth}")
        self._undone(depth)

    def _undone(self, depth: int) -> None:
        """The transactions above `depth` rolled back: nothing of theirs is told, and the
        charges they recorded come back voided."""
        if self._at_commit:
            self._at_commit = [(level, told) for level, told in self._at_commit if level <= depth]
        self._void(self.bills.rolled_back(depth), "its tick rolled back")
        for rebuild in self._at_rollback:
            rebuild()

    def _committed(self, depth: int, top: int) -> None:
        """The transaction above `depth` committed (`top`: the depth at which a tick's
        transaction ends: 1 in a batch, else 0)."""
        self.bills.released(depth)
        if not self._at_commit:
            return
        if depth > top:
            self._at_commit = [(min(level, depth), told) for level, told in self._at_commit]
            return
        callbacks, self._at_commit = self._at_commit, []
        for _, told in callbacks:
            told()

    def _commit(self, depth: int) -> None:
        pending = self._pending
        self._depth = depth
        top = 1 if self._batched else 0
        if depth:
            if pending is None or pending.release():
                self._conn.execute(f"RELEASE s{depth}")
            if self._batched and depth == 1:
                self._batched += 1
                if self._batched > self._commit_every:
                    self.flush()
            self._committed(depth, top)
            return
        try:
            self._conn.execute("COMMIT")
        except BaseException:
            self._forget()
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            self._undone(0)
            raise
        self._committed(0, top)

    def _forget(self) -> None:
        """A rollback undid writes: drop every sum kept from them."""
        self.ledger.forget()


class _Transaction:
    """`Transactional.transaction()`: a class rather than a generator, since every scheduled
    job runs in one and @contextmanager costs ten times as much."""

    __slots__ = ("_depth", "_store")

    def __init__(self, store: Transactional) -> None:
        self._store = store
        self._depth = 0

    def __enter__(self) -> None:
        self._depth = self._store._begin()

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self._store._commit(self._depth)
        else:
            self._store._roll_back(self._depth)


class _Pending:
    """The writes a batch holds back, and where each open transaction's began.

    Every held write names its table; at `send()` the writes of each table go in their
    order, a run of one statement as one `executemany` (the tables have no triggers or
    foreign keys, so the order across tables does not matter). A write that replaces a
    whole row (the tick counter, a job's last fire: once per tick each) is sent only if no
    later write in the same send replaces that row again. A transaction that opened
    while writes were held gets its SQLite savepoint at `send()`, between the writes made
    before it and those made in it, so a rollback still undoes exactly its own."""

    __slots__ = ("_conn", "_levels", "writes")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        # (table, sql, params, key), appended by StateStore._write
        self.writes: list[tuple[str, str, tuple[Any, ...], object]] = []
        # Per open transaction: [savepoint depth, held writes before it, savepoint opened?]
        self._levels: list[list[Any]] = []

    def open(self, depth: int) -> None:
        self._levels.append([depth, len(self.writes), False])

    def release(self) -> bool:
        """The innermost transaction succeeded: its writes now belong to the one around
        it. True when its savepoint is in SQLite (to be released there)."""
        return bool(self._levels.pop()[2])

    def roll_back(self) -> bool:
        """The innermost transaction failed: drop its held writes. True when its
        savepoint is in SQLite (to be rolled back there)."""
        _, start, opened = self._levels.pop()
        del self.writes[start:]
        return bool(opened)

    @trio.lowlevel.enable_ki_protection
    def send(self) -> None:
        """Execute every held write, opening the savepoints of the open transactions
        between them. Ctrl-C waits until it is done (trio delivers it at the next
        checkpoint): interrupted between two of its statements, the writes already
        executed would still be held, and sent again by the rollback's rebuild or the
        close (a UNIQUE failure in 2 of 25 interrupted simulations)."""
        done = 0
        for level in self._levels:
            if not level[2]:
                self._execute(self.writes[done : level[1]])
                done = level[1]
                self._conn.execute(f"SAVEPOINT s{level[0]}")
                level[1], level[2] = 0, True
        self._execute(self.writes[done:])
        self.writes.clear()

    def _execute(self, writes: list[tuple[str, str, tuple[Any, ...], object]]) -> None:
        if not writes:
            return
        # Thousands of writes a batch, walked in C. Only the last write with each key
        # goes: an earlier write to a replaced row would be overwritten.
        keys = list(map(_KEY, writes))
        last = dict(zip(keys, count(), strict=False))  # each key's last place
        kept = compress(writes, map(eq, map(last.__getitem__, keys), count()))
        # Per table (a stable sort keeps each table's writes in order), each run of one
        # statement as one executemany.
        for (_, sql), run in groupby(sorted(kept, key=_TABLE), key=_TABLE_AND_SQL):
            self._conn.executemany(sql, map(_PARAMS, run))


_TABLE = itemgetter(0)
_TABLE_AND_SQL = itemgetter(0, 1)
_PARAMS = itemgetter(2)
_KEY = itemgetter(3)
