"""What the dashboard draws over time (GET /history): each vitality reading the golem
told (its vitality, clocks, phase, credits, burn and equity) with the asset's price then,
and the spend of every decision summed by subsystem.

Fed from the record stream by a running golem (`LiveChronicle`), after what its state
kept of the life before (`recall`: a restarted golem's page draws its whole life at once),
or from a finished life's log lines (golem.cli.view), so a simulated life is drawn the
same way. The readings
kept are bounded: past `POINTS` every other one is dropped (the oldest first kept), so a
long life costs a fixed memory and its chart still spans it whole."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from golem.runtime.record import DecisionRecord
from golem.runtime.stream import Record, VitalityRecord

__all__ = ["POINTS", "Chronicle", "Kept", "LiveChronicle"]

POINTS = 2000  # readings kept; a chart 1280 px wide shows no more
_READING = (
    "vitality",
    "economic",
    "epistemic",
    "phase",
    "credits_usd",
    "burn_rate_usd",
    "equity_usd",
)


class Kept(Protocol):
    """What the state kept of a life (store/history.py's `Past`): readings as
    (time ISO, tick, fields, price), oldest first, and the spend by subsystem."""

    @property
    def readings(self) -> Sequence[tuple[str, int, Mapping[str, Any], float | None]]: ...
    @property
    def spend_usd(self) -> Mapping[str, float]: ...


class Chronicle:
    """Readings (oldest first) and spend by subsystem; `body()` is /history's JSON."""

    def __init__(self, keep: int = POINTS) -> None:
        if keep < 2:
            raise ValueError("a chronicle keeps at least 2 readings")
        self._keep = keep
        self._readings: list[dict[str, Any]] = []
        self._spend: dict[str, float] = {}
        self._decisions: dict[str, int] = {}

    def reading(self, time: str, tick: int, fields: Mapping[str, Any], price: float | None) -> None:
        """A vitality reading (a vitality record's log fields) at `time` (ISO)."""
        point = {"time": time, "tick": tick, **{k: fields.get(k) for k in _READING}}
        point["price"] = price
        self._readings.append(point)
        if len(self._readings) > self._keep:
            last = self._readings[-1]
            self._readings = [*self._readings[:-1:2], last]

    def recall(self, past: Callable[[int], Kept]) -> None:
        """Begin with what the state kept of the life before (a restarted golem's):
        `past(n)` gives at most n readings, and the spend by subsystem
        (`StateStore.past`)."""
        kept = past(self._keep)
        for time, tick, fields, price in kept.readings:
            self.reading(time, tick, fields, price)
        for subsystem, usd in kept.spend_usd.items():
            self._spend[subsystem] = self._spend.get(subsystem, 0.0) + usd

    def decision(self, subsystem: str, cost_usd: float) -> None:
        self._decisions[subsystem] = self._decisions.get(subsystem, 0) + 1
        if cost_usd:
            self._spend[subsystem] = self._spend.get(subsystem, 0.0) + cost_usd

    def body(self, portfolio: Mapping[str, Any] | None) -> dict[str, Any]:
        """The readings, spend and decisions by subsystem, and the portfolio as stored
        (`PaperPortfolio.to_dict()`, None when there is none)."""
        return {
            "readings": list(self._readings),
            "spend_usd": dict(sorted(self._spend.items())),
            "decisions": dict(sorted(self._decisions.items())),
            "portfolio": None if portfolio is None else dict(portfolio),
        }


class LiveChronicle(Chronicle):
    """A subscriber of a running golem's record stream (`observe`): `price` reads the
    asset's last mark when a reading comes (None before the first)."""

    def __init__(self, price: Callable[[], float | None], keep: int = POINTS) -> None:
        super().__init__(keep)
        self._price = price

    def observe(self, record: Record) -> None:
        if isinstance(record, VitalityRecord):
            self.reading(record.time.isoformat(), record.tick, record.fields(), self._price())
        elif isinstance(record, DecisionRecord):
            self.decision(str(record.subsystem), record.cost_usd)
