"""The daimon's OCC rule table: from a notable event to an emotion, its PAD vector and an
intensity. It is the deterministic appraisal and the ground a model's appraisal is checked
against. Events are the contract's Event, a kind and a size (e.g. Event("trade_loss",
0.062), said in words by golem.subsystems.daimon.events); an appraisal's trigger is the
event in words, as the brief lists it to a model, so a rule's appraisal and a model's
read alike."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from golem.subsystems.contract import Mood
from golem.subsystems.daimon.decision import (
    MEMORY_BIAS,
    TRIGGER_LENGTH,
    DaimonAppraisal,
    Emotion,
)
from golem.subsystems.daimon.events import Event, worded

__all__ = ["DEFAULT_RULES", "Appraisal", "AppraisalRules", "Event", "appraise"]


class Appraisal(BaseModel):
    """One row of the table: the emotion an event evokes, as PAD, and how strongly."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    emotion: Emotion
    pad: tuple[float, float, float]
    intensity: float = Field(ge=0, le=1)

    @property
    def mood(self) -> Mood:
        return Mood(*self.pad)


# OCC: an outcome's desirability to the golem's goals gives joy or distress, a prospect's
# gives hope or fear, an unexpected one surprise. Each row is a Plutchik emotion with a PAD
# after Mehrabian; joy, surprise and the unknown row are DESIGN.md's.
DEFAULT_RULES: Mapping[str, Appraisal] = {
    # a realised gain: joy, in control
    "trade_profit": Appraisal(emotion=Emotion.JOY, pad=(0.6, 0.3, 0.5), intensity=0.5),
    # a loss beyond the fear threshold threatens the golem's life: fear, helpless
    "trade_loss_large": Appraisal(emotion=Emotion.FEAR, pad=(-0.5, 0.7, -0.5), intensity=0.7),
    # a small loss is an undesirable outcome, not a threat: sadness, low arousal
    "trade_loss": Appraisal(emotion=Emotion.SADNESS, pad=(-0.5, -0.3, -0.3), intensity=0.4),
    "regime_shift": Appraisal(emotion=Emotion.SURPRISE, pad=(-0.2, 0.7, -0.3), intensity=0.6),
    # its own model of the market failed: surprise with less sense of control
    "prediction_miss": Appraisal(emotion=Emotion.SURPRISE, pad=(-0.3, 0.6, -0.4), intensity=0.5),
    # a prediction borne out: trust in its own judgement
    "prediction_hit": Appraisal(emotion=Emotion.TRUST, pad=(0.4, -0.1, 0.4), intensity=0.3),
    # risk refused what it wanted: frustration, an agent-blame emotion (anger), mild
    "trade_blocked": Appraisal(emotion=Emotion.ANGER, pad=(-0.3, 0.4, 0.1), intensity=0.3),
    # The golem's own record held it back: less control than risk's veto (dominance down).
    "trade_gated": Appraisal(emotion=Emotion.SADNESS, pad=(-0.2, 0.1, -0.2), intensity=0.25),
    # Its stated confidence proved far from its accuracy (Bardo: a large calibration error
    # lowers dominance): less sure of its own judgement, not alarmed.
    "calibration_gap": Appraisal(emotion=Emotion.SADNESS, pad=(-0.1, 0.1, -0.4), intensity=0.3),
    # a lending position near liquidation: a prospect of harm
    "health_warning": Appraisal(emotion=Emotion.FEAR, pad=(-0.4, 0.6, -0.4), intensity=0.6),
    # vitality falling toward the end: the strongest fear, the least control
    "death_approach": Appraisal(emotion=Emotion.FEAR, pad=(-0.6, 0.6, -0.7), intensity=0.8),
    # a phase lost, money running out: sadness rather than alarm
    "phase_decline": Appraisal(emotion=Emotion.SADNESS, pad=(-0.4, -0.2, -0.4), intensity=0.5),
    "phase_recovery": Appraisal(emotion=Emotion.JOY, pad=(0.5, 0.2, 0.4), intensity=0.4),
    # the first tick: a life ahead and a wallet full, looking forward
    "birth": Appraisal(emotion=Emotion.ANTICIPATION, pad=(0.3, 0.4, 0.2), intensity=0.5),
    "unknown": Appraisal(emotion=Emotion.ANTICIPATION, pad=(0.0, 0.1, 0.0), intensity=0.2),
}


class AppraisalRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    table: Mapping[str, Appraisal] = Field(default_factory=lambda: dict(DEFAULT_RULES))
    fear_loss: float = Field(default=0.05, ge=0)  # a trade_loss above this is trade_loss_large

    @model_validator(mode="after")
    def _has_unknown(self) -> Self:
        if "unknown" not in self.table:
            raise ValueError("the rule table needs an 'unknown' row for unlisted events")
        return self


def _row(event: Event, rules: AppraisalRules) -> tuple[str, Appraisal]:
    kind = event.kind
    if kind == "trade_loss" and event.magnitude is not None and event.magnitude > rules.fear_loss:
        kind = "trade_loss_large"
    if kind not in rules.table:
        kind = "unknown"
    return kind, rules.table[kind]


def appraise(events: Iterable[Event], rules: AppraisalRules) -> DaimonAppraisal:
    """The rule appraisal of the most intense of `events` (the first on a tie); an empty
    list is the unknown row."""
    best: tuple[Event, Appraisal] | None = None
    for event in events:
        _, row = _row(event, rules)
        if best is None or row.intensity > best[1].intensity:
            best = (event, row)
    if best is None:
        best = (Event("unknown"), rules.table["unknown"])
    event, row = best
    pleasure, arousal, dominance = row.pad
    return DaimonAppraisal(
        pleasure=pleasure,
        arousal=arousal,
        dominance=dominance,
        primary_emotion=row.emotion,
        trigger=worded(event)[:TRIGGER_LENGTH],
        memory_bias=MEMORY_BIAS[row.emotion],
        intensity=row.intensity,
    )
