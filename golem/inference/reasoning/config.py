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

    # Each provider's knob for this depth. Clamping to one model's accepted range (Gemini
    # 2.5 Pro takes 128 to 32768, Qwen's ceiling varies by model) is the codec's job.

    def budget_tokens(self) -> int:
        """The thinking budget in tokens: Anthropic's `budget_tokens` (0: thinking off).
        Also the allocator's bound on reasoning tokens when it prices a call."""
        return _BUDGET_TOKENS[self]

    def anthropic_budget_tokens(self) -> int:
        return self.budget_tokens()

    def openai_effort(self) -> str:
        """OpenAI `reasoning_effort` (Chat Completions) / `reasoning.effort` (Responses)."""
        return _OPENAI_EFFORT[self]

    def gemini_thinking_budget(self) -> int:
        """Gemini 2.5 `thinkingConfig.thinkingBudget`: 0 turns thinking off; MAX is 24576,
        the largest budget every 2.5 model accepts."""
        return min(self.budget_tokens(), _GEMINI_MAX_BUDGET)

    def gemini_thinking_level(self) -> str:
        """Gemini 3 `thinkingConfig.thinkingLevel`, which replaces the token budget."""
        return _GEMINI_LEVEL[self]

    def qwen_params(self) -> dict[str, bool | int]:
        """Qwen's `enable_thinking` and `thinking_budget` (the budget only when on)."""
        if self is ReasoningDepth.NONE:
            return {"enable_thinking": False}
        return {"enable_thinking": True, "thinking_budget": self.budget_tokens()}


_BUDGET_TOKENS = {
    ReasoningDepth.NONE: 0,
    ReasoningDepth.LOW: 1024,
    ReasoningDepth.MEDIUM: 4096,
    ReasoningDepth.HIGH: 16384,
    ReasoningDepth.MAX: 65536,
}
_OPENAI_EFFORT = {
    ReasoningDepth.NONE: "none",
    ReasoningDepth.LOW: "low",
    ReasoningDepth.MEDIUM: "medium",
    ReasoningDepth.HIGH: "high",
    ReasoningDepth.MAX: "xhigh",
}
_GEMINI_MAX_BUDGET = 24576
_GEMINI_LEVEL = {
    ReasoningDepth.NONE: "minimal",
    ReasoningDepth.LOW: "low",
    ReasoningDepth.MEDIUM: "medium",
    ReasoningDepth.HIGH: "high",
    ReasoningDepth.MAX: "high",
}


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
