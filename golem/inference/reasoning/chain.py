"""ReasoningChain: one shape for a model's reasoning, whatever the provider sent.

Anthropic thinking blocks, inline <think> tags, OpenAI reasoning summaries, Gemini thought
parts and token counts all become a ReasoningChain on the Response.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["ReasoningChain", "ReasoningCost", "ReasoningStep", "Visibility"]


class Visibility(StrEnum):
    VISIBLE = "visible"  # the reasoning text itself
    SUMMARIZED = "summarized"  # a provider-written summary of it
    OPAQUE = "opaque"  # it happened (tokens were spent) but its text is hidden or encrypted
    NONE = "none"  # no reasoning


@dataclass(frozen=True, slots=True)
class ReasoningStep:
    """One block of reasoning, in the order it arrived."""

    text: str
    visibility: Visibility = Visibility.VISIBLE
    signature: str | None = None  # Anthropic signature / Gemini thoughtSignature
    # Encrypted payload: of a redacted block (Anthropic), or the encrypted_content of an
    # OpenAI Responses reasoning item (kept on the item's first step).
    redacted_data: str | None = None
    # The answer part a signature came with, when not with this step's own text (Gemini
    # signs the part after its thoughts): "text", or "tool_call:<id>". A signature goes
    # back to its provider on that same part.
    part: str | None = None
    # The provider's id of the output item this step was decoded from (OpenAI Responses
    # "rs_..."): the summary parts of one item share it, so the item goes back whole.
    item_id: str | None = None
    # The other fields of the OpenRouter `reasoning_details` entry this step was decoded
    # from (its type, id, format, index, ... as received; its text, summary or data and its
    # signature are the step's own): the entry goes back to its provider rebuilt from both.
    detail: Mapping[str, Any] | None = None
    # The plain message field this step's text came in (Chat Completions'
    # `reasoning_content`, `reasoning`), not a reasoning_details entry or `<think>` tags:
    # the text goes back under it to a vendor that requires it (DeepSeek, with tool calls).
    field: str | None = None


@dataclass(frozen=True, slots=True)
class ReasoningCost:
    """How reasoning tokens are billed by the provider."""

    billed_as_output: bool = True
    discount_factor: float = 1.0
    usd: float = 0.0


@dataclass(frozen=True, slots=True)
class ReasoningChain:
    provider: str = ""
    model: str = ""
    visibility: Visibility = Visibility.NONE
    content: str = ""
    reasoning_tokens: int = 0
    interleaved: bool = False  # reasoning between tool calls, not only before the answer
    steps: tuple[ReasoningStep, ...] = field(default_factory=tuple)
    cost: ReasoningCost = field(default_factory=ReasoningCost)

    @classmethod
    def empty(cls, provider: str = "", model: str = "") -> ReasoningChain:
        return cls(provider=provider, model=model)
