"""Curator: the periodic review of the grimoire. Entries are kept, pruned or promoted a
tier, and linked where they support, contradict or refine each other."""

from golem.subsystems.curator.decision import (
    CrossRef,
    CuratorEvaluation,
    Promotion,
    Relationship,
)
from golem.subsystems.curator.rules import CuratorConfig
from golem.subsystems.curator.subsystem import Curator

__all__ = [
    "CrossRef",
    "Curator",
    "CuratorConfig",
    "CuratorEvaluation",
    "Promotion",
    "Relationship",
]
