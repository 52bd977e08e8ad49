"""Simulated golem-days per core-minute (issue [speed]): decline, whipsaw and
bull_run_income lived `--days` each three ways in the same run: fast-forwarded (quiet
stretches of heartbeats in bulk, `golem simulate`'s default), step by step (`--step`, the
reference), and by the code of `--baseline REF` (default main: a `git worktree` of it,
run as a child process with that tree first on its path).

Goal (issue 40): fast-forward at least 10x main's days per core-minute on each scenario,
peak RSS no worse. The stochastic clock is switched off and the horizon lifted, so every
run lives its whole span; each run is its own process, so each peak RSS is that life's
alone. CPU time is the figure (on a shared machine wall time also counts waits for a
core); each is the best of `--repeat` runs (default 3, the three ways alternating), as
timeit reports the best of its repeats. The fast-forwarded runs also say how many ticks
were lived in quiet stretches and their CPU per tick (time inside the driver); the runs
step by step time the heartbeat job's runs (the scheduler's, commit included), and the
last lines say how fast a life would be if every heartbeat cost nothing: the bound that
skipping heartbeats cannot pass (docs/speed.md, "Why not 10x"). The
machine's pure-Python speed is printed too (a fixed loop, best of five): figures from
different days compare only through it.

`--quick` lives 0.2 days once each way (a smoke run that `make test` makes so this script
keeps working); a baseline that is not there (no git, no such ref) is said and skipped;
goals are not judged.
"""

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SCENARIOS = ("decline", "whipsaw", "bull_run_income")
DAYS, QUICK_DAYS = 5.0, 0.2
GOAL_SPEEDUP = 10.0
WAYS = ("forward", "step", "baseline")


def child(code: Path, name: str, days: float, way: str) -> None:
    """One life in this process, on the golem package under `code`; one JSON line."""
    sys.path.insert(0, str(code))
    sys.path.insert(1, str(ROOT / "benchmarks"))
    import trio
    from _machine import reference_loop_ms

    from golem.simulation import LifeSpec, live, load_scenario

    path = ROOT / "simulations" / f"{name}.toml"
    scenario = load_scenario(path)
    mortality = scenario.config.mortality.model_copy(update={"stochastic_death": False})
    config = scenario.config.model_copy(update={"mortality": mortality})
    lifted: dict[str, object] = {"horizon_days": days}
    if way != "baseline":
        lifted["fast_forward"] = way == "forward"
    simulation = scenario.simulation.model_copy(update=lifted)
    scenario = replace(scenario, config=config, simulation=simulation)
    quiet = {"ticks": 0, "cpu_s": 0.0}
    if way == "forward":
        from golem.runtime.fast_forward import FastForward

        lives = FastForward.live

        async def timed(self: FastForward, *args: object) -> int:
            began = time.process_time()
            lived = await lives(self, *args)  # type: ignore[arg-type]
            if lived:
                quiet["ticks"] += lived
                quiet["cpu_s"] += time.process_time() - began
            return lived

        FastForward.live = timed  # type: ignore[method-assign]
    beats = {"cpu_s": 0.0}
    if way == "step":
        from golem.runtime.scheduler import Scheduler

        runs = Scheduler._run

        async def timed_run(self: Scheduler, slot: Any, at: Any) -> None:
            began = time.process_time()
            await runs(self, slot, at)
            if slot.job.name == "heartbeat":
                beats["cpu_s"] += time.process_time() - began

        Scheduler._run = timed_run  # type: ignore[method-assign]
    before = reference_loop_ms()
    with tempfile.TemporaryDirectory() as out:
        spec = LifeSpec(path, 1, Path(out), days, record=False)
        started, cpu = time.perf_counter(), time.process_time()
        result = trio.run(live, scenario, spec)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    summary = result.summary
    print(
        json.dumps(
            {
                "wall_s": wall,
                "cpu_s": cpu,
                "rss_mb": rss_mb,
                "reference_ms": [before, reference_loop_ms()],
                "ticks": summary["ticks"],
                "lifespan_days": summary["lifespan_days"],
                "quiet_ticks": quiet["ticks"],
                "quiet_cpu_s": quiet["cpu_s"],
                "heartbeat_cpu_s": beats["cpu_s"],
            }
        )
    )


def _baseline(ref: str, place: Path) -> Path | None:
    """A worktree of `ref` at `place`, or None (said) when git cannot make one."""
    made = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(place), ref],
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode:
        print(f"baseline {ref}: no worktree ({made.stderr.strip().splitlines()[-1:]}); skipped")
        return None
    return place


def _run(code: Path, name: str, days: float, way: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(code), name, str(days), way],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{name} {days:g} days ({way}) failed:\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(repeat: int, days: float, ref: str | None, quick: bool) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        base = None if ref is None else _baseline(ref, Path(scratch) / "baseline")
        try:
            ways = [w for w in WAYS if w != "baseline" or base is not None]
            runs: dict[tuple[str, str], list[dict[str, float]]] = {}
            for _ in range(repeat):
                for name in SCENARIOS:
                    for way in ways:
                        code = base if way == "baseline" and base is not None else ROOT
                        runs.setdefault((name, way), []).append(_run(code, name, days, way))
        finally:
            if base is not None:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                    capture_output=True,
                    check=False,
                )
    best = {key: min(done, key=lambda r: r["cpu_s"]) for key, done in runs.items()}
    label = {"forward": "fast-forward", "step": "step (--step)", "baseline": f"{ref}"}
    print(f"{days:g} days a life, best of {repeat} by CPU{' (quick)' if quick else ''}")
    print(
        f"{'scenario':>16} {'way':>14} {'ticks':>7} {'cpu s':>7} {'µs/tick':>8} "
        f"{'days/core-min':>14} {'quiet ticks':>12} {'µs/quiet tick':>14} {'RSS MB':>7}"
    )
    for (name, way), r in best.items():
        per_tick = 1e6 * r["cpu_s"] / max(1, r["ticks"])
        rate = r["lifespan_days"] / (r["cpu_s"] / 60)
        quiet = f"{r['quiet_ticks']:12d}" if way == "forward" else f"{'':12}"
        per_quiet = (
            f"{1e6 * r['quiet_cpu_s'] / r['quiet_ticks']:14.1f}"
            if way == "forward" and r["quiet_ticks"]
            else f"{'':14}"
        )
        print(
            f"{name:>16} {label[way]:>14} {r['ticks']:7d} {r['cpu_s']:7.2f} {per_tick:8.1f} "
            f"{rate:14.0f} {quiet} {per_quiet} {r['rss_mb']:7.1f}"
        )
    machine = [ms for r in best.values() for ms in r["reference_ms"]]
    print(
        f"machine: reference loop (10^6 pure-Python steps) {min(machine):.0f}-{max(machine):.0f} ms"
    )
    for name in SCENARIOS:
        forward = best[(name, "forward")]
        rate = forward["lifespan_days"] / forward["cpu_s"]
        against = [("step", best[(name, "step")])]
        if base is not None:
            against.append((label["baseline"], best[(name, "baseline")]))
        ratios = ", ".join(
            f"{rate / (other['lifespan_days'] / other['cpu_s']):.2f}x {what}"
            for what, other in against
        )
        step = best[(name, "step")]
        rest = step["cpu_s"] - step["heartbeat_cpu_s"]  # everything but the heartbeats
        free = ", ".join(
            f"{other['cpu_s'] / rest * step['lifespan_days'] / other['lifespan_days']:.1f}x {what}"
            for what, other in against
        )
        line = f"{name}: fast-forward {ratios}; every heartbeat free: {free}"
        if base is not None and not quick:
            old = best[(name, "baseline")]
            speedup = rate / (old["lifespan_days"] / old["cpu_s"])
            met = speedup >= GOAL_SPEEDUP and forward["rss_mb"] <= old["rss_mb"] * 1.05
            line += (
                f"; goal >= {GOAL_SPEEDUP:g}x {ref}, RSS no worse "
                f"({forward['rss_mb']:.0f} vs {old['rss_mb']:.0f} MB): "
                f"{'met' if met else 'missed'}"
            )
        print(line)
    if quick:
        print("(quick) goals not judged")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _, _, code, name, days, way = sys.argv
        child(Path(code), name, float(days), way)
        raise SystemExit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, help="runs per way (default 3, --quick 1)")
    parser.add_argument("--days", type=float, help=f"days a life (default {DAYS:g})")
    parser.add_argument(
        "--baseline", default="main", help="the git ref to compare against (default main)"
    )
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_DAYS:g} days, one run, goals not judged"
    )
    args = parser.parse_args()
    repeat = args.repeat if args.repeat is not None else (1 if args.quick else 3)
    days = args.days if args.days is not None else (QUICK_DAYS if args.quick else DAYS)
    main(max(1, repeat), days, args.baseline, args.quick)
