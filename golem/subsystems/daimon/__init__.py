"""Daimon: the golem's affect. Appraisals of notable events, the OCC rule table that
grounds them, and mood as a slow average of what it has felt."""

from golem.subsystems.daimon.decision import EMOTION_PAD, DaimonAppraisal, Emotion
from golem.subsystems.daimon.events import WORDING, event_line, worded
from golem.subsystems.daimon.rules import (
    DEFAULT_RULES,
    Appraisal,
    AppraisalRules,
    Event,
    appraise,
)
from golem.subsystems.daimon.subsystem import Daimon, DaimonConfig, grounded, trigger_choices

__all__ = [
    "DEFAULT_RULES",
    "EMOTION_PAD",
    "WORDING",
    "Appraisal",
    "AppraisalRules",
    "Daimon",
    "DaimonAppraisal",
    "DaimonConfig",
    "Emotion",
    "Event",
    "appraise",
    "event_line",
    "grounded",
    "trigger_choices",
    "worded",
]
