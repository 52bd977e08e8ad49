"""The plain rows the state store reads and writes beside the domain types it reuses
(Episode, GrimoireEntry, Mood, Charge), and `Resumed`, what a restarted daemon picks up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from msgspec import Struct

from golem.subsystems.contract import GrimoireEntry, Mood
from golem.world import Episode

__all__ = ["DecisionRow", "Resumed", "VitalityRow"]


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


class DecisionRow(Struct, frozen=True):
    """The index entry of one decision; `log_offset` is where its line starts in the log
    file, when the writer knows it, and `summary` a short text for listings."""

    tick: int
    time: datetime
    subsystem: str
    source: str
    tier: str
    cost_usd: float
    summary: str = ""
    log_offset: int | None = None

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> DecisionRow:
        tick, time, subsystem, source, tier, cost, summary, offset = row
        return cls(
            tick, datetime.fromisoformat(time), subsystem, source, tier, cost, summary, offset
        )


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
