"""Deaths per lineage and the testaments' share of the money: a lineage's deaths by cause
and what each cause's death reflections cost (`deaths_summary`, into summary.json), and
over many lineages of a policy, the deaths per lineage and the testaments' share of all
the money they spent, in all and by cause (`death_report`, into the batch's report)."""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["death_report", "deaths_summary"]

_COUNTS, _COSTS = "deaths_by_cause", "testament_usd_by_cause"


def deaths_summary(generations: Sequence[Mapping[str, Any]], *, spend: float) -> dict[str, Any]:
    """A lineage's deaths by cause, its testaments' cost by cause and in all, and their
    share of the lineage's `spend` (None when it spent nothing)."""
    counts: defaultdict[str, int] = defaultdict(int)
    costs: defaultdict[str, float] = defaultdict(float)
    for g in generations:
        if g["ended"] == "died":
            cause = str(g["cause_of_death"])
            counts[cause] += 1
            costs[cause] += float(g.get("testament_usd") or 0.0)
    total = math.fsum(costs.values())
    return {
        _COUNTS: dict(sorted(counts.items())),
        _COSTS: {k: round(v, 9) for k, v in sorted(costs.items())},
        "testament_usd": round(total, 9),
        "testament_share": round(total / spend, 9) if spend > 0 else None,
    }


def death_report(lives: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Over a policy's lineages (summaries, or their flattened rows): the deaths per
    lineage (median and mean), the testaments' share of all the money spent, and per
    cause the deaths, the deaths per lineage and the testaments' share."""
    spend = math.fsum(float(life.get("spend_usd") or 0.0) for life in lives)
    deaths = [float(life.get("deaths") or 0) for life in lives]
    counts: defaultdict[str, int] = defaultdict(int)
    costs: defaultdict[str, float] = defaultdict(float)
    for life in lives:
        for cause, n in _table(life, _COUNTS).items():
            counts[cause] += int(n)
        for cause, usd in _table(life, _COSTS).items():
            costs[cause] += float(usd)
    n = len(lives)

    def share(usd: float) -> float | None:
        return round(usd / spend, 6) if spend > 0 else None

    return {
        "deaths_per_lineage_median": statistics.median(deaths) if deaths else None,
        "deaths_per_lineage_mean": round(statistics.fmean(deaths), 4) if deaths else None,
        "testament_share": share(math.fsum(costs.values())),
        "by_cause": {
            cause: {
                "deaths": counts[cause],
                "per_lineage": round(counts[cause] / n, 4) if n else None,
                "testament_usd": round(costs[cause], 6),
                "testament_share": share(costs[cause]),
            }
            for cause in sorted(counts)
        },
    }


def _table(life: Mapping[str, Any], key: str) -> dict[str, Any]:
    """A summary's table `key`, or a row's flattened `key.cause` columns, by cause."""
    nested = life.get(key)
    if isinstance(nested, Mapping):
        return {str(k): v for k, v in nested.items() if v is not None}
    prefix = key + "."
    return {k[len(prefix) :]: v for k, v in life.items() if k.startswith(prefix) and v is not None}
