"""The acceptance run of issue 37's economics: every scenario of the set x N seeds x the
policies (the scenario's own, vitality, against fixed budgets at $0.25, $0.50 and $1 a
day and the immortal control), each scenario one `golem simulate --compare` batch on a
Dask LocalCluster of `--jobs` workers (the batch path), then one table across the
scenarios: where the vitality policy stands on the fixed-budget frontier at its own spend
(productive life, right decisions, Sharpe), its net return against inaction on the same
path (Wilcoxon signed-rank, paired by seed), the deaths per lineage and the testaments'
share, and the control experiment's thesis status. Each scenario's own tables (and
frontier.png) are printed and written under --out/SCENARIO as `golem simulate` writes them.

The batches share one LocalCluster of `--jobs` worker processes (default: the cores), each
batch sent to it as `golem simulate --scheduler` sends one, so the workers start and
import golem once; the lives go in chunks (golem.simulation.batch). Each scenario's line
and the last line give the wall time and lives per minute, and the last the CPU seconds
a life cost (wall x workers / lives: what a larger run will cost per life).

The set: the three synthetic scenarios (decline, whipsaw, bull_run_income) and the real
events of the shared market data (may2021, luna2022, celsius2022, sideways2023), a real
event left out, with one line saying why, when its candles are not there.

    .venv/bin/python benchmarks/economics.py --seeds 20           # the full acceptance run
    .venv/bin/python benchmarks/economics.py --seeds 3 --days 3   # a smaller one
    .venv/bin/python benchmarks/economics.py --quick              # decline, 2 seeds, 0.2 days

Nothing is tuned here: the figures are what the scenarios and the policies give.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from golem.cli import main as golem  # noqa: E402
from golem.runtime.config import ConfigError  # noqa: E402
from golem.simulation.batch import cores, executor  # noqa: E402
from golem.simulation.results import read_rows  # noqa: E402
from golem.simulation.scenario import load_scenario  # noqa: E402

SYNTHETIC = ("decline", "whipsaw", "bull_run_income")
REAL = ("may2021", "luna2022", "celsius2022", "sideways2023")
POLICIES = "vitality,fixed@0.25,fixed@0.5,fixed@1,immortal"
ALPHA = 0.05


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="lineages per policy (20)")
    parser.add_argument("--days", type=float, help="cap every horizon (default: the scenario's)")
    parser.add_argument("--jobs", type=int, help="Dask worker processes (the cores)")
    parser.add_argument("--out", type=Path, help="where the batches go (default: a temp dir)")
    parser.add_argument("--policies", default=POLICIES, help=f"--compare's list ({POLICIES})")
    parser.add_argument("--scenarios", help="comma-separated names (default: the set)")
    parser.add_argument("--quick", action="store_true", help="decline, 2 seeds, 0.2 days")
    args = parser.parse_args()
    names = list(SYNTHETIC + REAL) if args.scenarios is None else args.scenarios.split(",")
    seeds, days = args.seeds, args.days
    if args.quick:
        names, seeds, days = ["decline"], 2, 0.2
    os.environ.setdefault("COLUMNS", "160")  # the batches' tables, printed by golem's console
    console = Console(width=160)
    jobs = args.jobs or cores()
    policies = len(args.policies.split(","))
    with tempfile.TemporaryDirectory() as scratch, executor(workers=jobs) as client:
        out = args.out or Path(scratch)
        started = time.perf_counter()
        rows = []
        for name in names:
            row = run_scenario(
                name,
                out,
                seeds=seeds,
                days=days,
                scheduler=client.scheduler.address,
                policies=args.policies,
                console=console,
            )
            if row is not None:
                rows.append(row)
        wall = time.perf_counter() - started
        lives = sum(row["lives"] for row in rows)
        console.print(across(rows, seeds, days))
        console.print(
            f"{len(rows)} scenarios x {seeds} seeds x {policies} policies: {lives} lives in "
            f"{wall:.0f} s wall ({wall / 60:.1f} min), {60 * lives / wall:.1f} lives/min, "
            f"{wall * jobs / max(1, lives):.2f} s of a worker a life ({jobs} workers)"
        )
    return 0


def run_scenario(
    name: str,
    out: Path,
    *,
    seeds: int,
    days: float | None,
    scheduler: str,
    policies: str,
    console: Console,
) -> dict[str, Any] | None:
    path = ROOT / "simulations" / f"{name}.toml"
    try:
        load_scenario(path)
    except ConfigError as exc:
        console.print(f"{name}: left out: {exc}")
        return None
    where = out / name
    command = ["simulate", str(path), "--seeds", str(seeds), "--scheduler", scheduler]
    command += ["--out", str(where), "--compare", policies]
    if days is not None:
        command += ["--days", str(days)]
    started = time.perf_counter()
    code = golem(command)
    wall = time.perf_counter() - started
    row = summarise(name, where)
    console.print(
        f"{name}: exit {code}, {row['lives']} lives in {wall:.0f} s, "
        f"{60 * row['lives'] / wall:.1f} lives/min"
    )
    return row


def summarise(name: str, where: Path) -> dict[str, Any]:
    """What the across-scenario table shows of one scenario's batch."""
    report = orjson.loads((where / "report.json").read_bytes())
    frontier = _json(where / "frontier.json") or []
    control = _json(where / "control.json")
    rows = read_rows(where)
    lives = [r for r in rows if r.get("policy") == "vitality" and not r.get("error")]
    vitality = report.get("vitality", {})
    deaths = vitality.get("death_report", {})
    return {
        "scenario": name,
        "lives": len(rows),
        "frontier": {p["metric"]: p for p in frontier},
        "inaction": against_inaction(lives),
        "deaths": deaths.get("deaths_per_lineage_median"),
        "testament_share": deaths.get("testament_share"),
        "thesis": None if control is None else control["status"],
        "wins": None if control is None else (control["mortal_wins"], control["immortal_wins"]),
    }


def against_inaction(lives: list[dict[str, Any]]) -> dict[str, Any]:
    """The vitality lineages' net return against holding their initial position, paired
    by seed: the median difference (points of %) and the Wilcoxon signed-rank verdict."""
    pairs = [
        (float(r["return_net_percent"]), float(r["hold_initial_percent"]))
        for r in lives
        if r.get("return_net_percent") is not None and r.get("hold_initial_percent") is not None
    ]
    differences = [a - b for a, b in pairs]
    if not differences:
        return {"median": None, "p": None, "verdict": "no data"}
    median = statistics.median(differences)
    if all(d == 0 for d in differences):
        return {"median": median, "p": 1.0, "verdict": "no difference"}
    from scipy.stats import wilcoxon

    p = float(wilcoxon(differences).pvalue)
    verdict = "no difference" if p >= ALPHA else ("better" if median > 0 else "worse")
    return {"median": median, "p": p, "verdict": verdict}


def across(rows: list[dict[str, Any]], seeds: int, days: float | None) -> Table:
    span = "the scenarios' horizons" if days is None else f"{days:g}-day lives"
    table = Table(title=f"issue 37 acceptance: {seeds} seeds, {span}; vitality's medians")
    for column in (
        "scenario",
        "productive life vs frontier",
        "right decisions vs frontier",
        "Sharpe vs frontier",
        "net return - inaction (pts)",
        "deaths / lineage",
        "testaments' share",
        "thesis (mortal-immortal wins)",
    ):
        table.add_column(column)
    for row in rows:
        placed = row["frontier"]
        inaction = row["inaction"]
        wins = row["wins"]
        table.add_row(
            row["scenario"],
            *(
                _placed(placed.get(m))
                for m in ("productive_life_days", "right_decisions", "sharpe")
            ),
            f"{_g(inaction['median'])} ({inaction['verdict']}, p={_g(inaction['p'])})",
            _g(row["deaths"]),
            "-" if row["testament_share"] is None else f"{row['testament_share']:.1%}",
            "-" if wins is None else f"{row['thesis']} ({wins[0]}-{wins[1]})",
        )
    return table


def _placed(placement: dict[str, Any] | None) -> str:
    if placement is None:
        return "-"
    difference = placement.get("difference_median")
    return f"{placement['verdict']} ({_g(difference)}, p={_g(placement.get('p_value'))})"


def _json(path: Path) -> Any:
    return orjson.loads(path.read_bytes()) if path.is_file() else None


def _g(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


if __name__ == "__main__":
    raise SystemExit(main())
