"""CuratorEvaluation.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.curator import CuratorEvaluation

from .reading import assert_reads, assert_unparseable

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Evaluated 12 entries; retained 9 and pruned 3.\nPruned: e1, e4, e9\nPromotions:\n"
        "- e12 from 0.6 to 0.8: held across three regimes\n- e7 to 90% because it never failed\n"
        "Cross-references:\n- e3 supports e7 (0.8)\n- e4 contradicts e12\nSummary: a tidy pass.",
        {
            "entries_evaluated": 12,
            "entries_retained": 9,
            "entries_pruned": 3,
            "prune_ids": ["e1", "e4", "e9"],
            "promotions": [
                {
                    "entry_id": "e12",
                    "from_confidence": 0.6,
                    "to_confidence": 0.8,
                    "reason": "held across three regimes",
                },
                {
                    "entry_id": "e7",
                    "from_confidence": 0.5,
                    "to_confidence": 0.9,
                    "reason": "it never failed",
                },
            ],
            "cross_references": [
                {"source_id": "e3", "target_id": "e7", "relationship": "supports", "strength": 0.8},
                {
                    "source_id": "e4",
                    "target_id": "e12",
                    "relationship": "contradicts",
                    "strength": 0.5,
                },
            ],
        },
    ),
    (
        "I reviewed 20 entries. Promote g-0042 to a heuristic: it survived two crashes. "
        "Entry e5 extends e6, strength 70%. 2 were archived.",
        {
            "entries_evaluated": 20,
            "entries_retained": 18,
            "entries_pruned": 2,
            "promotions": [
                {
                    "entry_id": "g-0042",
                    "from_confidence": 0.5,
                    "to_confidence": 0.5,
                    "reason": "it survived two crashes.",
                }
            ],
            "cross_references": [
                {"source_id": "e5", "target_id": "e6", "relationship": "extends", "strength": 0.7}
            ],
        },
    ),
    (
        "Evaluated: 8\nRetained: 8\nPruned: 0",
        {"entries_evaluated": 8, "entries_retained": 8, "entries_pruned": 0},
    ),
    (
        "Pruned e2 and e3; kept 10.",
        {
            "entries_evaluated": 12,
            "entries_retained": 10,
            "entries_pruned": 2,
            "prune_ids": ["e2", "e3"],
        },
    ),
    (
        # A negated relation is no link.
        "Cross-references:\n- e3 supports e7 (0.8)\n- e4 contradicts e12\n- e1 does not support e2",
        {
            "cross_references": [
                {"source_id": "e3", "target_id": "e7", "relationship": "supports", "strength": 0.8},
                {
                    "source_id": "e4",
                    "target_id": "e12",
                    "relationship": "contradicts",
                    "strength": 0.5,
                },
            ]
        },
    ),
    (
        "Promotions:\n1. e12 → 0.8: held across three regimes\n"
        "2. e7 from .5 to .7 because it never failed\nEvaluated 15. Grimoire health: 72%",
        {
            "entries_evaluated": 15,
            "entries_retained": 15,
            "entries_pruned": 0,
            "promotions": [
                {
                    "entry_id": "e12",
                    "from_confidence": 0.5,
                    "to_confidence": 0.8,
                    "reason": "held across three regimes",
                },
                {
                    "entry_id": "e7",
                    "from_confidence": 0.5,
                    "to_confidence": 0.7,
                    "reason": "it never failed",
                },
            ],
            "grimoire_health": 0.72,
        },
    ),
    (
        "**Evaluated:** 30 | **Retained:** 25 | **Pruned:** 5\n"
        "**Prune ids:** e-101, e-102, e-103, e-104, e-105",
        {
            "entries_evaluated": 30,
            "entries_retained": 25,
            "entries_pruned": 5,
            "prune_ids": ["e-101", "e-102", "e-103", "e-104", "e-105"],
        },
    ),
    (
        "evaluated=10 retained=7 pruned=3 prune_ids=[n1, n2, n3]",
        {
            "entries_evaluated": 10,
            "entries_retained": 7,
            "entries_pruned": 3,
            "prune_ids": ["n1", "n2", "n3"],
        },
    ),
    (
        "Of 40 entries reviewed, 35 retained and 5 removed. Promote ins_7 up to playbook.",
        {
            "entries_evaluated": 40,
            "entries_retained": 35,
            "entries_pruned": 5,
            "promotions": [
                {"entry_id": "ins_7", "from_confidence": 0.5, "to_confidence": 0.5, "reason": ""}
            ],
        },
    ),
    (
        "Nothing to prune. All 6 entries kept. Entry e2 contradicts e5 (strength 0.9).",
        {
            "entries_evaluated": 6,
            "entries_retained": 6,
            "entries_pruned": 0,
            "cross_references": [
                {
                    "source_id": "e2",
                    "target_id": "e5",
                    "relationship": "contradicts",
                    "strength": 0.9,
                }
            ],
        },
    ),
    (
        "#12 supports #14.",
        {
            "entries_evaluated": 0,
            "cross_references": [
                {
                    "source_id": "#12",
                    "target_id": "#14",
                    "relationship": "supports",
                    "strength": 0.5,
                }
            ],
        },
    ),
    (
        "## Prune\n- e3 (stale for three cycles)\n- e8\n## Promote\n- e5 → insight",
        {
            "prune_ids": ["e3", "e8"],
            "entries_pruned": 2,
            "promotions": [
                {"entry_id": "e5", "from_confidence": 0.5, "to_confidence": 0.5, "reason": ""}
            ],
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(CuratorEvaluation, text, expected)


@pytest.mark.parametrize("text", ["Nothing to say about the grimoire.", "The curator slept."])
def test_nothing_curated_is_unparseable(text: str) -> None:
    assert_unparseable(CuratorEvaluation, text)
