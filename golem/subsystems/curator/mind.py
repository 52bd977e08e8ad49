"""The curator's mind for the synthetic provider: it reviews the entries the brief lists,
prunes the weakest, promotes the trusted, links two, and cites no id it was not shown."""

from __future__ import annotations

from random import Random
from typing import Any

from golem.subsystems.curator.subsystem import Curator, listed
from golem.subsystems.facts import Ask, unit

__all__ = ["curator"]


def curator(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A curator_evaluation of the listed entries, by (id, confidence)."""
    entries = _entries(ask)
    pruned = [i for i, c in entries if c < 0.2 and rng.random() < 0.7][:20]
    kept = [(i, c) for i, c in entries if i not in pruned]
    promotions = [
        {
            "entry_id": i,
            "from_confidence": unit(c),
            "to_confidence": unit(c + 0.1),
            "reason": "held up",
        }
        for i, c in kept
        if c >= 0.6
    ][:2]
    links = []
    if len(kept) >= 2 and rng.random() < 0.6:
        (a, _), (b, _) = kept[0], kept[1]
        relationship = ("supports", "extends", "contradicts")[int(rng.random() * 3)]
        links.append(
            {
                "source_id": a,
                "target_id": b,
                "relationship": relationship,
                "strength": unit(rng.random()),
            }
        )
    health = sum(c for _, c in kept) / len(kept) if kept else 0.0
    return {
        "entries_evaluated": len(entries),
        "entries_retained": len(entries) - len(pruned),
        "entries_pruned": len(pruned),
        "cross_references": links,
        "promotions": promotions,
        "grimoire_health": unit(health),
        "prune_ids": pruned,
    }


def _entries(ask: Ask | None) -> list[tuple[str, float]]:
    if ask is None:
        return []
    config = ask.asked_by(Curator).config
    return [(e.id, e.confidence) for e in ask.shown(listed(ask.ctx, config))]
