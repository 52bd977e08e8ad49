"""The daimon subsystem: appraises the notable events of `ctx.events`, by model at T1 or
by the OCC rules, grounds a model's appraisal against the rules, and moves the mood. The
brief lists the events in words, and the trigger a model names is one of them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from golem.inference import ReasoningDepth, StructuredOutput
from golem.mortality import ModelTier, SubsystemName
from golem.subsystems.contract import Brief, Event, Input, Judge, Mood, Outcome, Situation
from golem.subsystems.daimon.decision import TRIGGER_LENGTH, DaimonAppraisal
from golem.subsystems.daimon.events import event_line, worded_events
from golem.subsystems.daimon.rules import AppraisalRules, appraise
from golem.world.feed import FeedItem

__all__ = ["Daimon", "DaimonConfig", "grounded", "trigger_choices"]


class DaimonConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rules: AppraisalRules = Field(default_factory=AppraisalRules)
    grounding_distance: float = Field(default=1.0, ge=0)  # PAD distance a model may stray
    mood_keep: float = Field(default=0.95, ge=0, le=1)  # the mood EMA's weight on the old
    tier: ModelTier = ModelTier.T1


_ROLE = (
    "You are the daimon: the golem's affect. Appraise the notable events below as "
    "pleasure, arousal and dominance in -1..1, a primary emotion (joy, sadness, fear, "
    "anger, surprise, disgust, trust or anticipation), optionally a secondary one, the "
    "trigger, the memories the feeling favours (memory_bias) and an intensity in 0..1. "
    "Pleasant emotions need pleasure >= 0, unpleasant ones pleasure <= 0."
)


def grounded(
    appraisal: DaimonAppraisal, rule: DaimonAppraisal, limit: float
) -> tuple[DaimonAppraisal, float]:
    """The appraisal to feel and its PAD distance from the rule's: a model's appraisal
    farther than `limit` from the rule result loses to it."""
    distance = _pad(appraisal).distance(_pad(rule))
    return (rule if distance > limit else appraisal), distance


class Daimon:
    """`Daimon(config)`: runs when the tick has notable events; skips otherwise."""

    def __init__(self, config: DaimonConfig) -> None:
        self.config = config

    @property
    def name(self) -> SubsystemName:
        return SubsystemName.DAIMON

    def decision_type(self, ctx: Situation) -> type[StructuredOutput]:
        return DaimonAppraisal

    def tier(self, ctx: Situation) -> ModelTier:
        return self.config.tier if ctx.events else ModelTier.T0

    def skip_reason(self, ctx: Situation) -> str | None:
        return None if ctx.events else "no notable event to appraise"

    def deliberation(self, ctx: Situation) -> ReasoningDepth | None:
        return None

    def judges(
        self, ctx: Situation, decision: StructuredOutput, feed: Sequence[FeedItem]
    ) -> tuple[Judge, ...]:
        return ()

    def brief(self, ctx: Situation) -> Brief:
        """The events in words (each with its own text after) and the rule table's reading;
        the trigger is one of the worded events (`choices`, for a decoder that constrains)."""
        rule = appraise(ctx.events, self.config.rules)
        hint = (
            f"The rule table reads this as {rule.primary_emotion} (pleasure {rule.pleasure:+.1f}, "
            f"arousal {rule.arousal:+.1f}, dominance {rule.dominance:+.1f}); say so if "
            "you agree, or appraise it better."
        )
        return Brief(
            _ROLE,
            f"{hint} Answer with a daimon_appraisal.",
            inputs=(Input("Events to appraise", tuple(event_line(e) for e in ctx.events)),),
            question=" ".join(map(str, ctx.events)),
            choices={"/trigger": trigger_choices(ctx.events)},
        )

    def deterministic(self, ctx: Situation) -> StructuredOutput:
        return appraise(ctx.events, self.config.rules)

    def act(self, ctx: Situation, decision: StructuredOutput) -> Outcome:
        if not isinstance(decision, DaimonAppraisal):
            raise TypeError(f"daimon acts on a DaimonAppraisal, not {type(decision).__name__}")
        rule = appraise(ctx.events, self.config.rules)
        felt, distance = grounded(decision, rule, self.config.grounding_distance)
        details: dict[str, Any] = {
            "primary_emotion": str(felt.primary_emotion),
            "intensity": felt.intensity,
            "pad": [felt.pleasure, felt.arousal, felt.dominance],
            "grounding_distance": round(distance, 4),
        }
        summary = f"{felt.primary_emotion} at {felt.intensity:.2f}"
        if felt is not decision:
            details |= {
                "grounding": "overridden",
                "model_emotion": str(decision.primary_emotion),
                "model_pad": [decision.pleasure, decision.arousal, decision.dominance],
            }
            summary += f" (rules over the model's {decision.primary_emotion})"
        mood = ctx.mood.blend(_pad(felt), felt.intensity, keep=self.config.mood_keep)
        return Outcome(summary=summary, mood=mood, details=details)


def trigger_choices(events: Sequence[Event]) -> tuple[str, ...]:
    """The triggers an appraisal of `events` may name: each event in words, as the brief
    lists it (cut to the field's length)."""
    return tuple(dict.fromkeys(words[:TRIGGER_LENGTH] for words in worded_events(events)))


def _pad(appraisal: DaimonAppraisal) -> Mood:
    return Mood(appraisal.pleasure, appraisal.arousal, appraisal.dominance)
