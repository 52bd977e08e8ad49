"""The plots of a simulated life, as PNG files (matplotlib's Figure API, no pyplot and no
GUI backend, so it is headless without global state): vitality with the
phases shaded, credits, daily spend per subsystem (stacked), the heartbeat's tier mix per
day, the degradations per day by reason, and, given the life's outcomes, the portfolio's
equity and drawdown and the predictive fitness (`outcome_plots`). Titles, axes and
units on each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from golem.simulation.outcome_plots import paint_equity, paint_fitness
from golem.simulation.outcomes import Outcomes
from golem.simulation.tally import PHASES, Tally

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["write_plots"]

_PHASE_COLOURS = {
    "thriving": "#d8f0d2",
    "stable": "#e8f3c8",
    "conservation": "#fbecc0",
    "declining": "#fbd5b5",
    "terminal": "#f4b8b8",
}
_TIER_COLOURS = {"T0": "#9aa5b1", "T1": "#4c8bd6", "T2": "#c0504d"}


def write_plots(
    out: Path,
    title: str,
    tally: Tally,
    daily_spend: Mapping[int, Mapping[str, float]],
    outcomes: Outcomes | None = None,
) -> list[Path]:
    """Write the five plots into `out` (seven with `outcomes`); returns their paths."""
    # Imported here: matplotlib is a third of what every `golem` command imports.
    from matplotlib.figure import Figure  # noqa: PLC0415

    painters: dict[str, Callable[[Axes], None]] = {
        "vitality.png": lambda ax: _vitality(ax, tally),
        "credits.png": lambda ax: _credits(ax, tally),
        "spend.png": lambda ax: _spend(ax, daily_spend),
        "tiers.png": lambda ax: _tiers(ax, tally),
        "degradations.png": lambda ax: _degradations(ax, tally),
    }
    if outcomes is not None:

        def shade(ax: Axes) -> None:
            _shade_phases(ax, tally)

        painters["equity.png"] = lambda ax: paint_equity(ax, outcomes, shade)
        painters["fitness.png"] = lambda ax: paint_fitness(ax, outcomes, shade)
    written = []
    for name, paint in painters.items():
        figure = Figure(figsize=(10, 4.5), dpi=110)
        ax = figure.add_subplot()
        paint(ax)
        ax.set_xlabel("time since birth (days)")
        ax.grid(alpha=0.3)
        figure.suptitle(title, fontsize=9, color="#555555")
        figure.tight_layout()
        path = out / name
        figure.savefig(path)
        written.append(path)
    return written


def _shade_phases(ax: Axes, tally: Tally) -> None:
    """One band per run of a phase, labelled once each in the legend."""
    days, phases = tally.days, tally.phase
    labelled: set[str] = set()
    start = 0
    for i in range(1, len(phases) + 1):
        if i < len(phases) and phases[i] == phases[start]:
            continue
        name = PHASES[phases[start]]
        end = days[i] if i < len(days) else days[-1]
        label = None if name in labelled else name
        labelled.add(name)
        ax.axvspan(days[start], end, color=_PHASE_COLOURS[name], label=label, lw=0)
        start = i


def _vitality(ax: Axes, tally: Tally) -> None:
    if tally.days:
        _shade_phases(ax, tally)
        ax.plot(tally.days, tally.vitality, color="#1f3b57", lw=1.2, label="vitality")
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("vitality (0 to 1)")
    ax.set_title("Vitality, with the phase shaded")
    # The phases in their order, healthiest first, whatever order the life met them in.
    order = {name: rank for rank, name in enumerate((*PHASES, "vitality"))}
    pairs = sorted(zip(*ax.get_legend_handles_labels(), strict=True), key=lambda p: order[p[1]])
    ax.legend([h for h, _ in pairs], [label for _, label in pairs], loc="upper right", fontsize=8)


def _credits(ax: Axes, tally: Tally) -> None:
    ax.plot(tally.days, tally.credits, color="#2d6a4f", lw=1.2)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("credits (USD)")
    ax.set_title("Credits left")


def _spend(ax: Axes, daily: Mapping[int, Mapping[str, float]]) -> None:
    subsystems = sorted({name for spend in daily.values() for name in spend})
    _stack(ax, daily, subsystems)
    ax.set_ylabel("spend (USD per day)")
    ax.set_title("Daily spend per subsystem (stacked)")
    if subsystems:
        ax.legend(loc="upper right", fontsize=8)


def _tiers(ax: Axes, tally: Tally) -> None:
    """Bars: the day's heartbeats that asked a model (the rare, costly ones, which a share
    plot would flatten against a T0 share near 100%); line: the share the rules made."""
    by_day = tally.heartbeat_tiers
    _stack(ax, by_day, ("T1", "T2"), _TIER_COLOURS)
    ax.set_ylabel("heartbeats that asked a model (per day)")
    ax.set_title("Heartbeat tiers per day: T1 cheap and T2 strong model (bars), T0 rules (line)")
    rules = ax.twinx()
    days = sorted(by_day)
    share = [100.0 * by_day[d].get("T0", 0) / max(1, sum(by_day[d].values())) for d in days]
    rules.plot([d + 0.425 for d in days], share, color="#555555", lw=1.2, marker=".", label="T0")
    rules.set_ylim(0, 101)
    rules.set_ylabel("decided by the rules, T0 (% of the day's heartbeats)")
    handles, labels = ax.get_legend_handles_labels()
    more, more_labels = rules.get_legend_handles_labels()
    ax.legend(handles + more, labels + more_labels, loc="center right", fontsize=8)


def _degradations(ax: Axes, tally: Tally) -> None:
    by_day = tally.degradations_by_day
    reasons = sorted({reason for counts in by_day.values() for reason in counts})
    _stack(ax, by_day, reasons)
    ax.set_ylabel("degraded decisions (per day)")
    ax.set_title("Degradations per day, by reason")
    if reasons:
        ax.legend(loc="upper left", fontsize=8)


def _stack(
    ax: Axes,
    by_day: Mapping[int, Mapping[str, float]],
    keys: Iterable[str],
    colours: Mapping[str, str] | None = None,
) -> None:
    """One bar a day, stacked in the order of `keys` (missing values are 0)."""
    days = sorted(by_day)
    bottom = [0.0] * len(days)
    for key in keys:
        values = [float(by_day[day].get(key, 0.0)) for day in days]
        colour = colours[key] if colours else None
        ax.bar(days, values, bottom=bottom, label=key, color=colour, width=0.85, align="edge")
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
