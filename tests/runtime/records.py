"""Records as the golem publishes them, made by hand for the tests of their subscribers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

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


def quiet_stretch_line(timestamp: str, *, count: int) -> dict[str, Any]:
    """A `quiet_stretch` log line as an early version wrote it (no probe columns), one
    decision's columns for `count` decisions: a reader's bad or old input."""
    return {
        "timestamp": timestamp,
        "level": "info",
        "event": "quiet_stretch",
        "golem": "g",
        "subsystem": "heartbeat",
        "tier": "0",
        "tier_asked": "0",
        "source": "deterministic",
        "count": count,
        "first_tick": 1,
        "summary": "none: observe",
        "decisions": [{"severity": "none", "action": "observe"}],
        "ticks": {
            "time": ["2026-03-01T00:00:15+00:00"],
            "decision": [0],
            "vitality": [1.0],
            "phase": ["thriving"],
            "theta": [0.3],
            "market": [{}],
        },
    }
