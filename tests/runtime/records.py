"""Records as the golem publishes them, made by hand for the tests of their subscribers."""

from __future__ import annotations

from datetime import datetime

from golem.inference import Response
from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime.record import DecisionRecord


def decision(
    time: datetime,
    subsystem: str = "heartbeat",
    tier: int = 0,
    source: str = "deterministic",
    *,
    phase: str = "stable",
    attempts: int | None = None,
) -> DecisionRecord:
    """A decision record; `attempts` gives it a model's response that took that many."""
    return DecisionRecord(
        golem="g1",
        time=time,
        vitality=0.7,
        phase=Phase(phase),
        subsystem=SubsystemName(subsystem),
        tick=0,
        tier_asked=ModelTier(tier),
        tier=ModelTier(tier),
        source=source,
        response=None if attempts is None else Response(attempts=attempts),
    )
