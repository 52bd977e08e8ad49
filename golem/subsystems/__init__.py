"""The six subsystems: heartbeat, daimon, risk, curator, dream, death.

Importing this package registers their nine decision schemas (see `golem schemas`).
"""

from golem.subsystems.curator import CuratorEvaluation
from golem.subsystems.daimon import DaimonAppraisal
from golem.subsystems.death import DeathTestament
from golem.subsystems.dream import (
    DreamIntegration,
    FragmentEvaluation,
    ReplayAnalysis,
    ThreatAssessment,
)
from golem.subsystems.heartbeat import HeartbeatDecision
from golem.subsystems.risk import RiskAssessment

DECISIONS = (
    HeartbeatDecision,
    DaimonAppraisal,
    RiskAssessment,
    CuratorEvaluation,
    ReplayAnalysis,
    FragmentEvaluation,
    DreamIntegration,
    ThreatAssessment,
    DeathTestament,
)

__all__ = [
    "DECISIONS",
    "CuratorEvaluation",
    "DaimonAppraisal",
    "DeathTestament",
    "DreamIntegration",
    "FragmentEvaluation",
    "HeartbeatDecision",
    "ReplayAnalysis",
    "RiskAssessment",
    "ThreatAssessment",
]
