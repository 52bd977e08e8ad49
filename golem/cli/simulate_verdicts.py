"""What `golem simulate --compare` prints beyond the side-by-side table: the vitality
policy placed against the fixed-budget frontier at its own spend (frontier.py), the
deaths per lineage and the testaments' share of the money (deaths.py), and the control
experiment's verdict (control.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from golem.cli.simulate_report import label
from golem.simulation.control import ALPHA as CONTROL_ALPHA
from golem.simulation.control import IMMORTAL, MINIMUM_DAYS, MORTAL, Thesis
from golem.simulation.frontier import ABOVE, ALPHA, BELOW, Placement

__all__ = [
    "FRONTIER_RULE",
    "THESIS_RULE",
    "deaths_table",
    "frontier_table",
    "thesis_lines",
    "thesis_table",
]

FRONTIER_RULE = (
    "frontier: per seed, the fixed lineages' outcome interpolated linearly at the vitality "
    "lineage's spend (a spend outside their range is counted, never extrapolated); "
    f"Wilcoxon signed-rank on the paired differences, two-sided, α = {ALPHA}"
)
_STYLES = {ABOVE: "green", BELOW: "red"}


def frontier_table(title: str, placements: Sequence[Placement]) -> Table:
    """Per outcome: the subject's median and the frontier's at the same spend over the
    paired seeds, the median difference, the seeds inside and outside the frontier's
    range, the Wilcoxon p-value and the verdict; then the subject's median spend and the
    frontier of medians read there."""
    subject = placements[0].subject if placements else ""
    table = Table(title=escape(f"{title}: {subject} against the fixed-budget frontier"))
    for column in (
        "outcome",
        subject,
        "frontier",
        "difference",
        "seeds in / out",
        "p",
        "verdict",
        "spend (USD)",
        "curve there",
    ):
        table.add_column(column)
    for p in placements:
        if p.curve_value is not None:
            curve = _g(p.curve_value)
        elif p.curve_range is None:
            curve = "no frontier"
        else:
            curve = f"outside [{_g(p.curve_range[0])}, {_g(p.curve_range[1])}]"
        table.add_row(
            p.label,
            _g(p.subject_median),
            _g(p.frontier_median),
            _g(p.difference_median),
            f"{p.seeds} / {p.outside}",
            _g(p.p_value),
            Text(p.verdict, style=_STYLES.get(p.verdict, "")),
            _g(p.spend_median),
            curve,
        )
    return table


def _g(value: float | None) -> str:
    return "-" if value is None else f"{value:.4g}"


def deaths_table(title: str, report: dict[str, dict[str, Any]]) -> Table:
    """Per policy: the deaths per lineage, the testaments' share of all the money spent,
    and by cause the deaths per lineage and their testaments' share."""
    table = Table(title=escape(f"{title}: deaths per lineage and the testaments' share"))
    table.add_column("measure")
    for policy in report:
        table.add_column(label(policy))
    deaths = {p: d.get("death_report") or {} for p, d in report.items()}
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("deaths per lineage, median", lambda d: _g(d.get("deaths_per_lineage_median"))),
        ("deaths per lineage, mean", lambda d: _g(d.get("deaths_per_lineage_mean"))),
        ("testaments' share of spend", lambda d: _percent(d.get("testament_share"))),
    ]
    causes = sorted({c for d in deaths.values() for c in d.get("by_cause", {})})
    for cause in causes:
        rows.append((f"{cause}: deaths per lineage", _by(cause, "per_lineage", _g)))
        rows.append((f"{cause}: testaments' share", _by(cause, "testament_share", _percent)))
    for name, cell in rows:
        table.add_row(name, *(cell(deaths[p]) for p in report))
    return table


def thesis_table(title: str, thesis: Thesis) -> Table:
    """The control experiment: each of the six dimensions with its figure, the mortal
    and immortal medians, the test's p-value and the verdict."""
    table = Table(
        title=escape(f"{title}: the control experiment, {thesis.mortal} against immortal")
    )
    for column in ("dimension", "figure", thesis.mortal, "immortal", "p", "verdict"):
        table.add_column(column)
    for d in thesis.dimensions:
        arrow = " ↑" if d.better == "higher" else " ↓"
        table.add_row(
            d.label,
            d.figure + arrow,
            _g(d.mortal_median),
            _g(d.immortal_median),
            _g(d.p_value),
            Text(d.verdict, style=_THESIS_STYLES.get(d.verdict, "")),
        )
    return table


def thesis_lines(thesis: Thesis) -> list[str]:
    """The immortal's would-have-died times and the thesis status, with its rule."""
    died = (
        f"the mortal clocks would have ended {thesis.would_have_died} of "
        f"{thesis.immortal_lives} immortal lives"
    )
    if thesis.would_have_died:
        causes = ", ".join(f"{k}: {v}" for k, v in thesis.would_have_died_causes.items())
        died += f", at a median day {_g(thesis.would_have_died_day_median)} ({causes})"
    counted = f"mortal wins {thesis.mortal_wins}, immortal wins {thesis.immortal_wins} of 6"
    status = f"thesis: {thesis.status.upper()} ({counted})"
    if not thesis.valid:
        status += (
            f"; lives of {_g(thesis.horizon_days)} days are shorter than the design's "
            f"{MINIMUM_DAYS:g}-day minimum, so the status is inconclusive whatever the "
            "dimensions say"
        )
    return [died, status, THESIS_RULE]


THESIS_RULE = (
    f"thesis rule (Bardo 11-immortal-control): per dimension Mann–Whitney U, two-sided, "
    f"α = {CONTROL_ALPHA}; supported when mortal wins 4+ dimensions, weakly supported at 3, "
    "refuted / weakly refuted the same for immortal, else inconclusive; lives shorter than "
    f"{MINIMUM_DAYS:g} days: inconclusive"
)
_THESIS_STYLES = {MORTAL: "green", IMMORTAL: "red"}


def _by(cause: str, key: str, show: Callable[[Any], str]) -> Callable[[dict[str, Any]], str]:
    return lambda d: show(d.get("by_cause", {}).get(cause, {}).get(key))


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"
