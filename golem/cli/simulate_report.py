"""What `golem simulate` prints: one lineage's summary (and its generations), the
distributions of many (`--seeds`), and the policies side by side (`--compare`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from golem.mortality import PolicyName
from golem.simulation.compare import Comparison

__all__ = [
    "comparison_table",
    "disk_use",
    "life_returns_table",
    "lineage_table",
    "ratios",
    "report_table",
    "returns_table",
    "size",
    "summary_table",
]

POLICY_LABELS = {
    PolicyName.VITALITY: "vitality-driven",
    PolicyName.FIXED: "fixed budget",
    PolicyName.IMMORTAL: "immortal",
    PolicyName.RULES: "rules only",
}
_VERDICT_STYLES = {"better": "green", "worse": "red", "no difference": "dim"}


def label(policy: str) -> str:
    """A policy's name as a column reads it; an arm of the fixed policy at a daily budget
    (`fixed@0.5`) as "fixed $0.5/day"."""
    name, at, rate = policy.partition("@")
    if at and name == PolicyName.FIXED:
        return f"fixed ${rate}/day"
    return POLICY_LABELS.get(PolicyName(policy), policy) if policy in set(PolicyName) else policy


def summary_table(summary: dict[str, Any]) -> Table:
    table = Table(title=f"{summary['scenario']} (seed {summary['seed']}, {summary['policy']})")
    table.add_column("measure")
    table.add_column("value", overflow="fold")
    for key, value in sorted(summary.items()):
        if key == "lineage":
            continue  # its own table
        for measure, text in _rows(key, value):
            table.add_row(measure, text)
    return table


def _rows(key: str, value: Any) -> list[tuple[str, str]]:
    """A measure as rows of plain text: a table of tables as a row per inner table (key
    "decisions_judged.daimon.model"), never a Python repr."""
    if isinstance(value, dict) and any(isinstance(v, dict) for v in value.values()):
        return [row for k, v in sorted(value.items()) for row in _rows(f"{key}.{k}", v)]
    return [(key, _plain(value))]


def _plain(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in sorted(value.items())) or "-"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value) or "-"
    return str(value)


def lineage_table(summary: dict[str, Any]) -> Table:
    """Each golem of the lineage: when it was born, how long it lived, how it ended, its
    money, the lessons it inherited and its own return net of costs beside holding its
    birth portfolio and buying and holding over its life."""
    table = Table(title=f"lineage: {summary['generations']} generations")
    columns = (
        ("generation", "generation"),
        ("born (day)", "born_day"),
        ("lifespan (days)", "lifespan_days"),
        ("ended", "ended"),
        ("cause", "cause_of_death"),
        ("funded (USD)", "funded_usd"),
        ("spent (USD)", "spend_usd"),
        ("left (USD)", "credits_left_usd"),
        ("lessons inherited", "inherited_lessons"),
        ("return net (%)", "return_net_percent"),
        ("holding (%)", "hold_initial_percent"),
        ("buy and hold (%)", "buy_hold_percent"),
    )
    for title, _ in columns:
        table.add_column(title)
    for life in summary["lineage"]:
        table.add_row(*(_number(life.get(key)) for _, key in columns))
    return table


def report_table(name: str, count: int, report: dict[str, dict[str, Any]]) -> Table:
    """How the lineages of each policy ended, and the model's share of the work."""
    table = Table(title=f"{name}: {count} seeded lineages per policy")
    table.add_column("measure")
    for policy in report:
        table.add_column(label(policy))
    rows: list[tuple[str, Callable[[dict[str, Any]], object]]] = [
        ("lifespan min (days)", lambda d: d["lifespan_days"]["min"]),
        ("lifespan median (days)", lambda d: d["lifespan_days"]["median"]),
        ("lifespan max (days)", lambda d: d["lifespan_days"]["max"]),
        ("generations (median)", lambda d: d["generations"]["median"]),
        ("last golem's cause of death", lambda d: _causes(d["causes"])),
        ("lived to the horizon", lambda d: d["survived_horizon"]),
        ("risk assessments", lambda d: d["risk_assessments"]),
        ("risk by the rules in Terminal", lambda d: d["risk_in_terminal"]),
        ("risk coverage (model, before Terminal)", lambda d: _percent(d["risk_coverage"])),
        ("deaths (all generations)", lambda d: d["deaths"]),
        ("death testaments by model", lambda d: _percent(d["death_coverage"])),
        ("mean spend (USD)", lambda d: d["spend_usd_mean"]),
        ("decision cache hit rate", lambda d: _percent(d.get("cache_hit_rate"))),
        ("risk verdicts reused", lambda d: d.get("verdicts_reused")),
    ]
    for title, cell in rows:
        table.add_row(title, *(_cell(cell(report[p])) for p in report))
    return table


# The golem's return and the baselines on the same path (performance.baselines).
RETURNS = (
    ("golem, net of fees, slippage and inference", "return_net_percent"),
    ("holding the initial position (inaction)", "hold_initial_percent"),
    ("buy and hold", "buy_hold_percent"),
    ("cash", "cash_percent"),
)


def returns_table(name: str, count: int, report: dict[str, dict[str, Any]]) -> Table:
    """The golem's return beside the baselines on the same path, median [min, max] over
    the lineages of each policy, in % of the initial portfolio."""
    table = Table(
        title=escape(f"{name}: return on the same path (%), median [min, max] of {count}")
    )
    table.add_column("portfolio")
    for policy in report:
        table.add_column(label(policy))
    for title, key in RETURNS:
        table.add_row(title, *(_spread(report[p].get(key)) for p in report))
    return table


def life_returns_table(summary: dict[str, Any]) -> Table:
    """One lineage's return beside the baselines on the same path."""
    table = Table(title=f"{summary['scenario']}: return on the same path (%)")
    table.add_column("portfolio")
    table.add_column("return (%)")
    for title, key in RETURNS:
        table.add_row(title, _g(summary.get(key)))
    return table


def _spread(values: dict[str, Any] | None) -> str:
    if not values or values.get("median") is None:
        return "-"
    return f"{_g(values['median'])} [{_g(values['min'])}, {_g(values['max'])}]"


def comparison_table(name: str, count: int, rows: Sequence[Comparison]) -> Table:
    """Every dimension for every policy: median [q1, q3], and under each policy but the
    reference its verdict against it and the test's p-value."""
    policies = list(dict.fromkeys(row.policy for row in rows))
    reference = rows[0].reference if rows else ""
    table = Table(
        title=f"{name}: median [IQR] over {count} lineages; verdicts against {label(reference)}",
    )
    table.add_column("outcome")
    for policy in policies:
        table.add_column(label(policy) + (" (reference)" if policy == reference else ""))
    by_dimension: dict[str, list[Comparison]] = {}
    for row in rows:
        by_dimension.setdefault(row.dimension.key, []).append(row)
    for group in by_dimension.values():
        dimension = group[0].dimension
        arrow = {"higher": " ↑", "lower": " ↓"}.get(dimension.better or "", "")
        table.add_row(dimension.label + arrow, *(_comparison_cell(row) for row in group))
    return table


def ratios(report: dict[str, dict[str, Any]], reference: str, policy: str) -> str:
    """The reference's median lifespan and productive life against `policy`'s."""
    parts = []
    for title, key in (("lifespan", "lifespan_days"), ("productive life", "productive_life_days")):
        mine, theirs = report[reference][key]["median"], report[policy][key]["median"]
        if mine is not None and theirs:
            parts.append(f"median {title} {mine / theirs:.2f}x")
    against = f"{label(reference)} against {label(policy)}"
    return f"{against}: {', '.join(parts)}" if parts else f"{against}: no ratio (a median is 0)"


def _comparison_cell(row: Comparison) -> Text:
    if row.median is None:
        text = Text("-")
    else:
        text = Text(f"{_g(row.median)} [{_g(row.q1)}, {_g(row.q3)}]")
    if row.verdict != "reference":
        p = "" if row.p_value is None else f" p={row.p_value:.3g}"
        text.append(f"\n{row.verdict}{p}", style=_VERDICT_STYLES.get(row.verdict, "bold"))
    return text


def _g(value: float | None) -> str:
    return "-" if value is None else f"{value:.4g}"


def _number(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return _cell(value)


def _causes(causes: dict[str, int]) -> str:
    return ", ".join(f"{k}: {v}" for k, v in causes.items())


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _cell(value: object) -> str:
    return "-" if value is None or value == "" else str(value)


def disk_use(root: Path) -> int:
    """Bytes in the files under `root`."""
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def size(count: float) -> str:
    for unit in ("bytes", "kB", "MB"):
        if count < 1000:
            return f"{count:.0f} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1000
    return f"{count:.1f} GB"
