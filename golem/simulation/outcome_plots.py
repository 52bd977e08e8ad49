"""The outcome plots of a simulated life, drawn on axes `simulate_plots` gives them, in its
style (a title, axes with units, the phases shaded): the paper portfolio's equity with its
drawdown from the running peak, and the predictive fitness (the epistemic clock) over time.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import TYPE_CHECKING

from golem.simulation.outcomes import Outcomes

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["paint_equity", "paint_fitness"]

Shade = Callable[["Axes"], None]  # shades the phases on an axes


def paint_equity(ax: Axes, outcomes: Outcomes, shade: Shade) -> None:
    """Equity (line, left axis) and its drawdown from the running peak (area hanging from
    the top, right axis, scaled to fill at most the top third so the equity stays legible)."""
    days, equity = outcomes.days, outcomes.equity
    if days:
        shade(ax)
    ax.plot(days, equity, color="#1f3b57", lw=1.2, label="equity")
    ax.set_ylabel("paper portfolio equity (USD)")
    ax.set_title("Paper portfolio: equity, and drawdown from its running peak")
    peaks = list(accumulate(equity, max))
    drawdown = [100.0 * (p - e) / p if p > 0 else 0.0 for p, e in zip(peaks, equity, strict=True)]
    down = ax.twinx()
    down.fill_between(days, drawdown, color="#c0504d", alpha=0.3, lw=0, label="drawdown")
    down.set_ylim(3 * max([1.0, *drawdown]), 0)  # inverted: 0 at the top
    down.set_ylabel("drawdown (% below the peak)")
    handles, labels = ax.get_legend_handles_labels()
    more, more_labels = down.get_legend_handles_labels()
    ax.legend(handles + more, labels + more_labels, loc="lower left", fontsize=8)


def paint_fitness(ax: Axes, outcomes: Outcomes, shade: Shade) -> None:
    """The epistemic clock's value at each vitality reading (0.5 until it has 10 scored
    forecasts, as the clock defines it)."""
    if outcomes.days:
        shade(ax)
    ax.plot(outcomes.days, outcomes.fitness, color="#6a3d9a", lw=1.2, label="predictive fitness")
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("predictive fitness (0 to 1)")
    ax.set_title("Predictive fitness over time (the epistemic clock)")
    ax.legend(loc="lower left", fontsize=8)
