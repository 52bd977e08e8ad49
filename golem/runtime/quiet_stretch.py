"""A quiet stretch's heartbeat decisions as one record (issue [speed]): what `done` quiet
ticks in a row decided by the rules (T0: PE below the gate, observe, severity low when a
probe fired and none when none did), published on the `RecordStream` instead of `done`
`DecisionRecord`s: once, or in a few pieces where a tick of the stretch tells something
of its own (a vitality reading, a log line), which then follows the ticks before it.

A subscriber that hears stretches (`hear_quiet`: the log's sink, the simulator's tally,
judgement, outcomes and strategies) handles them in bulk with the same effect as the
records they stand for; any other subscriber is handed those records one by one
(`records()`: each as `Decisions.run` would have published it, except that it carries no
`situation`, which only a simulation's judges read, and they hear stretches).

The log keeps the stretch as one line (`fields()`, event `quiet_stretch`) from which the
log's readers (`golem inspect`, a recorded life's feed) expand the decisions' own lines,
value for value (golem/runtime/logs/quiet.py)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar, Protocol

from msgspec import Struct

from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime.record import DecisionRecord
from golem.subsystems.contract import Outcome, PortfolioView
from golem.subsystems.heartbeat.decision import HeartbeatDecision
from golem.subsystems.heartbeat.subsystem import market_fields
from golem.world import MarketSummary

__all__ = ["HearsQuiet", "QuietStretch", "quiet_record"]

_HEARTBEAT, _T0 = SubsystemName.HEARTBEAT, ModelTier.T0
_SOURCE, _TIER = "deterministic", str(_T0)


class QuietStretch(Struct, frozen=True, kw_only=True):
    """`len(times)` heartbeat decisions of the rules on quiet ticks from `first_tick`:
    for tick `first_tick + i`, made at `times[i]` on the vitality and phase the golem had
    then (`vitality[i]`, `phase[i]`: after the tick before), the gate `theta[i]`, the
    market `markets[i]` (its summary after the tick's observation) and the portfolio's
    equity marked at it (`equities[i]`; its cash and positions did not move), the
    prediction error `errors[i]` of the probes that fired (`flags[i]`). Each decision is
    `decisions[i]` (the rules' observe, severity low or none, whose rationale names the
    PE, the gate and the flags); nothing was spent and no event made. `fields()` is its
    log line."""

    event: ClassVar[str] = "quiet_stretch"

    golem: str
    first_tick: int
    times: Sequence[datetime]
    vitality: Sequence[float]
    phase: Sequence[Phase]
    theta: Sequence[float]
    errors: Sequence[float]
    flags: Sequence[tuple[str, ...]]
    decisions: Sequence[HeartbeatDecision]
    markets: Sequence[MarketSummary]
    equities: Sequence[float]
    cash: float
    positions: Mapping[str, float]

    def __len__(self) -> int:
        return len(self.times)

    def stamp(self) -> datetime:
        """The time its log line is stamped with: its last tick's (it is told after it)."""
        return self.times[-1]

    def portfolio(self, i: int) -> PortfolioView:
        """The portfolio tick `i`'s situation showed (as `Golem.context` builds it)."""
        equity, cash = self.equities[i], self.cash
        return PortfolioView(
            cash_usd=cash, equity_usd=equity, positions=self.positions, exposure_usd=equity - cash
        )

    def records(self) -> Iterator[DecisionRecord]:
        """The decisions one by one, as step by step (no `situation`, see the module)."""
        golem, first, vitality, phase = self.golem, self.first_tick, self.vitality, self.phase
        for i, time in enumerate(self.times):
            decision, theta, market = self.decisions[i], self.theta[i], self.markets[i]
            yield quiet_record(
                golem,
                first + i,
                time=time,
                vitality=vitality[i],
                phase=phase[i],
                decision=decision,
                theta=theta,
                market=market,
                error=self.errors[i],
                flags=self.flags[i],
            )

    def fields(self) -> dict[str, Any]:
        """Its log line (event `quiet_stretch`): the stretch named (its first and last tick
        and time, how many decisions, their summaries, the gate's range) and, a column a
        number, what each decision's own line would have said that the others' did not:
        `golem inspect` (logs/quiet.py) expands it back into those lines, rounding the
        numbers each line states rounded (vitality, θ, PE, the market's) as it does."""
        dumped: dict[int, int] = {}  # a decision's place in `decisions`, by its identity
        decisions: list[dict[str, Any]] = []
        summaries: list[str] = []  # each of `decisions`' outcome summary
        which: list[int] = []
        for decision in self.decisions:
            at = dumped.get(id(decision))
            if at is None:
                at = dumped[id(decision)] = len(decisions)
                decisions.append(decision.json_fields())
                summaries.append(f"{decision.severity}: {decision.action}")
            which.append(at)
        times, theta, last = self.times, self.theta, len(self.times) - 1
        return {
            "golem": self.golem,
            "subsystem": str(_HEARTBEAT),
            "tier": _TIER,
            "tier_asked": _TIER,
            "source": _SOURCE,
            "count": last + 1,
            "first_tick": self.first_tick,
            "last_tick": self.first_tick + last,
            "first_time": times[0],
            "last_time": times[last],
            "summary": "; ".join(dict.fromkeys(summaries)),
            "theta_min": round(min(theta), 4),
            "theta_max": round(max(theta), 4),
            "decisions": decisions,
            "summaries": summaries,
            "ticks": {
                "time": list(times),
                "decision": which,
                # As the decision's own line states them but not rounded: the readers
                # round them (logs/quiet.py; a float's JSON reads back the same float).
                "vitality": list(self.vitality),
                "phase": [str(p) for p in self.phase],
                "theta": list(theta),
                "prediction_error": list(self.errors),
                "flags": [list(f) for f in self.flags],
                "market": [_market(m) for m in self.markets],
            },
        }


def quiet_record(
    golem: str,
    tick: int,
    *,
    time: datetime,
    vitality: float,
    phase: Phase,
    decision: HeartbeatDecision,
    theta: float,
    market: MarketSummary,
    error: float,
    flags: tuple[str, ...],
) -> DecisionRecord:
    """A quiet tick's record as `Decisions.run` publishes it, but for its `situation`:
    the rules' `decision` on the gate `theta`, `market` and the probes that fired (their
    `flags`, their PE `error`), which changed nothing."""
    return DecisionRecord(
        golem=golem,
        time=time,
        vitality=vitality,
        phase=phase,
        subsystem=_HEARTBEAT,
        tick=tick,
        tier_asked=_T0,
        tier=_T0,
        source=_SOURCE,
        decision=decision,
        outcome=Outcome(
            summary=f"{decision.severity}: {decision.action}",
            details=_details(theta, market, error, flags),
        ),
    )


class HearsQuiet(Protocol):
    """A subscriber that handles a quiet stretch in bulk (the stream hands the others its
    records one by one)."""

    def hear_quiet(self, stretch: QuietStretch) -> None: ...


def _details(
    theta: float, market: MarketSummary, error: float, flags: tuple[str, ...]
) -> dict[str, Any]:
    """The heartbeat's outcome details on a quiet tick (`Heartbeat.act`'s)."""
    return {
        "prediction_error": _error(error),
        "theta": round(theta, 4),
        "flags": list(flags),
        "market": market_fields(market),
    }


def _market(m: MarketSummary) -> dict[str, float]:
    """`market_fields(m)` but not rounded (the same names, for the same numbers)."""
    market: dict[str, float] = {}
    if m.delta_period is not None:
        market["price_delta"] = m.delta_period
    if m.delta_1 is not None:
        market["price_delta_tick"] = m.delta_1
    if m.zscore is not None:
        market["zscore"] = m.zscore
    if m.volume_ratio is not None:
        market["volume_ratio"] = m.volume_ratio
    if m.health_factor is not None:
        market["health_factor"] = m.health_factor
    return market


def _error(error: float) -> float:
    """A PE as the heartbeat's details state it (most are 0.0, kept as they are)."""
    return round(error, 4) if error else error
