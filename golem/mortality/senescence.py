"""Staged epistemic senescence (Bardo prd/02-mortality/02-epistemic-decay.md) as a pure state
machine in time: Stage 1 (warning: recovery actions run) when fitness falls below the
threshold; Stage 2 (senescent, confirmed) once it has stayed below for the grace; out of
Stage 2 only above threshold + recovery margin. While the current regime is still being
learned (fewer than its minimum of resolved claims) there is no pressure: the grace does
not run. The death protocol needs Stage 2 and composite vitality below its floor
(01-architecture.md); `dies` says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

__all__ = ["Senescence", "SenescenceParams", "Stage"]


class Stage(StrEnum):
    NORMAL = "normal"
    WARNING = "warning"  # Stage 1: the dream replays the largest residuals, the curator audits
    SENESCENT = "senescent"  # Stage 2: confirmed


@dataclass(frozen=True, slots=True)
class SenescenceParams:
    """Bardo's values: threshold 0.35, grace 500 ticks at ~40 s, recovery at +0.10, a
    regime learned after 20 matched samples, death below composite vitality 0.1."""

    threshold: float = 0.35
    grace: timedelta = timedelta(seconds=500 * 40)
    recovery_margin: float = 0.10
    learning_samples: int = 20
    death_vitality: float = 0.1


@dataclass(frozen=True, slots=True)
class Senescence:
    """The stage and when it began (None in Normal)."""

    stage: Stage = Stage.NORMAL
    since: datetime | None = None

    def step(
        self, now: datetime, fitness: float, *, regime_samples: int, params: SenescenceParams
    ) -> Senescence:
        """The state at `now` given the fitness read then and how many resolved claims the
        current regime has."""
        learning = regime_samples < params.learning_samples
        below = fitness < params.threshold
        if self.stage is Stage.SENESCENT:
            if fitness > params.threshold + params.recovery_margin:
                return Senescence()
            return self
        if not below:
            return Senescence()
        if self.stage is Stage.NORMAL or learning or self.since is None:
            # Learning: the fall is seen (Stage 1's recovery may run) but its grace restarts.
            return Senescence(Stage.WARNING, now)
        if now - self.since >= params.grace:
            return Senescence(Stage.SENESCENT, now)
        return self

    def dies(self, vitality: float, params: SenescenceParams) -> bool:
        """Whether the death protocol runs: confirmed senescence and vitality below the floor."""
        return self.stage is Stage.SENESCENT and vitality < params.death_vitality
