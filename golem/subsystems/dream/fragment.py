"""FragmentEvaluation: the hypnagogic observer's judgement of one dream fragment (novel?
plausible? relevant?) and whether to keep it, let it incubate or discard it."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput
from golem.subsystems.parts import Fraction
from golem.subsystems.text import (
    Choices,
    clip,
    decision_from_text,
    labelled,
    read_choice,
    read_fraction,
    section,
)

__all__ = ["FragmentEvaluation", "FragmentVerdict"]

_FLOOR = 0.3  # a kept fragment needs at least this plausibility and relevance
_STRONG = 0.7  # a fragment this good on every score is not discarded


class FragmentVerdict(StrEnum):
    KEEP = "keep"
    INCUBATE = "incubate"
    DISCARD = "discard"


class FragmentEvaluation(StructuredOutput):
    """The observer's verdict on one hypnagogic fragment."""

    schema_name = "fragment_evaluation"

    fragment: str = Field(default="", max_length=200, description="the fragment, restated")
    novelty: Fraction = Field(default=0.5, description="0..1")
    plausibility: Fraction = Field(default=0.5, description="0..1")
    relevance: Fraction = Field(default=0.5, description="0..1")
    verdict: FragmentVerdict
    reasoning: str = Field(default="", max_length=300)

    def validate_content(self) -> list[SchemaIssue]:
        scores = (self.novelty, self.plausibility, self.relevance)
        if self.verdict is FragmentVerdict.KEEP and min(self.plausibility, self.relevance) < _FLOOR:
            return [SchemaIssue("/verdict", "keep needs plausibility and relevance >= 0.3")]
        if self.verdict is FragmentVerdict.DISCARD and min(scores) >= _STRONG:
            return [SchemaIssue("/verdict", "discarding a fragment strong on every score")]
        return []

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


VERDICT = Choices(
    {
        FragmentVerdict.KEEP: r"keep\w*|kept|retain\w*|worth keeping|save it",
        FragmentVerdict.INCUBATE: (
            r"incubat\w*|park\w*|revisit\w*|let it (?:sit|simmer)|sleep on it|defer\w*"
        ),
        FragmentVerdict.DISCARD: (
            r"discard\w*|drop\w*|reject\w*|dismiss\w*|throw (?:it )?(?:away|out)|just noise"
        ),
    }
)
_QUOTED = re.compile(r"\"([^\"\n]{3,200})\"")


def _read(text: str) -> dict[str, Any]:
    verdict = read_choice(text, VERDICT, labels=(r"verdict|decision|recommendation|action",))
    if verdict is None:
        raise UnparseableOutput("no keep, incubate or discard in the text", text=text)
    fragment = next(labelled(text, r"fragment|idea|image|dream", whole_line=True), None)
    if fragment is None:
        quoted = _QUOTED.search(text)
        fragment = quoted[1] if quoted else ""
    scores = {
        "novelty": read_fraction(text, r"novelty|novel|originality|new(?:ness)?"),
        "plausibility": read_fraction(text, r"plausib\w*|credib\w*", after=r"plausib\w*"),
        "relevance": read_fraction(text, r"relevan\w*|usefulness|applicab\w*"),
    }
    reasoning = section(text, r"^(?:reasoning|rationale|why|explanation)$")
    return {
        **{name: 0.5 if value is None else value for name, value in scores.items()},
        "fragment": clip(fragment.strip(" .\"'"), 200),
        "verdict": verdict,
        "reasoning": clip(reasoning or text, 300),
    }
