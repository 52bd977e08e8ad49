"""The plots of a simulated life, as PNG files (matplotlib's Figure API, no pyplot and no
GUI backend, so it is headless without global state): vitality with the
phases shaded, credits, daily spend per subsystem (stacked), the heartbeat's tier mix per
day, the degradations per day by reason, and, given the life's outcomes, the portfolio's
equity and drawdown and the predictive fitness (`outcome_plots`). Titles, axes and
units on each; a lineage's deaths (each its heir's birth) marked by a line on every plot,
and a last day the life did not finish drawn as the part of a day it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from golem.simulation.outcome_plots import paint_equity, paint_fitness
from golem.simulation.outcomes import Outcomes
from golem.simulation.tally import PHASES, Tally

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["Death", "figures", "write_plots"]


@dataclass(frozen=True, slots=True)
class Death:
    """A golem of a lineage died `day` days after the start; `heir`: the generation born
    at that instant (None: none followed)."""

    day: float
    generation: int
    cause: str | None
    heir: int | None

    @classmethod
    def of_lineage(cls, lineage: Sequence[Mapping[str, Any]]) -> list[Death]:
        """The deaths of a lineage as summary.json lists its generations."""
        deaths = []
        for n, row in enumerate(lineage):
            if row["ended"] != "died":
                continue
            heir = lineage[n + 1]["generation"] if n + 1 < len(lineage) else None
            day = float(row["born_day"]) + float(row["lifespan_days"])
            deaths.append(cls(day, int(row["generation"]), row["cause_of_death"], heir))
        return deaths


_DEATH_COLOUR = "#7a1f1f"

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
    *,
    deaths: Sequence[Death] = (),
) -> list[Path]:
    """Write the five plots into `out` (seven with `outcomes`); returns their paths. Each
    PNG carries `title` as its Title too."""
    written = []
    for name, figure in figures(title, tally, daily_spend, outcomes, deaths=deaths).items():
        path = out / name
        figure.savefig(path, metadata={"Title": title})
        written.append(path)
    return written


def figures(
    title: str,
    tally: Tally,
    daily_spend: Mapping[int, Mapping[str, float]],
    outcomes: Outcomes | None = None,
    *,
    deaths: Sequence[Death] = (),
) -> dict[str, Figure]:
    """The plots by file name, drawn. `deaths`: a lineage's, each marked on every plot."""
    # Imported here: matplotlib is a third of what every `golem` command imports.
    from matplotlib.figure import Figure  # noqa: PLC0415

    end = tally.days[-1] if tally.days else None  # the day of the last reading
    painters: dict[str, Callable[[Axes], None]] = {
        "vitality.png": lambda ax: _vitality(ax, tally),
        "credits.png": lambda ax: _credits(ax, tally),
        "spend.png": lambda ax: _spend(ax, daily_spend, end),
        "tiers.png": lambda ax: _tiers(ax, tally, end),
        "degradations.png": lambda ax: _degradations(ax, tally, end),
    }
    if outcomes is not None:

        def shade(ax: Axes) -> None:
            _shade_phases(ax, tally)

        painters["equity.png"] = lambda ax: paint_equity(ax, outcomes, shade)
        painters["fitness.png"] = lambda ax: paint_fitness(ax, outcomes, shade)
    drawn = {}
    for name, paint in painters.items():
        figure = Figure(figsize=(10, 4.5), dpi=110)
        ax = figure.add_subplot()
        _mark_deaths(ax, deaths)  # first: each painter's legend then lists the mark
        paint(ax)
        if deaths and ax.get_legend() is None:  # a plot without one: the mark's own
            ax.legend(loc="best", fontsize=8)
        ax.set_xlabel("time since birth (days)")
        ax.grid(alpha=0.3)
        figure.suptitle(title, fontsize=9, color="#555555")
        figure.tight_layout()
        drawn[name] = figure
    return drawn


def _mark_deaths(ax: Axes, deaths: Sequence[Death]) -> None:
    """A dashed line at each death, saying who died of what and who was born."""
    for n, death in enumerate(deaths):
        label = "a golem died (its heir born)" if n == 0 else None
        ax.axvline(death.day, color=_DEATH_COLOUR, lw=1.0, ls="--", label=label, zorder=3)
        said = f"g{death.generation} died" + (f" ({death.cause})" if death.cause else "")
        said += f", g{death.heir} born" if death.heir is not None else ""
        ax.text(  # along the line, left of it: deaths hours apart stay legible
            death.day,
            0.98,
            said,
            transform=ax.get_xaxis_transform(),
            rotation=90,
            fontsize=6.5,
            color=_DEATH_COLOUR,
            ha="right",
            va="top",
            zorder=4,
        )


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
    pairs = sorted(
        zip(*ax.get_legend_handles_labels(), strict=True), key=lambda p: order.get(p[1], len(order))
    )
    ax.legend([h for h, _ in pairs], [label for _, label in pairs], loc="upper right", fontsize=8)


def _credits(ax: Axes, tally: Tally) -> None:
    ax.plot(tally.days, tally.credits, color="#2d6a4f", lw=1.2)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("credits (USD)")
    ax.set_title("Credits left")


def _spend(ax: Axes, daily: Mapping[int, Mapping[str, float]], end: float | None) -> None:
    title = "Daily spend per subsystem (stacked)"
    _by_key(ax, daily, end, ylabel="spend (USD per day)", title=title, legend="best")


def _tiers(ax: Axes, tally: Tally, end: float | None) -> None:
    """Bars: the day's heartbeats that asked a model (the rare, costly ones, which a share
    plot would flatten against a T0 share near 100%); line: the share the rules made."""
    by_day = tally.heartbeat_tiers
    _stack(ax, by_day, ("T1", "T2"), _TIER_COLOURS, end=end)
    ax.set_ylabel("heartbeats that asked a model (per day)")
    ax.set_title("Heartbeat tiers per day: T1 cheap and T2 strong model (bars), T0 rules (line)")
    rules = ax.twinx()
    days = sorted(by_day)
    share = [100.0 * by_day[d].get("T0", 0) / max(1, sum(by_day[d].values())) for d in days]
    middles = [d + w / 2 for d, w in zip(days, _widths(days, end), strict=True)]
    rules.plot(middles, share, color="#555555", lw=1.2, marker=".", label="T0")
    rules.set_ylim(0, 101)
    rules.set_ylabel("decided by the rules, T0 (% of the day's heartbeats)")
    handles, labels = ax.get_legend_handles_labels()
    more, more_labels = rules.get_legend_handles_labels()
    ax.legend(handles + more, labels + more_labels, loc="center right", fontsize=8)


def _degradations(ax: Axes, tally: Tally, end: float | None) -> None:
    title = "Degradations per day, by reason"
    ylabel = "degraded decisions (per day)"
    _by_key(ax, tally.degradations_by_day, end, ylabel=ylabel, title=title, legend="upper left")


def _by_key(
    ax: Axes,
    by_day: Mapping[int, Mapping[str, float]],
    end: float | None,
    *,
    ylabel: str,
    title: str,
    legend: Literal["best", "upper left"],
) -> None:
    """A day's bar stacked by every key any day has, in sorted order; the legend at
    `legend` when there is a key."""
    keys = sorted({key for values in by_day.values() for key in values})
    _stack(ax, by_day, keys, end=end)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if keys:
        ax.legend(loc=legend, fontsize=8)


def _stack(
    ax: Axes,
    by_day: Mapping[int, Mapping[str, float]],
    keys: Iterable[str],
    colours: Mapping[str, str] | None = None,
    *,
    end: float | None = None,
) -> None:
    """One bar a day, stacked in the order of `keys` (missing values are 0). A day the
    life ended in (at `end`, days since the start) is as wide as the part of it lived,
    and says so: it holds less than a day's worth."""
    days = sorted(by_day)
    widths = _widths(days, end)
    bottom = [0.0] * len(days)
    for key in keys:
        values = [float(by_day[day].get(key, 0.0)) for day in days]
        colour = colours[key] if colours else None
        ax.bar(days, values, bottom=bottom, label=key, color=colour, width=widths, align="edge")
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.margins(y=0.15)  # room above the tallest bar for its note
    if days and end is not None and end - days[-1] < _WHOLE:
        lived = end - days[-1]
        ax.annotate(
            f"partial day\n({lived:.2f} of 1)",
            (days[-1] + widths[-1] / 2, bottom[-1]),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=7,
            color="#555555",
            bbox={"facecolor": "white", "alpha": 0.8, "lw": 0, "pad": 1},
        )


def _widths(days: Sequence[int], end: float | None) -> list[float]:
    """Each day's bar: a whole day's, but the last day's as much of it as was lived."""
    return [_BAR if end is None else max(0.02, min(_BAR, (end - day) * _BAR)) for day in days]


_BAR = 0.85  # a whole day's bar, in days
_WHOLE = 0.99  # of a day lived: drawn and said as a whole day
