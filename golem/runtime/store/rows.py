"""The plain rows the state store reads and writes beside the domain types it reuses
(Episode, GrimoireEntry, Mood, Charge), and `Resumed`, what a restarted daemon picks up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from operator import eq
from typing import Any

import numpy as np
from msgspec import Struct

from golem.subsystems.contract import GrimoireEntry, Mood
from golem.world import Episode

__all__ = ["Resumed", "VitalityRow", "iso_texts", "vitality_values"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def iso_texts(times: Sequence[datetime]) -> list[str]:
    """`moment.astimezone(UTC).isoformat()` of each aware time, in bulk: numpy's ISO text
    of the same microsecond, to the second when it is whole, and UTC's offset (a quiet
    stretch stores hundreds at once; ~0.5 against ~1.3 µs each). The last times' texts
    are kept: a stretch's parts store the same ticks' times (the ledger's, the vitality
    rows'), and comparing them is ~20 times cheaper than writing them."""
    seen, written = _LAST[0]
    n = len(times)
    if n <= len(seen) and all(map(eq, times, seen)):
        return written[:n]
    try:
        micros = np.array([(t - _EPOCH) // _MICROSECOND for t in times], dtype=np.int64)
    except TypeError:
        raise ValueError("stored times must be timezone-aware") from None
    stamps = micros.astype("datetime64[us]")
    whole = micros % 1_000_000 == 0
    texts = np.datetime_as_string(stamps, unit="s")
    if not whole.all():
        texts = np.where(whole, texts, np.datetime_as_string(stamps, unit="us"))
    made = [text + "+00:00" for text in texts.tolist()]
    _LAST[0] = (list(times), made)
    return made[:]


_LAST: list[tuple[list[datetime], list[str]]] = [([], [])]  # iso_texts' last times, texts


class VitalityRow(Struct, frozen=True):
    """One tick's vitality and the two clock levels it came from."""

    tick: int
    time: datetime
    vitality: float
    phase: str
    economic: float
    epistemic: float

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> VitalityRow:
        tick, time, vitality, phase, economic, epistemic = row
        return cls(tick, datetime.fromisoformat(time), vitality, phase, economic, epistemic)


@dataclass(frozen=True, slots=True)
class Resumed:
    """A golem's state as a restarted daemon finds it. `tick` is the next tick to run."""

    tick: int
    initial_credits: float | None
    credits: float
    vitality: VitalityRow | None
    mood: Mood | None
    grimoire: tuple[GrimoireEntry, ...]
    portfolio: dict[str, Any] | None
    episodes: tuple[Episode, ...]
    fire_times: dict[str, datetime]
    death: dict[str, Any] | None


def vitality_values(rows: Sequence[VitalityRow]) -> list[tuple[Any, ...]]:
    """The vitality table's values of `rows`, their times stamped as the store stamps them."""
    texts = iso_texts([row.time for row in rows])
    return [
        (row.tick, text, row.vitality, row.phase, row.economic, row.epistemic)
        for row, text in zip(rows, texts, strict=True)
    ]
