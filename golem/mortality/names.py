"""The names mortality speaks in: who spends (the budget lines, one per subsystem or
call site) and how dear a model a call may use (the model tiers).
"""

from __future__ import annotations

from enum import IntEnum, StrEnum

__all__ = ["ModelTier", "SubsystemName"]


class SubsystemName(StrEnum):
    """The daily budget's lines. The six subsystems, plus context assembly, playbook
    updates and the operator's conversations, which spend money too."""

    HEARTBEAT = "heartbeat"
    RISK = "risk"
    DREAM = "dream"
    DAIMON = "daimon"
    CONTEXT = "context"
    CURATOR = "curator"
    PLAYBOOK = "playbook"
    OPERATOR = "operator"
    DEATH = "death"


class ModelTier(IntEnum):
    """How dear a model a call uses, ordered so a ceiling is a comparison."""

    T0 = 0  # deterministic: no model at all
    T1 = 1  # the cheap model
    T2 = 2  # the top-tier (strong) model
