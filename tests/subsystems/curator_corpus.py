"""Free-text curator passes as models write them, each with the counts (and ids) it means."""

from __future__ import annotations

from typing import Any

CORPUS: list[tuple[str, dict[str, Any]]] = [
    (
        "Entries evaluated: 12\nRetained: 9\nPruned: 3\nGrimoire health: 0.7",
        {
            "entries_evaluated": 12,
            "entries_retained": 9,
            "entries_pruned": 3,
            "grimoire_health": 0.7,
        },
    ),
    (
        "I reviewed 8 entries, kept 6 and pruned 2 (e3, e7). Health is about 80%.",
        {
            "entries_evaluated": 8,
            "entries_retained": 6,
            "entries_pruned": 2,
            "prune_ids": ["e3", "e7"],
        },
    ),
    (
        "Of the 20 entries, 15 stay and 5 go. e12 supports e14. Promote e9 from 0.6 to 0.8.",
        {"entries_evaluated": 20, "entries_pruned": 5},
    ),
    (
        "evaluated=10 retained=10 pruned=0 health=.9",
        {"entries_evaluated": 10, "entries_retained": 10, "entries_pruned": 0},
    ),
    (
        (
            "**Evaluated:** 5\n**Pruned:** 1 (g-0042, contradicted by recent data)\n"
            "**Cross-references:**\n- g-0001 extends g-0007\n- g-0003 contradicts g-0001"
        ),
        {"entries_evaluated": 5, "entries_pruned": 1, "entries_retained": 4},
    ),
    (
        "All 7 entries reviewed; none pruned. The grimoire is healthy (0.85).",
        {"entries_evaluated": 7, "entries_pruned": 0, "entries_retained": 7},
    ),
    (
        "Removed entries e2 and e5 as stale. 11 evaluated in total.",
        {"entries_evaluated": 11, "entries_pruned": 2, "prune_ids": ["e2", "e5"]},
    ),
    (
        "Pruning: e4, e8, e9\nRetained: 12\nEvaluated: 15",
        {"entries_evaluated": 15, "entries_retained": 12, "entries_pruned": 3},
    ),
    (
        "I looked at twelve entries. Nine are fine, three are stale and should be pruned.",
        {"entries_evaluated": 12, "entries_pruned": 3},
    ),
    (
        "| Evaluated | Retained | Pruned |\n|---|---|---|\n| 9 | 7 | 2 |",
        {"entries_evaluated": 9, "entries_retained": 7, "entries_pruned": 2},
    ),
    (
        "Promotions:\n- e5: 0.5 -> 0.7, held in three regimes\nEvaluated 6, pruned 0.",
        {"entries_evaluated": 6, "entries_pruned": 0},
    ),
    # Written with the second development corpus's misses in view: counts in words, "kept N of
    # M", snake_case keys, "there were N", entries called good or stale.
    (
        "Kept 9 of 12 entries; the other three were pruned for contradicting recent replays.",
        {"entries_evaluated": 12, "entries_retained": 9, "entries_pruned": 3},
    ),
    (
        "Reviewed fourteen entries, retained eleven, pruned three.",
        {"entries_evaluated": 14, "entries_retained": 11, "entries_pruned": 3},
    ),
    (
        "entries_evaluated: 5\nentries_retained: 4\nentries_pruned: 1\ngrimoire_health: 0.8",
        {"entries_evaluated": 5, "entries_retained": 4, "entries_pruned": 1},
    ),
    (
        "There were 9 entries. The useful ones are 6, the outdated ones are 3.",
        {"entries_evaluated": 9, "entries_retained": 6, "entries_pruned": 3},
    ),
    (
        "Checked 6 entries, all still valid; nothing to prune.",
        {"entries_evaluated": 6, "entries_retained": 6, "entries_pruned": 0},
    ),
]
