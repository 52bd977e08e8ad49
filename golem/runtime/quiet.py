"""Fast-forward (issue [speed]): a simulated golem lives a quiet stretch of heartbeats in
bulk instead of one scheduled tick at a time, with the same answers.

A tick is *quiet* when nothing in it can change what a later decision reads except through
accumulators the parts below advance: the market's observation fires no probe (so the rules
decide, at T0, to observe), no job other than the heartbeat is due, no owner's command,
approval or steer waits, no feed item arrives, and no clock crosses a threshold. Most
simulated ticks are quiet (17,260 of 17,505 decisions in 3 days of decline).

The driver (`Golem.fast_forward`, called from the heartbeat job of a simulated life when
`LifeOptions.fast_forward` is set) builds a `Stretch`: the heartbeat's next fire times up
to the next boundary (another job's fire, the life's end, the hour, the reserve's
recalculation). Each part of the golem that changes on a quiet tick implements
`QuietPart`; the driver calls, in this order,

    n = min(part.begin(stretch) for part in parts)   # vectorised preparation; a bound
    for i in range(n):                                # one tight loop of scalar steps
        if not all(part.admits(i) for parts that have it): stop before tick i
        events = [e for part in parts for e in part.step(i)]
        if events or golem died: stop after tick i
    for part in parts: part.end(done)                 # what the `done` ticks made, in bulk

and finishes the last tick as the step-by-step `Golem.tick` does (death, the daimon's
appraisal of the events). The step-by-step path stays as the reference: the same seed
gives a byte-identical summary.json either way (tests/simulation/test_fast_forward.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import numpy as np
import numpy.typing as npt

from golem.subsystems.contract import Event
from golem.subsystems.heartbeat.probes import Reading
from golem.world import MarketSummary

__all__ = ["QuietPart", "Stretch"]


@dataclass(slots=True)
class Stretch:
    """The heartbeats a golem may live in bulk, and what the parts share about them.

    `first_tick` is the golem's tick number at `times[0]`; `times` the heartbeat's fire
    times (at most up to the next boundary). The senses part fills the market side in its
    `begin`, before the other parts begin: the window's summary after each observation,
    the prices and the portfolio's equity marked at each, and the T0 probes that fired
    at each (`fired`: those its `allows` let through, light enough that the rules may
    still decide the tick). Arrays are indexed like `times` and hold at least as many
    entries as the senses part allows ticks."""

    first_tick: int
    times: Sequence[datetime]
    summaries: list[MarketSummary] = field(default_factory=list)
    prices: npt.NDArray[np.float64] = field(default_factory=lambda: np.empty(0))
    equities: npt.NDArray[np.float64] = field(default_factory=lambda: np.empty(0))
    fired: list[tuple[Reading, ...]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.times)


class QuietPart(Protocol):
    """One part of a golem that a quiet tick changes, advanced over a stretch.

    The contract: `begin`, then `step(0)`, …, `step(done - 1)`, then `end(done)` leave the
    part (its state in memory, what it wrote to the store, what it published on the record
    stream, what it logged) exactly as `done` step-by-step quiet ticks would have, value
    for value. A part's test says so against the step-by-step path.

    A part whose say on a tick depends on what the ticks before it left (the records'
    gate θ, on the vitality after the tick before) may also have `admits(i) -> bool`:
    the driver asks it before any part's `step(i)` (after every part's `step(i - 1)`),
    and a tick one part does not admit ends the stretch before it (`end(i)`; the
    step-by-step tick lives it)."""

    def begin(self, stretch: Stretch) -> int:
        """Prepare for `stretch` (vectorised where that is the natural form); return how
        many of its ticks, from the first, this part can live in bulk (0: none; the
        step-by-step tick runs instead)."""
        ...

    def step(self, i: int) -> Sequence[Event]:
        """Live the stretch's tick `i`; the events it makes (any event ends the stretch
        after this tick, and the driver finishes the tick as `Golem.tick` would)."""
        ...

    def end(self, done: int) -> None:
        """The stretch ended after `done` ticks (`done` <= what `begin` allowed): write
        in bulk what they made, and leave anything prepared beyond them unconsumed."""
        ...
