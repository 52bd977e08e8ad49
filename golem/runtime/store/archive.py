"""A golem's state read by `golem replay`: opened read-only (a running golem may be
writing it), its kept requests and the two facts that say why a decision has none (when
its tick was, whether anything was charged before the oldest request kept). Every query
of the state outside the daemon goes through here, never raw SQL in a command."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from golem.runtime.store.migrations import SCHEMA_VERSION, schema_version
from golem.runtime.store.requests import RequestArchive
from golem.runtime.store.state import StateError

__all__ = ["KeptState"]


class KeptState:
    """`db` open read-only as a context manager; StateError, one line, when it was
    written by a newer golem or by an older one that kept no requests."""

    def __init__(self, db: Path) -> None:
        self._conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            version = schema_version(self._conn)
            if version > SCHEMA_VERSION:
                raise StateError(
                    f"{db}: written by a newer golem (schema {version}); upgrade golem"
                )
            kept = self._conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'requests'"
            ).fetchone()
            if kept is None:
                raise StateError(
                    f"{db}: written by an older golem (schema {version}) that kept no "
                    "requests; nothing to replay until a golem of this version has run on it"
                )
        except BaseException:
            self._conn.close()
            raise
        self.requests = RequestArchive(self._conn.execute, _read_only, _iso)

    def __enter__(self) -> KeptState:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._conn.close()

    def tick_time(self, tick: int) -> datetime | None:
        """When tick `tick` was recorded (None: no vitality row of it)."""
        row = self._conn.execute("SELECT time FROM vitality WHERE tick = ?", (tick,)).fetchone()
        return None if row is None else datetime.fromisoformat(row[0])

    def charged_before(self, moment: datetime) -> bool:
        """Whether the ledger holds a charge made before `moment`."""
        row = self._conn.execute(
            "SELECT 1 FROM charges WHERE time < ? LIMIT 1", (_iso(moment),)
        ).fetchone()
        return row is not None


def _read_only(sql: str, params: tuple[Any, ...]) -> None:
    raise AssertionError("golem replay never writes the state")


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()  # as the store writes its times
