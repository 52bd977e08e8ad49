"""The golem's records as it makes them: each decision (`DecisionRecord`) and each vitality
reading worth telling (`VitalityRecord`) goes to every subscriber, in the order they
subscribed: the log file's sink, the simulator's tally, whoever else wants them. A
subscriber reads the typed record; nobody re-parses a log line to learn what it says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, ClassVar

from msgspec import Struct

from golem.mortality import Phase
from golem.runtime.quiet_stretch import QuietStretch
from golem.runtime.record import DecisionRecord

__all__ = ["Record", "RecordStream", "Subscriber", "VitalityRecord"]


class VitalityRecord(Struct, frozen=True, kw_only=True):
    """A tick's vitality, its two clocks and the money behind them; `fields()` is its log
    line. Published when it is news (see `Golem`): the store keeps every tick's."""

    event: ClassVar[str] = "vitality"

    golem: str
    tick: int
    time: datetime
    vitality: float
    phase: Phase
    economic: float
    epistemic: float
    burn_rate_usd: float
    credits_usd: float
    equity_usd: float
    senescent: bool = False  # its forecasts below the threshold (senescence's stage 1 on)
    confirmed: bool = False  # below for the whole grace: senescence's stage 2
    # Told after its tick (a fast-forwarded tick's, told when its stretch commits): its
    # log line is stamped with its tick's `time`, not with the writer's now.
    late: bool = False

    def stamp(self) -> datetime | None:
        """The time its log line is stamped with (None: when it is written)."""
        return self.time if self.late else None

    def fields(self) -> dict[str, Any]:
        return {
            "golem": self.golem,
            "tick": self.tick,
            "vitality": round(self.vitality, 6),
            "phase": str(self.phase),
            "economic": round(self.economic, 6),
            "epistemic": round(self.epistemic, 6),
            "burn_rate_usd": self.burn_rate_usd,
            "credits_usd": self.credits_usd,
            "equity_usd": round(self.equity_usd, 2),
        }


Record = DecisionRecord | VitalityRecord
Subscriber = Callable[[Record], None]


class RecordStream:
    """Hands each published record to every subscriber, in order. A subscriber that
    raises stops the publishing golem's job, as any bug in it would.

    `hold`, when given, is when a record may be told (`StateStore.at_commit`): a record
    of a tick reaches the subscribers once the tick commits, and never if it rolls back,
    so the log says only what the state committed. A subscriber that writes to the state
    itself (the request archive) subscribes `within` the transaction instead: its writes
    commit or roll back with the tick's.

    A `QuietStretch` (a fast-forward's quiet decisions, quiet_stretch.py) goes whole to a
    subscriber that hears stretches (its object has `hear_quiet`), and as the records it
    stands for, one by one, to any other."""

    __slots__ = ("_hold", "_quiet", "_subscribers", "_within")

    def __init__(
        self,
        subscribers: Iterable[Subscriber] = (),
        *,
        hold: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        self._subscribers = list(subscribers)
        self._within: list[Subscriber] = []
        self._hold = hold
        self._quiet: dict[int, Callable[[QuietStretch], None] | None] = {}

    def subscribe(self, subscriber: Subscriber, *, within: bool = False) -> None:
        (self._within if within else self._subscribers).append(subscriber)

    def publish(self, record: Record | QuietStretch) -> None:
        if isinstance(record, QuietStretch):
            self.publish_quiet(record)
            return
        for subscriber in self._within:
            subscriber(record)
        if self._hold is None:
            self._tell(record)
        else:
            self._hold(lambda: self._tell(record))

    def publish_quiet(self, stretch: QuietStretch) -> None:
        """A quiet stretch's decisions: to each subscriber as `publish` would hand them
        one by one, in bulk to those that hear stretches."""
        if not len(stretch):
            return
        for subscriber in self._within:
            self._hear(subscriber, stretch)
        if self._hold is None:
            self._tell_quiet(stretch)
        else:
            self._hold(lambda: self._tell_quiet(stretch))

    def _tell(self, record: Record) -> None:
        for subscriber in self._subscribers:
            subscriber(record)

    def _tell_quiet(self, stretch: QuietStretch) -> None:
        for subscriber in self._subscribers:
            self._hear(subscriber, stretch)

    def _hear(self, subscriber: Subscriber, stretch: QuietStretch) -> None:
        key = id(subscriber)
        if key not in self._quiet:  # a bound method's object, or the callable object
            owner = getattr(subscriber, "__self__", subscriber)
            self._quiet[key] = getattr(owner, "hear_quiet", None)
        hear = self._quiet[key]
        if hear is not None:
            hear(stretch)
            return
        for record in stretch.records():
            subscriber(record)
