"""How often the heartbeat beats: a base interval (15 s) stretched by the phase, a pure
function the runtime's scheduler reads when it builds the heartbeat's trigger."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from pydantic import BaseModel, ConfigDict, Field

from golem.mortality import Phase

__all__ = ["HeartbeatSchedule", "interval", "interval_multiplier"]

# Conservation doubles the interval; the phases below it keep it doubled (they conserve
# at least as hard), and in Terminal the ticks only feed the death subsystem.
_MULTIPLIERS: Mapping[Phase, float] = {
    Phase.THRIVING: 1.0,
    Phase.STABLE: 1.0,
    Phase.CONSERVATION: 2.0,
    Phase.DECLINING: 2.0,
    Phase.TERMINAL: 2.0,
}


class HeartbeatSchedule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    base_interval_s: float = Field(default=15.0, gt=0)
    multipliers: Mapping[Phase, float] = Field(default_factory=lambda: dict(_MULTIPLIERS))

    @classmethod
    def conserving(cls, base_interval_s: float, factor: float) -> HeartbeatSchedule:
        """Every phase from Conservation down beats `factor` times slower."""
        slow = {Phase.CONSERVATION, Phase.DECLINING, Phase.TERMINAL}
        return cls(
            base_interval_s=base_interval_s,
            multipliers={phase: factor if phase in slow else 1.0 for phase in Phase},
        )


def interval_multiplier(phase: Phase, schedule: HeartbeatSchedule | None = None) -> float:
    return (schedule or HeartbeatSchedule()).multipliers.get(phase, 1.0)


def interval(phase: Phase, schedule: HeartbeatSchedule | None = None) -> timedelta:
    """The time between two heartbeats in `phase`."""
    schedule = schedule or HeartbeatSchedule()
    return timedelta(seconds=schedule.base_interval_s * interval_multiplier(phase, schedule))
