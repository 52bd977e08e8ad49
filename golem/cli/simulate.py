"""`golem simulate SCENARIO.toml`: a golem's life in virtual time (the log, summary.json and
plots in `--out`), or `--seeds N` lives in parallel with their distributions, optionally
compared with the fixed-budget allocator (`--compare fixed`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from golem.cli.failure import UsageError
from golem.inference.seed import seed_problem
from golem.runtime.config import ConfigError
from golem.runtime.simulate import LifeSpec, Policy, run_life
from golem.runtime.simulate_batch import distribution, run_lives
from golem.runtime.simulate_plots import write_plots
from golem.runtime.simulate_scenario import Scenario, load_scenario


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "simulate",
        help="live a golem's life in virtual time from a scenario",
        description=(
            "Run a scenario (a golem config plus a [simulation] table) on a virtual clock "
            "with the synthetic provider: months of life in seconds, through the same "
            "subsystems, allocator, inference path, ledger and logs as `golem run`."
        ),
    )
    parser.add_argument("scenario", type=Path, help="the scenario's TOML file")
    parser.add_argument("--out", type=Path, help="output directory (default out/NAME-SEED)")
    parser.add_argument("--days", type=_positive, help="cap the horizon at N days (e.g. 0.5)")
    parser.add_argument(
        "--seed", type=int, help="the life's seed, 0 to 2**63 - 1 (default: the scenario's)"
    )
    parser.add_argument("--seeds", type=int, help="run N seeded lives in parallel")
    parser.add_argument(
        "--compare", choices=["fixed"], help="also run the same seeds with a fixed budget"
    )
    parser.set_defaults(handler=simulate)


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be a positive number of days")
    return value


def _check_seeds(seed: int, count: int) -> None:
    """Every life's seed (seed, seed + 1, ... for `--seeds`) in the range a seed has.
    (The scenario's own seed was checked when it was read: only `--seed` can be out.)"""
    problem = seed_problem(seed)
    if problem is not None:
        raise UsageError(f"--seed: {problem}")
    last = seed + count - 1
    if seed_problem(last) is not None:
        raise UsageError(
            f"--seeds: the lives' seeds {seed} to {last} must each be from 0 to 2**63 - 1"
        )


def simulate(args: argparse.Namespace) -> int:
    try:
        scenario = load_scenario(args.scenario)
    except ConfigError as exc:
        print(f"golem simulate: {exc}", file=sys.stderr)
        return 2
    if args.seeds is not None and args.seeds < 1:
        print("golem simulate: --seeds: must be at least 1", file=sys.stderr)
        return 2
    seed = scenario.simulation.seed if args.seed is None else args.seed
    _check_seeds(seed, args.seeds or 1)
    console = Console(stderr=False)
    if args.seeds is None and args.compare is None:
        out = args.out or Path("out") / f"{scenario.name}-{seed}"
        return _one(scenario, LifeSpec(scenario.path, seed, out, args.days), console)
    count = args.seeds or 1
    out = args.out or Path("out") / f"{scenario.name}-seeds{count}"
    policies: list[Policy] = ["vitality", "fixed"] if args.compare else ["vitality"]
    return _many(
        scenario,
        seed=seed,
        count=count,
        out=out,
        days=args.days,
        policies=policies,
        console=console,
    )


def _one(scenario: Scenario, spec: LifeSpec, console: Console) -> int:
    horizon = scenario.horizon(spec.days).total_seconds() / 86_400
    with _progress() as progress:
        task = progress.add_task(f"{scenario.name} seed {spec.seed}", total=horizon)
        result = run_life(spec, on_tick=lambda days: progress.update(task, completed=days))
    title = f"{scenario.name}: seed {spec.seed}, {spec.policy} policy"
    plots = write_plots(spec.out, title, result.tally, result.daily_spend)
    console.print(_summary_table(result.summary))
    console.print(f"wrote {spec.out / 'golem.log'}, {spec.out / 'summary.json'}, ")
    console.print("  " + ", ".join(p.name for p in plots))
    return 0


def _many(
    scenario: Scenario,
    *,
    seed: int,
    count: int,
    out: Path,
    days: float | None,
    policies: list[Policy],
    console: Console,
) -> int:
    specs = [
        LifeSpec(scenario.path, s, out / policy / f"seed-{s}", days, policy)
        for policy in policies
        for s in range(seed, seed + count)
    ]
    with _progress() as progress:
        task = progress.add_task(f"{scenario.name}: {len(specs)} lives", total=len(specs))
        summaries = run_lives(specs, on_done=lambda _: progress.advance(task))
    report: dict[str, dict[str, Any]] = {
        policy: distribution(s for s in summaries if s["policy"] == policy) for policy in policies
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_bytes(
        orjson.dumps(report, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"
    )
    console.print(_report_table(scenario.name, count, report))
    if len(policies) == 2:
        longer = _ratio(report["vitality"], report["fixed"])
        if longer is not None:
            console.print(f"vitality-driven median lifespan: {longer:+.0%} against fixed budget")
    console.print(f"wrote {out / 'report.json'} and each life under {out}/<policy>/seed-N/")
    return 0


def _ratio(mortal: dict[str, Any], fixed: dict[str, Any]) -> float | None:
    a, b = mortal["lifespan_days"]["median"], fixed["lifespan_days"]["median"]
    return a / b - 1 if a is not None and b else None


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.1f}/{task.total:.1f}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
        transient=True,
    )


def _summary_table(summary: dict[str, Any]) -> Table:
    table = Table(title=f"{summary['scenario']} (seed {summary['seed']}, {summary['policy']})")
    table.add_column("measure")
    table.add_column("value", overflow="fold")
    for key, value in sorted(summary.items()):
        text = str(value)
        if isinstance(value, dict):
            text = ", ".join(f"{k}={v}" for k, v in sorted(value.items())) or "-"
        table.add_row(key, text)
    return table


def _report_table(name: str, count: int, report: dict[str, dict[str, Any]]) -> Table:
    table = Table(title=f"{name}: {count} seeded lives per policy")
    table.add_column("measure")
    for policy in report:
        table.add_column(policy if policy != "vitality" else "vitality-driven")
    rows: list[tuple[str, Callable[[dict[str, Any]], object]]] = [
        ("lifespan min (days)", lambda d: d["lifespan_days"]["min"]),
        ("lifespan median (days)", lambda d: d["lifespan_days"]["median"]),
        ("lifespan max (days)", lambda d: d["lifespan_days"]["max"]),
        ("causes of death", lambda d: ", ".join(f"{k}: {v}" for k, v in d["causes"].items())),
        ("lived to the horizon", lambda d: d["survived_horizon"]),
        ("risk assessments", lambda d: d["risk_assessments"]),
        ("risk by the rules in Terminal", lambda d: d["risk_in_terminal"]),
        ("risk coverage (model, before Terminal)", lambda d: _percent(d["risk_coverage"])),
        ("death testaments by model", lambda d: _percent(d["death_coverage"])),
        ("mean spend (USD)", lambda d: d["spend_usd_mean"]),
    ]
    for label, cell in rows:
        table.add_row(label, *(_cell(cell(report[p])) for p in report))
    return table


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _cell(value: object) -> str:
    return "-" if value is None or value == "" else str(value)
