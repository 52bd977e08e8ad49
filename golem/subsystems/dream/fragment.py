"""FragmentEvaluation: the hypnagogic observer's judgement of one dream fragment (novel?
relevant? coherent?) and whether to promote it to staged knowledge, stage it for later or
discard it."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.subsystems.meaning import nonzero
from golem.subsystems.parts import Fraction
from golem.subsystems.text import Choices, decision_from_text, read_choice, read_fraction

__all__ = ["FragmentEvaluation", "FragmentVerdict", "fragment_meaningful"]

_FLOOR = 0.3  # a promoted fragment needs at least this coherence and relevance
_STRONG = 0.7  # a fragment this good on every score is not discarded


class FragmentVerdict(StrEnum):
    PROMOTE = "promote"
    STAGE = "stage"
    DISCARD = "discard"


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "Fragment: 'gas prices rise an hour before large liquidations'.",
        {"novelty": 0.7, "relevance": 0.6, "coherence": 0.5, "verdict": "stage"},
    ),
    WorkedExample(
        "Fragment: 'the moon rises when stablecoins depeg'.",
        {"novelty": 0.3, "relevance": 0.2, "coherence": 0.1, "verdict": "discard"},
    ),
)


class FragmentEvaluation(StructuredOutput):
    """The observer's verdict on one hypnagogic fragment."""

    schema_name = "fragment_evaluation"
    worked_examples = EXAMPLES

    novelty: Fraction = Field(default=0.5, description="0..1")
    relevance: Fraction = Field(default=0.5, description="0..1")
    coherence: Fraction = Field(default=0.5, description="0..1")
    verdict: FragmentVerdict

    def validate_content(self) -> list[SchemaIssue]:
        scores = (self.novelty, self.relevance, self.coherence)
        if self.verdict is FragmentVerdict.PROMOTE and min(self.coherence, self.relevance) < _FLOOR:
            return [SchemaIssue("/verdict", "promote needs coherence and relevance >= 0.3")]
        if self.verdict is FragmentVerdict.DISCARD and min(scores) >= _STRONG:
            return [SchemaIssue("/verdict", "discarding a fragment strong on every score")]
        return []

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


VERDICT = Choices(
    {
        FragmentVerdict.PROMOTE: r"promot\w*|worth (?:promoting|testing|acting on)",
        FragmentVerdict.STAGE: (
            r"stag\w*|incubat\w*|park\w*|revisit\w*|let it (?:sit|simmer)|sleep on it|"
            r"defer\w*|(?:keep|hold|save) (?:it |this )?(?:for later|in staging|on hold)|"
            r"for later|needs? more evidence|wait and see"
        ),
        FragmentVerdict.DISCARD: (
            r"discard\w*|drop\w*|reject\w*|dismiss\w*|throw (?:it )?(?:away|out)|"
            r"bin (?:it|this)|not worth keeping"
        ),
    },
    # Looser words, heard only where no plain one stands: "keep" alone is a promotion.
    paraphrases={
        FragmentVerdict.PROMOTE: r"keep\w*|kept|retain\w*|worth keeping|save it|adopt\w*",
        FragmentVerdict.DISCARD: r"(?:just |pure |mere )?noise|irrelevant|nonsense|gibberish",
    },
)


def _read(text: str) -> dict[str, Any]:
    verdict = read_choice(text, VERDICT, labels=(r"verdict|decision|recommendation|action",))
    if verdict is None:
        raise UnparseableOutput("no promote, stage or discard in the text", text=text)
    scores = {
        "novelty": read_fraction(text, r"novelty|novel|originality|new(?:ness)?"),
        "relevance": read_fraction(text, r"relevan\w*|usefulness|applicab\w*"),
        "coherence": read_fraction(
            text, r"coheren\w*|plausib\w*|credib\w*|consisten\w*", after=r"coheren\w*"
        ),
    }
    return {
        **{name: 0.5 if value is None else value for name, value in scores.items()},
        "verdict": verdict,
    }


def fragment_meaningful(decision: FragmentEvaluation, prompt: str) -> list[str]:
    """Scores that are not all zero (the verdict is an enum: always a word)."""
    scores = [decision.novelty, decision.relevance, decision.coherence]
    return nonzero(scores, "/novelty../coherence")
