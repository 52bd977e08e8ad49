"""The allocator judged at equal spend: the fixed policy at several daily budgets
(`--compare fixed@0.25,fixed@0.5,fixed@1`) draws what money buys without an allocator, a
frontier of (spend, outcome) points, and the vitality policy is placed against it at the
money it spent. For each outcome (productive life, right decisions, Sharpe):

- per seed (the same market path for every arm of a seed: common random numbers), the
  frontier's value at the vitality lineage's spend, by linear interpolation between the
  fixed lineages of that seed ordered by spend; a seed whose vitality spend is outside the
  range the fixed lineages spent is counted as outside and never extrapolated;
- the paired differences (vitality − frontier) over the seeds inside, tested by the
  Wilcoxon signed-rank test (two-sided, α = 0.05; zero differences dropped, as Wilcoxon):
  "above the frontier" or "below the frontier" when it rejects, by the sign of the median
  difference, else "on the frontier" (no difference found). At or above the frontier
  means not below;
- and, for the table and the plot, the frontier of medians (each fixed arm's median spend
  and median outcome) read at the vitality policy's median spend.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from golem.mortality import PolicyName

__all__ = ["ALPHA", "METRICS", "Placement", "frontier_arms", "interpolate", "place", "write_plot"]

ALPHA = 0.05
SPEND = "spend_usd"
METRICS = (
    ("productive_life_days", "productive life (days)"),
    ("right_decisions", "right decisions"),
    ("sharpe", "Sharpe (annualised)"),
)
ABOVE, BELOW, ON = "above the frontier", "below the frontier", "on the frontier"
OUTSIDE, NO_DATA = "outside the frontier's range", "no data"


@dataclass(frozen=True, slots=True)
class Placement:
    """Where `subject` stands against the fixed-budget frontier on one outcome.

    `seeds`: the paired seeds inside the frontier's range (each with a frontier value at
    its spend); `outside`: the seeds whose subject spend was outside it. `subject_median`,
    `frontier_median`, `difference_median`: medians over those paired seeds.
    `spend_median` and `curve_value`: the subject's median spend and the frontier of
    medians read there (None: outside `curve_range`, the medians' spends)."""

    metric: str
    label: str
    subject: str
    seeds: int
    outside: int
    subject_median: float | None
    frontier_median: float | None
    difference_median: float | None
    statistic: float | None
    p_value: float | None
    verdict: str
    spend_median: float | None
    curve_range: tuple[float, float] | None
    curve_value: float | None

    def fields(self) -> dict[str, Any]:
        return asdict(self)


def frontier_arms(arms: Sequence[str]) -> list[str]:
    """The arms that draw the frontier: the fixed policy's, at any budget."""
    return [arm for arm in arms if arm.partition("@")[0] == PolicyName.FIXED]


def interpolate(points: Sequence[tuple[float, float]], x: float) -> float | None:
    """The piecewise-linear curve through `points` (spend, value) read at `x`; None when
    `x` is outside the spends' range or there are fewer than two distinct spends. Points
    at the same spend are averaged."""
    by_x: dict[float, list[float]] = {}
    for px, py in points:
        by_x.setdefault(px, []).append(py)
    curve = sorted((px, statistics.fmean(ys)) for px, ys in by_x.items())
    if len(curve) < 2 or not curve[0][0] <= x <= curve[-1][0]:
        return None
    for (x0, y0), (x1, y1) in pairwise(curve):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return curve[-1][1]  # x is the last spend (float rounding aside)


def place(
    lives: Mapping[str, Sequence[Mapping[str, Any]]], subject: str = str(PolicyName.VITALITY)
) -> list[Placement]:
    """`subject`'s placement on each of METRICS against the frontier drawn by the fixed
    arms of `lives` (arm → its lineages' summaries or rows, each with `seed`)."""
    fixed = frontier_arms(list(lives))
    return [_placed(lives, fixed, subject, key, label) for key, label in METRICS]


def _placed(
    lives: Mapping[str, Sequence[Mapping[str, Any]]],
    fixed: list[str],
    subject: str,
    key: str,
    label: str,
) -> Placement:
    by_seed = {arm: {r["seed"]: r for r in lives[arm]} for arm in fixed}
    mine, theirs, outside = [], [], 0
    for life in lives.get(subject, ()):
        spend, value = life.get(SPEND), life.get(key)
        if spend is None or value is None:
            continue
        points = [
            (float(r[SPEND]), float(r[key]))
            for arm in fixed
            if (r := by_seed[arm].get(life["seed"])) is not None and r.get(key) is not None
        ]
        at = interpolate(points, float(spend))
        if at is None:
            if len({x for x, _ in points}) >= 2:  # a frontier there, its range not reached
                outside += 1
            continue
        mine.append(float(value))
        theirs.append(at)
    statistic, p_value, verdict = _tested(mine, theirs, outside)
    spend_median, curve_range, curve_value = _curve(lives, fixed, subject, key)
    differences = [a - b for a, b in zip(mine, theirs, strict=True)]
    return Placement(
        key,
        label,
        subject,
        len(mine),
        outside,
        _median(mine),
        _median(theirs),
        _median(differences),
        statistic,
        p_value,
        verdict,
        spend_median,
        curve_range,
        curve_value,
    )


def _tested(
    mine: list[float], theirs: list[float], outside: int
) -> tuple[float | None, float | None, str]:
    """The Wilcoxon signed-rank test of the paired differences, and the verdict."""
    if not mine:
        return None, None, OUTSIDE if outside else NO_DATA
    differences = [a - b for a, b in zip(mine, theirs, strict=True)]
    if all(d == 0 for d in differences):
        return 0.0, 1.0, ON
    from scipy.stats import wilcoxon  # noqa: PLC0415 (scipy is slow to import; a report's)

    result = wilcoxon(differences, alternative="two-sided", zero_method="wilcox")
    p_value = float(f"{float(result.pvalue):.6g}")
    if p_value >= ALPHA:
        return float(result.statistic), p_value, ON
    above = statistics.median(differences) > 0
    return float(result.statistic), p_value, ABOVE if above else BELOW


def _curve(
    lives: Mapping[str, Sequence[Mapping[str, Any]]], fixed: list[str], subject: str, key: str
) -> tuple[float | None, tuple[float, float] | None, float | None]:
    """The subject's median spend, the range of the fixed arms' median spends, and the
    frontier of medians read at the subject's (None outside that range)."""
    points = [
        (spend, value)
        for arm in fixed
        if (spend := _median(_column(lives[arm], SPEND))) is not None
        and (value := _median(_column(lives[arm], key))) is not None
    ]
    spend = _median(_column(lives.get(subject, ()), SPEND))
    spends = [x for x, _ in points]
    span = (min(spends), max(spends)) if len(set(spends)) >= 2 else None
    value = None if spend is None else interpolate(points, spend)
    return spend, span, value


def write_plot(
    out: Path,
    title: str,
    lives: Mapping[str, Sequence[Mapping[str, Any]]],
    subject: str = str(PolicyName.VITALITY),
) -> Path:
    """frontier.png in `out`: a panel per METRICS outcome against spend, each fixed
    lineage a grey dot and the frontier of medians a line through the arms' medians
    (named by arm), each `subject` lineage a dot and its median a star."""
    from matplotlib.figure import Figure  # noqa: PLC0415 (a third of golem's import time)

    fixed = sorted(
        frontier_arms(list(lives)), key=lambda a: _median(_column(lives[a], SPEND)) or 0.0
    )
    figure = Figure(figsize=(14, 4.5), dpi=110)
    for n, (key, label) in enumerate(METRICS, start=1):
        ax = figure.add_subplot(1, len(METRICS), n)
        curve = []
        for arm in fixed:
            pairs = _pairs(lives[arm], key)
            ax.plot([x for x, _ in pairs], [y for _, y in pairs], ".", color="#9a9a9a")
            spend, value = _median(_column(lives[arm], SPEND)), _median(_column(lives[arm], key))
            if spend is not None and value is not None:
                curve.append((spend, value, arm))
        if curve:
            ax.plot([c[0] for c in curve], [c[1] for c in curve], "-o", color="#555555")
            for x, y, arm in curve:
                ax.annotate(arm, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
        pairs = _pairs(lives.get(subject, ()), key)
        ax.plot([x for x, _ in pairs], [y for _, y in pairs], ".", color="#c0392b", alpha=0.7)
        spend = _median(_column(lives.get(subject, ()), SPEND))
        value = _median(_column(lives.get(subject, ()), key))
        if spend is not None and value is not None:
            ax.plot([spend], [value], "*", color="#c0392b", markersize=14, label=subject)
            ax.legend(loc="best", fontsize=8)
        ax.set_xlabel("spend (USD)")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    figure.suptitle(f"{title}: {subject} against the fixed-budget frontier (medians)")
    figure.tight_layout()
    path = out / "frontier.png"
    figure.savefig(path)
    return path


def _pairs(rows: Sequence[Mapping[str, Any]], key: str) -> list[tuple[float, float]]:
    return [
        (float(s), float(v))
        for r in rows
        if (s := r.get(SPEND)) is not None and (v := r.get(key)) is not None
    ]


def _column(rows: Sequence[Mapping[str, Any]], key: str) -> list[float]:
    return [float(v) for r in rows if (v := r.get(key)) is not None]


def _median(values: Sequence[float]) -> float | None:
    return round(statistics.median(values), 9) if values else None
