"""The spend ledger in the state database: `golem.mortality.Ledger` over the `charges`
table, sharing the store's connection so that a tick's charges commit with the tick.
Sums are kept as running exact sums, read from the table once and updated per charge.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, date, datetime
from typing import Any

from golem.inference.types import Usage
from golem.mortality import Charge, SubsystemName

__all__ = ["ExactSum", "SQLiteLedger"]

_COLUMNS = (
    "idempotency_key, day, time, subsystem, provider, model, input_tokens, "
    "cached_input_tokens, output_tokens, reasoning_tokens, usd, diem"
)


class ExactSum:
    """A running sum as exact as `math.fsum` over every value added (Shewchuk's
    non-overlapping partials), so a total kept up to date equals one summed afresh."""

    __slots__ = ("_partials", "_value")

    def __init__(self, values: Iterable[float] = ()) -> None:
        self._partials: list[float] = []
        self._value: float | None = None  # the sum, kept until the next add (read per tick)
        for value in values:
            self.add(value)

    def add(self, x: float) -> None:
        self._value = None
        partials, i = self._partials, 0
        for partial in partials:
            big, small = (x, partial) if abs(x) >= abs(partial) else (partial, x)
            hi = big + small
            lo = small - (hi - big)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    @property
    def value(self) -> float:
        if self._value is None:
            self._value = math.fsum(self._partials)
        return self._value


_Key = tuple[str, str | None, str]  # (day, subsystem or None for all, "usd" | "diem")


class SQLiteLedger:
    """A Ledger whose rows are keyed by idempotency key: recording a key twice stores
    nothing the second time (INSERT OR IGNORE) and returns the charge stored first.
    The store calls `forget()` when a transaction rolls back, dropping the kept sums, and
    passes `before_use`, called before the ledger reads or writes the table (the store
    may be holding writes back)."""

    def __init__(
        self, conn: sqlite3.Connection, before_use: Callable[[], None] = lambda: None
    ) -> None:
        self._conn = conn
        self._before_use = before_use
        self._total: ExactSum | None = None
        self._sums: dict[_Key, ExactSum] = {}
        self.version = 0  # changes whenever a sum may have: what a reader may keep by

    def forget(self) -> None:
        """Drop the running sums: the next read sums the table again."""
        self._total = None
        self._sums.clear()
        self.version += 1

    def record(self, charge: Charge) -> Charge:
        tokens = charge.tokens
        self._before_use()
        inserted = self._conn.execute(
            f"INSERT OR IGNORE INTO charges ({_COLUMNS}) VALUES ({', '.join('?' * 12)})",
            (
                charge.idempotency_key,
                charge.day.isoformat(),
                charge.time.astimezone(UTC).isoformat(),
                str(charge.subsystem),
                charge.provider,
                charge.model,
                tokens.input_tokens,
                tokens.cached_input_tokens,
                tokens.output_tokens,
                tokens.reasoning_tokens,
                charge.usd,
                charge.diem,
            ),
        )
        if inserted.rowcount:
            self._count(charge)
            return charge
        stored = self.get(charge.idempotency_key)
        if stored is None:  # cannot happen: the key was there a moment ago, in this connection
            raise RuntimeError(f"charge {charge.idempotency_key!r} vanished")
        return stored

    def get(self, idempotency_key: str) -> Charge | None:
        self._before_use()
        row = self._conn.execute(
            f"SELECT {_COLUMNS} FROM charges WHERE idempotency_key = ?", (idempotency_key,)
        ).fetchone()
        return None if row is None else _charge(row)

    def charges(self, day: date) -> Sequence[Charge]:
        self._before_use()
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM charges WHERE day = ? ORDER BY rowid", (day.isoformat(),)
        )
        return tuple(_charge(row) for row in rows)

    def spent_usd(self, day: date, subsystem: SubsystemName | None = None) -> float:
        return self._sum((day.isoformat(), None if subsystem is None else str(subsystem), "usd"))

    def spent_diem(self, day: date) -> float:
        return self._sum((day.isoformat(), None, "diem"))

    def remaining_usd(
        self, day: date, budget_usd: float, subsystem: SubsystemName | None = None
    ) -> float:
        return max(0.0, budget_usd - self.spent_usd(day, subsystem))

    def total_usd(self) -> float:
        """Everything ever spent, summed exactly (SQLite's SUM is not compensated)."""
        if self._total is None:
            self._before_use()
            rows = self._conn.execute("SELECT usd FROM charges")
            self._total = ExactSum(usd for (usd,) in rows)
        return self._total.value

    def _sum(self, key: _Key) -> float:
        kept = self._sums.get(key)
        if kept is None:
            day, subsystem, column = key
            self._before_use()
            where, args = "day = ?", [day]
            if subsystem is not None:
                where, args = "day = ? AND subsystem = ?", [day, subsystem]
            rows = self._conn.execute(f"SELECT {column} FROM charges WHERE {where}", args)
            kept = self._sums[key] = ExactSum(value for (value,) in rows)
        return kept.value

    def _count(self, charge: Charge) -> None:
        """Add a newly stored charge to the sums kept so far (the others read it later)."""
        self.version += 1
        if self._total is not None:
            self._total.add(charge.usd)
        day = charge.day.isoformat()
        for key, amount in (
            ((day, None, "usd"), charge.usd),
            ((day, str(charge.subsystem), "usd"), charge.usd),
            ((day, None, "diem"), charge.diem),
        ):
            kept = self._sums.get(key)
            if kept is not None:
                kept.add(amount)


def _charge(row: tuple[Any, ...]) -> Charge:
    key, _, time, subsystem, provider, model, inp, cached, out, reasoning, usd, diem = row
    return Charge(
        subsystem=SubsystemName(str(subsystem)),
        provider=str(provider),
        model=str(model),
        tokens=Usage(int(inp), int(cached), int(out), int(reasoning)),
        usd=float(usd),
        diem=float(diem),
        time=datetime.fromisoformat(str(time)),
        idempotency_key=str(key),
    )
