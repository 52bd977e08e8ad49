"""How often the heartbeat beats: a base interval stretched by the phase, a pure function
the runtime's scheduler reads when it builds the heartbeat's trigger. Both numbers are
the config's (`[heartbeat] interval` and `conservation_factor`, compiled once)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from pydantic import BaseModel, ConfigDict, Field

from golem.mortality import Phase

__all__ = ["HeartbeatSchedule", "interval", "interval_multiplier"]


class HeartbeatSchedule(BaseModel):
    """`multipliers`: the phase's factor on `base_interval_s` (a phase not listed: 1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_interval_s: float = Field(gt=0)
    multipliers: Mapping[Phase, float]

    @classmethod
    def conserving(cls, base_interval_s: float, factor: float) -> HeartbeatSchedule:
        """Every phase from Conservation down beats `factor` times slower (the phases
        below it conserve at least as hard; in Terminal the ticks only feed death)."""
        slow = {Phase.CONSERVATION, Phase.DECLINING, Phase.TERMINAL}
        return cls(
            base_interval_s=base_interval_s,
            multipliers={phase: factor if phase in slow else 1.0 for phase in Phase},
        )


def interval_multiplier(phase: Phase, schedule: HeartbeatSchedule) -> float:
    return schedule.multipliers.get(phase, 1.0)


def interval(phase: Phase, schedule: HeartbeatSchedule) -> timedelta:
    """The time between two heartbeats in `phase`."""
    return timedelta(seconds=schedule.base_interval_s * interval_multiplier(phase, schedule))
