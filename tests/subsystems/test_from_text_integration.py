"""DreamIntegration.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.dream import DreamIntegration

from .reading import assert_reads, assert_unparseable


def item(content: str, decision: str, confidence: float = 0.5, source: str = "") -> dict[str, Any]:
    return {"content": content, "decision": decision, "confidence": confidence, "source": source}


CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Promote:\n- funding flips precede reversals (0.8) [replay]\n"
        "- gas spikes precede volatility, confidence 0.6, source: fragment\n"
        "Stage:\n- weekend liquidity is thin\nDiscard:\n- the moon phase matters",
        {
            "items": [
                item("funding flips precede reversals", "promote", 0.8, "replay"),
                item("gas spikes precede volatility", "promote", 0.6, "fragment"),
                item("weekend liquidity is thin", "stage"),
                item("the moon phase matters", "discard"),
            ]
        },
    ),
    (
        "- PROMOTE: hedges pay in crashes (confidence 0.9, from threat rehearsal)\n"
        "- stage - calm markets mean revert\n- drop: ETH always rallies on Mondays",
        {
            "items": [
                item("hedges pay in crashes", "promote", 0.9, "threat rehearsal"),
                item("calm markets mean revert", "stage"),
                item("ETH always rallies on Mondays", "discard"),
            ]
        },
    ),
    ("Nothing worth integrating tonight.", {"items": []}),
    (
        "Items:\n- promote: hedges pay in crashes (conf 0.9)\n- stage: weekend liquidity is thin",
        {
            "items": [
                item("hedges pay in crashes", "promote", 0.9),
                item("weekend liquidity is thin", "stage"),
            ]
        },
    ),
    (
        "## Promote\n1. funding flips precede reversals, confidence 80%, source: replay",
        {"items": [item("funding flips precede reversals", "promote", 0.8, "replay")]},
    ),
    (
        # "do not promote" is no promotion: the item has no decision and is left out.
        "- discard: the moon matters\n- do not promote: Mondays rally",
        {"items": [item("the moon matters", "discard")]},
    ),
    (
        "**Stage**\n- calm markets mean revert [fragment]",
        {"items": [item("calm markets mean revert", "stage", source="fragment")]},
    ),
    (
        "Promote the insight that gas spikes precede volatility (0.7).",
        {"items": [item("the insight that gas spikes precede volatility", "promote", 0.7)]},
    ),
    (
        "stage: thin order books on weekends\ndiscard: astrology",
        {
            "items": [
                item("thin order books on weekends", "stage"),
                item("astrology", "discard"),
            ]
        },
    ),
    (
        "Integration:\n- PROMOTE funding flips precede reversals (85%) [replay]\n"
        "- STAGE: oracle lag during crashes, needs more evidence",
        {
            "items": [
                item("funding flips precede reversals", "promote", 0.85, "replay"),
                item("oracle lag during crashes, needs more evidence", "stage"),
            ]
        },
    ),
    (
        "Summary: one strong insight.\nPromote:\n* stops hunted in calm markets (0.75)",
        {
            "items": [item("stops hunted in calm markets", "promote", 0.75)],
            "summary": "one strong insight.",
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(DreamIntegration, text, expected)


@pytest.mark.parametrize("text", ["The dream was vivid.", "Maybe later."])
def test_no_items_is_unparseable(text: str) -> None:
    assert_unparseable(DreamIntegration, text)
