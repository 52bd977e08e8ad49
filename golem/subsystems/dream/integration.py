"""DreamIntegration: what a dream cycle hands to the grimoire; each candidate is promoted,
staged for more evidence or discarded, with a confidence and where it came from."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput
from golem.subsystems.parts import Fraction, Part
from golem.subsystems.text import (
    Choices,
    assign_sections,
    bracketed_fraction,
    clip,
    decision_from_text,
    items,
    read_fraction,
    section,
    strip_meta,
)

__all__ = ["DreamIntegration", "IntegrationDecision", "IntegrationItem"]

_PROMOTE_FLOOR = 0.5


class IntegrationDecision(StrEnum):
    PROMOTE = "promote"
    STAGE = "stage"
    DISCARD = "discard"


class IntegrationItem(Part):
    content: str = Field(min_length=1, max_length=200)
    decision: IntegrationDecision
    confidence: Fraction = Field(default=0.5, description="0..1")
    source: str = Field(default="", max_length=60, description="e.g. replay, fragment, threat")


class DreamIntegration(StructuredOutput):
    """The dream's candidates for the grimoire and what becomes of each."""

    schema_name = "dream_integration"

    items: list[IntegrationItem] = Field(default_factory=list, max_length=8)
    summary: str = Field(default="", max_length=300)

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        seen: set[str] = set()
        for i, item in enumerate(self.items):
            if item.decision is IntegrationDecision.PROMOTE and item.confidence < _PROMOTE_FLOOR:
                issues.append(SchemaIssue(f"/items/{i}/confidence", "promote needs >= 0.5"))
            key = item.content.strip().lower()
            if key in seen:
                issues.append(SchemaIssue(f"/items/{i}/content", "a repeated item"))
            seen.add(key)
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


_DECISION_WORDS = {
    IntegrationDecision.PROMOTE: r"promot\w*|commit\w*|adopt\w*",
    IntegrationDecision.STAGE: r"stag\w*|pending|hold|provisional\w*|needs? more evidence",
    IntegrationDecision.DISCARD: r"discard\w*|drop\w*|reject\w*|dismiss\w*",
}
DECISION = Choices(_DECISION_WORDS)
_META = r"confidence|conf|source|from"
_SOURCE = re.compile(
    r"(?:\bsource\b|\bfrom\b)\s*[:=]?\s*(?P<source>[\w -]{2,60}?)\s*(?:[)\],;]|$)"
    r"|\[(?P<tag>[\w -]{2,60})\]",
    re.I,
)
_NOTHING = re.compile(r"\bnothing\b|\bno (?:items|insights|candidates)\b", re.I)
_LEADING_DECISION = re.compile(rf"^(?:{'|'.join(_DECISION_WORDS.values())})\b\s*[:=–—-]?\s*", re.I)


def _read(text: str) -> dict[str, Any]:
    grouped = assign_sections(text, {d.value: rf"^(?:{w})\b" for d, w in _DECISION_WORDS.items()})
    found: list[IntegrationItem] = []
    for decision in IntegrationDecision:
        for line in items(grouped.get(decision.value, ""), limit=8, max_chars=400):
            found.append(_item(line, decision))
    if not found:
        body = section(text, r"^(?:items|candidates|integration\w*)$") or text
        for line in items(body, limit=8, max_chars=400):
            picked = DECISION.pick(line)
            if picked is not None:
                found.append(_item(line, picked))
    if not found and not _NOTHING.search(text):
        raise UnparseableOutput("no items to promote, stage or discard in the text", text=text)
    summary = section(text, r"^(?:summary|overview)$")
    return {"items": found[:8], "summary": clip(summary or text, 300)}


def _item(line: str, decision: IntegrationDecision) -> IntegrationItem:
    """`PROMOTE: funding flips precede reversals (0.8) [replay]`."""
    confidence = read_fraction(line, r"confidence|conf")
    if confidence is None:
        confidence = bracketed_fraction(line)
    source = _SOURCE.search(line)
    content = _LEADING_DECISION.sub("", strip_meta(re.sub(r"\[[^\]]*\]", "", line), _META))
    return IntegrationItem(
        content=clip(content or line, 200),
        decision=decision,
        confidence=0.5 if confidence is None else confidence,
        source=clip((source["source"] or source["tag"]) if source else "", 60),
    )
