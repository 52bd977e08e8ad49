"""Curator: the periodic review of the grimoire. Entries are kept, pruned or promoted a
tier, and linked where they support, contradict or refine each other."""

from golem.subsystems.curator.decision import (
    CrossRef,
    CuratorEvaluation,
    Promotion,
    Relation,
    Tier,
)

__all__ = ["CrossRef", "CuratorEvaluation", "Promotion", "Relation", "Tier"]
