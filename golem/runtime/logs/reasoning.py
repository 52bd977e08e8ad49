"""A decision's reasoning chain as its log line keeps it: where it came from (provider,
model), what could be seen of it (visible, summarized or opaque; redacted blocks; signed),
its token count, and its text, whole up to `REASONING_TEXT_LIMIT` characters.

The text lives in the log line so that `golem inspect --decision ID` needs the log alone.
A longer chain keeps its first and last halves of the limit around a marker saying how
much was cut, with `text_chars` its whole length: the opening states the problem and the
end reaches the answer, and one line stays bounded (a 16k-token thinking budget writes
about 64,000 characters).
"""

from __future__ import annotations

from typing import Any

from golem.inference.reasoning import ReasoningChain, Visibility

__all__ = ["REASONING_TEXT_LIMIT", "reasoning_fields"]

REASONING_TEXT_LIMIT = 20_000  # characters of reasoning text a log line keeps


def reasoning_fields(chain: ReasoningChain) -> dict[str, Any] | None:
    """The chain's `reasoning` object for the log line; None when there was no reasoning."""
    if chain.visibility is Visibility.NONE:
        return None
    steps = chain.steps
    fields: dict[str, Any] = {
        "provider": chain.provider,
        "model": chain.model,
        "visibility": str(chain.visibility),
        "redacted": any(step.redacted_data is not None for step in steps),
        "signed": any(step.signature for step in steps),
        "steps": len(steps),
        "tokens": chain.reasoning_tokens,
    }
    if chain.interleaved:
        fields["interleaved"] = True
    text = chain.content
    if text:
        fields["text"] = _bounded(text)
        if len(text) > REASONING_TEXT_LIMIT:
            fields["text_chars"] = len(text)
    return fields


def _bounded(text: str) -> str:
    if len(text) <= REASONING_TEXT_LIMIT:
        return text
    half = REASONING_TEXT_LIMIT // 2
    cut = len(text) - 2 * half
    return f"{text[:half]}\n[… {cut:,} characters cut …]\n{text[-half:]}"
