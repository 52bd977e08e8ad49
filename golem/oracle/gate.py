"""The action gate (Bardo 17-prediction-engine.md): a trade goes ahead only when the golem's
measured accuracy in every category the trade depends on, in the current regime over the
report window, has enough samples, clears a threshold that rises with the trade's cost
against its expected value, and is not beaten by inaction's accuracy by more than the margin.

Cold start, as the design's gate reads: no record, no action. A newborn may observe, predict
and let its rules predict (inaction's "holding is optimal" on every quiet tick) at no
inference cost, and trades once `sample_minimum` of its claims in each category the trade
needs have resolved in the current regime.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from golem.oracle.book import AccuracyReport, Category, PredictionBook

__all__ = ["GateParams", "GateVerdict", "GatedTrade", "permits", "required_accuracy"]


@dataclass(frozen=True, slots=True)
class GateParams:
    """Bardo's [prediction.gate]: category_threshold, inaction_comparison, inaction_margin;
    the report window (7 days) and the sample minimum (30) of its accuracy reports."""

    category_threshold: float = 0.60
    inaction_comparison: bool = True
    inaction_margin: float = 0.05
    window: timedelta = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class GateVerdict:
    permitted: bool
    reason: str  # "" when permitted
    required: float  # the accuracy the trade needed
    reports: tuple[tuple[Category, AccuracyReport], ...]
    inaction: AccuracyReport | None


def required_accuracy(threshold: float, cost: float, expected_value: float) -> float:
    """max(threshold, 0.50 + min(cost ÷ expected value, 0.45)); the ratio is 1 when the
    expected value is not positive (the bar at its highest, 0.95)."""
    if cost < 0:
        raise ValueError("a cost is never negative")
    ratio = cost / expected_value if expected_value > 0 else 1.0
    return max(threshold, 0.50 + min(ratio, 0.45))


def permits(
    categories: Iterable[Category],
    book: PredictionBook,
    *,
    now: datetime,
    regime: str,
    cost: float,
    expected_value: float,
    params: GateParams | None = None,
) -> GateVerdict:
    """The gate's verdict on an action that depends on `categories`."""
    params = params or GateParams()
    required = required_accuracy(params.category_threshold, cost, expected_value)
    reports = tuple(
        (c, book.report(c, now=now, window=params.window, regime=regime)) for c in categories
    )
    if not reports:
        raise ValueError("an action depends on at least one category")

    def blocked(reason: str, inaction: AccuracyReport | None = None) -> GateVerdict:
        return GateVerdict(False, reason, required, reports, inaction)

    for category, report in reports:
        if not report.sample_sufficient:
            return blocked(f"insufficient data: {category} n={report.total}")
        if report.hit_rate < required:
            return blocked(f"{category} accuracy {report.hit_rate:.0%} < required {required:.0%}")
    inaction = None
    if params.inaction_comparison:
        inaction = book.report(Category.INACTION, now=now, window=params.window, regime=regime)
        weakest = min(report.hit_rate for _, report in reports)
        if inaction.sample_sufficient and inaction.hit_rate > weakest + params.inaction_margin:
            return blocked(
                f"inaction {inaction.hit_rate:.0%} > action {weakest:.0%}"
                f" + margin {params.inaction_margin:.0%}",
                inaction,
            )
    return GateVerdict(True, "", required, reports, inaction)


@dataclass(frozen=True, slots=True)
class GatedTrade:
    """A trade the gate blocked, and what it would have made: its fill on a copy of the
    portfolio, marked at the price one horizon later (net of its fee and slippage)."""

    tick: int
    due: datetime
    action: str
    sign: float  # +1 bought, -1 sold
    quantity: float
    execution_price: float
    fee_usd: float

    def pnl(self, price: float) -> float:
        return self.sign * self.quantity * (price - self.execution_price) - self.fee_usd
