"""What a golem's state says of its past, for a dashboard opened on a golem that lived
before this process started (a restarted daemon): its vitality readings, at most
`at_most` spread evenly over the whole life (the last included), each with the credits
then (the initial credits and the income credited by then, less every charge made by then,
summed exactly) and the asset's price at the last episode before it; and the spend by
subsystem, every charge's. Equity and burn are not kept per tick: those readings carry none.

Read once, when the status endpoint is made. One pass over the charges and the episodes:
O(charges + episodes + readings)."""

from __future__ import annotations

import bisect
import math
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from golem.runtime.store.ledger import ExactSum

__all__ = ["Past", "read_past"]


@dataclass(frozen=True, slots=True)
class Past:
    """`readings`: (time ISO, tick, fields as a vitality record's, price) oldest first;
    `spend_usd`: every charge summed by subsystem."""

    readings: list[tuple[str, int, dict[str, Any], float | None]]
    spend_usd: dict[str, float]


Read = Callable[[str, tuple[Any, ...]], sqlite3.Cursor]


def read_past(read: Read, at_most: int) -> Past:
    """The past kept in the state that `read` queries."""
    lo, hi, count = read("SELECT MIN(tick), MAX(tick), COUNT(*) FROM vitality", ()).fetchone()
    rows = []
    if count:
        step = max(1, math.ceil(count / at_most))
        rows = read(
            "SELECT tick, time, vitality, phase, economic, epistemic FROM vitality"
            " WHERE (tick - ?) % ? = 0 OR tick = ? ORDER BY tick",
            (lo, step, hi),
        ).fetchall()
    credits = ExactSum(usd for (usd,) in read("SELECT usd FROM wallet WHERE kind = 'initial'", ()))
    # (time, +usd) for income, (time, −usd) for a charge, in time order: the credits at a
    # reading are the initial credits plus every movement made by its time.
    moves = read(
        "SELECT time, usd FROM wallet WHERE kind = 'income'"
        " UNION ALL SELECT time, -usd FROM charges ORDER BY 1",
        (),
    ).fetchall()
    spend: dict[str, ExactSum] = {}
    for subsystem, usd in read("SELECT subsystem, usd FROM charges", ()):
        spend.setdefault(subsystem, ExactSum()).add(usd)
    prices = sorted(
        (datetime.fromisoformat(time), price)
        for time, price in read(
            "SELECT json_extract(data, '$.observation.time'),"
            " json_extract(data, '$.observation.price') FROM episodes",
            (),
        )
    )
    price_times = [time for time, _ in prices]
    readings = []
    moved = 0
    for tick, time, vitality, phase, economic, epistemic in rows:
        at = datetime.fromisoformat(time)
        while moved < len(moves) and datetime.fromisoformat(moves[moved][0]) <= at:
            credits.add(moves[moved][1])
            moved += 1
        seen = bisect.bisect_right(price_times, at) - 1
        fields = {
            "vitality": vitality,
            "phase": phase,
            "economic": economic,
            "epistemic": epistemic,
            "credits_usd": credits.value,
        }
        readings.append((at.isoformat(), tick, fields, prices[seen][1] if seen >= 0 else None))
    return Past(readings, {name: total.value for name, total in sorted(spend.items())})
