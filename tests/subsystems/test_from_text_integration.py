"""DreamIntegration.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.dream import DreamIntegration

from .reading import assert_reads, assert_unparseable


def item(
    summary: str, confidence: float = 0.5, hypothesis_id: str = "", rationale: str = ""
) -> dict[str, Any]:
    return {
        "hypothesis_id": hypothesis_id,
        "summary": summary,
        "confidence": confidence,
        "rationale": rationale,
    }


def lists(
    promoted: list[dict[str, Any]] | None = None,
    staged: list[dict[str, Any]] | None = None,
    discarded: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {"promoted": promoted or [], "staged": staged or [], "discarded": discarded or []}


CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Promote:\n- [g3] funding flips precede reversals (0.8) — held in replay\n"
        "- gas spikes precede volatility, confidence 0.6, id: g7\n"
        "Stage:\n- weekend liquidity is thin\nDiscard:\n- the moon phase matters",
        lists(
            [
                item("funding flips precede reversals", 0.8, "g3", "held in replay"),
                item("gas spikes precede volatility", 0.6, "g7"),
            ],
            [item("weekend liquidity is thin")],
            [item("the moon phase matters")],
        ),
    ),
    (
        "- PROMOTE: hedges pay in crashes (confidence 0.9) because the rehearsal held\n"
        "- stage - calm markets mean revert\n- drop: ETH always rallies on Mondays",
        lists(
            [item("hedges pay in crashes", 0.9, rationale="the rehearsal held")],
            [item("calm markets mean revert")],
            [item("ETH always rallies on Mondays")],
        ),
    ),
    ("Nothing worth integrating tonight.", lists()),
    (
        "Items:\n- promote: hedges pay in crashes (conf 0.9)\n- stage: weekend liquidity is thin",
        lists([item("hedges pay in crashes", 0.9)], [item("weekend liquidity is thin")]),
    ),
    (
        "## Promote\n1. funding flips precede reversals, confidence 80%, id g12",
        lists([item("funding flips precede reversals", 0.8, "g12")]),
    ),
    (
        # "do not promote" is no promotion: the item has no decision and is left out.
        "- discard: the moon matters\n- do not promote: Mondays rally",
        lists(discarded=[item("the moon matters")]),
    ),
    (
        "**Stage**\n- calm markets mean revert [g-14]",
        lists(staged=[item("calm markets mean revert", hypothesis_id="g-14")]),
    ),
    (
        "Promote the insight that gas spikes precede volatility (0.7).",
        lists([item("the insight that gas spikes precede volatility", 0.7)]),
    ),
    (
        "stage: thin order books on weekends\ndiscard: astrology",
        lists(staged=[item("thin order books on weekends")], discarded=[item("astrology")]),
    ),
    (
        "Integration:\n- PROMOTE funding flips precede reversals (85%) [g2]\n"
        "- STAGE: oracle lag during crashes, needs more evidence",
        lists(
            [item("funding flips precede reversals", 0.85, "g2")],
            [item("oracle lag during crashes, needs more evidence")],
        ),
    ),
    (
        "Promoted:\n* stops hunted in calm markets (0.75)\n"
        "Playbook diff:\n+ widen stops in calm markets",
        {
            **lists([item("stops hunted in calm markets", 0.75)]),
            "playbook_diff": "+ widen stops in calm markets",
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(DreamIntegration, text, expected)


@pytest.mark.parametrize("text", ["The dream was vivid.", "Maybe later."])
def test_no_items_is_unparseable(text: str) -> None:
    assert_unparseable(DreamIntegration, text)
