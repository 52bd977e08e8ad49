"""HeartbeatDecision.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.heartbeat import HeartbeatDecision

from .reading import assert_reads, assert_unparseable

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Severity: HIGH. Action: hedge. Confidence 72%.",
        {"severity": "high", "action": "hedge", "confidence": 0.72, "escalate": False},
    ),
    (
        "**Severity:** critical\n**Action:** exit\nconfidence 0.9",
        {"severity": "critical", "action": "exit", "confidence": 0.9},
    ),
    (
        "severity=high, action=rebalance, confidence=.75",
        {"severity": "high", "action": "rebalance", "confidence": 0.75},
    ),
    (
        "severity - critical\naction - exit\nEscalate: yes\n95% sure",
        {"severity": "critical", "action": "exit", "confidence": 0.95, "escalate": True},
    ),
    (
        # "highly" is not "high"; "no need to exit" and "would not rebalance yet" are not actions.
        "The drop is highly unusual, but there is no need to exit. I would not rebalance yet "
        "either; keep observing. Severity: medium. I'm 70 percent sure.",
        {"severity": "moderate", "action": "observe", "confidence": 0.7},
    ),
    (
        "This is a high-severity event. I recommend hedging rather than exiting. Confidence: high.",
        {"severity": "high", "action": "hedge", "confidence": 0.75},
    ),
    ("Nothing notable. Hold.", {"severity": "none", "action": "observe", "confidence": 0.5}),
    (
        "## Assessment\nSeverity: low\n## Action\nObserve\n## Signals\n"
        "- price delta: -0.6% (minor dip)\n- health factor = 1.8\n- funding flipped negative\n"
        "## Reasoning\nSmall dip, no stress.",
        {
            "severity": "low",
            "action": "observe",
            "signals": [
                {"source": "price_delta", "description": "-0.6% (minor dip)", "magnitude": 0.006},
                {"source": "health_factor", "description": "1.8", "magnitude": 0.5},
                {
                    "source": "funding",
                    "description": "funding flipped negative",
                    "magnitude": 0.5,
                },
            ],
            "rationale": "Small dip, no stress.",
        },
    ),
    (
        "Should we exit? No. Rebalance toward stables instead. I'd call it medium.",
        {"severity": "moderate", "action": "rebalance"},
    ),
    (
        "| Field | Value |\n|---|---|\n| Severity | high |\n| Action | exit |\n"
        "| Confidence | 80% |",
        {"severity": "high", "action": "exit", "confidence": 0.8},
    ),
    (
        "<think>Maybe exit? The severity could be critical.</think>\n"
        "Severity: low\nAction: observe - no need to escalate.",
        {"severity": "low", "action": "observe", "escalate": False},
    ),
    (
        "I'd exit now: severity critical, 9/10 confidence. Escalate to T2 for a second opinion.",
        {"severity": "critical", "action": "exit", "confidence": 0.9, "escalate": True},
    ),
    (
        "Risk level: elevated. Wait and watch; hedging is premature.",
        {"severity": "moderate", "action": "observe"},
    ),
    (
        "Action: Observe (not exit, not hedge)\nSeverity: Low\n"
        "Confidence: 0.6, no escalation needed",
        {"severity": "low", "action": "observe", "confidence": 0.6, "escalate": False},
    ),
    (
        '"severity": "moderate", "action": "hedge", "confidence": 0.55',
        {"severity": "moderate", "action": "hedge", "confidence": 0.55},
    ),
    (
        # An action alone implies its least severity; an exit implies high.
        "Close the position now, funding is collapsing.",
        {"severity": "high", "action": "exit"},
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(HeartbeatDecision, text, expected)


@pytest.mark.parametrize("text", ["I am not sure what to say.", "", "The market exists today."])
def test_no_decision_is_unparseable(text: str) -> None:
    assert_unparseable(HeartbeatDecision, text)


def test_a_json_answer_is_validated_as_json() -> None:
    text = '{"severity": "high", "action": "hedge", "confidence": 0.8}'
    assert HeartbeatDecision.from_text(text).confidence == 0.8


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("Severity: low\nAction: observe\nExpected move: -2%", -0.02),
        ("Severity: low\nAction: observe\nexpected_move: 0.015", 0.015),
        ("Severity: moderate. Hedge: we expect a 1.5% fall over the horizon.", -0.015),
        ("Severity: low. Observe; expecting a 0.8% rise.", 0.008),
        ("Severity: low\nAction: observe\nConfidence: 0.7", None),  # no view stated
    ],
)
def test_the_expected_move_is_read_when_written(text: str, move: float | None) -> None:
    assert HeartbeatDecision.from_text(text).expected_move == pytest.approx(move)
