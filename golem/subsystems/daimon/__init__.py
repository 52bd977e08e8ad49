"""Daimon: the golem's affect. Appraisals of notable events, the OCC rule table that
grounds them, and mood as a slow average of what it has felt."""

from golem.subsystems.daimon.decision import EMOTION_PAD, DaimonAppraisal, Emotion

__all__ = ["EMOTION_PAD", "DaimonAppraisal", "Emotion"]
