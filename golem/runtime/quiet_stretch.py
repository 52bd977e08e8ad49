"""A quiet stretch's heartbeat decisions as one record (issue [speed]): what `done` quiet
ticks in a row decided by the rules (T0, observe, severity none), published once on the
`RecordStream` instead of `done` `DecisionRecord`s.

A subscriber that hears stretches (`hear_quiet`: the log's sink, the simulator's tally,
judgement, outcomes and strategies) handles them in bulk with the same effect as the
records they stand for; any other subscriber is handed those records one by one
(`records()`: each as `Decisions.run` would have published it, except that it carries no
`situation`, which only a simulation's judges read, and they hear stretches). The log
keeps one line a decision, the same lines as step by step (`lines()`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from msgspec import Struct

from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime.record import DecisionRecord
from golem.subsystems.contract import Outcome, PortfolioView
from golem.subsystems.heartbeat.decision import HeartbeatDecision
from golem.subsystems.heartbeat.subsystem import market_fields
from golem.world import MarketSummary

__all__ = ["HearsQuiet", "QuietStretch"]

_HEARTBEAT, _T0 = SubsystemName.HEARTBEAT, ModelTier.T0
_SOURCE, _TIER = "deterministic", str(_T0)
_TOKENS = {"input": 0, "output": 0, "reasoning": 0}


class QuietStretch(Struct, frozen=True, kw_only=True):
    """`len(times)` heartbeat decisions of the rules on quiet ticks from `first_tick`:
    for tick `first_tick + i`, made at `times[i]` on the vitality and phase the golem had
    then (`vitality[i]`, `phase[i]`: after the tick before), the gate `theta[i]`, the
    market `markets[i]` (its summary after the tick's observation) and the portfolio's
    equity marked at it (`equities[i]`; its cash and positions did not move). Each
    decision is `decisions[i]` (the rules' observe, severity none, whose rationale names
    the gate); nothing was spent and no event made."""

    golem: str
    first_tick: int
    times: Sequence[datetime]
    vitality: Sequence[float]
    phase: Sequence[Phase]
    theta: Sequence[float]
    decisions: Sequence[HeartbeatDecision]
    markets: Sequence[MarketSummary]
    equities: Sequence[float]
    cash: float
    positions: Mapping[str, float]

    def __len__(self) -> int:
        return len(self.times)

    def portfolio(self, i: int) -> PortfolioView:
        """The portfolio tick `i`'s situation showed (as `Golem.context` builds it)."""
        equity, cash = self.equities[i], self.cash
        return PortfolioView(
            cash_usd=cash, equity_usd=equity, positions=self.positions, exposure_usd=equity - cash
        )

    def outcome(self, i: int) -> Outcome:
        """What tick `i`'s decision changed: nothing (as `Heartbeat.act` says it)."""
        decision = self.decisions[i]
        return Outcome(
            summary=f"{decision.severity}: {decision.action}",
            details=_details(self.theta[i], self.markets[i]),
        )

    def records(self) -> Iterator[DecisionRecord]:
        """The decisions one by one, as step by step (no `situation`, see the module)."""
        golem, first = self.golem, self.first_tick
        for i, time in enumerate(self.times):
            yield DecisionRecord(
                golem=golem,
                time=time,
                vitality=self.vitality[i],
                phase=self.phase[i],
                subsystem=_HEARTBEAT,
                tick=first + i,
                tier_asked=_T0,
                tier=_T0,
                source=_SOURCE,
                decision=self.decisions[i],
                outcome=self.outcome(i),
            )

    def lines(self) -> Iterator[tuple[datetime, dict[str, Any]]]:
        """Each decision's time and log fields, value for value `DecisionRecord.fields()`
        of the record it stands for, made without the record."""
        golem, first, times = self.golem, self.first_tick, self.times
        vitality, phase, theta, markets = self.vitality, self.phase, self.theta, self.markets
        dumped: dict[int, tuple[dict[str, Any], str]] = {}  # a few distinct decisions
        for i, time in enumerate(times):
            decision = self.decisions[i]
            known = dumped.get(id(decision))
            if known is None:
                summary = f"{decision.severity}: {decision.action}"
                known = dumped[id(decision)] = (decision.json_fields(), summary)
            yield (
                time,
                {
                    "golem": golem,
                    "time": time,
                    "tick": first + i,
                    "subsystem": "heartbeat",
                    "tier": _TIER,
                    "tier_asked": _TIER,
                    "source": _SOURCE,
                    "vitality": round(vitality[i], 6),
                    "phase": str(phase[i]),
                    "cost_usd": 0.0,
                    "tokens": dict(_TOKENS),
                    "decision": known[0],
                    "summary": known[1],
                    **_details(theta[i], markets[i]),
                },
            )


class HearsQuiet(Protocol):
    """A subscriber that handles a quiet stretch in bulk (the stream hands the others its
    records one by one)."""

    def hear_quiet(self, stretch: QuietStretch) -> None: ...


def _details(theta: float, market: MarketSummary) -> dict[str, Any]:
    """The heartbeat's outcome details on a quiet tick (no probe fired: PE 0.0)."""
    return {
        "prediction_error": 0.0,
        "theta": round(theta, 4),
        "flags": [],
        "market": market_fields(market),
    }
