"""CuratorEvaluation.from_text on varied free-text answers."""

from __future__ import annotations

from typing import Any

import pytest

from golem.subsystems.curator import CuratorEvaluation

from .reading import assert_reads, assert_unparseable

CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "Evaluated 12 entries; retained 9 and pruned 3.\nPruned: e1, e4, e9\nPromotions:\n"
        "- e12 → heuristic: held across three regimes\n- e7 to playbook because it never failed\n"
        "Cross-references:\n- e3 supports e7 (0.8)\n- e4 contradicts e12\nSummary: a tidy pass.",
        {
            "evaluated": 12,
            "retained": 9,
            "pruned": 3,
            "prune_ids": ["e1", "e4", "e9"],
            "promotions": [
                {"entry_id": "e12", "to_tier": "heuristic", "reason": "held across three regimes"},
                {"entry_id": "e7", "to_tier": "playbook", "reason": "it never failed"},
            ],
            "cross_refs": [
                {"source_id": "e3", "target_id": "e7", "relation": "supports", "strength": 0.8},
                {"source_id": "e4", "target_id": "e12", "relation": "contradicts", "strength": 0.5},
            ],
            "summary": "a tidy pass.",
        },
    ),
    (
        "I reviewed 20 entries. Promote g-0042 to a heuristic: it survived two crashes. "
        "Entry e5 refines e6, strength 70%. 2 were archived.",
        {
            "evaluated": 20,
            "retained": 18,
            "pruned": 2,
            "promotions": [
                {"entry_id": "g-0042", "to_tier": "heuristic", "reason": "it survived two crashes."}
            ],
            "cross_refs": [
                {"source_id": "e5", "target_id": "e6", "relation": "refines", "strength": 0.7}
            ],
        },
    ),
    ("Evaluated: 8\nRetained: 8\nPruned: 0", {"evaluated": 8, "retained": 8, "pruned": 0}),
    (
        "Pruned e2 and e3; kept 10.",
        {"evaluated": 12, "retained": 10, "pruned": 2, "prune_ids": ["e2", "e3"]},
    ),
    (
        # A negated relation is no link.
        "Cross-references:\n- e3 supports e7 (0.8)\n- e4 contradicts e12\n- e1 does not support e2",
        {
            "cross_refs": [
                {"source_id": "e3", "target_id": "e7", "relation": "supports", "strength": 0.8},
                {"source_id": "e4", "target_id": "e12", "relation": "contradicts", "strength": 0.5},
            ]
        },
    ),
    (
        "Promotions:\n1. e12 → heuristic: held across three regimes\n"
        "2. e7 to playbook because it never failed\nEvaluated 15.",
        {
            "evaluated": 15,
            "retained": 15,
            "pruned": 0,
            "promotions": [
                {"entry_id": "e12", "to_tier": "heuristic", "reason": "held across three regimes"},
                {"entry_id": "e7", "to_tier": "playbook", "reason": "it never failed"},
            ],
        },
    ),
    (
        "**Evaluated:** 30 | **Retained:** 25 | **Pruned:** 5\n"
        "**Prune ids:** e-101, e-102, e-103, e-104, e-105",
        {
            "evaluated": 30,
            "retained": 25,
            "pruned": 5,
            "prune_ids": ["e-101", "e-102", "e-103", "e-104", "e-105"],
        },
    ),
    (
        "evaluated=10 retained=7 pruned=3 prune_ids=[n1, n2, n3]",
        {"evaluated": 10, "retained": 7, "pruned": 3, "prune_ids": ["n1", "n2", "n3"]},
    ),
    (
        "Of 40 entries reviewed, 35 retained and 5 removed. Promote ins_7 up to playbook.",
        {
            "evaluated": 40,
            "retained": 35,
            "pruned": 5,
            "promotions": [{"entry_id": "ins_7", "to_tier": "playbook", "reason": ""}],
        },
    ),
    (
        "Nothing to prune. All 6 entries kept. Entry e2 contradicts e5 (strength 0.9).",
        {
            "evaluated": 6,
            "retained": 6,
            "pruned": 0,
            "cross_refs": [
                {"source_id": "e2", "target_id": "e5", "relation": "contradicts", "strength": 0.9}
            ],
        },
    ),
    (
        "#12 supports #14.",
        {
            "evaluated": 0,
            "cross_refs": [
                {"source_id": "#12", "target_id": "#14", "relation": "supports", "strength": 0.5}
            ],
        },
    ),
    (
        "## Prune\n- e3 (stale for three cycles)\n- e8\n## Promote\n- e5 → insight",
        {
            "prune_ids": ["e3", "e8"],
            "pruned": 2,
            "promotions": [{"entry_id": "e5", "to_tier": "insight", "reason": ""}],
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads(text: str, expected: dict[str, Any]) -> None:
    assert_reads(CuratorEvaluation, text, expected)


@pytest.mark.parametrize("text", ["Nothing to say about the grimoire.", "The curator slept."])
def test_nothing_curated_is_unparseable(text: str) -> None:
    assert_unparseable(CuratorEvaluation, text)
