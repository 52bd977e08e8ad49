"""Free-text testaments as models write them, each with the arc class and how many lessons
(`learned`: a count) it means."""

from __future__ import annotations

from typing import Any

CORPUS: list[tuple[str, dict[str, Any]]] = [
    (
        (
            "Killed by: a liquidation cascade on day 41\nLearned:\n- hedges pay in crashes\n- "
            "thin books punish size\nGot wrong:\n- I held through the first drop\nArc class: "
            "tragic"
        ),
        {"arc_class": "tragic", "learned": 2},
    ),
    (
        (
            "I learned that patience beats activity. My biggest mistake was ignoring funding. "
            "What killed me: running out of credits. It was a redemptive story in the end."
        ),
        {"arc_class": "redemptive", "learned": 1},
    ),
    (
        (
            "## What I learned\n1. Volatility clusters\n## What I got wrong\n1. Over-trading\n## "
            "Cause of death\nEconomic: the wallet emptied.\n## Arc\nSteady decline: tragic."
        ),
        {"arc_class": "tragic", "learned": 1},
    ),
    (
        "killed_by=credit exhaustion; learned=small positions survive; arc_class=stable",
        {"arc_class": "stable"},
    ),
    (
        (
            "Lessons: trust the health factor probe; never chase breakouts.\nDeath: old age (the "
            "hayflick limit).\nMy life was a progressive one, slow steady gains."
        ),
        {"arc_class": "progressive", "learned": 2},
    ),
    (
        (
            "It started well and went bad. Contaminating arc. I was wrong about the stablecoin "
            "peg. Killed by the depeg."
        ),
        {"arc_class": "contaminating"},
    ),
    (
        (
            "**Learned**: risk limits matter\n**Killed by**: a hack on the lending pool\n**Would "
            "change**: diversify protocols\n**Arc class**: Tragic"
        ),
        {"arc_class": "tragic", "learned": 1},
    ),
    (
        (
            "What killed me was slow bleed from fees. I learned fees compound. Not a tragic arc, "
            "a stable one."
        ),
        {"arc_class": "stable", "learned": 1},
    ),
    (
        (
            "Learned: volatility clusters. Got wrong: position sizing. Killed by: drawdown. The "
            "arc was redemptive: early losses, late recovery."
        ),
        {"arc_class": "redemptive", "learned": 1},
    ),
    (
        (
            "i learned that i should hedge earlier i learned that i should hedge earlier and i "
            "got killed by the crash the crash"
        ),
        {"learned": 1},
    ),
]
