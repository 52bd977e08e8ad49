"""ReplayAnalysis: NREM replay of recent episodes, the lessons it draws (with the market
regime they hold in) and the counterfactuals it imagines, and how it reads free text."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput
from golem.subsystems.parts import Fraction, Part, repeats
from golem.subsystems.text import (
    Choices,
    clip,
    decision_from_text,
    items,
    read_choice,
    read_count,
    read_fraction,
    section,
    strip_meta,
)

__all__ = ["Counterfactual", "Lesson", "MarketRegime", "ReplayAnalysis"]

MAX_EPISODES = 1000


class MarketRegime(StrEnum):
    """The world's regimes (golem.world's Regime) and `any` for a lesson that always holds."""

    CALM = "calm"
    TRENDING = "trending"
    VOLATILE = "volatile"
    CRASH = "crash"
    ANY = "any"


class Lesson(Part):
    insight: str = Field(min_length=1, max_length=200)
    confidence: Fraction = Field(default=0.5, description="0..1")
    regime: MarketRegime = MarketRegime.ANY


class Counterfactual(Part):
    episode_id: str = Field(max_length=40)
    alternative_action: str = Field(min_length=1, max_length=120)
    estimated_outcome: str = Field(default="", max_length=160)
    plausibility: Fraction = Field(default=0.5, description="0..1")


class ReplayAnalysis(StructuredOutput):
    """What replaying recent episodes taught."""

    schema_name = "replay_analysis"

    episodes_reviewed: int = Field(ge=0, le=MAX_EPISODES)
    lessons: list[Lesson] = Field(default_factory=list, max_length=5)
    counterfactuals: list[Counterfactual] = Field(default_factory=list, max_length=5)
    summary: str = Field(default="", max_length=300)

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        if self.episodes_reviewed == 0 and (self.lessons or self.counterfactuals):
            issues.append(
                SchemaIssue("/episodes_reviewed", "lessons drawn from no episode reviewed")
            )
        episodes = {c.episode_id for c in self.counterfactuals}
        if len(episodes) > self.episodes_reviewed > 0:
            issues.append(
                SchemaIssue("/counterfactuals", "counterfactuals for more episodes than reviewed")
            )
        insights = (lesson.insight.strip().lower() for lesson in self.lessons)
        issues += repeats("/lessons", insights, "/insight", "a repeated lesson")
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


REGIME = Choices(
    {
        MarketRegime.CALM: r"calm|quiet|low[- ]vol\w*|range[- ]?bound|sideways|ranging",
        MarketRegime.TRENDING: r"trend\w*|bull\w*|bear\w*|momentum",
        MarketRegime.VOLATILE: r"volatil\w*|chop\w*|whipsaw\w*",
        MarketRegime.CRASH: r"crash\w*|capitulat\w*|collaps\w*|cascade\w*",
        MarketRegime.ANY: r"any|all regimes|every regime|general\w*|always",
    }
)
_META = r"confidence|conf|regime|plausib\w*|likel\w*|probab\w*"
_EPISODE = re.compile(
    r"\bepisode\s*#?(?P<number>[\w-]+)|(?P<token>\bep[-_#]?\d[\w-]*)|#(?P<tag>\w+)", re.I
)
_PUNCTUATION = " :,=>→–—-"
_IF_HAD = re.compile(r"^if (?:we|i) had\s+(?P<action>[^,]+),\s*(?P<outcome>.+)$", re.I)
_OUTCOME = re.compile(
    r"\s*(?:→|->|=>|\bwould have\b|\bcould have\b|\boutcome\b\W*|\bresult\b\W*)\s*", re.I
)


def _read(text: str) -> dict[str, Any]:
    lessons = [
        _lesson(item)
        for item in _section_items(text, r"^(?:lessons?|insights?|learn\w*|takeaways?)")
    ]
    counterfactuals = [
        c
        for c in (
            _counterfactual(i)
            for i in _section_items(text, r"^(?:counterfactuals?|what ifs?|alternatives?)")
        )
        if c is not None
    ]
    reviewed = read_count(text, r"episodes?|replay\w*|review\w*")
    if reviewed is None and not (lessons or counterfactuals):
        raise UnparseableOutput("no episodes, lessons or counterfactuals in the text", text=text)
    if reviewed is None:
        reviewed = max(1, len({c.episode_id for c in counterfactuals}))
    summary = section(text, r"^(?:summary|overview)$")
    return {
        "episodes_reviewed": reviewed,
        "lessons": lessons[:5],
        "counterfactuals": counterfactuals[:5],
        "summary": clip(summary or text, 300),
    }


def _section_items(text: str, heading: str) -> list[str]:
    return items(section(text, heading) or "", limit=5, max_chars=400)


def _lesson(item: str) -> Lesson:
    confidence = read_fraction(item, r"confidence|conf", after=r"confiden\w*|sure")
    regime = read_choice(item, REGIME, labels=(r"regime",), use_prose=True)
    return Lesson(
        insight=clip(strip_meta(item, _META) or item, 200),
        confidence=0.5 if confidence is None else confidence,
        regime=regime or MarketRegime.ANY,
    )


def _counterfactual(item: str) -> Counterfactual | None:
    """`ep-17: hedge instead of holding → about 3% saved (plausibility 0.6)`."""
    plausibility = read_fraction(item, _META, after=r"plausib\w*|likely|probab\w*")
    item = strip_meta(item, _META)
    episode = _EPISODE.search(item)
    episode_id = ""
    if episode is not None:
        episode_id = episode["number"] or episode["token"] or episode["tag"]
        item = (item[: episode.start()] + item[episode.end() :]).strip(_PUNCTUATION)
    conditional = _IF_HAD.match(item)
    if conditional is not None:
        action, outcome = conditional["action"], conditional["outcome"]
    else:
        action, outcome = (*_OUTCOME.split(item, maxsplit=1), "")[:2]
    if not action.strip(_PUNCTUATION):
        return None
    return Counterfactual(
        episode_id=clip(episode_id, 40),
        alternative_action=clip(action.strip(_PUNCTUATION), 120),
        estimated_outcome=clip(outcome.strip(_PUNCTUATION), 160),
        plausibility=0.5 if plausibility is None else plausibility,
    )
