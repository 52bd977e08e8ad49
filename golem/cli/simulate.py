"""`golem simulate SCENARIO.toml`: a golem's lineage in virtual time (the log, summary.json
and plots in `--out`), or a batch (simulate_batch.py): `--seeds N` lineages on Dask with
their distributions, optionally beside other policies' (`--compare fixed,immortal,rules`)
and over a grid of config values (`--set KEY=V1,V2`), as a table of results.

Ctrl-C stops at once: one line, exit 130. A life's summary.json is written last, whole, so
an out directory holds one only for a life that finished; the interrupted life keeps the
log and state it had written, and in a batch the lives that finished keep theirs."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from golem.cli.arguments import positive_count
from golem.cli.failure import UsageError
from golem.cli.simulate_batch import STEP, Batch, run_batch
from golem.cli.simulate_model import estimate, model_overrides, spend_cap
from golem.cli.simulate_report import (
    disk_use,
    life_returns_table,
    lineage_table,
    size,
    summary_table,
)
from golem.inference.seed import seed_problem
from golem.runtime.config import ConfigError
from golem.simulation import Death, LifeSpec, Scenario, load_scenario, run_life, write_plots
from golem.simulation.arms import Arm, parse_arms
from golem.simulation.sweep import check_grid, parse_setting


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "simulate",
        help="live a golem's life in virtual time from a scenario",
        description=(
            "Run a scenario (a golem config plus a [simulation] table) on a virtual clock "
            "with the synthetic provider: months of life in seconds, through the same "
            "subsystems, allocator, inference path, ledger and logs as `golem run`. "
            "A batch (--seeds, --compare or --set) runs its lives as Dask tasks and writes "
            "results.parquet and results.csv under --out, a row per life; a life that "
            "failed is a row with its error, listed at the end (exit 1). "
            "Ctrl-C stops it (exit 130): lives that finished keep their out directory (and "
            "a batch their rows); summary.json is only ever written by a life that finished."
        ),
    )
    parser.add_argument("scenario", type=Path, help="the scenario's TOML file")
    parser.add_argument("--out", type=Path, help="output directory (default out/NAME-SEED)")
    parser.add_argument("--days", type=_positive, help="cap the horizon at N days (e.g. 0.5)")
    parser.add_argument(
        "--seed", type=int, help="the life's seed, 0 to 2**63 - 1 (default: the scenario's)"
    )
    parser.add_argument("--seeds", type=int, help="run N seeded lives in parallel (a batch)")
    parser.add_argument(
        "--jobs",
        type=positive_count,
        help="with a batch: worker processes of the local cluster (default: the cores)",
    )
    parser.add_argument(
        "--compare",
        type=_policies,
        metavar="POLICY[,POLICY...]",
        help="also run the same seeds under these policies (vitality, fixed, immortal, "
        "rules; the fixed one at several daily budgets: fixed@0.25,fixed@0.5,fixed@1, "
        "against which the vitality policy is placed at equal spend) and test each "
        "outcome against the scenario's own policy (the reference): "
        "median and IQR per policy, a verdict per outcome (Mann-Whitney U, two-sided, "
        "0.05), and the table as compare.csv beside report.json",
    )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="KEY=V1[,V2...]",
        help="sweep a config key of the scenario over values (repeatable: every "
        "combination x every seed x every policy), e.g. --set mortality.daily_budget_usd="
        "0.5,1,2; values are TOML scalars (a bare word is a string; no commas inside one); "
        "each point's lives and report under --out/KEY=V,.../",
    )
    parser.add_argument(
        "--scheduler",
        metavar="tcp://HOST:8786",
        help="with a batch: run the lives on this Dask scheduler's workers (default: a "
        "local cluster of --jobs processes); --out and the scenario must be at the same "
        "path on the workers (a shared disk) for the per-life files to land there",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="with a batch: keep the rows of --out's results.parquet and run only the "
        "lives without one (a failed life runs again)",
    )
    parser.add_argument(
        "--provider",
        metavar="NAME[:MODEL]",
        help="run every tier on this real model instead of the synthetic one, one life at "
        "a time: local (the embedded model, no money) or a provider that bills (its key "
        "from the environment; needs --allow-spend). What it will cost is estimated first",
    )
    parser.add_argument(
        "--allow-spend",
        type=float,
        metavar="USD",
        help="with a --provider that bills: the most the life may spend, at least the "
        "scenario's credits and income (a golem never spends more than it is given)",
    )
    parser.add_argument(
        "--step",
        action="store_true",
        help="live every heartbeat one at a time (the reference), rather than quiet "
        "stretches of them in bulk with the same answers ([simulation] fast_forward = false)",
    )
    parser.add_argument(
        "--logs",
        action="store_true",
        help="with a batch: keep each life's full record, its golem.log and "
        "state database (some 180 MB per 30-day life); by default a batch life keeps its "
        "summary.json and testament only. A single life always keeps both.",
    )
    parser.set_defaults(handler=simulate)


def _policies(text: str) -> list[Arm]:
    """`fixed@0.5,fixed@1,immortal`: the named policies (the fixed one at a daily budget),
    each once, in the order given."""
    try:
        return parse_arms(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
    real = args.provider is not None
    overrides = model_overrides(args.provider) if real else {}
    if args.step:
        overrides[STEP[0]] = STEP[1]
    try:
        scenario = load_scenario(args.scenario, overrides, real_model=real)
    except ConfigError as exc:
        print(f"golem simulate: {exc}", file=sys.stderr)
        return 2
    if not real and args.allow_spend is not None:
        raise UsageError("--allow-spend: only with --provider")
    if args.seeds is not None and args.seeds < 1:
        print("golem simulate: --seeds: must be at least 1", file=sys.stderr)
        return 2
    seed = scenario.simulation.seed if args.seed is None else args.seed
    _check_seeds(seed, args.seeds or 1)
    settings = [parse_setting(text) for text in args.settings]
    points = check_grid(scenario.path, settings)
    console = Console(stderr=False)
    if args.seeds is None and args.compare is None and not settings:
        for option, given in (("--scheduler", args.scheduler), ("--resume", args.resume)):
            if given:
                raise UsageError(f"{option}: only for a batch (--seeds, --compare or --set)")
        out = args.out or Path("out") / f"{scenario.name}-{seed}"
        _check_out(out, given=args.out is not None)
        spec = LifeSpec(scenario.path, seed, out, args.days, overrides=tuple(overrides.items()))
        if real:
            spend_cap(scenario, args.provider, args.allow_spend)
            for line in estimate(scenario, seed, args.days, args.provider):
                console.print(line, highlight=False, markup=False)
            spec = replace(spec, real_model=True)
        return _one(scenario, spec, console)
    if real:
        raise UsageError("--provider: one life at a time (no --seeds, --compare or --set)")
    if args.scheduler is not None and args.jobs is not None:
        raise UsageError("--jobs: sizes the local cluster; with --scheduler its workers do")
    count = args.seeds or 1
    out = args.out or Path("out") / f"{scenario.name}-seeds{count}"
    _check_out(out, given=args.out is not None)
    reference = Arm(scenario.config.mortality.policy)
    policies = [reference, *(p for p in args.compare or () if p != reference)]
    seeds = range(seed, seed + count)
    batch = Batch(scenario, points, policies, seeds, out, args.days, args.logs, step=args.step)
    return run_batch(
        batch, jobs=args.jobs, scheduler=args.scheduler, resume=args.resume, console=console
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
    title = f"{scenario.name}: seed {spec.seed}, {result.summary['policy']} policy"
    deaths = Death.of_lineage(result.summary["lineage"])
    plots = write_plots(
        spec.out, title, result.tally, result.daily_spend, result.outcomes, deaths=deaths
    )
    console.print(summary_table(result.summary))
    console.print(life_returns_table(result.summary))
    if result.summary["generations"] > 1:
        console.print(lineage_table(result.summary))
    console.print(f"wrote {spec.out / 'golem.log'}, {spec.out / 'summary.json'}, ")
    console.print("  " + ", ".join(p.name for p in plots))
    console.print(f"{size(disk_use(spec.out))} on disk under {spec.out}")
    return 0


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
