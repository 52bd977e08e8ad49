"""The market window's observations kept in the state database (`ObservationLog`), so a
restarted golem's probes see the ticks before it at once."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from golem.world import Observation

__all__ = ["ObservationLog"]

Read = Callable[[str, tuple[Any, ...]], sqlite3.Cursor]
Write = Callable[[str, tuple[Any, ...]], None]


class ObservationLog:
    """The `observations` table, read and written through the store's transaction."""

    def __init__(self, read: Read, write: Write) -> None:
        self._read, self._write = read, write

    def save(self, observations: Sequence[Observation], *, keep: int) -> None:
        """Append the market window's newest `observations` (oldest first), keeping the
        newest `keep` stored."""
        for observation in observations:
            self._write(
                "INSERT INTO observations (data) VALUES (?)", (msgspec.json.encode(observation),)
            )
        if observations:
            self._write(
                "DELETE FROM observations WHERE seq <= (SELECT MAX(seq) FROM observations) - ?",
                (keep,),
            )

    def newest(self, limit: int) -> list[Observation]:
        """The newest `limit` observations saved, oldest first."""
        rows = self._read(
            "SELECT data FROM observations ORDER BY seq DESC LIMIT ?", (limit,)
        ).fetchall()
        return [msgspec.json.decode(data, type=Observation) for (data,) in reversed(rows)]
