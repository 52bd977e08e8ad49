"""`golem inspect --summary`: the log's summary as one JSON document or as panels (the
decisions per subsystem in the columns that fit the width, vitality and its phase changes,
risk's verification, the prediction engine, blocked actions and the death).
"""

from __future__ import annotations

import sys
from typing import Any

import orjson
from rich.console import Console
from rich.table import Table

from golem.cli.inspect_table import console_for, details
from golem.runtime.logs import Summary

__all__ = ["print_summary"]


def print_summary(summary: Summary, as_json: bool, width: int | None) -> None:
    document = summary.to_json()
    if as_json:
        sys.stdout.write(orjson.dumps(document, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    console = console_for(width)
    console.print(
        f"[bold]{sum(summary.events.values())} events[/] from {summary.first_time or '?'} "
        f"to {summary.last_time or '?'}; spend ${summary.spend_usd:.6f}"
    )
    rows = [_summary_row(name, row) for name, row in document["subsystems"].items()]
    shown, hidden = _columns_that_fit(rows, console.width)
    caption = None
    if hidden:
        caption = f"not shown at this width: {', '.join(hidden)} (--width 0 or --json: all)"
    table = Table(
        title="decisions per subsystem",
        title_justify="left",
        caption=caption,
        caption_justify="left",
    )
    for column in shown:
        table.add_column(column, justify="right" if column in _RIGHT else "left", no_wrap=True)
    for row in rows:
        table.add_row(*(row[column] for column in shown))
    console.print(table)
    vitality = document["vitality"]
    if vitality["samples"]:
        console.print(
            f"vitality: first {vitality['first']:.3f}, last {vitality['last']:.3f}, "
            f"min {vitality['min']:.3f} over {vitality['samples']} readings; "
            f"phase now {vitality['phase'] or '?'}"
        )
    for change in vitality["phase_changes"]:
        console.print(f"  {change['time'] or '?'}  {change['from']} → {change['to']}")
    verification = document["verification"]
    if verification["verified"] or verification["skipped"]:
        console.print(_verification_line(verification))
    _print_oracle(console, document["oracle"])
    for blocked in document["blocked"]:
        console.print(
            f"[bold yellow]blocked[/] {blocked['action']} at tick {blocked['tick']} "
            f"({blocked['check']}): {blocked['reason']}"
        )
    if summary.death is not None:
        console.print(
            f"[bold red]died[/] at {summary.death.get('time', '?')}: {details(summary.death)}"
        )


def _print_oracle(console: Console, oracle: dict[str, Any]) -> None:
    """The prediction engine's lines: fitness, accuracy per category (and per regime), the
    trades its gate blocked and what they would have made."""
    if oracle["fitness"] is None and not oracle["trades_gated"]:
        return
    fitness = oracle["fitness"]
    console.print(f"epistemic fitness {'?' if fitness is None else f'{fitness:.3f}'}")
    for category, row in oracle["categories"].items():
        if not row.get("total"):
            continue
        regimes = ", ".join(
            f"{regime} {r['hit_rate']:.0%} of {r['total']}"
            for regime, r in sorted(row["regimes"].items())
        )
        skill = row.get("skill")
        console.print(
            f"  {category}: {row['hit_rate']:.0%} of {row['total']} right"
            f"{'' if skill is None else f', skill {skill:+.2f}'} ({regimes})"
        )
    if oracle["trades_gated"]:
        reasons = ", ".join(f"{k} {v}" for k, v in oracle["gated_by_reason"].items())
        console.print(
            f"[bold yellow]gate[/] blocked {oracle['trades_gated']} trades ({reasons}); "
            f"{oracle['gated_resolved']} resolved would have made "
            f"${oracle['would_be_pnl_usd']:.2f}"
        )


# The summary table's columns, most wanted first: a narrow terminal shows a prefix of
# this order, each taken when it fits whole (shown in the table's order), rather than
# every column squeezed to "su…".
_COLUMNS = (
    "subsystem",
    "decisions",
    "spend $",
    "fallbacks",
    "degraded",
    "skipped",
    "sources",
    "re-asks",
    "modes",
    "max prompt",
    "profiles",
    "masked",
    "quarantined",
)


_ORDER = (
    "subsystem",
    "decisions",
    "sources",
    "modes",
    "re-asks",
    "fallbacks",
    "skipped",
    "degraded",
    "spend $",
    "profiles",
    "masked",
    "quarantined",
    "max prompt",
)


_RIGHT = frozenset({"skipped", "degraded", "spend $", "masked", "quarantined", "max prompt"})


def _summary_row(name: str, row: dict[str, Any]) -> dict[str, str]:
    return {
        "subsystem": name,
        "decisions": str(row["decisions"]),
        "sources": _counts(row["sources"]),
        "modes": _counts(row["modes"]),
        "re-asks": str(row["reasks"]),
        "fallbacks": str(row["fallbacks"]),
        "skipped": str(row["skipped"]),
        "degraded": str(row["degradations"]),
        "spend $": f"{row['spend_usd']:.6f}",
        "profiles": _counts(row["profiles"]),
        "masked": str(row["masked"]),
        "quarantined": str(row["quarantined"]),
        "max prompt": str(row["prompt_tokens_max"] or ""),
    }


def _columns_that_fit(rows: list[dict[str, str]], width: int) -> tuple[list[str], list[str]]:
    """The columns shown at `width` (in the table's order) and those left out: the most
    wanted ones whose widest cell fits whole (rich's box: 3 characters a column, 1 more)."""
    used, chosen = 1, set()
    for column in _COLUMNS:
        need = max([len(column), *(len(row[column]) for row in rows)]) + 3  # no rows: the header
        if used + need <= width:
            chosen.add(column)
            used += need
    shown = [column for column in _ORDER if column in chosen]
    return shown, [column for column in _ORDER if column not in chosen]


def _verification_line(verification: dict[str, Any]) -> str:
    """Risk's second opinions: the agreement rate, disagreements, and those not asked."""
    verified, agreed = verification["verified"], verification["agreed"]
    rate = verification["agreement_rate"]
    share = f" ({rate:.1%})" if rate is not None else ""
    return (
        f"risk verification: {agreed} of {verified} verified decisions agreed{share}, "
        f"{verification['disagreements']} disagreements, {verification['skipped']} not verified"
    )


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
