"""The `approvals` table: trades above `[subsystems.risk] approve_above_stake` held for the
owner's word (runtime/approvals.py keeps the queue).

The golem writes a row when it holds a trade and when the row's fate is settled (a policy's
or a timeout's decision, the execution), in its tick's transaction (`ApprovalBook`). The
owner decides on a connection of its own (`decide_approval`: the control API, `golem ctl`),
committed before the caller is answered; a row moves out of `waiting` once only, so an
owner's answer and the timeout cannot both win. `list_approvals` reads on a connection of
its own too, what was committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from golem.runtime.store.control import StoreSide, connect_outside

__all__ = [
    "ApprovalBook",
    "ApprovalRow",
    "Status",
    "decide_approval",
    "list_approvals",
]


class Status(StrEnum):
    WAITING = "waiting"  # for the owner (or the timeout)
    APPROVED = "approved"  # executes at the next tick, re-checked by risk's limits
    DENIED = "denied"
    EXECUTED = "executed"
    BLOCKED = "blocked"  # approved, then refused by risk's limits at that tick's price


@dataclass(frozen=True, slots=True)
class ApprovalRow:
    """One held trade: `size_usd` as risk approved it (None: an exit of the whole
    position), `stake_usd` the USD it would move when held."""

    id: int
    time: datetime
    tick: int
    action: str
    size_usd: float | None
    stake_usd: float
    price: float
    reason: str
    deadline: datetime
    status: Status
    decided_by: str | None = None
    decided_time: datetime | None = None
    result: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "time": self.time.isoformat(),
            "tick": self.tick,
            "action": self.action,
            "size_usd": self.size_usd,
            "stake_usd": self.stake_usd,
            "price": self.price,
            "reason": self.reason,
            "deadline": self.deadline.isoformat(),
            "status": str(self.status),
            "decided_by": self.decided_by,
            "decided_time": None if self.decided_time is None else self.decided_time.isoformat(),
            "result": self.result,
        }


_COLUMNS = (
    "id, time, tick, action, size_usd, stake_usd, price, reason, deadline, status, "
    "decided_by, decided_time, result"
)


def _row(values: tuple[Any, ...]) -> ApprovalRow:
    i, time, tick, action, size, stake, price, reason, deadline, status, by, when, result = values
    return ApprovalRow(
        id=int(i),
        time=datetime.fromisoformat(time),
        tick=int(tick),
        action=str(action),
        size_usd=size,
        stake_usd=float(stake),
        price=float(price),
        reason=str(reason),
        deadline=datetime.fromisoformat(deadline),
        status=Status(status),
        decided_by=by,
        decided_time=None if when is None else datetime.fromisoformat(when),
        result=result,
    )


def decide_approval(db: Path, id: int, approve: bool, time: datetime) -> ApprovalRow | None:
    """The owner's answer to held trade `id`, committed on a connection of its own: the
    row as it then stands, or None when there is no such row. A row no longer waiting is
    left as it was (its status says why the answer came too late)."""
    conn = connect_outside(db)
    try:
        status = Status.APPROVED if approve else Status.DENIED
        conn.execute(
            "UPDATE approvals SET status = ?, decided_by = 'owner', decided_time = ? "
            "WHERE id = ? AND status = 'waiting'",
            (str(status), time.astimezone(UTC).isoformat(), id),
        )
        row = conn.execute(f"SELECT {_COLUMNS} FROM approvals WHERE id = ?", (id,)).fetchone()
        return None if row is None else _row(row)
    finally:
        conn.close()


def list_approvals(db: Path, *, waiting_only: bool = False) -> list[ApprovalRow]:
    """The held trades as committed, newest first (the waiting ones alone, if asked)."""
    conn = connect_outside(db)
    try:
        where = "WHERE status = 'waiting' " if waiting_only else ""
        rows = conn.execute(f"SELECT {_COLUMNS} FROM approvals {where}ORDER BY id DESC").fetchall()
        return [_row(row) for row in rows]
    finally:
        conn.close()


class ApprovalBook(StoreSide):
    """The golem's side of the approvals table."""

    def open(self) -> list[ApprovalRow]:
        """The rows not yet settled (waiting or approved), oldest first."""
        rows = self._read(
            f"SELECT {_COLUMNS} FROM approvals WHERE status IN ('waiting', 'approved') ORDER BY id",
            (),
        ).fetchall()
        return [_row(row) for row in rows]

    def rows(self, ids: Sequence[int]) -> list[ApprovalRow]:
        """The rows of `ids` as they stand (an owner's answer included)."""
        marks = ", ".join("?" * len(ids))
        cursor = self._read(f"SELECT {_COLUMNS} FROM approvals WHERE id IN ({marks})", tuple(ids))
        return [_row(row) for row in cursor.fetchall()]

    def last_id(self) -> int:
        row = self._read("SELECT max(id) FROM approvals", ()).fetchone()
        return int(row[0] or 0)

    def hold(self, row: ApprovalRow) -> None:
        """A new held trade (in the tick's transaction)."""
        self._write(
            f"INSERT INTO approvals ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.id,
                self._iso(row.time),
                row.tick,
                row.action,
                row.size_usd,
                row.stake_usd,
                row.price,
                row.reason,
                self._iso(row.deadline),
                str(row.status),
                row.decided_by,
                None if row.decided_time is None else self._iso(row.decided_time),
                row.result,
            ),
        )

    def settle(self, row: ApprovalRow, was: Status) -> None:
        """Write `row`'s status, who decided and what came of it, over a row still in
        status `was` (the tick holds the write lock from its start, so an owner's answer
        commits before the tick reads the row or after the tick's own writes)."""
        self._write(
            "UPDATE approvals SET status = ?, decided_by = ?, decided_time = ?, result = ? "
            "WHERE id = ? AND status = ?",
            (
                str(row.status),
                row.decided_by,
                None if row.decided_time is None else self._iso(row.decided_time),
                row.result,
                row.id,
                str(was),
            ),
        )
