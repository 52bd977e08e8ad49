"""RiskAssessment.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.risk import RiskAssessment

from .reading import assert_reads, assert_unparseable

UNASSESSED = {"verdict": "warn", "score": 0.5, "reason": "not assessed"}
PASSED = {"verdict": "pass", "score": 0.2, "reason": ""}
LAYER_NAMES = ("market", "liquidity", "protocol", "portfolio", "mortality")

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Decision: APPROVED with a reduced size.\nProposed size: $5,000. Adjusted size: $2,500.\n"
        "- Market: pass (0.2), volatility normal\n- Liquidity: warn, 0.5 - thin books\n"
        "- Protocol risk: pass\n- Portfolio: warning: concentration at 40%\n- Mortality: ok, 0.1\n"
        "Risk score: 35%\nConditions:\n- stop loss at -3%\n- review in 1 hour",
        {
            "approved": True,
            "risk_score": 0.35,
            "proposed_size_usd": 5000.0,
            "adjusted_size_usd": 2500.0,
            "layers": {
                "market": {"verdict": "pass", "score": 0.2, "reason": "volatility normal"},
                "liquidity": {"verdict": "warn", "score": 0.5, "reason": "thin books"},
                "protocol": PASSED,
                "portfolio": {"verdict": "warn", "score": 0.5, "reason": "concentration at 40%"},
                "mortality": {"verdict": "pass", "score": 0.1, "reason": ""},
            },
            "conditions": ["stop loss at -3%", "review in 1 hour"],
        },
    ),
    (
        "I cannot approve this trade. Liquidity fails (0.9): the pool is too thin. "
        "Overall risk 0.8.",
        {
            "approved": False,
            "risk_score": 0.8,
            "adjusted_size_usd": None,
            "layers": {
                "market": UNASSESSED,
                "liquidity": {"verdict": "fail", "score": 0.9, "reason": "the pool is too thin"},
                "protocol": UNASSESSED,
                "portfolio": UNASSESSED,
                "mortality": UNASSESSED,
            },
        },
    ),
    (
        "No reason to reject: all layers look fine, go ahead. Risk is low.",
        {"approved": True, "risk_score": 0.25},
    ),
    (
        # "block" is the decision's word, not the liquidity layer's verdict.
        "The market is volatile and liquidity is thin, so I block the trade.",
        {"approved": False, "risk_score": 0.5},
    ),
    (
        "Approved: no\nMortality: fail - vitality 0.12 is too low to take on risk\nRisk score: 0.9",
        {"approved": False, "risk_score": 0.9},
    ),
    (
        "Verdict: APPROVED. Reduce the size to $1,200 from the proposed $3,000.",
        {"approved": True, "adjusted_size_usd": 1200.0, "proposed_size_usd": 3000.0},
    ),
    (
        "Decision: reject. Portfolio: fail (0.85), 60% of capital already in ETH.",
        {"approved": False, "risk_score": 0.85},
    ),
    (
        "I'd approve, but cap it at 2.5k USD. Protocol risk: warn, 0.4, new contract.",
        {"approved": True, "adjusted_size_usd": 2500.0, "risk_score": 0.5},
    ),
    (
        "approved=true\nmarket=pass\nliquidity=pass\nprotocol=pass\nportfolio=pass\n"
        "mortality=pass\nrisk_score=0.1",
        {
            "approved": True,
            "risk_score": 0.1,
            "layers": dict.fromkeys(LAYER_NAMES, PASSED),
        },
    ),
    (
        "Do not approve. Market risk: 0.75.",
        {"approved": False, "risk_score": 0.75},
    ),
    (
        "**Status:** approved with conditions\n**Conditions:**\n- stop loss at -3%\n"
        "- review in one hour",
        {"approved": True, "conditions": ["stop loss at -3%", "review in one hour"]},
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
    layers = RiskAssessment.from_text(text).layers
    assert (layers.market.verdict, layers.market.score) == ("pass", 0.2)
    assert (layers.liquidity.verdict, layers.liquidity.score) == ("warn", 0.6)
    assert layers.liquidity.reason == "thin books"
    assert (layers.portfolio.verdict, layers.portfolio.score) == ("fail", 0.8)
    assert layers.protocol.reason == "not assessed"


def test_a_rejection_allows_no_size() -> None:
    assessment = RiskAssessment.from_text("Rejected. Adjusted size: $500.")
    assert assessment.adjusted_size_usd is None


@pytest.mark.parametrize(
    "text", ["The trade looks interesting.", "Let me think about the market.", ""]
)
def test_no_approval_or_rejection_is_unparseable(text: str) -> None:
    assert_unparseable(RiskAssessment, text)
