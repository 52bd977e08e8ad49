"""The spend ledger in the state database: `golem.mortality.Ledger` over the `charges`
table, sharing the store's connection so that a tick's charges commit with the tick.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from golem.inference.types import Usage
from golem.mortality import Charge, SubsystemName

__all__ = ["SQLiteLedger"]

_COLUMNS = (
    "idempotency_key, day, time, subsystem, provider, model, input_tokens, "
    "cached_input_tokens, output_tokens, reasoning_tokens, usd, diem"
)


class SQLiteLedger:
    """A Ledger whose rows are keyed by idempotency key: recording a key twice stores
    nothing the second time (INSERT OR IGNORE) and returns the charge stored first."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def record(self, charge: Charge) -> Charge:
        tokens = charge.tokens
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
            return charge
        stored = self.get(charge.idempotency_key)
        if stored is None:  # cannot happen: the key was there a moment ago, in this connection
            raise RuntimeError(f"charge {charge.idempotency_key!r} vanished")
        return stored

    def get(self, idempotency_key: str) -> Charge | None:
        row = self._conn.execute(
            f"SELECT {_COLUMNS} FROM charges WHERE idempotency_key = ?", (idempotency_key,)
        ).fetchone()
        return None if row is None else _charge(row)

    def charges(self, day: date) -> Sequence[Charge]:
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} FROM charges WHERE day = ? ORDER BY rowid", (day.isoformat(),)
        )
        return tuple(_charge(row) for row in rows)

    def spent_usd(self, day: date, subsystem: SubsystemName | None = None) -> float:
        if subsystem is None:
            rows = self._conn.execute("SELECT usd FROM charges WHERE day = ?", (day.isoformat(),))
        else:
            rows = self._conn.execute(
                "SELECT usd FROM charges WHERE day = ? AND subsystem = ?",
                (day.isoformat(), str(subsystem)),
            )
        return math.fsum(usd for (usd,) in rows)

    def spent_diem(self, day: date) -> float:
        rows = self._conn.execute("SELECT diem FROM charges WHERE day = ?", (day.isoformat(),))
        return math.fsum(diem for (diem,) in rows)

    def remaining_usd(
        self, day: date, budget_usd: float, subsystem: SubsystemName | None = None
    ) -> float:
        return max(0.0, budget_usd - self.spent_usd(day, subsystem))

    def total_usd(self) -> float:
        """Everything ever spent, summed exactly (SQLite's SUM is not compensated)."""
        return math.fsum(usd for (usd,) in self._conn.execute("SELECT usd FROM charges"))


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
