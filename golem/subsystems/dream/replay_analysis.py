"""ReplayAnalysis: NREM replay of recent episodes (the latest named), the lessons it draws
(with the conditions, such as a market regime, they hold in), how surprising it was, the
counterfactuals it imagines and how it moves arousal; and how it reads free text."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Self

from pydantic import Field, field_validator

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.subsystems.meaning import has_words, known_ids, nonzero
from golem.subsystems.parts import Fraction, Part, Signed, repeats
from golem.subsystems.text import (
    Choices,
    Degree,
    clip,
    decision_from_text,
    items,
    labelled,
    listed,
    read_choice,
    read_count,
    read_fraction,
    read_signed,
    section,
    strip_meta,
)

__all__ = [
    "Counterfactual",
    "Lesson",
    "MarketRegime",
    "ReplayAnalysis",
    "regime_of",
    "replay_meaningful",
]

MAX_EPISODES = 1000


class MarketRegime(StrEnum):
    """The world's regimes (golem.world's Regime): a lesson's applicable condition that
    names one holds in that regime; a lesson with none holds in any."""

    CALM = "calm"
    TRENDING = "trending"
    VOLATILE = "volatile"
    CRASH = "crash"


# A lesson's applicable_conditions is one text, as the seed defines it ("" where it holds
# in any market); an answer that gives a list of conditions is read as their text joined by
# ", ". (No docstring: a Part's docstring would be the schema's description for the model.)
class Lesson(Part):
    insight: str = Field(min_length=1, max_length=200)
    confidence: Fraction = Field(default=0.5, description="0..1")
    applicable_conditions: str = Field(
        default="",
        max_length=320,
        description="where it holds, e.g. a regime: calm, trending, volatile or crash",
    )

    @field_validator("applicable_conditions", mode="before")
    @classmethod
    def _join_a_list(cls, value: object) -> object:
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return ", ".join(item.strip() for item in value if item.strip())
        return value


class Counterfactual(Part):
    alternative_action: str = Field(min_length=1, max_length=120)
    estimated_outcome: str = Field(default="", max_length=160)
    plausibility: Fraction = Field(default=0.5, description="0..1")


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "Episodes to replay:\n"
        "- #4 tick 30: buy (confidence 0.60) → pnl -3.00, price -3.00% against +1.00% predicted\n"
        "- #5 tick 50: hold (confidence 0.50) → pnl +1.00, price +2.00% against +0.50% predicted",
        {
            "episode_id": "5",
            "lessons": [
                {
                    "insight": "a buy against a -3.00% move lost 3.00 in pnl",
                    "confidence": 0.6,
                    "applicable_conditions": "volatile markets after a shock",
                }
            ],
            "surprise_score": 0.4,
            "counterfactuals": [
                {
                    "alternative_action": "hold instead of buy at tick 30",
                    "estimated_outcome": "pnl near 0.00 instead of -3.00",
                    "plausibility": 0.5,
                }
            ],
            "arousal_delta": 0.1,
            "episodes_reviewed": 2,
        },
    ),
    WorkedExample(
        "Episodes to replay:\n"
        "- #17 tick 200: hedge (confidence 0.80) → pnl +2.50, price -4.00% against -3.00% "
        "predicted",
        {
            "episode_id": "17",
            "lessons": [
                {
                    "insight": "hedging before a forecast fall of 3% saved 2.50",
                    "confidence": 0.7,
                    "applicable_conditions": "trending markets with momentum",
                }
            ],
            "surprise_score": 0.2,
            "counterfactuals": [
                {
                    "alternative_action": "no hedge at tick 200",
                    "estimated_outcome": "a loss of about 4.00",
                    "plausibility": 0.7,
                }
            ],
            "arousal_delta": -0.1,
            "episodes_reviewed": 1,
        },
    ),
)


class ReplayAnalysis(StructuredOutput):
    """What replaying recent episodes taught."""

    schema_name = "replay_analysis"
    worked_examples = EXAMPLES

    episode_id: str = Field(max_length=40, description="the episode replayed (the latest)")
    lessons: list[Lesson] = Field(default_factory=list, max_length=5)
    surprise_score: Fraction = Field(default=0.0, description="0..1: how unexpected it was")
    counterfactuals: list[Counterfactual] = Field(default_factory=list, max_length=5)
    arousal_delta: Signed = Field(default=0.0, description="-1..1: how it moves arousal")
    episodes_reviewed: int = Field(default=1, ge=0, le=MAX_EPISODES)

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        if self.episodes_reviewed == 0 and (self.lessons or self.counterfactuals):
            issues.append(
                SchemaIssue("/episodes_reviewed", "lessons drawn from no episode reviewed")
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
    }
)


def regime_of(lesson: Lesson) -> MarketRegime | None:
    """The regime the lesson's conditions settle on, if any."""
    return REGIME.pick(lesson.applicable_conditions) if lesson.applicable_conditions else None


_META = r"confidence|conf|regime|conditions?|plausib\w*|likel\w*|probab\w*"
_EPISODE = re.compile(
    r"\bepisode(?:\s+#?|\s*#)(?P<number>[\w-]*\d[\w-]*)|(?P<token>\bep[-_#]?\d[\w-]*)"
    r"|#(?P<tag>\w*\d\w*)",
    re.I,
)
_PUNCTUATION = " :,=>→–—-"
_IF_HAD = re.compile(r"^if (?:we|i) had\s+(?P<action>[^,]+),\s*(?P<outcome>.+)$", re.I)
_OUTCOME = re.compile(
    r"\s*(?:→|->|=>|\bwould have\b|\bcould have\b|\boutcome\b\W*|\bresult\b\W*)\s*", re.I
)


_LESSON = r"lessons?|insights?|learn\w*|takeaways?"
# Surprise in words, where no number gives it (see text.Degree).
SURPRISE = Degree(
    {
        r"surpris\w*|unexpected\w*|astonish\w*": 0.6,
        r"shock\w*|stunn\w*|blindsid\w*|caught \w+ off guard|out of (?:nowhere|the blue)": 0.85,
        r"unsurprising\w*|as expected|(?:as|like) (?:planned|predicted|forecast)|predictabl\w*|"
        r"routine|uneventful": 0.1,
    }
)


def _read(text: str) -> dict[str, Any]:
    lessons = [_lesson(item) for item in listed(text, _LESSON, limit=5, max_chars=400)]
    counterfactuals = [
        c
        for c in (
            _counterfactual(i)
            for i in _section_items(text, r"^(?:counterfactuals?|what ifs?|alternatives?)")
        )
        if c is not None
    ]
    reviewed = read_count(text, r"episodes?|replay\w*|review\w*")
    episode = _EPISODE.search(next(labelled(text, r"episode[ _]?id|episode"), ""))
    episode = episode or _EPISODE.search(text)
    surprise = read_fraction(text, r"surpris\w*(?:[ _]score)?|unexpected\w*", after=r"surpris\w*")
    if surprise is None:
        surprise = SURPRISE.read(text)
    if (
        reviewed is None
        and episode is None
        and surprise is None
        and not (lessons or counterfactuals)
    ):
        raise UnparseableOutput(
            "no episodes, lessons, counterfactuals or surprise in the text", text=text
        )
    arousal = read_signed(text, r"arousal(?:[ _]delta)?")
    return {
        "episode_id": clip(_episode_id(episode), 40) if episode else "",
        "lessons": lessons[:5],
        "surprise_score": 0.0 if surprise is None else surprise,
        "counterfactuals": counterfactuals[:5],
        "arousal_delta": 0.0 if arousal is None else arousal,
        "episodes_reviewed": 1 if reviewed is None else reviewed,
    }


def _episode_id(match: re.Match[str]) -> str:
    return match["number"] or match["token"] or match["tag"]


def _section_items(text: str, heading: str) -> list[str]:
    return items(section(text, heading) or "", limit=5, max_chars=400)


def _lesson(item: str) -> Lesson:
    confidence = read_fraction(item, r"confidence|conf", after=r"confiden\w*|sure")
    regime = read_choice(item, REGIME, labels=(r"regime|condition\w*",), use_prose=True)
    return Lesson(
        insight=clip(strip_meta(item, _META) or item, 200),
        confidence=0.5 if confidence is None else confidence,
        applicable_conditions="" if regime is None else regime.value,
    )


def _counterfactual(item: str) -> Counterfactual | None:
    """`ep-17: hedge instead of holding → about 3% saved (plausibility 0.6)`."""
    plausibility = read_fraction(item, _META, after=r"plausib\w*|likely|probab\w*")
    item = strip_meta(item, _META)
    episode = _EPISODE.search(item)
    if episode is not None:  # the episode it imagines otherwise: not part of the action
        item = (item[: episode.start()] + item[episode.end() :]).strip(_PUNCTUATION)
    conditional = _IF_HAD.match(item)
    if conditional is not None:
        action, outcome = conditional["action"], conditional["outcome"]
    else:
        action, outcome = (*_OUTCOME.split(item, maxsplit=1), "")[:2]
    if not action.strip(_PUNCTUATION):
        return None
    return Counterfactual(
        alternative_action=clip(action.strip(_PUNCTUATION), 120),
        estimated_outcome=clip(outcome.strip(_PUNCTUATION), 160),
        plausibility=0.5 if plausibility is None else plausibility,
    )


def replay_meaningful(decision: ReplayAnalysis, prompt: str) -> list[str]:
    """The episode one the prompt names, some episodes reviewed, at least one lesson in a
    sentence, conditions and counterfactuals in words."""
    problems = known_ids([decision.episode_id], prompt, "/episode_id")
    problems += nonzero([decision.episodes_reviewed], "/episodes_reviewed")
    if not decision.lessons:
        problems.append("/lessons: empty")
    for i, lesson in enumerate(decision.lessons):
        problems += has_words(lesson.insight, f"/lessons/{i}/insight", 3)
        if lesson.applicable_conditions:
            problems += has_words(lesson.applicable_conditions, f"/lessons/{i}/conditions", 1)
    for i, counterfactual in enumerate(decision.counterfactuals):
        problems += has_words(counterfactual.alternative_action, f"/counterfactuals/{i}/action", 2)
        problems += has_words(counterfactual.estimated_outcome, f"/counterfactuals/{i}/outcome", 2)
    return problems
