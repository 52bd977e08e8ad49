"""`golem simulate SCENARIO.toml`: a golem's life in virtual time (the log, summary.json and
plots in `--out`), or `--seeds N` lives in parallel with their distributions, optionally
compared with the fixed-budget allocator (`--compare fixed`).

Ctrl-C stops at once: one line, exit 130. A life's summary.json is written last, whole, so
an out directory holds one only for a life that finished; the interrupted life keeps the
log and state it had written, and in a batch the lives that finished keep theirs."""

from __future__ import annotations

import argparse
import os
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
from golem.simulation import (
    LifeSpec,
    Policy,
    Scenario,
    distribution,
    load_scenario,
    run_life,
    run_lives,
    write_plots,
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "simulate",
        help="live a golem's life in virtual time from a scenario",
        description=(
            "Run a scenario (a golem config plus a [simulation] table) on a virtual clock "
            "with the synthetic provider: months of life in seconds, through the same "
            "subsystems, allocator, inference path, ledger and logs as `golem run`. "
            "Ctrl-C stops it (exit 130): lives that finished keep their out directory; "
            "summary.json is only ever written by a life that finished."
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
        "--jobs", type=_count, help="with --seeds: lives at a time (default: the cores)"
    )
    parser.add_argument(
        "--compare", choices=["fixed"], help="also run the same seeds with a fixed budget"
    )
    parser.add_argument(
        "--logs",
        action="store_true",
        help="with --seeds/--compare: keep each life's full record, its golem.log and "
        "state database (some 180 MB per 30-day life); by default a batch life keeps its "
        "summary.json and testament only. A single life always keeps both.",
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


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


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
        _check_out(out, given=args.out is not None)
        return _one(scenario, LifeSpec(scenario.path, seed, out, args.days), console)
    count = args.seeds or 1
    out = args.out or Path("out") / f"{scenario.name}-seeds{count}"
    _check_out(out, given=args.out is not None)
    policies: list[Policy] = ["vitality", "fixed"] if args.compare else ["vitality"]
    return _many(
        scenario,
        seed=seed,
        count=count,
        out=out,
        days=args.days,
        policies=policies,
        logs=args.logs,
        jobs=args.jobs,
        console=console,
    )


def _check_out(out: Path, *, given: bool) -> None:
    """Refuse an out directory that cannot be made or written, before anything runs."""
    name = f"--out {out}" if given else f"output directory {out}"
    if out.exists() and not out.is_dir():
        raise UsageError(f"{name}: not a directory")
    place = out if out.exists() else next(p for p in out.parents if p.exists())
    if not place.is_dir():
        raise UsageError(f"{name}: {place} is not a directory")
    if not os.access(place, os.W_OK | os.X_OK):
        raise UsageError(f"{name}: {place} is not writable")


def _one(scenario: Scenario, spec: LifeSpec, console: Console) -> int:
    horizon = scenario.horizon(spec.days).total_seconds() / 86_400
    try:
        with _progress() as progress:
            task = progress.add_task(f"{scenario.name} seed {spec.seed}", total=horizon)
            result = run_life(spec, on_tick=lambda days: progress.update(task, completed=days))
    except* KeyboardInterrupt:
        log = spec.out / "golem.log"
        raise KeyboardInterrupt(
            f"the life did not finish (no summary.json); its log: {log}"
        ) from None
    title = f"{scenario.name}: seed {spec.seed}, {spec.policy} policy"
    plots = write_plots(spec.out, title, result.tally, result.daily_spend, result.outcomes)
    console.print(_summary_table(result.summary))
    console.print(f"wrote {spec.out / 'golem.log'}, {spec.out / 'summary.json'}, ")
    console.print("  " + ", ".join(p.name for p in plots))
    console.print(f"{_size(_disk_use(spec.out))} on disk under {spec.out}")
    return 0


def _many(
    scenario: Scenario,
    *,
    seed: int,
    count: int,
    out: Path,
    days: float | None,
    policies: list[Policy],
    logs: bool,
    jobs: int | None,
    console: Console,
) -> int:
    specs = [
        LifeSpec(scenario.path, s, out / policy / f"seed-{s}", days, policy, record=logs)
        for policy in policies
        for s in range(seed, seed + count)
    ]
    finished = 0
    with _progress() as progress:
        task = progress.add_task(f"{scenario.name}: {len(specs)} lives", total=len(specs))

        def done(summary: dict[str, Any], seconds: float) -> None:
            nonlocal finished
            finished += 1
            progress.advance(task)
            if progress.disable:  # no live progress bar: a line per life instead
                print(f"[{finished}/{len(specs)}] {_life_line(summary, seconds)}", flush=True)

        try:
            summaries = run_lives(specs, workers=jobs, on_done=done)
        except KeyboardInterrupt:
            kept = f", kept under {out}" if finished else ""
            raise KeyboardInterrupt(f"{finished} of {len(specs)} lives finished{kept}") from None
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
        productive = _ratio(report["vitality"], report["fixed"], "productive_life_days")
        if productive is not None:
            console.print(
                f"vitality-driven median productive life: {productive:+.0%} against fixed budget"
            )
    console.print(f"wrote {out / 'report.json'} and each life under {out}/<policy>/seed-N/")
    console.print(f"{_size(_disk_use(out))} on disk under {out}")
    return 0


def _life_line(summary: dict[str, Any], seconds: float) -> str:
    """A finished life in a line: policy, seed, lifespan, how it ended, wall time."""
    ended = {"died": f"died ({summary['cause_of_death']})", "data_ended": "ended with its data"}
    how = ended.get(summary["ended"], "lived to the horizon")
    return (
        f"{summary['policy']} seed {summary['seed']}: {how} at "
        f"{summary['lifespan_days']:.2f} days ({seconds:.1f} s)"
    )


def _disk_use(root: Path) -> int:
    """Bytes in the files under `root`."""
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def _size(count: float) -> str:
    for unit in ("bytes", "kB", "MB"):
        if count < 1000:
            return f"{count:.0f} {unit}" if unit == "bytes" else f"{count:.1f} {unit}"
        count /= 1000
    return f"{count:.1f} GB"


def _ratio(
    mortal: dict[str, Any], fixed: dict[str, Any], key: str = "lifespan_days"
) -> float | None:
    a, b = mortal[key]["median"], fixed[key]["median"]
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
        ("decision cache hit rate", lambda d: _percent(d.get("cache_hit_rate"))),
        ("risk verdicts reused", lambda d: d.get("verdicts_reused")),
        *_OUTCOME_ROWS,
    ]
    for label, cell in rows:
        table.add_row(label, *(_cell(cell(report[p])) for p in report))
    return table


def _median(key: str) -> Callable[[dict[str, Any]], object]:
    return lambda d: d.get(key, {}).get("median")


# The outcomes' medians over the lives that have a value (a ratio can be undefined).
_OUTCOME_ROWS: list[tuple[str, Callable[[dict[str, Any]], object]]] = [
    (f"{label} median", _median(key))
    for label, key in (
        ("productive life (days)", "productive_life_days"),
        ("risk by model, whole life (share)", "risk_by_model_share"),
        ("days in Terminal", "terminal_days"),
        ("P&L (USD)", "pnl_usd"),
        ("P&L (%)", "pnl_percent"),
        ("Sharpe (annualised)", "sharpe"),
        ("Sortino (annualised)", "sortino"),
        ("max drawdown (%)", "max_drawdown_percent"),
        ("health-factor breaches", "health_factor_breaches"),
        ("predictive fitness, final", "fitness_final"),
        ("predictive fitness, mean", "fitness_mean"),
        ("grimoire entries", "grimoire_entries"),
        ("grimoire validated (share)", "grimoire_validated_share"),
        ("grimoire mean confidence", "grimoire_mean_confidence"),
    )
]


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _cell(value: object) -> str:
    return "-" if value is None or value == "" else str(value)
