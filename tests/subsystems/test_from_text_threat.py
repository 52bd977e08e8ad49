"""ThreatAssessment.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.dream import ThreatAssessment

from .reading import assert_reads, assert_unparseable

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Threat: oracle manipulation on the lending pool\nLikelihood: 20%\nImpact: 0.9\n"
        "Preparedness: low\nVerdict: mitigate\nMitigations:\n- cap position size at 10%\n"
        "- watch oracle deviation",
        {
            "threat": "oracle manipulation on the lending pool",
            "likelihood": 0.2,
            "impact": 0.9,
            "preparedness": 0.25,
            "verdict": "mitigate",
            "mitigations": ["cap position size at 10%", "watch oracle deviation"],
        },
    ),
    (
        "A stablecoin depeg is unlikely (10% chance) but would hurt, impact 0.7. "
        "We are well prepared, 0.8. Just monitor it.",
        {"likelihood": 0.1, "impact": 0.7, "preparedness": 0.8, "verdict": "monitor"},
    ),
    (
        "Scenario: liquidation cascade. Probability 30%, impact: severe, preparedness: low. "
        "Act now, this is urgent.\nMitigations: cut leverage; add collateral",
        {
            "threat": "liquidation cascade. Probability 30%, impact: severe, preparedness: low. "
            "Act now, this is urgent.",
            "likelihood": 0.3,
            "impact": 0.9,
            "preparedness": 0.25,
            "verdict": "urgent",
            "mitigations": ["cut leverage", "add collateral"],
        },
    ),
    (
        "Threat: gas price spike. 5% chance, low impact (0.2). We are ready "
        "(preparedness 0.9). Accept it.",
        {"likelihood": 0.05, "impact": 0.2, "preparedness": 0.9, "verdict": "accept"},
    ),
    (
        # No verdict: likelihood × impact × (1 - preparedness) = 0.288 reads as monitor.
        "Threat: bridge hack\nLikelihood 0.4\nImpact 0.9\nPreparedness 0.2",
        {"threat": "bridge hack", "verdict": "monitor", "mitigations": []},
    ),
    (
        "Verdict: mitigate\nThreat: oracle lag\nlikelihood=.5 impact=.6 readiness=.3\n"
        "Steps:\n- hedge with puts\n- reduce position",
        {
            "threat": "oracle lag",
            "likelihood": 0.5,
            "impact": 0.6,
            "preparedness": 0.3,
            "verdict": "mitigate",
            "mitigations": ["hedge with puts", "reduce position"],
        },
    ),
    (
        "Threat: USDC depeg. Don't ignore this: a 60% chance with 0.8 impact and "
        "preparedness 0.1, mitigate now.\nCountermeasures:\n1. move to DAI\n2. set depeg alerts",
        {
            "likelihood": 0.6,
            "impact": 0.8,
            "preparedness": 0.1,
            "verdict": "mitigate",
            "mitigations": ["move to DAI", "set depeg alerts"],
        },
    ),
    (
        "**Threat:** MEV sandwiching\n**Likelihood:** high\n**Impact:** small\n"
        "**Preparedness:** moderate\n**Verdict:** monitor",
        {
            "threat": "MEV sandwiching",
            "likelihood": 0.75,
            "impact": 0.25,
            "preparedness": 0.5,
            "verdict": "monitor",
        },
    ),
    (
        "Threat: funding rate flip. Not urgent; keep an eye on it. Likelihood 0.3, impact 0.4.",
        {"verdict": "monitor", "likelihood": 0.3, "impact": 0.4, "preparedness": 0.5},
    ),
    (
        "Rehearsed threat: sudden 30% ETH crash.\nOdds about 10%, impact 95%, preparedness 40%.\n"
        "Response: mitigate\nMitigation: keep a standing put hedge",
        {
            "threat": "sudden 30% ETH crash.",
            "likelihood": 0.1,
            "impact": 0.95,
            "preparedness": 0.4,
            "verdict": "mitigate",
            "mitigations": ["keep a standing put hedge"],
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(ThreatAssessment, text, expected)


@pytest.mark.parametrize("text", ["Quiet night.", "I slept."])
def test_no_threat_is_unparseable(text: str) -> None:
    assert_unparseable(ThreatAssessment, text)
