"""Dream: offline consolidation when the golem can afford it. NREM replay of episodes,
hypnagogic fragments, integration into the grimoire, and threat rehearsal."""

from golem.subsystems.dream.fragment import FragmentEvaluation, FragmentVerdict
from golem.subsystems.dream.integration import (
    DreamIntegration,
    IntegrationDecision,
    IntegrationItem,
)
from golem.subsystems.dream.replay_analysis import (
    Counterfactual,
    Lesson,
    MarketRegime,
    ReplayAnalysis,
)
from golem.subsystems.dream.scenes import DreamConfig, DreamKind
from golem.subsystems.dream.subsystem import Dream
from golem.subsystems.dream.threat import ThreatAssessment, ThreatSeverity

__all__ = [
    "Counterfactual",
    "Dream",
    "DreamConfig",
    "DreamIntegration",
    "DreamKind",
    "FragmentEvaluation",
    "FragmentVerdict",
    "IntegrationDecision",
    "IntegrationItem",
    "Lesson",
    "MarketRegime",
    "ReplayAnalysis",
    "ThreatAssessment",
    "ThreatSeverity",
]
