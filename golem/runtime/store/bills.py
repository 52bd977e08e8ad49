"""Charges that must outlive the transaction they were recorded in.

A tick's charges commit with the tick. But the call behind a charge was made and billed
the moment the provider answered: when the tick then rolls back (a job that raised, a
daemon killed before its commit), the provider's bill stands while the ledger row goes.
So every charge recorded inside a transaction is also appended to a journal file beside
the database (`golem.bills`, one JSON line a charge, written before the transaction can
end), which the outermost commit removes. So is each attempt of a call as the provider
answers it (`hold(..., attempt=True)`), before the call's charge sums them: a kill between
two re-asks leaves the bills of those answered. What a rollback undid comes back as a
voided charge (a call's charge, else the sum of its attempts held): at once when the
rollback happens in the process, from the journal when the store is next opened after a
kill (`StateStore.settle_bills`). A voided charge is the same charge under its own key
(`<key>:void:<entry>`), so that the run, asked again, is charged for its new call too,
and settling twice records nothing twice.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from golem.inference.types import Usage
from golem.mortality import Charge, SubsystemName
from golem.runtime.store.ledger import SQLiteLedger

__all__ = ["BILLS_NAME", "BillJournal", "JournaledLedger", "voided"]

BILLS_NAME = "golem.bills"


def voided(entry: str, charge: Charge) -> Charge:
    """`charge` again, for a call whose tick rolled back: under a key of its own."""
    return replace(charge, idempotency_key=f"{charge.idempotency_key}:void:{entry}")


class BillJournal:
    """The journal file of charges not yet committed, and which transaction level holds
    each (`level`: how many transactions were open when it was recorded). With `file`
    False the charges are held in memory only, for a rollback in the process: a store
    that batches its commits is not one a killed process resumes (its batch is lost)."""

    def __init__(self, path: Path, *, durable: bool = True, file: bool = True) -> None:
        self.path = path
        self._durable = durable  # fsync each line, as the database syncs each commit
        self._file = file
        self._held: dict[int, list[_Held]] = {}  # by level
        self._written = False  # a line was written since the file was last removed

    def hold(self, charge: Charge, level: int, *, attempt: bool = False) -> None:
        """Keep `charge` until the transaction at `level` and those around it commit;
        `attempt`: one attempt's bill, which the call's charge under the same key (when
        it comes) replaces."""
        entry = uuid.uuid4().hex[:16]
        if self._file:
            value = {"entry": entry, "charge": _fields(charge), "attempt": attempt}
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, orjson.dumps(value) + b"\n")
                if self._durable:
                    os.fsync(fd)
            finally:
                os.close(fd)
            self._written = True
        self._held.setdefault(level, []).append((entry, charge, attempt))

    def released(self, level: int) -> None:
        """The transaction at `level` + 1 committed: what it held now belongs to the
        one around it, or, at level 0, is committed and leaves the journal."""
        if level == 0:
            self._held.clear()
            if self._written:  # else the file was removed already (one call less a tick)
                self.path.unlink(missing_ok=True)
                self._written = False
            return
        if self._held:
            for deeper in [held for held in self._held if held > level]:
                self._held.setdefault(level, []).extend(self._held.pop(deeper))

    def rolled_back(self, level: int) -> list[Charge]:
        """The transactions above `level` rolled back: the charges they held, voided."""
        if not self._held:
            return []
        undone: list[_Held] = []
        for deeper in sorted(held for held in self._held if held > level):
            undone.extend(self._held.pop(deeper))
        return billed(undone) if undone else []

    def left(self) -> list[Charge]:
        """What the file holds (a process killed before its commit left it), voided:
        entries whose line is whole (a kill may tear the last one)."""
        try:
            text = self.path.read_bytes()
        except FileNotFoundError:
            return []
        entries: list[_Held] = []
        for line in text.split(b"\n"):
            try:
                value = orjson.loads(line)
                entry = (str(value["entry"]), _charge(value["charge"]), bool(value["attempt"]))
            except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                continue  # the torn last line
            entries.append(entry)
        return billed(entries)


_Held = tuple[str, Charge, bool]  # (entry, charge, an attempt's bill)


def billed(entries: list[_Held]) -> list[Charge]:
    """What `entries` bill, voided: each call's charge, or, for a call whose charge was
    never recorded, the sum of its attempts' bills (as the charge would have been)."""
    charged = {c.idempotency_key for _, c, attempt in entries if not attempt}
    sums: dict[str, tuple[str, Charge]] = {}  # per call: its first entry, its bills' sum
    for entry, bill, attempt in entries:
        key = bill.idempotency_key
        if not attempt or key in charged:
            continue
        first, total = sums.get(key, (entry, None))
        if total is not None:
            bill = replace(total, tokens=total.tokens + bill.tokens, usd=total.usd + bill.usd)  # noqa: PLW2901
        sums[key] = (first, bill)
    charges = [voided(e, c) for e, c, attempt in entries if not attempt]
    return charges + [voided(e, c) for e, c in sums.values()]


class JournaledLedger(SQLiteLedger):
    """The store's ledger: a charge newly recorded inside a transaction is also held in
    the journal (`level()` says how many transactions are open)."""

    def __init__(
        self,
        conn: Any,
        journal: BillJournal,
        level: Callable[[], int],
        before_use: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(conn, before_use=before_use)
        self.journal = journal
        self._level = level

    def record(self, charge: Charge) -> Charge:
        stored = super().record(charge)
        level = self._level()
        if stored is charge and level:
            self.journal.hold(charge, level)
        return stored


def _fields(charge: Charge) -> dict[str, Any]:
    tokens = charge.tokens
    return {
        "key": charge.idempotency_key,
        "subsystem": str(charge.subsystem),
        "provider": charge.provider,
        "model": charge.model,
        "tokens": [
            tokens.input_tokens,
            tokens.cached_input_tokens,
            tokens.output_tokens,
            tokens.reasoning_tokens,
        ],
        "usd": charge.usd,
        "diem": charge.diem,
        "time": charge.time.isoformat(),
    }


def _charge(value: dict[str, Any]) -> Charge:
    return Charge(
        subsystem=SubsystemName(value["subsystem"]),
        provider=str(value["provider"]),
        model=str(value["model"]),
        tokens=Usage(*(int(n) for n in value["tokens"])),
        usd=float(value["usd"]),
        diem=float(value["diem"]),
        time=datetime.fromisoformat(value["time"]),
        idempotency_key=str(value["key"]),
    )
