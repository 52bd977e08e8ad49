"""The truth at a tick: what a simulated world knows and no golem can (the regime the market
is in and the move it is about to make over the episode horizon), and the size classes a
move is graded in. A simulation hands it to the synthetic provider's minds, which answer
from it as often as the quality the call paid for allows; the daemon has none.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from msgspec import Struct, field

from golem.world.costs import CostModel
from golem.world.observation import Observation, Regime

__all__ = ["Moment", "MoveSize", "Truth"]


class Moment(Protocol):
    """A tick of the market as a truth reads it: an `Observation`, or a window's summary
    of one."""

    @property
    def tick(self) -> int: ...

    @property
    def price(self) -> float: ...

    @property
    def regime(self) -> Regime | None: ...


class MoveSize(StrEnum):
    """How big a move is, by the heartbeat's own price probes (minor 0.5%, major 2% over
    the same horizon by default): the size a golem would call notable or severe."""

    NONE = "none"
    MINOR = "minor"
    MAJOR = "major"


class Truth(Struct, frozen=True):
    """The world at `tick` and over the `horizon_ticks` observations after it.

    `future_return` is the price at the horizon's end ÷ the price now − 1 (the number an
    episode's prediction is scored against); `trough` the lowest price within the horizon ÷
    the price now − 1 (0 when the price never dips below now); `regime` the label the market
    carries now (a shock's, while one lasts) and `regime_ahead` the label at the horizon's end;
    `costs` what a trade costs on the venue (the paper portfolio's cost model), which a right
    answer about a trade weighs against the move.
    """

    tick: int
    price: float
    regime: Regime | None
    horizon_ticks: int
    future_return: float
    trough: float
    regime_ahead: Regime | None
    costs: CostModel = field(default_factory=CostModel)

    @classmethod
    def of(
        cls, now: Observation, ahead: Sequence[Observation], costs: CostModel | None = None
    ) -> Truth:
        """The truth of `now` given the observations that follow it (at least one)."""
        if not ahead:
            raise ValueError("the truth needs at least one observation ahead")
        low = min(observation.price for observation in ahead)
        return cls.spanning(now, ahead[-1], low, len(ahead), costs)

    @classmethod
    def spanning(
        cls,
        now: Moment,
        last: Moment,
        low: float,
        horizon_ticks: int,
        costs: CostModel | None = None,
    ) -> Truth:
        """The truth of `now` given the horizon's last observation and its lowest price (for
        a caller that keeps the horizon's minimum as it slides, rather than a list of it)."""
        price = now.price
        return cls(
            tick=now.tick,
            price=price,
            regime=now.regime,
            horizon_ticks=horizon_ticks,
            future_return=last.price / price - 1.0,
            trough=min(0.0, low / price - 1.0),
            regime_ahead=last.regime,
            costs=costs or CostModel(),
        )

    def size(self, minor: float, major: float) -> MoveSize:
        """The size of the coming move against the thresholds (fractions of the price)."""
        move = abs(self.future_return)
        if move >= major:
            return MoveSize.MAJOR
        if move >= minor:
            return MoveSize.MINOR
        return MoveSize.NONE

    @property
    def direction(self) -> float:
        """+1 for a rise, −1 for a fall, 0 for none."""
        return math.copysign(1.0, self.future_return) if self.future_return else 0.0
