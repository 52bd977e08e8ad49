"""ReplayAnalysis.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.dream import ReplayAnalysis

from .reading import assert_reads, assert_unparseable

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Reviewed 12 episodes.\nLessons:\n"
        "- Momentum fades after funding flips negative (confidence 0.7, regime: volatile)\n"
        "- Tight stops get hunted in calm markets - confidence 40%\n- Hedging early costs little\n"
        "Counterfactuals:\n- ep-17: hedge instead of holding → about 3% saved (plausibility 0.6)\n"
        "Summary: good replay.",
        {
            "episode_id": "ep-17",
            "episodes_reviewed": 12,
            "surprise_score": 0.0,
            "lessons": [
                {
                    "insight": "Momentum fades after funding flips negative",
                    "confidence": 0.7,
                    "applicable_conditions": "volatile",
                },
                {
                    "insight": "Tight stops get hunted in calm markets",
                    "confidence": 0.4,
                    "applicable_conditions": "calm",
                },
                {
                    "insight": "Hedging early costs little",
                    "confidence": 0.5,
                    "applicable_conditions": "",
                },
            ],
            "counterfactuals": [
                {
                    "alternative_action": "hedge instead of holding",
                    "estimated_outcome": "about 3% saved",
                    "plausibility": 0.6,
                }
            ],
        },
    ),
    (
        "Reviewed 5 episodes; nothing new learned.",
        {"episodes_reviewed": 5, "lessons": [], "counterfactuals": []},
    ),
    (
        "12 episodes replayed.\n## Lessons\n1. Stops get hunted in calm markets (conf 0.6)\n"
        "2. Crashes reward early exits, confidence 90%, regime: crash",
        {
            "episodes_reviewed": 12,
            "lessons": [
                {
                    "insight": "Stops get hunted in calm markets",
                    "confidence": 0.6,
                    "applicable_conditions": "calm",
                },
                {
                    "insight": "Crashes reward early exits",
                    "confidence": 0.9,
                    "applicable_conditions": "crash",
                },
            ],
        },
    ),
    (
        "Episodes: 3\nLesson: hedges are cheap insurance",
        {
            "episodes_reviewed": 3,
            "lessons": [
                {
                    "insight": "hedges are cheap insurance",
                    "confidence": 0.5,
                    "applicable_conditions": "",
                }
            ],
        },
    ),
    (
        "Counterfactuals:\n- ep-3 => sell half early -> drawdown halved\n"
        "- ep-4: wait for confirmation -> missed the bounce (plausibility 20%)",
        {
            "episode_id": "ep-3",
            "episodes_reviewed": 1,
            "counterfactuals": [
                {
                    "alternative_action": "sell half early",
                    "estimated_outcome": "drawdown halved",
                    "plausibility": 0.5,
                },
                {
                    "alternative_action": "wait for confirmation",
                    "estimated_outcome": "missed the bounce",
                    "plausibility": 0.2,
                },
            ],
        },
    ),
    (
        "Takeaways:\n- trending markets punish fading (80% confidence)\n- volatility clusters",
        {
            "episodes_reviewed": 1,
            "lessons": [
                {
                    "insight": "trending markets punish fading",
                    "confidence": 0.8,
                    "applicable_conditions": "trending",
                },
                {
                    "insight": "volatility clusters",
                    "confidence": 0.5,
                    "applicable_conditions": "volatile",
                },
            ],
        },
    ),
    (
        "Replayed 9 episodes.\nWhat ifs:\n- Episode 9: if I had waited, the entry would have "
        "been 2% cheaper (plausibility .7)",
        {
            "episodes_reviewed": 9,
            "counterfactuals": [
                {
                    "alternative_action": "waited",
                    "estimated_outcome": "the entry would have been 2% cheaper",
                    "plausibility": 0.7,
                }
            ],
        },
    ),
    (
        "Replayed 20 episodes. \nInsights:\n* Bear trends last longer than expected, "
        "confidence 0.65\n* Calm regimes mean-revert\nCounterfactuals:\n"
        "* #4 exit at the first health-factor warning → liquidation avoided, 90% plausible",
        {
            "episodes_reviewed": 20,
            "lessons": [
                {
                    "insight": "Bear trends last longer than expected",
                    "confidence": 0.65,
                    "applicable_conditions": "trending",
                },
                {
                    "insight": "Calm regimes mean-revert",
                    "confidence": 0.5,
                    "applicable_conditions": "calm",
                },
            ],
            "counterfactuals": [
                {
                    "alternative_action": "exit at the first health-factor warning",
                    "estimated_outcome": "liquidation avoided",
                    "plausibility": 0.9,
                }
            ],
        },
    ),
    (
        "**Lessons**\n- Funding flips precede reversals (regime: any, confidence 0.75)\n"
        "**Episodes reviewed:** 7",
        {
            "episodes_reviewed": 7,
            "lessons": [
                {
                    "insight": "Funding flips precede reversals",
                    "confidence": 0.75,
                    "applicable_conditions": "",
                }
            ],
        },
    ),
    (
        "Across 4 episodes:\nLessons:\n- In a crash, liquidity vanishes first\n"
        "- not every dip is a crash; most are calm noise (confidence 0.55)",
        {
            "episodes_reviewed": 4,
            "lessons": [
                {
                    "insight": "In a crash, liquidity vanishes first",
                    "confidence": 0.5,
                    "applicable_conditions": "crash",
                },
                {
                    "insight": "not every dip is a crash; most are calm noise",
                    "confidence": 0.55,
                    "applicable_conditions": "calm",
                },
            ],
        },
    ),
]


CASES += [
    (
        "Episode id: #41\nSurprise score: 80%\nArousal delta: +0.3\nLessons:\n"
        "- Thin books turn exits expensive (confidence 0.7, conditions: volatile)",
        {
            "episode_id": "41",
            "surprise_score": 0.8,
            "arousal_delta": 0.3,
            "episodes_reviewed": 1,
            "lessons": [
                {
                    "insight": "Thin books turn exits expensive",
                    "confidence": 0.7,
                    "applicable_conditions": "volatile",
                }
            ],
        },
    ),
    (
        "Replayed episode 17. Quite surprising (surprise 0.9); arousal delta -0.2.",
        {"episode_id": "17", "surprise_score": 0.9, "arousal_delta": -0.2},
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(ReplayAnalysis, text, expected)


@pytest.mark.parametrize("text", ["I dreamt of nothing.", "Sleep."])
def test_nothing_replayed_is_unparseable(text: str) -> None:
    assert_unparseable(ReplayAnalysis, text)
