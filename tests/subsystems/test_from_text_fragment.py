"""FragmentEvaluation.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.dream import FragmentEvaluation

from .reading import assert_reads, assert_unparseable

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        'Fragment: "funding flips precede reversals by two hours"\n'
        "Novelty 0.8, plausibility 60%, relevance: high.\n"
        "Verdict: incubate - not ready to keep, too interesting to discard.",
        {
            "novelty": 0.8,
            "coherence": 0.6,
            "relevance": 0.75,
            "verdict": "stage",
        },
    ),
    (
        "I'd discard this one; it's just noise. Novelty .2",
        {"verdict": "discard", "novelty": 0.2, "coherence": 0.5},
    ),
    (
        "Keep it. Novelty 7/10, plausibility 0.6, relevance 80%.",
        {"verdict": "promote", "novelty": 0.7, "coherence": 0.6, "relevance": 0.8},
    ),
    (
        "Not worth keeping, discard. Plausibility: very low.",
        {"verdict": "discard", "coherence": 0.1},
    ),
    (
        "**Verdict:** KEEP\n**Fragment:** a hedge that pays when funding flips\n"
        "**Relevance:** high\n**Plausibility:** moderate",
        {
            "verdict": "promote",
            "relevance": 0.75,
            "coherence": 0.5,
        },
    ),
    (
        'Let it incubate; don\'t discard yet. "gas spikes lead price" is odd but maybe real.',
        {"verdict": "stage"},
    ),
    (
        "recommendation: incubate (novelty high, relevance low)",
        {"verdict": "stage", "novelty": 0.75, "relevance": 0.25},
    ),
    (
        "Discard: implausible (plausibility 0.1) though novel (0.9).",
        {"verdict": "discard", "coherence": 0.1, "novelty": 0.9},
    ),
    ("Should I keep it? No, discard.", {"verdict": "discard"}),
    (
        "Verdict: promote. Novelty 0.4, relevance 0.9, coherence 85%.",
        {"verdict": "promote", "novelty": 0.4, "relevance": 0.9, "coherence": 0.85},
    ),
    ("Stage it for now: coherent (0.7) but not yet relevant.", {"verdict": "stage"}),
    (
        "decision=keep novelty=0.55 plausibility=0.5 relevance=0.45",
        {"verdict": "promote", "novelty": 0.55, "coherence": 0.5, "relevance": 0.45},
    ),
    (
        "<think>keep? discard?</think>\nIdea: liquidity leaves before volatility arrives.\n"
        "I would park it for now and revisit after more episodes.",
        {"verdict": "stage"},
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(FragmentEvaluation, text, expected)


@pytest.mark.parametrize("text", ["A strange dream about ducks.", "hmm"])
def test_no_verdict_is_unparseable(text: str) -> None:
    assert_unparseable(FragmentEvaluation, text)
