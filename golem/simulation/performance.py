"""A portfolio's performance on a path: simple returns, the annualised Sharpe and Sortino
ratios, maximum drawdown, the daily samples they are computed on, and the return net of
inference beside the baselines on the same path (holding the initial position, buying and
holding, cash).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from golem.world import PaperPortfolio, TradeAction

__all__ = [
    "BASELINE_KEYS",
    "PERIODS_PER_YEAR",
    "baselines",
    "daily_samples",
    "max_drawdown",
    "net_returns",
    "returns",
    "sharpe",
    "sortino",
]

PERIODS_PER_YEAR = 365.0  # daily samples of a market that trades every day
BASELINE_KEYS = ("hold_initial_percent", "buy_hold_percent", "cash_percent")


def returns(values: Sequence[float]) -> list[float]:
    """Simple returns between consecutive values (v[k] / v[k-1] - 1); a step from a value
    of 0 or less has no return and is left out."""
    return [b / a - 1.0 for a, b in pairwise(values) if a > 0]


def sharpe(
    period_returns: Sequence[float], periods_per_year: float = PERIODS_PER_YEAR
) -> float | None:
    """The annualised Sharpe ratio: mean(r) / stdev(r) · √periods_per_year, with the
    sample standard deviation (n − 1) and a risk-free rate of 0 (paper money earns
    nothing). None with fewer than two returns or none that differ (no risk to price)."""
    if len(period_returns) < 2:
        return None
    deviation = statistics.stdev(period_returns)
    if deviation == 0:
        return None
    return statistics.fmean(period_returns) / deviation * math.sqrt(periods_per_year)


def sortino(
    period_returns: Sequence[float], periods_per_year: float = PERIODS_PER_YEAR
) -> float | None:
    """The annualised Sortino ratio: mean(r) / DD · √periods_per_year, where the downside
    deviation DD = √(mean over all n returns of min(r, 0)²), target return and risk-free
    rate 0 (Sortino and Price's form). None with fewer than two returns or no losing one."""
    if len(period_returns) < 2:
        return None
    downside = math.sqrt(math.fsum(min(r, 0.0) ** 2 for r in period_returns) / len(period_returns))
    if downside == 0:
        return None
    return statistics.fmean(period_returns) / downside * math.sqrt(periods_per_year)


def max_drawdown(equity: Iterable[float]) -> float:
    """The largest fall from a running peak, as a fraction of that peak (0 to 1; 0 for a
    series that never falls)."""
    peak, worst = -math.inf, 0.0
    for value in equity:
        peak = max(peak, value)
        if peak > 0:
            worst = max(worst, (peak - value) / peak)
    return worst


def daily_samples(days: Sequence[float], values: Sequence[float], lifespan: float) -> list[float]:
    """The value at birth and at the end of each whole day lived: the last reading at or
    before day k, for k = 0 .. ⌊lifespan⌋ (day 0: the first reading). Readings are in time
    order; none gives no samples."""
    if not days:
        return []
    samples, i = [], 0
    for k in range(math.floor(lifespan) + 1):
        while i + 1 < len(days) and days[i + 1] <= k:
            i += 1
        samples.append(values[i])
    return samples


def baselines(
    initial: Mapping[str, Any], first_price: float, last_price: float
) -> dict[str, float]:
    """What doing nothing clever would have made on the same path, in % of the `initial`
    portfolio's value (the founder's `to_dict()` at birth) at the first price: holding it
    untouched (inaction), spending all its cash on the asset at the first price (the
    venue's fee and slippage, no order cap) and holding that, and cash (0). Both are marked
    at the last price, as the golem's own equity is."""
    held = PaperPortfolio.from_dict(initial)
    held.mark(first_price)
    start = held.equity()
    held.mark(last_price)
    uncapped = {**initial["config"], "max_order_usd": None}
    bought = PaperPortfolio.from_dict({**initial, "config": uncapped})
    bought.apply(TradeAction.BUY, first_price)
    bought.mark(last_price)
    return {
        "hold_initial_percent": _percent_of(held.equity(), start),
        "buy_hold_percent": _percent_of(bought.equity(), start),
        "cash_percent": 0.0,
    }


def net_returns(
    initial: Mapping[str, Any] | None,
    first: float | None,
    last: float | None,
    final_equity: float,
    spend_usd: float,
) -> dict[str, float | None]:
    """The return of a portfolio that began as `initial` (`to_dict()`) at the `first`
    price and ended at `final_equity` (its fees and slippage paid), net of `spend_usd` of
    inference, in % of its value at the first price, beside the `baselines` from `first`
    to `last`; each None without a portfolio or a price."""
    if initial is None or first is None or last is None:
        return dict.fromkeys(("return_net_percent", *BASELINE_KEYS))
    held = PaperPortfolio.from_dict(initial)
    held.mark(first)
    return {
        "return_net_percent": _percent_of(final_equity - spend_usd, held.equity()),
        **baselines(initial, first, last),
    }


def _percent_of(value: float, start: float) -> float:
    return round(100.0 * (value / start - 1.0), 9) if start > 0 else 0.0
