"""How deep a call may reason: a depth on one scale that every codec maps to its own knob."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

__all__ = ["ReasoningConfig", "ReasoningDepth"]


class ReasoningDepth(IntEnum):
    NONE = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    MAX = 4

    def downgrade(self) -> ReasoningDepth:
        """One level shallower; NONE stays NONE."""
        return ReasoningDepth(max(0, self - 1))


@dataclass(frozen=True, slots=True)
class ReasoningConfig:
    depth: ReasoningDepth = ReasoningDepth.NONE
    visible: bool = False  # ask the provider to return the reasoning text or a summary
    interleaved: bool = False  # allow reasoning between tool calls

    @property
    def enabled(self) -> bool:
        return self.depth is not ReasoningDepth.NONE

    @classmethod
    def none(cls) -> ReasoningConfig:
        return cls()

    @classmethod
    def low(cls) -> ReasoningConfig:
        return cls(ReasoningDepth.LOW)

    @classmethod
    def medium(cls) -> ReasoningConfig:
        return cls(ReasoningDepth.MEDIUM)

    @classmethod
    def high(cls) -> ReasoningConfig:
        return cls(ReasoningDepth.HIGH)

    @classmethod
    def visible_max(cls) -> ReasoningConfig:
        return cls(ReasoningDepth.MAX, visible=True)

    @classmethod
    def interleaved_max(cls) -> ReasoningConfig:
        return cls(ReasoningDepth.MAX, visible=True, interleaved=True)

    @classmethod
    def interleaved_high(cls) -> ReasoningConfig:
        return cls(ReasoningDepth.HIGH, visible=True, interleaved=True)
