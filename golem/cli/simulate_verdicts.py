"""What `golem simulate --compare` prints beyond the side-by-side table: the vitality
policy placed against the fixed-budget frontier at its own spend (frontier.py)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from golem.simulation.frontier import ABOVE, ALPHA, BELOW, Placement

__all__ = ["FRONTIER_RULE", "frontier_table"]

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
