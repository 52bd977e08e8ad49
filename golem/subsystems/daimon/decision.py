"""DaimonAppraisal: the PAD vector (pleasure, arousal, dominance in -1..1) a notable event
evokes, its primary (and secondary) Plutchik emotion, the memories the feeling favours, its
intensity, and how it reads free text."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.inference.narrow import either, keywords
from golem.subsystems.meaning import has_words, nonzero
from golem.subsystems.parts import Fraction, Signed
from golem.subsystems.text import (
    Choices,
    clip,
    decision_from_text,
    labelled,
    read_choice,
    read_fraction,
    read_signed,
)

__all__ = [
    "EMOTION_PAD",
    "MEMORY_BIAS",
    "TRIGGER_LENGTH",
    "DaimonAppraisal",
    "Emotion",
    "daimon_meaningful",
]


class Emotion(StrEnum):
    JOY = "joy"
    SADNESS = "sadness"
    FEAR = "fear"
    ANGER = "anger"
    SURPRISE = "surprise"
    DISGUST = "disgust"
    TRUST = "trust"
    ANTICIPATION = "anticipation"


# Each emotion's typical (pleasure, arousal, dominance), after Mehrabian; joy and surprise
# as in the OCC table of DESIGN.md. Free text that names only an emotion gets these.
EMOTION_PAD: dict[Emotion, tuple[float, float, float]] = {
    Emotion.JOY: (0.6, 0.3, 0.5),
    Emotion.SADNESS: (-0.5, -0.3, -0.3),
    Emotion.FEAR: (-0.5, 0.7, -0.5),
    Emotion.ANGER: (-0.5, 0.6, 0.4),
    Emotion.SURPRISE: (-0.2, 0.7, -0.3),
    Emotion.DISGUST: (-0.6, 0.3, 0.3),
    Emotion.TRUST: (0.5, -0.1, 0.3),
    Emotion.ANTICIPATION: (0.2, 0.4, 0.1),
}
# What each emotion makes the golem recall first (mood-congruent memory): the memory_bias
# of the rules' appraisals, and of free text that names none.
MEMORY_BIAS: dict[Emotion, str] = {
    Emotion.JOY: "past gains and the choices behind them",
    Emotion.SADNESS: "losses and mistakes",
    Emotion.FEAR: "threats, drawdowns and forced exits",
    Emotion.ANGER: "plans that were blocked",
    Emotion.SURPRISE: "broken predictions and regime shifts",
    Emotion.DISGUST: "strategies that went bad",
    Emotion.TRUST: "heuristics that held up",
    Emotion.ANTICIPATION: "setups like the one forming",
}
_PLEASANT = frozenset({Emotion.JOY, Emotion.TRUST})
_UNPLEASANT = frozenset({Emotion.SADNESS, Emotion.FEAR, Emotion.ANGER, Emotion.DISGUST})
_VALENCE_SLACK = 0.1
TRIGGER_LENGTH = 120  # the longest trigger: an event in words


# Shown to a small model (a provider whose capabilities ask for worked examples). Each
# memory_bias recalls the event its trigger names, so the two show one pattern: with the
# second recalling another part of its situation ("the market swung 4% each way"), the
# embedded model copied that text in 16 of 56 answers over seven situations.
EXAMPLES = (
    WorkedExample(
        "A hedge paid off: the position lost 1% while the market fell 5%.",
        {
            "pleasure": 0.6,
            "arousal": 0.3,
            "dominance": 0.5,
            "primary_emotion": "trust",
            "secondary_emotion": "joy",
            "trigger": "a hedge paid off while the market fell 5%",
            "memory_bias": "recall when a hedge paid off in a falling market",
            "intensity": 0.5,
        },
    ),
    WorkedExample(
        "A stop-loss fired twice in an hour while the market swung 4% each way.",
        {
            "pleasure": -0.6,
            "arousal": 0.7,
            "dominance": -0.4,
            "primary_emotion": "anger",
            "secondary_emotion": "fear",
            "trigger": "a stop-loss fired twice in an hour",
            "memory_bias": "recall when a stop-loss fired in a choppy market",
            "intensity": 0.7,
        },
    ),
)


class DaimonAppraisal(StructuredOutput):
    """How the golem feels about one event."""

    schema_name = "daimon_appraisal"
    worked_examples = EXAMPLES

    pleasure: Signed = Field(description="-1 (unpleasant) .. 1 (pleasant)")
    arousal: Signed = Field(description="-1 (calm) .. 1 (agitated)")
    dominance: Signed = Field(description="-1 (helpless) .. 1 (in control)")
    primary_emotion: Emotion = Field(description="a Plutchik emotion")
    secondary_emotion: Emotion | None = None
    trigger: str = Field(default="", max_length=TRIGGER_LENGTH, description="the event appraised")
    memory_bias: str = Field(
        default="", max_length=160, description="which memories this feeling brings forward"
    )
    intensity: Fraction = Field(default=0.5, description="0..1: how far it moves the mood")

    @classmethod
    def narrowed_schema(cls, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """A pleasant emotion with pleasure not below zero, an unpleasant one with pleasure
        not above it (each within the slack), or another emotion with any pleasure."""
        pleasant = [e.value for e in Emotion if e in _PLEASANT]
        unpleasant = [e.value for e in Emotion if e in _UNPLEASANT]
        other = [e.value for e in Emotion if e not in _PLEASANT | _UNPLEASANT]
        return either(
            schema,
            {
                "/pleasure": keywords(minimum=-_VALENCE_SLACK),
                "/primary_emotion": keywords(enum=pleasant),
            },
            {
                "/pleasure": keywords(maximum=_VALENCE_SLACK),
                "/primary_emotion": keywords(enum=unpleasant),
            },
            {"/primary_emotion": keywords(enum=other)},
        )

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        emotion = self.primary_emotion
        if emotion in _PLEASANT and self.pleasure < -_VALENCE_SLACK:
            issues.append(SchemaIssue("/pleasure", f"{emotion} needs pleasure >= 0"))
        if emotion in _UNPLEASANT and self.pleasure > _VALENCE_SLACK:
            issues.append(SchemaIssue("/pleasure", f"{emotion} needs pleasure <= 0"))
        if self.secondary_emotion is emotion:
            issues.append(SchemaIssue("/secondary_emotion", "repeats the primary emotion"))
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


EMOTION = Choices(
    {
        Emotion.JOY: r"joy\w*|happ\w*|pleased|glad|elat\w*|delight\w*|satisf\w*|relie\w*",
        Emotion.SADNESS: (
            r"sad\w*|disappoint\w*|regret\w*|sorrow\w*|grie\w*|dejected|gloom\w*|melanchol\w*"
        ),
        Emotion.FEAR: (
            r"fear\w*|afraid|anxi\w*|worr\w*|scared|nervous|dread\w*|panic\w*|alarm\w*|uneas\w*"
        ),
        Emotion.ANGER: r"anger|angry|frustrat\w*|annoy\w*|irritat\w*|furious|rage|resent\w*",
        Emotion.SURPRISE: r"surpris\w*|shock\w*|startl\w*|astonish\w*|unexpected",
        Emotion.DISGUST: r"disgust\w*|revuls\w*|repuls\w*|distaste|aversion",
        Emotion.TRUST: r"trust\w*|secure|assured|reassur\w*",
        Emotion.ANTICIPATION: (
            r"anticipat\w*|expectant|expectation|eager\w*|hopeful|vigilan\w*|curio\w*"
        ),
    }
)
_EMOTION_LABELS = (r"(?:primary |dominant |main )?(?<!secondary )emotion|feeling|affect|mood",)
_SECONDARY_LABELS = (r"secondary(?: emotion)?",)
_PAD_TRIPLE = re.compile(
    r"\bPAD[^\w+\-−]{0,6}(?P<p>[-+−]?\d*\.?\d+)\s*[,/;]\s*(?P<a>[-+−]?\d*\.?\d+)\s*[,/;]\s*"
    r"(?P<d>[-+−]?\d*\.?\d+)",
    re.I,
)
_PAD_LABELS = {
    "pleasure": r"pleasure|valence|p(?=\s*[:=])",
    "arousal": r"arousal|activation|a(?=\s*[:=])",
    "dominance": r"dominance|control|d(?=\s*[:=])",
}
_MILD = re.compile(r"\b(?:slightly|mildly|somewhat|a bit|a little|faintly)\W+$", re.I)
_STRONG = re.compile(
    r"\b(?:very|extremely|deeply|intensely|highly|really|strongly|profoundly)\W+$", re.I
)


def _read(text: str) -> dict[str, Any]:
    emotion = read_choice(text, EMOTION, labels=_EMOTION_LABELS)
    secondary = read_choice(text, EMOTION, labels=_SECONDARY_LABELS, use_prose=False)
    if emotion is None:
        raise UnparseableOutput("no emotion named in the text", text=text)
    fields: dict[str, Any] = dict(zip(_PAD_LABELS, EMOTION_PAD[emotion], strict=True))
    triple = _PAD_TRIPLE.search(text)
    if triple is not None:
        values = (float(triple[k].replace("−", "-")) for k in "pad")
        fields.update(zip(_PAD_LABELS, values, strict=True))
    else:
        for name, label in _PAD_LABELS.items():
            value = read_signed(text, label)
            if value is not None:
                fields[name] = value
    trigger = next(labelled(text, r"trigger|event|cause|in response to", whole_line=True), "")
    bias = next(labelled(text, r"memory[ _]bias|recall|memories", whole_line=True), None)
    return {
        **fields,
        "primary_emotion": emotion,
        "secondary_emotion": secondary if secondary is not emotion else None,
        "trigger": clip(trigger, TRIGGER_LENGTH),
        "memory_bias": clip(bias, 160) if bias else MEMORY_BIAS[emotion],
        "intensity": _intensity(text, emotion),
    }


def _intensity(text: str, emotion: Emotion) -> float:
    """A stated intensity, else the adverb before the emotion's word ("mildly anxious")."""
    stated = read_fraction(text, r"intensity|strength|magnitude")
    if stated is not None:
        return stated
    for mention in EMOTION.mentions(text):
        if mention.choice is emotion and not mention.negated:
            before = text[max(0, mention.start - 20) : mention.start]
            if _MILD.search(before):
                return 0.3
            if _STRONG.search(before):
                return 0.8
            break
    return 0.5


def daimon_meaningful(decision: DaimonAppraisal, prompt: str) -> list[str]:
    """The event and the memories it brings named in words; a feeling that is not nil on
    every axis."""
    problems = has_words(decision.trigger, "/trigger", 2)
    problems += has_words(decision.memory_bias, "/memory_bias", 2)
    axes = [decision.pleasure, decision.arousal, decision.dominance, decision.intensity]
    return problems + nonzero(axes, "/pleasure../intensity")
