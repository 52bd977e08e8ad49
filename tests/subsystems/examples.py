"""One valid answer per decision schema, as a model would send it (every property present)."""

from __future__ import annotations

from typing import Any

from golem.inference import StructuredOutput
from golem.subsystems import (
    CuratorEvaluation,
    DaimonAppraisal,
    DeathTestament,
    DreamIntegration,
    FragmentEvaluation,
    HeartbeatDecision,
    ReplayAnalysis,
    RiskAssessment,
    ThreatAssessment,
)

_LAYER = {"passed": True, "score": 0.2, "detail": "normal"}

VALID: dict[type[StructuredOutput], dict[str, Any]] = {
    HeartbeatDecision: {
        "severity": "high",
        "action": "hedge",
        "confidence": 0.72,
        "rationale": "ETH fell 4.2% in 15 minutes while funding flipped negative.",
        "signals": [
            {"source": "price", "description": "fell 4.2% in 15 minutes", "magnitude": 0.8}
        ],
        "escalate": True,
        "expected_move": -0.02,
    },
    DaimonAppraisal: {
        "pleasure": -0.5,
        "arousal": 0.7,
        "dominance": -0.4,
        "primary_emotion": "fear",
        "secondary_emotion": "sadness",
        "trigger": "trade_loss of 6%",
        "memory_bias": "recall past drawdowns before similar entries",
        "intensity": 0.7,
    },
    RiskAssessment: {
        "approved": True,
        "adjusted_size_usd": 2500.0,
        "layers": {
            "hard_shields": _LAYER,
            "position_sizing": {"passed": True, "score": 0.5, "detail": "thin books"},
            "adaptive_guardrails": _LAYER,
            "observation": _LAYER,
            "defi_threats": _LAYER,
        },
        "warnings": ["thin books: stop loss at -3%"],
        "reasoning": "Liquidity is thin: half size.",
        "proposed_size_usd": 5000.0,
    },
    CuratorEvaluation: {
        "entries_evaluated": 12,
        "entries_retained": 9,
        "entries_pruned": 3,
        "cross_references": [
            {"source_id": "e3", "target_id": "e7", "relationship": "supports", "strength": 0.8}
        ],
        "promotions": [
            {
                "entry_id": "e12",
                "from_confidence": 0.6,
                "to_confidence": 0.75,
                "reason": "held in 3 regimes",
            }
        ],
        "grimoire_health": 0.7,
        "prune_ids": ["e1", "e4", "e9"],
    },
    ReplayAnalysis: {
        "episode_id": "ep-17",
        "lessons": [
            {
                "insight": "Momentum fades after funding flips",
                "confidence": 0.7,
                "applicable_conditions": "volatile, funding negative",
            }
        ],
        "surprise_score": 0.6,
        "counterfactuals": [
            {
                "alternative_action": "hedge instead of holding",
                "estimated_outcome": "about 3% saved",
                "plausibility": 0.6,
            }
        ],
        "arousal_delta": 0.2,
        "episodes_reviewed": 12,
    },
    FragmentEvaluation: {
        "novelty": 0.8,
        "relevance": 0.7,
        "coherence": 0.6,
        "verdict": "stage",
    },
    DreamIntegration: {
        "promoted": [
            {
                "hypothesis_id": "g12",
                "summary": "funding flips precede reversals",
                "confidence": 0.8,
                "rationale": "held in three replays",
            }
        ],
        "staged": [
            {
                "hypothesis_id": "g14",
                "summary": "weekend liquidity is thin",
                "confidence": 0.5,
                "rationale": "one observation so far",
            }
        ],
        "discarded": [],
        "playbook_diff": "+ hedge when funding flips",
    },
    ThreatAssessment: {
        "threat_type": "oracle manipulation on the lending pool",
        "severity": "high",
        "likelihood": 0.2,
        "impact_if_realized": "the collateral liquidated at a false price",
        "mitigation_actions": ["cap position size at 10%"],
        "detection_signals": ["the oracle diverges from spot by more than 2%"],
        "rehearsal_outcome": "Rare but ruinous: the cap limits the loss.",
    },
    DeathTestament: {
        "learned": ["funding flips precede reversals"],
        "got_wrong": ["I trusted calm markets"],
        "confused_by": [],
        "never_tested": ["selling volatility"],
        "killed_by": "credits ran out",
        "would_change": ["cheaper models in calm regimes"],
        "suspects": [],
        "causal_links": [
            {"cause": "expensive T2 calls", "effect": "credits burned", "confidence": 0.9}
        ],
        "emotional_arc": "hopeful → anxious → resigned",
        "arc_class": "contaminating",
    },
}


# What `golem ask --provider local --schema threat_assessment` answered before issue 24:
# schema-valid and empty of meaning.
HOLLOW_THREAT: dict[str, Any] = {
    "threat_type": ",",
    "severity": "high",
    "likelihood": 0.5,
    "impact_if_realized": "",
    "mitigation_actions": ["A", "B", "C", "D", "E"],
    "detection_signals": [],
    "rehearsal_outcome": "",
}
