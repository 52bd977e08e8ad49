"""`golem simulate --seeds N [--compare ...] [--set KEY=V1,V2 ...]`: every life of the grid
(each sweep point x each policy x each seed) on Dask, in chunks of lives a task
(golem.simulation.batch), a live bar of the lives done, running and failed with the pace
(lives per minute, ETA) or, off a terminal, a line on stderr per life that ends, then the
table of results (results.parquet, results.csv) and, per sweep point, the comparison
(report.json, compare.csv) and its plot (outcomes.png), and the batch's pace in a line.

Layout under --out: without --set, `<policy>/seed-N/` per life and the point's files at
the top; with --set, a directory per point (`mortality.daily_budget_usd=0.5,...`) holding
the same. The results table is always at the top. A life that failed is a row with its
error (and is listed at the end, exit 1); `--resume` reads results.parquet and runs only
the lives without a row there (a failed life's row does not count: it runs again). Rows
made with other options are refused, naming the option: another scenario, another horizon
(--days), or lives this batch does not have (another --seed, --seeds, --compare or --set,
whose rows rewriting the table would drop).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, NamedTuple

import orjson
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from golem.cli.failure import UsageError
from golem.cli.simulate_report import (
    comparison_table,
    disk_use,
    ratios,
    report_table,
    returns_table,
    size,
)
from golem.cli.simulate_verdicts import (
    FRONTIER_RULE,
    deaths_table,
    frontier_table,
    thesis_lines,
    thesis_table,
)
from golem.mortality import PolicyName
from golem.simulation import LifeEnd, LifeSpec, Scenario, distribution, executor, run_lives, slots
from golem.simulation.arms import Arm
from golem.simulation.batch import pace, pace_text
from golem.simulation.batch_plots import write_batch_plot
from golem.simulation.compare import TEST_NAME, Comparison, compare, write_csv
from golem.simulation.control import Thesis, thesis
from golem.simulation.frontier import Placement, frontier_arms, place
from golem.simulation.frontier import write_plot as write_frontier_plot
from golem.simulation.results import read_rows, row, write_rows
from golem.simulation.sweep import Point, point_name

__all__ = ["STEP", "Batch", "run_batch"]

# `--step`: the scenario key it sets, and to what (every heartbeat one at a time).
STEP = ("simulation.fast_forward", False)


@dataclass(frozen=True, slots=True)
class Batch:
    """What to run: the grid's points, the policies (the reference first; the fixed
    policy's at several daily budgets, `fixed@0.5`), the seeds."""

    scenario: Scenario
    points: list[Point]
    policies: list[Arm]
    seeds: range
    out: Path
    days: float | None
    logs: bool
    step: bool = False  # every heartbeat one at a time (`--step`): the reference

    @property
    def swept(self) -> list[str]:
        return [key for key, _ in self.points[0]] if self.points else []

    def lives(self) -> list[tuple[str, Point, Arm, int]]:
        """Every life: its directory under --out, its point, policy and seed."""
        return [
            (str(Path(point_name(point), str(policy), f"seed-{seed}")), point, policy, seed)
            for point in self.points
            for policy in self.policies
            for seed in self.seeds
        ]

    def spec(self, life: str, point: Point, policy: Arm, seed: int) -> LifeSpec:
        # Absolute paths: a worker of a cluster may run in another directory (or machine).
        return LifeSpec(
            self.scenario.path.resolve(),
            seed,
            self.out.resolve() / life,
            self.days,
            policy.policy,
            record=self.logs,
            # The arm's budget over a swept one; `--step`'s key over the scenario's.
            overrides=(*point, *policy.overrides, *((STEP,) if self.step else ())),
        )


def run_batch(
    batch: Batch,
    *,
    jobs: int | None,
    scheduler: str | None,
    resume: bool,
    console: Console,
) -> int:
    lives = batch.lives()
    made = read_rows(batch.out) if resume else []
    _check_resumable(batch, lives, made)
    kept = {r["life"]: r for r in made if not r.get("error")}
    todo = [life for life in lives if life[0] not in kept]
    specs = [batch.spec(*life) for life in todo]
    fresh: dict[str, dict[str, Any]] = {}
    paced = ""
    if resume:
        console.print(f"resuming: {len(kept)} of {len(lives)} lives have rows; {len(todo)} to run")
    try:
        if specs:
            paced = _run(batch, todo, specs, fresh, jobs=jobs, scheduler=scheduler)
    except KeyboardInterrupt:
        done = sum(1 for r in fresh.values() if not r.get("error"))
        _write(batch, lives, {**kept, **fresh})
        where = f", kept under {batch.out}" if done else ""
        raise KeyboardInterrupt(f"{done} of {len(specs)} lives finished{where}") from None
    rows = _write(batch, lives, {**kept, **fresh})
    for point in batch.points:
        prefix = f"{point_name(point)}/" if point else ""
        mine = [r for r in rows if r["life"].startswith(prefix)]
        console.print(*_tables(batch, point, _report(batch, point, mine)), sep="\n")
    failed = [r for r in rows if r.get("error")]
    console.print(f"wrote {batch.out / 'results.parquet'} and results.csv ({len(rows)} rows)")
    console.print(f"{size(disk_use(batch.out))} on disk under {batch.out}")
    if paced:
        console.print(paced)
    for r in failed:
        print(f"golem simulate: failed: {r['life']}: {r['error']}", file=sys.stderr)
    if failed:
        print(
            f"golem simulate: {len(failed)} of {len(rows)} lives failed (their rows hold the "
            "error; --resume runs them again)",
            file=sys.stderr,
        )
        return 1
    return 0


def _check_resumable(
    batch: Batch, lives: Sequence[tuple[str, Point, Arm, int]], rows: list[dict[str, Any]]
) -> None:
    """Raise UsageError, naming the option, when `rows` were not made by this batch's
    options: their lives would be mixed with others in the report."""
    where = f"--resume: the rows in {batch.out / 'results.parquet'}"
    grid = {life: point for life, point, *_ in lives}
    for r in rows:
        if r.get("scenario") != batch.scenario.name:
            raise UsageError(
                f"{where} are of scenario {r.get('scenario')!r}, not {batch.scenario.name!r}; "
                "resume with the scenario they were made from, or use another --out"
            )
        if r["life"] not in grid:
            raise UsageError(
                f"{where} hold life {r['life']}, which this batch does not have (another "
                "--seed, --seeds, --compare or --set); resume with the options they were "
                "made with, or use another --out"
            )
        made, wanted = r.get("horizon_days"), _horizon_days(batch, grid[r["life"]])
        if made is not None and made != wanted:
            raise UsageError(
                f"{where} were made with a horizon of {made:g} days, this batch's is "
                f"{wanted:g} (--days); resume with the --days they were made with, or use "
                "another --out"
            )


def _horizon_days(batch: Batch, point: Point) -> float:
    """The horizon a life of `point` runs to, in days, as its summary states it."""
    sim = batch.scenario.simulation
    cap = float(dict(point).get("simulation.horizon_days", sim.horizon_days))
    days = cap if batch.days is None else min(batch.days, cap)
    return round(timedelta(days=days).total_seconds() / 86_400.0, 9)


def _run(
    batch: Batch,
    todo: list[tuple[str, Point, Arm, int]],
    specs: list[LifeSpec],
    fresh: dict[str, dict[str, Any]],
    *,
    jobs: int | None,
    scheduler: str | None,
) -> str:
    """Run `specs` (the lives `todo`), each life's row into `fresh` as it ends, the pace
    (lives per minute, ETA) on the bar or, off a terminal, on each life's line on stderr.
    The batch's pace in a line: lives, wall time, lives per minute, how busy the workers
    were (the lives' own seconds over wall time x workers)."""
    total, failed = len(specs), 0
    with _progress() as progress, executor(scheduler, jobs) as client:
        width = slots(client)
        task = progress.add_task(
            f"{batch.scenario.name}: {total} lives",
            total=total,
            done=0,
            running=min(width, total),
            failed=0,
            pace=pace_text(0, total, 0.0),
        )
        started = time.monotonic()
        lived = 0.0

        def ended(end: LifeEnd) -> None:
            nonlocal failed, lived
            life, point, policy, seed = todo[end.index]
            fresh[life] = row(
                life,
                scenario=batch.scenario.name,
                point=point,
                policy=str(policy),
                seed=seed,
                summary=end.summary,
                error=end.error,
            )
            failed += end.error is not None
            lived += end.seconds
            left = total - len(fresh)
            now = pace_text(len(fresh), total, time.monotonic() - started)
            progress.update(
                task,
                completed=len(fresh),
                done=len(fresh) - failed,
                running=min(width, left),
                failed=failed,
                pace=now,
            )
            line = f"[{len(fresh)}/{total}] {_life_line(life, point, str(policy), end)}"
            if progress.disable:  # no live bar: a line per life, with the pace
                print(f"{line}; {now}", file=sys.stderr, flush=True)
            elif end.error is not None:
                progress.console.print(line)

        run_lives(client, specs, ended)
        wall = time.monotonic() - started
    per_minute, _ = pace(len(fresh), total, wall)
    busy = lived / (wall * width) if wall > 0 else 0.0
    return (
        f"{len(fresh)} lives in {wall:.1f} s: {per_minute or 0.0:.1f} lives/min, "
        f"{width} workers {busy:.0%} busy"
    )


def _write(
    batch: Batch, lives: Sequence[tuple[str, Point, Arm, int]], rows: dict[str, Any]
) -> list[dict[str, Any]]:
    """The rows there are, in the grid's order, as results.parquet and results.csv."""
    ordered = [rows[life] for life, *_ in lives if life in rows]
    if ordered:
        write_rows(batch.out, ordered, batch.swept)
    return ordered


class _Reported(NamedTuple):
    report: dict[str, Any]
    comparison: list[Comparison]
    placements: list[Placement]  # none without a frontier
    verdict: Thesis | None  # none without the immortal beside a mortal reference


def _report(batch: Batch, point: Point, rows: list[dict[str, Any]]) -> _Reported:
    """The point's report.json, compare.csv and outcomes.png, over its lives that ended
    (`rows`: the point's); with the vitality policy and two fixed budgets or more, its
    placement against their frontier (frontier.json, frontier.png); with the immortal
    policy beside a mortal reference, the control experiment's verdict (control.json).
    """
    lives = {
        str(p): [r for r in rows if r["policy"] == str(p) and not r.get("error")]
        for p in batch.policies
    }
    out = batch.out / point_name(point)
    out.mkdir(parents=True, exist_ok=True)
    report = {policy: distribution(group) for policy, group in lives.items()}
    (out / "report.json").write_bytes(
        orjson.dumps(report, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"
    )
    comparison = compare(lives, str(batch.policies[0]))
    write_csv(out / "compare.csv", comparison)
    write_batch_plot(out, _title(point, batch), lives)
    placements: list[Placement] = []
    subject = str(PolicyName.VITALITY)
    if subject in lives and len(frontier_arms(list(lives))) >= 2:
        placements = place(lives, subject)
        (out / "frontier.json").write_bytes(
            orjson.dumps([p.fields() for p in placements], option=orjson.OPT_INDENT_2) + b"\n"
        )
        write_frontier_plot(out, _title(point, batch), lives, subject)
    verdict = None
    reference, immortal = str(batch.policies[0]), str(PolicyName.IMMORTAL)
    if immortal in lives and reference != immortal:
        verdict = thesis(
            lives[reference],
            lives[immortal],
            mortal_name=reference,
            horizon_days=_horizon_days(batch, point),
        )
        (out / "control.json").write_bytes(
            orjson.dumps(verdict.fields(), option=orjson.OPT_INDENT_2) + b"\n"
        )
    return _Reported(report, comparison, placements, verdict)


def _tables(batch: Batch, point: Point, reported: _Reported) -> list[Any]:
    report, comparison, placements, verdict = reported
    title, count, reference = _title(point, batch), len(batch.seeds), str(batch.policies[0])
    where = batch.out / point_name(point)
    frontier = (
        [frontier_table(title, placements), FRONTIER_RULE, f"wrote {where / 'frontier.png'}"]
        if placements
        else []
    )
    control = (
        [thesis_table(title, verdict), *thesis_lines(verdict), f"wrote {where / 'control.json'}"]
        if verdict is not None
        else []
    )
    return [
        report_table(title, count, report),
        deaths_table(title, report),
        returns_table(title, count, report),
        comparison_table(title, count, comparison),
        f"verdicts: {TEST_NAME}",
        *(ratios(report, reference, str(p)) for p in batch.policies[1:]),
        f"wrote {where / 'report.json'}, compare.csv and outcomes.png",
        *frontier,
        *control,
    ]


def _title(point: Point, batch: Batch) -> str:
    name = point_name(point)
    return f"{batch.scenario.name} [{name}]" if name else batch.scenario.name


def _life_line(life: str, point: Point, policy: str, end: LifeEnd) -> str:
    """A finished life in a line: point, policy, seed, lifespan, how it ended, wall time."""
    summary = end.summary
    who = f"{point_name(point) + ' ' if point else ''}{policy} seed {end.spec.seed}"
    if summary is None:
        return f"{who}: failed: {end.error} ({life})"
    ended = {"died": f"died ({summary['cause_of_death']})", "data_ended": "ended with its data"}
    how = ended.get(summary["ended"], "lived to the horizon")
    return f"{who}: {how} at {summary['lifespan_days']:.2f} days ({end.seconds:.1f} s)"


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn(
            "{task.fields[done]} done, {task.fields[running]} running, {task.fields[failed]} failed"
        ),
        TextColumn("{task.fields[pace]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
        transient=True,
    )
