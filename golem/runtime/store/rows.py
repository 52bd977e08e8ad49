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

__all__ = ["Resumed", "VitalityRow"]


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
