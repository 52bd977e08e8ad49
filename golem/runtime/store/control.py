"""The `control` table: the owner's commands to a golem, queued and then applied once.

A command is queued by a connection of its own (`queue_command`: the control API, `golem
ctl STATE_DIR`, a signal), committed before the caller is answered, so that it survives
a crash of the golem before its next tick. The golem reads the pending ones at the start
of a tick and marks each applied in that tick's transaction (`ControlLog`): a command is
applied exactly once, and the table stays as the audit trail of who asked what, when.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

__all__ = ["Command", "ControlLog", "ControlRow", "StoreSide", "connect_outside", "queue_command"]

_BUSY_MS = 30_000  # a tick holds the write lock while it runs; a command waits for it


class Command(StrEnum):
    PAUSE = "pause"
    RESUME = "resume"
    EXIT = "exit"
    KILL = "kill"
    BUDGET = "budget"
    STEER = "steer"


@dataclass(frozen=True, slots=True)
class ControlRow:
    """One queued command: `value` is the budget's new USD a day, `text` the owner's
    message of a steer (None for the others)."""

    id: int
    time: datetime
    command: Command
    value: float | None
    source: str
    text: str | None = None


_INSERT = "INSERT INTO control (time, command, value, source, text) VALUES (?, ?, ?, ?, ?)"


def connect_outside(db: Path) -> sqlite3.Connection:
    """A connection of its own to a golem's state database, for a command from outside the
    golem (the owner's); it waits for a running tick's write lock."""
    if not db.is_file():
        raise sqlite3.OperationalError(f"no state database at {db}")
    return sqlite3.connect(db, isolation_level=None, timeout=_BUSY_MS / 1000)


def queue_command(
    db: Path,
    command: Command,
    value: float | None,
    source: str,
    time: datetime,
    *,
    text: str | None = None,
) -> int:
    """Queue `command` in the state database at `db` on a connection of its own and
    commit it; returns its id. Raises sqlite3.Error (the database is missing, older
    than the control table, or busy for longer than 30 s)."""
    conn = connect_outside(db)
    try:
        moment = time.astimezone(UTC).isoformat()
        cursor = conn.execute(_INSERT, (moment, str(command), value, source, text))
        return int(cursor.lastrowid or 0)
    finally:
        conn.close()


class StoreSide:
    """The golem's side of a table, over the store's own reads, its writes to that table
    and its time text."""

    def __init__(
        self,
        read: Callable[[str, tuple[Any, ...]], sqlite3.Cursor],
        write: Callable[[str, tuple[Any, ...]], None],
        iso: Callable[[datetime], str],
    ) -> None:
        self._read, self._write, self._iso = read, write, iso


class ControlLog(StoreSide):
    """The golem's side of the control table."""

    def pending(self) -> list[ControlRow]:
        """The commands not yet applied, oldest first."""
        rows = self._read(
            "SELECT id, time, command, value, source, text FROM control "
            "WHERE applied_tick IS NULL ORDER BY id",
            (),
        ).fetchall()
        return [
            ControlRow(int(i), datetime.fromisoformat(t), Command(c), v, str(s), x)
            for i, t, c, v, s, x in rows
        ]

    def applied(
        self, row: ControlRow, tick: int, time: datetime, result: str, text: str | None = None
    ) -> None:
        """Mark `row` applied at `tick` with what came of it (in the tick's transaction);
        `text`, the row's text as applied (a steer's, masked of the golem's key values)."""
        self._write(
            "UPDATE control SET applied_tick = ?, applied_time = ?, result = ?, "
            "text = coalesce(?, text) WHERE id = ?",
            (tick, self._iso(time), result, text, row.id),
        )

    def history(self) -> list[dict[str, Any]]:
        """Every command, oldest first, as the audit trail shows it."""
        rows = self._read(
            "SELECT id, time, command, value, text, source, applied_tick, applied_time, "
            "result FROM control ORDER BY id",
            (),
        ).fetchall()
        keys = ("id", "time", "command", "value", "text", "source", "applied_tick")
        return [dict(zip((*keys, "applied_time", "result"), row, strict=True)) for row in rows]
