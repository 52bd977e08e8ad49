"""What one simulated life achieved, measured on its typed records as they are published (a
subscriber of the golem's stream, beside the tally) and on its end state: productive life,
days in Terminal, the paper portfolio's P&L, Sharpe and Sortino ratios and maximum
drawdown, health-factor breaches, predictive fitness over time and grimoire health (the
dimensions of the Bardo design's comparison that apply to one golem), and the golem's
return net of fees, slippage and inference beside the baselines on the same path: holding
the initial position (inaction), buying and holding, cash (the measures of a portfolio's
path are performance.py's).

Each record costs O(1); the equity and fitness readings are kept (as the tally keeps
vitality's) for the daily samples and the plots.
"""

from __future__ import annotations

import statistics
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime.quiet_stretch import QuietStretch
from golem.runtime.record import DecisionRecord
from golem.runtime.stream import Record, VitalityRecord
from golem.simulation.performance import (
    daily_samples,
    max_drawdown,
    net_returns,
    returns,
    sharpe,
    sortino,
)
from golem.subsystems.contract import GrimoireEntry

__all__ = [
    "HEALTH_FACTOR_BREACH",
    "OUTCOME_KEYS",
    "Outcomes",
    "grimoire_health",
    "outcome_distribution",
    "productive",
    "share",
    "spread",
]

# A lending position whose health factor falls below 1.0 may be liquidated (Aave's and
# Compound's definition); the simulated world models the factor, not the liquidation, so
# each fall below it is counted as one breach.
HEALTH_FACTOR_BREACH = 1.0
_DAY_S = 86_400.0
_RISK, _HEARTBEAT, _T2 = SubsystemName.RISK, SubsystemName.HEARTBEAT, ModelTier.T2
_TERMINAL = Phase.TERMINAL
# The summary keys this module adds whose distribution a batch reports (median and range).
OUTCOME_KEYS = (
    "productive_life_days",
    "risk_by_model_share",
    "terminal_days",
    "pnl_usd",
    "pnl_percent",
    "sharpe",
    "sortino",
    "max_drawdown_percent",
    "health_factor_breaches",
    "fitness_final",
    "fitness_mean",
    "grimoire_entries",
    "grimoire_validated_share",
    "grimoire_mean_confidence",
    # regime adaptation (adaptation.py) and decisions judged right (judgement.py)
    "adaptation_ticks_median",
    "shocks_recovered",
    "shocks_unrecovered",
    "correct_share_model",
    "correct_share_rules",
    "cost_per_correct_usd",
    "right_decisions",
    "right_decisions_model",
    # the golem's return and the baselines on the same path (`baselines`)
    "return_net_percent",
    "hold_initial_percent",
    "buy_hold_percent",
    "cash_percent",
    # strategy diversity and novel insights across the lineage (diversity.py), the
    # testaments' cost (deaths.py), an immortal's would-have-died (control.py)
    "strategy_niches",
    "strategy_entropy_bits",
    "insights_created",
    "insights_per_day",
    "testament_usd",
    "testament_share",
    "would_have_died_day",
    "mortal_lifetimes",
)


def productive(record: DecisionRecord) -> bool:
    """Whether a decision is the productive work whose last one ends productive life: a
    risk assessment a model made, or a heartbeat escalation a model made. A heartbeat
    escalates when its probes called for the strong tier (T2: asked, or run) or its
    decision asked for a re-run at a stronger tier (a T1 answer that escalates); a T2 ask
    the allocator served at T1 counts, since a model still judged the escalated tick."""
    if record.source != "model":
        return False
    if record.subsystem is _RISK:
        return True
    if record.subsystem is not _HEARTBEAT:
        return False
    outcome = record.outcome
    return (
        record.tier is _T2
        or record.tier_asked is _T2
        or (outcome is not None and outcome.escalate_to is not None)
    )


def share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def grimoire_health(entries: Iterable[GrimoireEntry]) -> dict[str, Any]:
    """The grimoire at the end: its entries in use (archived ones apart), the share of them
    validated (promoted by the curator past `staged` on confirming evidence: a belief or a
    principle) and their mean confidence."""
    active, archived = [], 0
    for entry in entries:
        if entry.archived:
            archived += 1
        else:
            active.append(entry)
    validated = sum(entry.tier != "staged" for entry in active)
    return {
        "grimoire_entries": len(active),
        "grimoire_archived": archived,
        "grimoire_validated_share": share(validated, len(active)),
        "grimoire_mean_confidence": (
            statistics.fmean(entry.confidence for entry in active) if active else None
        ),
    }


@dataclass
class Outcomes:
    """A life's outcomes since `start`; call it with each published record, then read
    `summary(...)` at the end.

    Vitality records carry the equity and the epistemic clock (predictive fitness), and
    one is published on every phase change, so Terminal's days and the fitness's time
    mean are exact to the tick between readings. Each heartbeat record carries the
    market's health factor its probes read (its outcome's `details`)."""

    start: datetime
    last_productive: datetime | None = None
    health_factor_min: float | None = None
    health_factor_breaches: int = 0
    days: array[float] = field(default_factory=lambda: array("d"))
    equity: array[float] = field(default_factory=lambda: array("d"))
    fitness: array[float] = field(default_factory=lambda: array("d"))
    _terminal_s: float = 0.0
    _fitness_s: float = 0.0  # ∫ fitness dt, seconds
    first_price: float | None = None  # what the heartbeat saw first, and last
    last_price: float | None = None
    life_first_price: float | None = None  # what it saw first in the current golem's life
    _first: datetime | None = field(default=None, repr=False)
    _last: VitalityRecord | None = field(default=None, repr=False)
    _breached: bool = field(default=False, repr=False)

    def __call__(self, record: Record) -> None:
        if isinstance(record, DecisionRecord):
            self._decision(record)
        elif isinstance(record, VitalityRecord):
            self._vitality(record)

    def summary(
        self,
        end: datetime,
        *,
        initial_cash: float,
        final_equity: float,
        grimoire: Iterable[GrimoireEntry],
        risk_by_model: int,
        risk_assessments: int,
        initial: Mapping[str, Any] | None = None,
        spend_usd: float = 0.0,
    ) -> dict[str, Any]:
        """The summary keys (see OUTCOME_KEYS) of a life that ended at `end` with a
        portfolio that began with `initial_cash` (the founder's portfolio `initial`, as
        `to_dict()` gives it) and ended at `final_equity`, having spent `spend_usd` on
        inference: the return net of it beside the baselines on the path seen."""
        lifespan = _seconds(end - self.start) / _DAY_S
        terminal_s, fitness_s = self._terminal_s, self._fitness_s
        last = self._last
        if last is not None:
            tail = max(0.0, _seconds(end - last.time))
            terminal_s += tail if last.phase is _TERMINAL else 0.0
            fitness_s += tail * last.epistemic
        observed_s = 0.0 if self._first is None else _seconds(end - self._first)
        daily_returns = returns(daily_samples(self.days, self.equity, lifespan))
        pnl = final_equity - initial_cash
        productive_s = (
            0.0 if self.last_productive is None else _seconds(self.last_productive - self.start)
        )
        return {
            "productive_life_days": round(productive_s / _DAY_S, 9),
            "risk_by_model_share": _rounded(share(risk_by_model, risk_assessments)),
            "terminal_days": round(terminal_s / _DAY_S, 9),
            "pnl_usd": round(pnl, 9),
            "pnl_percent": _rounded(100.0 * pnl / initial_cash if initial_cash > 0 else None),
            "sharpe": _rounded(sharpe(daily_returns)),
            "sortino": _rounded(sortino(daily_returns)),
            "max_drawdown_percent": round(100.0 * max_drawdown([*self.equity, final_equity]), 9),
            "health_factor_breaches": self.health_factor_breaches,
            "health_factor_min": _rounded(self.health_factor_min),
            "fitness_final": _rounded(self.fitness[-1] if self.fitness else None),
            "fitness_mean": _rounded(fitness_s / observed_s if observed_s > 0 else None),
            **{k: _rounded(v) for k, v in grimoire_health(grimoire).items()},
            **self._returns(initial, final_equity, spend_usd),
        }

    def _returns(
        self, initial: Mapping[str, Any] | None, final_equity: float, spend_usd: float
    ) -> dict[str, float | None]:
        return net_returns(initial, self.first_price, self.last_price, final_equity, spend_usd)

    def new_life(self) -> None:
        """A golem of the lineage is born: the prices of its own life start again
        (`life_first_price`, `last_price`), the lineage's first stays."""
        self.life_first_price = None

    def hear_quiet(self, stretch: QuietStretch) -> None:
        """A fast-forward's quiet decisions: the prices and health factors they saw (none
        of them is productive work)."""
        markets = stretch.markets
        if self.first_price is None:
            self.first_price = markets[0].price
        if self.life_first_price is None:
            self.life_first_price = markets[0].price
        self.last_price = markets[-1].price
        for market in markets:
            if market.health_factor is not None:
                self._health_factor(market.health_factor)

    def _decision(self, record: DecisionRecord) -> None:
        if record.situation is not None:
            price = record.situation.observation.price
            if self.first_price is None:
                self.first_price = price
            if self.life_first_price is None:
                self.life_first_price = price
            self.last_price = price
        if productive(record):
            self.last_productive = record.time
        if record.subsystem is not _HEARTBEAT or record.outcome is None:
            return
        seen = None if record.situation is None else record.situation.market.health_factor
        if seen is not None:
            self._health_factor(seen)

    def _health_factor(self, seen: float) -> None:
        """A heartbeat saw the market's health factor `seen`."""
        factor = round(seen, 6)  # as the heartbeat's line states it
        if self.health_factor_min is None or factor < self.health_factor_min:
            self.health_factor_min = factor
        breached = factor < HEALTH_FACTOR_BREACH
        if breached and not self._breached:
            self.health_factor_breaches += 1
        self._breached = breached

    def _vitality(self, record: VitalityRecord) -> None:
        last = self._last
        if last is None:
            self._first = record.time
        else:
            elapsed = _seconds(record.time - last.time)
            if last.phase is _TERMINAL:
                self._terminal_s += elapsed
            self._fitness_s += elapsed * last.epistemic
        self._last = record
        self.days.append(_seconds(record.time - self.start) / _DAY_S)
        self.equity.append(record.equity_usd)
        self.fitness.append(record.epistemic)


def outcome_distribution(lives: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """For each of OUTCOME_KEYS, over the lives that have a value for it (a ratio can be
    undefined): min, median, max and how many lives had one."""
    report: dict[str, Any] = {}
    for key in OUTCOME_KEYS:
        values = [float(v) for life in lives if (v := life.get(key)) is not None]
        report[key] = {**spread(values), "lives": len(values)}
    return report


def spread(values: Sequence[float]) -> dict[str, float | None]:
    """min, median and max of `values` to 4 places (None for each when there are none)."""
    return {
        "min": round(min(values), 4) if values else None,
        "median": round(statistics.median(values), 4) if values else None,
        "max": round(max(values), 4) if values else None,
    }


def _seconds(delta: timedelta) -> float:
    return delta.total_seconds()


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 9)
