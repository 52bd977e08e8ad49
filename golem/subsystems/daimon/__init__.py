"""Daimon: the golem's affect. Appraisals of notable events, the OCC rule table that
grounds them, and mood as a slow average of what it has felt."""

from golem.subsystems.daimon.decision import EMOTION_PAD, DaimonAppraisal, Emotion
from golem.subsystems.daimon.rules import (
    DEFAULT_RULES,
    Appraisal,
    AppraisalRules,
    Event,
    appraise,
    parse_event,
)
from golem.subsystems.daimon.subsystem import Daimon, DaimonConfig, grounded

__all__ = [
    "DEFAULT_RULES",
    "EMOTION_PAD",
    "Appraisal",
    "AppraisalRules",
    "Daimon",
    "DaimonAppraisal",
    "DaimonConfig",
    "Emotion",
    "Event",
    "appraise",
    "grounded",
    "parse_event",
]
