"""DeathTestament.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.death import DeathTestament

from .reading import assert_reads, assert_unparseable

FULL = """# Life review
## What I learned
- Funding flips precede reversals
- Hedging early is cheap
## What I got wrong
- I trusted calm markets
## What confused me
- Volume spikes with no price move
## Never tested
- Selling volatility
## What killed me
Credits ran out after a month of expensive T2 calls.
## What I would change
- Cheaper models in calm regimes
## Suspects
- The oracle lagged during the crash
## Causal links
- expensive T2 calls → credits burned (0.9)
- thin liquidity led to slippage on exit, confidence 70%
## Emotional arc
- hopeful
- anxious
- resigned
## Arc class
Contaminating
"""

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        FULL,
        {
            "learned": ["Funding flips precede reversals", "Hedging early is cheap"],
            "got_wrong": ["I trusted calm markets"],
            "confused_by": ["Volume spikes with no price move"],
            "never_tested": ["Selling volatility"],
            "killed_by": "Credits ran out after a month of expensive T2 calls",
            "would_change": ["Cheaper models in calm regimes"],
            "suspects": ["The oracle lagged during the crash"],
            "causal_links": [
                {"cause": "expensive T2 calls", "effect": "credits burned", "confidence": 0.9},
                {"cause": "thin liquidity", "effect": "slippage on exit", "confidence": 0.7},
            ],
            "emotional_arc": "hopeful → anxious → resigned",
            "arc_class": "contaminating",
        },
    ),
    (
        "I learned that patience pays. My biggest mistake was exiting too late. I never tested "
        "shorting. Killed by: a liquidation cascade. I suspect the regime model was stale. "
        "It was a tragic arc.",
        {
            "learned": ["patience pays"],
            "got_wrong": ["exiting too late"],
            "never_tested": ["shorting"],
            "killed_by": "a liquidation cascade",
            "suspects": ["the regime model was stale"],
            "confused_by": [],
            "arc_class": "tragic",
        },
    ),
    (
        "**Learned:** hedges pay; calm is not safe\n**Got wrong:** position sizing\n"
        "**Killed by:** the economic clock",
        {
            "learned": ["hedges pay", "calm is not safe"],
            "got_wrong": ["position sizing"],
            "killed_by": "the economic clock",
            "arc_class": "stable",
        },
    ),
    (
        "Cause of death: epistemic clock ran out",
        {"killed_by": "epistemic clock ran out", "learned": [], "causal_links": []},
    ),
    (
        "Learned:\n- volatility clusters\nGot wrong:\n- exits were late\nKilled by: credits\n"
        "Arc: redemptive, from early losses to a late recovery",
        {
            "learned": ["volatility clusters"],
            "got_wrong": ["exits were late"],
            "killed_by": "credits",
            "emotional_arc": "redemptive, from early losses to a late recovery",
            "arc_class": "redemptive",
        },
    ),
    (
        "Causal chains:\n- funding flips led to losses (0.6)\n- gas spikes => missed exits\n"
        "- overconfidence caused oversized positions, confidence 80%\nKilled by: drawdown",
        {
            "causal_links": [
                {"cause": "funding flips", "effect": "losses", "confidence": 0.6},
                {"cause": "gas spikes", "effect": "missed exits", "confidence": 0.5},
                {"cause": "overconfidence", "effect": "oversized positions", "confidence": 0.8},
            ],
            "killed_by": "drawdown",
        },
    ),
    (
        "What I would change:\n- smaller positions\nSuspects:\n- the oracle\n"
        "Never tested:\n- none\nLessons:\n- patience",
        {
            "would_change": ["smaller positions"],
            "suspects": ["the oracle"],
            "never_tested": [],
            "learned": ["patience"],
            "killed_by": "unknown",
        },
    ),
    (
        "Emotional arc: hopeful, then anxious, then resigned. A tragic story.\n"
        "Mistakes:\n- ignored the health factor",
        {
            "emotional_arc": "hopeful, then anxious, then resigned. A tragic story.",
            "arc_class": "tragic",
            "got_wrong": ["ignored the health factor"],
        },
    ),
    (
        "<think>draft: I learned nothing?</think>\nKilled by: the stochastic clock (a failed "
        "roll).\nI learned that regimes change faster than I adapt.",
        {
            "killed_by": "the stochastic clock (a failed roll)",
            "learned": ["regimes change faster than I adapt"],
        },
    ),
    (
        "## Learned\n1. Liquidity vanishes first\n2. Funding leads price\n"
        "## Confused by\n* why calm regimes ended abruptly\n## Arc type\nprogressive",
        {
            "learned": ["Liquidity vanishes first", "Funding leads price"],
            "confused_by": ["why calm regimes ended abruptly"],
            "arc_class": "progressive",
        },
    ),
    (
        "What killed me:\nThe kill switch, pulled by the operator.\n\nI would change: my hedging "
        "rules.\nI was confused by weekend volume.",
        {
            "killed_by": "The kill switch, pulled by the operator",
            "would_change": ["my hedging rules"],
            "confused_by": ["weekend volume"],
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(DeathTestament, text, expected)


@pytest.mark.parametrize("text", ["Goodbye.", "It was a life.", ""])
def test_no_life_review_is_unparseable(text: str) -> None:
    assert_unparseable(DeathTestament, text)
