"""Policies side by side: for every outcome dimension, each policy's median and
interquartile range over its lineages (one per seed), and a verdict against the reference
policy (the scenario's own) from a two-sided Mann–Whitney U test at α = 0.05
(ranktest.py): better or worse where the dimension has a better direction, higher or
lower where it has none, "no difference" when the test does not reject.
"""

from __future__ import annotations

import csv
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from golem.simulation.outcomes import OUTCOME_KEYS
from golem.simulation.ranktest import EXACT_UP_TO, mann_whitney_u

__all__ = [
    "ALPHA",
    "COLUMNS",
    "DIMENSIONS",
    "TEST_NAME",
    "Comparison",
    "Dimension",
    "compare",
    "write_csv",
]

ALPHA = 0.05
TEST_NAME = (
    f"Mann–Whitney U, two-sided, α = {ALPHA}: exact permutation p-value (midranks for ties) "
    f"up to {EXACT_UP_TO} lives in the two samples, else the normal approximation"
)
Better = Literal["higher", "lower"] | None


@dataclass(frozen=True, slots=True)
class Dimension:
    key: str  # the summary.json key
    label: str
    better: Better  # which way is better; None: neither (more entries, more spend)


# The dimensions of the Bardo design's comparison that apply to one lineage, with the
# lineage's own (its lifespan, generations, spend); an outcome key added later and not
# named here is compared too, with no better direction.
_NAMED = (
    Dimension("lifespan_days", "lifespan (days)", "higher"),
    Dimension("generations", "generations", None),
    Dimension("productive_life_days", "productive life (days)", "higher"),
    Dimension("risk_by_model_share", "risk by model (share)", "higher"),
    Dimension("terminal_days", "days in Terminal", "lower"),
    Dimension("spend_usd", "spend (USD)", None),
    Dimension("pnl_usd", "P&L (USD)", "higher"),
    Dimension("pnl_percent", "P&L (%)", "higher"),
    Dimension("sharpe", "Sharpe (annualised)", "higher"),
    Dimension("sortino", "Sortino (annualised)", "higher"),
    Dimension("max_drawdown_percent", "max drawdown (%)", "lower"),
    Dimension("health_factor_breaches", "health-factor breaches", "lower"),
    Dimension("fitness_final", "predictive fitness, final", "higher"),
    Dimension("fitness_mean", "predictive fitness, mean", "higher"),
    Dimension("grimoire_entries", "grimoire entries", None),
    Dimension("grimoire_validated_share", "grimoire validated (share)", "higher"),
    Dimension("grimoire_mean_confidence", "grimoire mean confidence", "higher"),
    Dimension("adaptation_ticks_median", "regime adaptation (ticks, median)", "lower"),
    Dimension("shocks_recovered", "shocks recovered", "higher"),
    Dimension("shocks_unrecovered", "shocks unrecovered", "lower"),
    Dimension("correct_share_model", "right decisions, model (share)", "higher"),
    Dimension("correct_share_rules", "right decisions, rules (share)", "higher"),
    Dimension("cost_per_correct_usd", "cost per right model decision (USD)", "lower"),
    Dimension("right_decisions", "right decisions (count)", "higher"),
    Dimension("right_decisions_model", "right decisions by model (count)", "higher"),
    Dimension("return_net_percent", "return net of fees, slippage, inference (%)", "higher"),
    Dimension("hold_initial_percent", "baseline: holding the initial position (%)", None),
    Dimension("buy_hold_percent", "baseline: buy and hold (%)", None),
    Dimension("cash_percent", "baseline: cash (%)", None),
    Dimension("strategy_niches", "strategy niches across members", "higher"),
    Dimension("strategy_entropy_bits", "strategy diversity (bits)", "higher"),
    Dimension("insights_created", "insights written", "higher"),
    Dimension("insights_per_day", "novel insights a day", "higher"),
    Dimension("testament_usd", "testaments' cost (USD)", None),
    Dimension("testament_share", "testaments' share of spend", "lower"),
    Dimension("would_have_died_day", "immortal: would have died (day)", None),
    Dimension("mortal_lifetimes", "immortal: mortal lifetimes lived", None),
)
DIMENSIONS: tuple[Dimension, ...] = _NAMED + tuple(
    Dimension(key, key.replace("_", " "), None)
    for key in OUTCOME_KEYS
    if key not in {d.key for d in _NAMED}
)

COLUMNS = (
    "dimension",
    "better",
    "policy",
    "reference",
    "lives",
    "median",
    "q1",
    "q3",
    "u",
    "p_value",
    "test",
    "verdict",
)


@dataclass(frozen=True, slots=True)
class Comparison:
    """One policy on one dimension: its spread over the lives with a value, and (for a
    policy other than the reference) the test against the reference and its verdict."""

    dimension: Dimension
    policy: str
    reference: str
    lives: int
    median: float | None
    q1: float | None
    q3: float | None
    u: float | None = None
    p_value: float | None = None
    test: str | None = None  # exact or asymptotic
    verdict: str = "reference"

    def row(self) -> dict[str, Any]:
        return {
            "dimension": self.dimension.key,
            "better": self.dimension.better or "",
            "policy": self.policy,
            "reference": self.reference,
            "lives": self.lives,
            "median": _blank(self.median),
            "q1": _blank(self.q1),
            "q3": _blank(self.q3),
            "u": _blank(self.u),
            "p_value": _blank(self.p_value),
            "test": self.test or "",
            "verdict": self.verdict,
        }


def compare(
    summaries: Mapping[str, Sequence[Mapping[str, Any]]], reference: str
) -> list[Comparison]:
    """Every dimension for every policy of `summaries` (policy → its lives' summaries),
    the reference first, each tested against `reference`. A life without a value for a
    dimension (an undefined ratio) is left out of it."""
    policies = [reference, *(p for p in summaries if p != reference)]
    rows = []
    for dimension in DIMENSIONS:
        baseline = _values(summaries[reference], dimension.key)
        for policy in policies:
            values = _values(summaries[policy], dimension.key)
            q1, median, q3 = _quartiles(values)
            row = Comparison(dimension, policy, reference, len(values), median, q1, q3)
            if policy != reference:
                row = _tested(row, values, baseline)
            rows.append(row)
    return rows


def write_csv(path: Path, rows: Sequence[Comparison]) -> None:
    """The comparison as CSV, one row per dimension and policy (COLUMNS)."""
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(row.row() for row in rows)


def _tested(row: Comparison, values: list[float], baseline: list[float]) -> Comparison:
    if not values or not baseline:
        return replace(row, verdict="no data")
    test = mann_whitney_u(values, baseline)
    verdict = "no difference"
    if test.p_value < ALPHA and test.first_larger is not None:
        higher = test.first_larger
        better = row.dimension.better
        if better is None:
            verdict = "higher" if higher else "lower"
        else:
            verdict = "better" if higher == (better == "higher") else "worse"
    # Six significant digits, not places: a p of 1.5e-11 is not 0.
    p_value = float(f"{test.p_value:.6g}")
    return replace(row, u=test.u, p_value=p_value, test=test.method, verdict=verdict)


def _values(lives: Sequence[Mapping[str, Any]], key: str) -> list[float]:
    return [float(v) for life in lives if (v := life.get(key)) is not None]


def _quartiles(values: list[float]) -> tuple[float | None, float | None, float | None]:
    """First quartile, median, third quartile (linear interpolation between the closest
    ranks, numpy's default); one value is all three."""
    if not values:
        return None, None, None
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return round(q1, 6), round(median, 6), round(q3, 6)


def _blank(value: float | None) -> float | str:
    return "" if value is None else value
