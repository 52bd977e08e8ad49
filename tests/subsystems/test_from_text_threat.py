"""ThreatAssessment.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.dream import ThreatAssessment

from .reading import assert_reads, assert_unparseable

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Threat type: oracle manipulation on the lending pool\nSeverity: high\nLikelihood: 20%\n"
        "Impact if realized: collateral liquidated at a false price\nMitigation actions:\n"
        "- cap position size at 10%\n- watch oracle deviation\nDetection signals:\n"
        "- oracle diverges from spot by 2%\nRehearsal outcome: the cap limits the loss",
        {
            "threat_type": "oracle manipulation on the lending pool",
            "severity": "high",
            "likelihood": 0.2,
            "impact_if_realized": "collateral liquidated at a false price",
            "mitigation_actions": ["cap position size at 10%", "watch oracle deviation"],
            "detection_signals": ["oracle diverges from spot by 2%"],
            "rehearsal_outcome": "the cap limits the loss",
        },
    ),
    (
        "A stablecoin depeg is unlikely (10% chance) but would hurt. Severity: medium. "
        "Just monitor it.",
        {"likelihood": 0.1, "severity": "medium", "mitigation_actions": []},
    ),
    (
        "Scenario: liquidation cascade. Probability 30%, impact: large. Act now, this is "
        "critical.\nMitigations: cut leverage; add collateral",
        {
            "threat_type": "liquidation cascade. Probability 30%, impact: large. Act now, "
            "this is critical.",
            "likelihood": 0.3,
            "severity": "critical",
            "mitigation_actions": ["cut leverage", "add collateral"],
        },
    ),
    (
        "Threat: gas price spike. 5% chance, low severity. We are ready. Accept it.",
        {
            "threat_type": "gas price spike. 5% chance, low severity. We are ready. Accept it.",
            "likelihood": 0.05,
            "severity": "low",
        },
    ),
    (
        # No severity given: medium, the middle of the scale.
        "Threat: bridge hack\nLikelihood 0.4\nImpact: the bridged funds are lost",
        {
            "threat_type": "bridge hack",
            "severity": "medium",
            "likelihood": 0.4,
            "impact_if_realized": "the bridged funds are lost",
        },
    ),
    (
        "Severity: high\nThreat: oracle lag\nlikelihood=.5\n"
        "Steps:\n- hedge with puts\n- reduce position",
        {
            "threat_type": "oracle lag",
            "likelihood": 0.5,
            "severity": "high",
            "mitigation_actions": ["hedge with puts", "reduce position"],
        },
    ),
    (
        "Threat: USDC depeg. Don't ignore this: a 60% chance, severity high, mitigate now.\n"
        "Countermeasures:\n1. move to DAI\n2. set depeg alerts\nWarning signs:\n"
        "- USDC below 0.995",
        {
            "likelihood": 0.6,
            "severity": "high",
            "mitigation_actions": ["move to DAI", "set depeg alerts"],
            "detection_signals": ["USDC below 0.995"],
        },
    ),
    (
        "**Threat:** MEV sandwiching\n**Likelihood:** high\n**Severity:** low",
        {"threat_type": "MEV sandwiching", "likelihood": 0.75, "severity": "low"},
    ),
    (
        "Threat: funding rate flip. Not critical; keep an eye on it. Likelihood 0.3, "
        "threat level: moderate.",
        {"severity": "medium", "likelihood": 0.3},
    ),
    (
        "Rehearsed threat: sudden 30% ETH crash.\nOdds about 10%, severity critical.\n"
        "Mitigation: keep a standing put hedge\nOutcome:\nthe hedge covered most of it",
        {
            "threat_type": "sudden 30% ETH crash.",
            "likelihood": 0.1,
            "severity": "critical",
            "mitigation_actions": ["keep a standing put hedge"],
            "rehearsal_outcome": "the hedge covered most of it",
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(ThreatAssessment, text, expected)


@pytest.mark.parametrize("text", ["Quiet night.", "I slept."])
def test_no_threat_is_unparseable(text: str) -> None:
    assert_unparseable(ThreatAssessment, text)
