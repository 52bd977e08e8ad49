"""Regime adaptation (the Bardo design's sixth dimension): for each scheduled shock of the
scenario that began while the lineage lived, the ticks from the shock's start until
predictive fitness (the epistemic clock's, as the vitality readings carry it) is back at
or above its level before the shock.

- **Before the shock**: the last fitness reading strictly before the shock's start. A
  shock with no reading before it (one at the first observation) is not counted.
- **Back**: fitness scores episodes only once their horizon has passed, so it changes
  after a shock, never at its start; recovery is the first reading at or above that level
  *after* fitness has fallen below it. The fall must begin while the shock lasts or within
  REACH_TICKS of its end (the episode horizon for its last episodes to be scored, plus
  the readings' spacing of at most 40 ticks); a shock without such a fall cost no
  fitness and recovered in 0 ticks.
- **Censored**: a shock whose fitness was not back by the end of the life (still below, or
  its reach not yet over with no fall seen) is counted unrecovered, with no figure.

Ticks are the golem's heartbeat ticks, as (reading time − shock start) ÷ the heartbeat
interval, to the readings' resolution (a reading is published at least every ten minutes).
One pass over the readings per shock: O(readings × shocks), once, at the end.
"""

from __future__ import annotations

import statistics
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["REACH_TICKS", "Shock", "recovery_ticks", "regime_adaptation"]

REACH_TICKS = 60


@dataclass(frozen=True, slots=True)
class Shock:
    """A scheduled shock: when it starts and ends, in days since the scenario's start."""

    start_day: float
    end_day: float


def recovery_ticks(
    days: Sequence[float],
    fitness: Sequence[float],
    shock: Shock,
    tick_days: float,
    reach_ticks: int = REACH_TICKS,
) -> float | None:
    """The ticks from `shock`'s start until fitness was back at its level before it (see
    the module docstring), or None when it was not back by the last reading. `days` and
    `fitness` are the readings in time order; there must be one before the shock."""
    first = bisect_left(days, shock.start_day)
    if first == 0:
        raise ValueError("no fitness reading before the shock")
    before = fitness[first - 1]
    reach = shock.end_day + reach_ticks * tick_days
    fell = False
    for day, value in zip(days[first:], fitness[first:], strict=True):
        if not fell:
            if value < before:
                if day > reach:
                    return 0.0
                fell = True
            elif day > reach:
                return 0.0
        elif value >= before:
            return round((day - shock.start_day) / tick_days, 6)
    return None


def regime_adaptation(
    days: Sequence[float],
    fitness: Sequence[float],
    shocks: Sequence[Shock],
    lifespan_days: float,
    tick_days: float,
) -> dict[str, Any]:
    """adaptation_ticks_median (over the recovered shocks; None when none recovered),
    shocks_recovered, shocks_unrecovered (censored), and `adaptation_ticks`, each counted
    shock's figure in time order (None: unrecovered), for the shocks that began before
    the life's end (`lifespan_days`) with a reading before them."""
    figures: list[float | None] = []
    for shock in sorted(shocks, key=lambda s: s.start_day):
        if shock.start_day >= lifespan_days or not days or days[0] >= shock.start_day:
            continue
        figures.append(recovery_ticks(days, fitness, shock, tick_days))
    recovered = [ticks for ticks in figures if ticks is not None]
    return {
        "adaptation_ticks_median": statistics.median(recovered) if recovered else None,
        "shocks_recovered": len(recovered),
        "shocks_unrecovered": len(figures) - len(recovered),
        "adaptation_ticks": figures,
    }
