"""The plot of a batch (one per sweep point): how the lives of each policy spread on the
outcomes a comparison leads with, a box (median, quartiles, whiskers at 1.5 IQR) per
policy with every life as a dot, as outcomes.png (matplotlib's Figure API, headless). The
return panel draws the baselines on the same path across it (their median over the lives:
one value on a recorded market), cash at 0.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["PANELS", "write_batch_plot"]

PANELS = (
    ("lifespan_days", "lifespan (days)"),
    ("productive_life_days", "productive life (days)"),
    ("return_net_percent", "return net of costs (%)"),
    ("spend_usd", "spend (USD)"),
)
# Drawn across the return panel: (summary key, label, line style).
BASELINES = (
    ("buy_hold_percent", "buy and hold", "--"),
    ("hold_initial_percent", "holding the initial position", ":"),
)


def write_batch_plot(
    out: Path, title: str, lives: Mapping[str, Sequence[Mapping[str, Any]]]
) -> Path:
    """outcomes.png in `out`: a panel per PANELS outcome, a box per policy of `lives`
    (policy → its lives' summaries or rows); a life without the figure is left out."""
    from matplotlib.figure import Figure  # noqa: PLC0415 (a third of golem's import time)

    policies = list(lives)
    figure = Figure(figsize=(11, 7), dpi=110)
    for n, (key, label) in enumerate(PANELS, start=1):
        ax = figure.add_subplot(2, 2, n)
        values = [[float(v) for s in lives[p] if (v := s.get(key)) is not None] for p in policies]
        positions = list(range(1, len(policies) + 1))
        drawn = [(x, column) for x, column in zip(positions, values, strict=True) if column]
        if drawn:
            ax.boxplot(
                [c for _, c in drawn], positions=[x for x, _ in drawn], widths=0.5, showfliers=False
            )
        for x, column in zip(positions, values, strict=True):
            ax.plot([x] * len(column), column, ".", color="#1f3b57", alpha=0.6)
        if key == "return_net_percent":
            _baselines(ax, [life for p in policies for life in lives[p]])
        ax.set_xticks(positions, policies)
        ax.set_ylabel(label)
        ax.set_title(f"{label} per policy")
        ax.grid(alpha=0.3)
    figure.suptitle(title, fontsize=9, color="#555555")
    figure.tight_layout()
    path = out / "outcomes.png"
    figure.savefig(path)
    return path


def _baselines(ax: Any, lives: Sequence[Mapping[str, Any]]) -> None:
    drawn = False
    for key, label, style in BASELINES:
        values = [float(v) for life in lives if (v := life.get(key)) is not None]
        if values:
            median = statistics.median(values)
            ax.axhline(median, linestyle=style, color="#b5562b", label=f"{label} {median:.3g}%")
            drawn = True
    if drawn:
        ax.axhline(0.0, linestyle="-", color="#888888", linewidth=0.8, label="cash 0%")
        ax.legend(fontsize=7, loc="best")
