"""DeathTestament: Thanatopsis' life review (what the golem learned, got wrong, was
confused by, never tested, what killed it, what it would change, what it suspects, the
causal links it believes, its emotional arc and the arc's class); and its text reader."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Self

from pydantic import Field, StringConstraints

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.subsystems.meaning import has_words, items_have_words
from golem.subsystems.parts import Fraction, Part
from golem.subsystems.text import (
    Choices,
    assign_sections,
    bracketed_fraction,
    clip,
    decision_from_text,
    items,
    labelled,
    read_choice,
    read_fraction,
    strip_meta,
)

__all__ = ["ArcClass", "CausalLink", "DeathTestament", "death_meaningful"]

Entry = Annotated[str, StringConstraints(min_length=1, max_length=200)]
_LIST = 6


class ArcClass(StrEnum):
    """The life story's shape (McAdams): bad turned good, good turned bad, steady gain,
    steady loss, or no real turn."""

    REDEMPTIVE = "redemptive"
    CONTAMINATING = "contaminating"
    PROGRESSIVE = "progressive"
    TRAGIC = "tragic"
    STABLE = "stable"


class CausalLink(Part):
    cause: str = Field(min_length=1, max_length=120)
    effect: str = Field(min_length=1, max_length=120)
    confidence: Fraction = Field(default=0.5, description="0..1")


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "Credits ran out on day 9; most were spent on strong-model calls in calm markets.",
        {
            "learned": ["calm markets rarely need strong-model calls"],
            "got_wrong": ["I spent credits on strong-model calls in calm markets"],
            "confused_by": ["why calm markets felt risky"],
            "never_tested": ["cheaper calls in calm markets"],
            "killed_by": "credits ran out on day 9",
            "would_change": ["fewer strong-model calls in calm markets"],
            "suspects": ["strong-model calls spent the credits"],
            "causal_links": [
                {"cause": "strong-model calls", "effect": "credits ran out", "confidence": 0.8}
            ],
            "emotional_arc": "eager at first, then anxious as the credits ran out",
            "arc_class": "tragic",
        },
    ),
    WorkedExample(
        "Lived 40 days; steady hedges kept losses small until fees wore the credits down.",
        {
            "learned": ["steady hedges kept losses small"],
            "got_wrong": ["fees wore the credits down"],
            "confused_by": ["whether frequent hedges pay for themselves"],
            "never_tested": ["holding through a small dip without a hedge"],
            "killed_by": "fees wore the credits down after 40 days",
            "would_change": ["hedge less often in quiet weeks"],
            "suspects": ["fees on the steady hedges"],
            "causal_links": [
                {
                    "cause": "steady hedges",
                    "effect": "fees wore the credits down",
                    "confidence": 0.6,
                }
            ],
            "emotional_arc": "steady for 40 days, then worn down by fees",
            "arc_class": "stable",
        },
    ),
)


class DeathTestament(StructuredOutput):
    """The golem's life review, written as it dies."""

    schema_name = "death_testament"
    worked_examples = EXAMPLES

    learned: list[Entry] = Field(default_factory=list, max_length=_LIST)
    got_wrong: list[Entry] = Field(default_factory=list, max_length=_LIST)
    confused_by: list[Entry] = Field(default_factory=list, max_length=_LIST)
    never_tested: list[Entry] = Field(default_factory=list, max_length=_LIST)
    killed_by: str = Field(min_length=1, max_length=200)
    would_change: list[Entry] = Field(default_factory=list, max_length=_LIST)
    suspects: list[Entry] = Field(default_factory=list, max_length=_LIST)
    causal_links: list[CausalLink] = Field(default_factory=list, max_length=_LIST)
    emotional_arc: str = Field(default="", max_length=300)
    arc_class: ArcClass = ArcClass.STABLE

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        if not (self.learned or self.got_wrong):
            issues.append(SchemaIssue("/learned", "a life review names a lesson or a mistake"))
        for i, link in enumerate(self.causal_links):
            if link.cause.strip().lower() == link.effect.strip().lower():
                issues.append(SchemaIssue(f"/causal_links/{i}/effect", "a cause of itself"))
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


# Checked in this order, so "cause of death" is killed_by and "causal links" is not.
_HEADINGS = {
    "causal_links": r"causal|cause.{0,5}effect|chains?",
    "killed_by": r"kill|cause of death|death|died|demise",
    "arc_class": r"arc[ _-]?(?:class|type)|class of (?:the )?arc|narrative (?:class|type)",
    "emotional_arc": r"emotion|arc|feel|journey",
    "got_wrong": r"wrong|mistake|errors?",
    "never_tested": r"never tested|untested|not tested|never tried",
    "confused_by": r"confus|puzzl|unclear|mystif",
    "would_change": r"chang|differently|next time|advice",
    "suspects": r"suspect|hunch",
    "learned": r"learn|lessons?",
}
# Free prose, one sentence at a time: "I learned that...", "I never tested...".
_PROSE = {
    "learned": r"\bi (?:have )?learn(?:ed|t)(?: that)?\s+(?P<x>.+)",
    "got_wrong": r"\b(?:i was wrong (?:about|to)|my (?:biggest )?mistake was)\s+(?P<x>.+)",
    "confused_by": r"\b(?:i was )?(?:confused|puzzled) by\s+(?P<x>.+)",
    "never_tested": r"\bi never (?:tested|tried)\s+(?P<x>.+)",
    "would_change": r"\b(?:i would|i'd) (?:change|do differently)[:,]?\s+(?P<x>.+)",
    "suspects": r"\bi suspect(?: that)?\s+(?P<x>.+)",
}
_LISTS = ("learned", "got_wrong", "confused_by", "never_tested", "would_change", "suspects")
_KILLED = r"killed[ _]by|cause of death|what killed me|died (?:of|from|because of)"
_LINK = re.compile(
    r"\s*(?:→|->|=>|⇒|\bled to\b|\bleads to\b|\bcaused\b|\bcauses\b|\bresulted in\b|"
    r"\bresults in\b)\s*",
    re.I,
)
_ARC_NAMES = {arc: arc.value for arc in ArcClass}
ARC = Choices(
    _ARC_NAMES,
    paraphrases={
        ArcClass.REDEMPTIVE: r"redempt\w*|redeem\w*",
        ArcClass.CONTAMINATING: r"contaminat\w*|soured|spoiled",
        ArcClass.PROGRESSIVE: r"progress\w*|steady (?:gain|growth|improvement)",
        ArcClass.TRAGIC: r"tragedy|doomed|downfall|(?:steady )?decline",
        ArcClass.STABLE: r"steady|flat|even",
    },
)
# In free prose only the class names themselves: "even" and "steady" name other things.
ARC_NAMED = Choices(_ARC_NAMES)


def _read(text: str) -> dict[str, Any]:
    found = assign_sections(text, _HEADINGS)
    lists = {name: items(found.get(name, ""), limit=_LIST, max_chars=200) for name in _LISTS}
    for name, pattern in _PROSE.items():
        lists[name] = lists[name] or _prose_items(text, pattern)
    killed_by = found.get("killed_by") or next(labelled(text, _KILLED), "")
    link_items = items(found.get("causal_links", ""), limit=_LIST, max_chars=300)
    links = [link for link in map(_link, link_items) if link is not None]
    if not (killed_by or links or any(lists.values())):
        raise UnparseableOutput("no part of a life review in the text", text=text)
    arc_text = found.get("emotional_arc", "")
    arc_class = (
        ARC.pick(found.get("arc_class", ""))
        or read_choice(text, ARC, labels=(r"arc|story|life",), use_prose=False)
        or ARC.pick(arc_text)
        or ARC_NAMED.pick(text)
        or ArcClass.STABLE
    )
    # A list of phases reads as one arc; a sentence stays as written.
    phases = items(arc_text, limit=8, max_chars=80) if "\n" in arc_text.strip() else []
    return {
        **lists,
        "killed_by": clip(killed_by.split("\n", 1)[0].rstrip(" ."), 200) or "unknown",
        "causal_links": links,
        "emotional_arc": clip(" → ".join(phases) if len(phases) > 1 else arc_text, 300),
        "arc_class": arc_class,
    }


def _prose_items(text: str, pattern: str) -> list[str]:
    compiled = re.compile(pattern, re.I)
    sentences = re.split(r"(?<=[.!?])\s+|\n", text)
    matches = (compiled.search(sentence) for sentence in sentences)
    return [clip(m["x"].rstrip(". "), 200) for m in matches if m][:_LIST]


def _link(item: str) -> CausalLink | None:
    """`thin liquidity → slippage on exit (0.8)`, `funding flips led to losses`."""
    confidence = read_fraction(item, r"confidence|conf|certainty")
    if confidence is None:
        confidence = bracketed_fraction(item)
    parts = _LINK.split(
        strip_meta(re.sub(r"\([^)]*\d[^)]*\)", "", item), r"confidence|conf|certainty"), maxsplit=1
    )
    if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
        return None
    return CausalLink(
        cause=clip(parts[0], 120),
        effect=clip(parts[1].rstrip(". "), 120),
        confidence=0.5 if confidence is None else confidence,
    )


def death_meaningful(decision: DeathTestament, prompt: str) -> list[str]:
    """What killed it said in a sentence, something learned, every list item a phrase,
    the causal links in words."""
    problems = has_words(decision.killed_by, "/killed_by", 3)
    problems += items_have_words(decision.learned, "/learned", some=True)
    for name in ("got_wrong", "confused_by", "never_tested", "would_change", "suspects"):
        problems += items_have_words(getattr(decision, name), f"/{name}")
    for i, link in enumerate(decision.causal_links):
        problems += has_words(link.cause, f"/causal_links/{i}/cause", 2)
        problems += has_words(link.effect, f"/causal_links/{i}/effect", 2)
    return problems + has_words(decision.emotional_arc, "/emotional_arc", 3)
