"""RiskAssessment.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.risk import LAYERS, RiskAssessment

from .reading import assert_reads, assert_unparseable

UNASSESSED = {"passed": True, "score": 0.5, "detail": "not assessed"}
PASSED = {"passed": True, "score": 0.2, "detail": ""}

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Decision: APPROVED with a reduced size.\nProposed size: $5,000. Adjusted size: $2,500.\n"
        "- Market: pass (0.2), volatility normal\n- Liquidity: warn, 0.5 - thin books\n"
        "- Protocol risk: pass\n- Portfolio: warning: concentration at 40%\n- Mortality: ok, 0.1\n"
        "Warnings:\n- stop loss at -3%\n- review in 1 hour",
        {
            "approved": True,
            "proposed_size_usd": 5000.0,
            "adjusted_size_usd": 2500.0,
            "layers": {
                "hard_shields": {"passed": True, "score": 0.5, "detail": "concentration at 40%"},
                "position_sizing": {"passed": True, "score": 0.5, "detail": "thin books"},
                "adaptive_guardrails": {"passed": True, "score": 0.1, "detail": ""},
                "observation": {"passed": True, "score": 0.2, "detail": "volatility normal"},
                "defi_threats": PASSED,
            },
            "warnings": [
                "stop loss at -3%",
                "review in 1 hour",
                "hard shields: concentration at 40%",
                "position sizing: thin books",
            ],
        },
    ),
    (
        "I cannot approve this trade. Liquidity fails (0.9): the pool is too thin. "
        "Overall risk 0.8.",
        {
            "approved": False,
            "adjusted_size_usd": None,
            "layers": {
                "hard_shields": UNASSESSED,
                "position_sizing": {
                    "passed": False,
                    "score": 0.9,
                    "detail": "the pool is too thin",
                },
                "adaptive_guardrails": UNASSESSED,
                "observation": UNASSESSED,
                "defi_threats": UNASSESSED,
            },
        },
    ),
    (
        "No reason to reject: all layers look fine, go ahead. Risk is low.",
        {
            "approved": True,
            "layers": {name: {**PASSED, "detail": "all layers pass"} for name in LAYERS},
            "warnings": [],
        },
    ),
    (
        # "block" is the decision's word, not the liquidity layer's verdict.
        "The market is volatile and liquidity is thin, so I block the trade.",
        {"approved": False, "layers": dict.fromkeys(LAYERS, UNASSESSED)},
    ),
    (
        "Approved: no\nMortality: fail - vitality 0.12 is too low to take on risk\nRisk score: 0.9",
        {
            "approved": False,
            "layers": {
                **dict.fromkeys(LAYERS, UNASSESSED),
                "adaptive_guardrails": {
                    "passed": False,
                    "score": 0.8,
                    "detail": "vitality 0.12 is too low to take on risk",
                },
            },
        },
    ),
    (
        "Verdict: APPROVED. Reduce the size to $1,200 from the proposed $3,000.",
        {"approved": True, "adjusted_size_usd": 1200.0, "proposed_size_usd": 3000.0},
    ),
    (
        "Decision: reject. Portfolio: fail (0.85), 60% of capital already in ETH.",
        {
            "approved": False,
            "layers": {
                **dict.fromkeys(LAYERS, UNASSESSED),
                "hard_shields": {
                    "passed": False,
                    "score": 0.85,
                    "detail": "60% of capital already in ETH",
                },
            },
        },
    ),
    (
        "I'd approve, but cap it at 2.5k USD. Protocol risk: warn, 0.4, new contract.",
        {
            "approved": True,
            "adjusted_size_usd": 2500.0,
            "layers": {
                **dict.fromkeys(LAYERS, UNASSESSED),
                "defi_threats": {"passed": True, "score": 0.4, "detail": "new contract"},
            },
        },
    ),
    (
        "approved=true\nhard_shields=pass\nposition_sizing=pass\nadaptive_guardrails=pass\n"
        "observation=pass\ndefi_threats=pass",
        {"approved": True, "layers": dict.fromkeys(LAYERS, PASSED), "warnings": []},
    ),
    (
        "Do not approve. Market risk: 0.75.",
        {
            "approved": False,
            "layers": {
                **dict.fromkeys(LAYERS, UNASSESSED),
                "observation": {"passed": False, "score": 0.75, "detail": ""},
            },
        },
    ),
    (
        "**Status:** approved with conditions\n**Conditions:**\n- stop loss at -3%\n"
        "- review in one hour",
        {
            "approved": True,
            "warnings": [
                "stop loss at -3%",
                "review in one hour",
                # Layers the text leaves out are warned about, up to five warnings in all.
                "hard shields: not assessed",
                "position sizing: not assessed",
                "adaptive guardrails: not assessed",
            ],
        },
    ),
    (
        "Rejected. Not approved because the golem is in its declining phase.",
        {"approved": False},
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(RiskAssessment, text, expected)


def test_layers_in_detail() -> None:
    text = "Approved.\nMarket: pass (0.2)\nLiquidity: 0.6 (warn) thin books\nPortfolio: red"
    assessment = RiskAssessment.from_text(text)
    layers = assessment.layers
    assert (layers.observation.passed, layers.observation.score) == (True, 0.2)
    assert (layers.position_sizing.passed, layers.position_sizing.score) == (True, 0.6)
    assert layers.position_sizing.detail == "thin books"
    assert "position sizing: thin books" in assessment.warnings  # a warning passes, noted
    assert (layers.hard_shields.passed, layers.hard_shields.score) == (False, 0.8)
    assert layers.defi_threats.detail == "not assessed"
    assert assessment.risk_score == 0.8


def test_seed_layer_names_are_read() -> None:
    text = (
        "Approved.\nHard shields: pass (0.1)\nPosition sizing: pass (0.3)\n"
        "Adaptive guardrails: pass (0.2)\nObservation: pass (0.25)\nDeFi threats: pass (0.15)"
    )
    layers = RiskAssessment.from_text(text).layers
    assert [layer.score for _, layer in layers] == [0.1, 0.3, 0.2, 0.25, 0.15]


def test_a_rejection_allows_no_size() -> None:
    assessment = RiskAssessment.from_text("Rejected. Adjusted size: $500.")
    assert assessment.adjusted_size_usd is None


@pytest.mark.parametrize(
    "text", ["The trade looks interesting.", "Let me think about the market.", ""]
)
def test_no_approval_or_rejection_is_unparseable(text: str) -> None:
    assert_unparseable(RiskAssessment, text)
