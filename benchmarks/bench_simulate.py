"""Wall time and peak RSS of simulated lives: 30 and 90 days of simulations/decline.toml
(15 s heartbeat, synthetic provider, the daemon's code path on a batched, unsynced store).

Goals: 30 days <= 15 s, 90 days <= 3.3x the 30-day time, peak RSS <= 300 MB. The
stochastic clock is switched off and the horizon lifted, so every run lives its whole span.
Each span runs in its own process, so each peak RSS is that life's alone. CPU time is
printed beside wall time: on a shared machine the wall time also counts waits for a core.
The machine's own pure-Python speed is printed too (a fixed loop, best of five): this
machine's speed has been seen to differ twofold from one day to the next, so figures from
different days compare only through it. For the same reason each span runs `--repeat`
times (default 3, spans alternating) and its best run is the figure, as timeit reports
the best of its repeats: the least disturbed run is the closest to what the code costs.
Every run's wall time is printed beside it, and the median.

`--quick` lives 0.2 and 0.6 days once each through the same path (a smoke run that
`make test` makes so this script keeps working); its goals are not judged.
"""

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _machine import reference_loop_ms  # noqa: E402 (beside this script)

from golem.simulation import LifeSpec, live, load_scenario  # noqa: E402

SCENARIO = ROOT / "simulations" / "decline.toml"
SPANS = (30.0, 90.0)
QUICK_SPANS = (0.2, 0.6)
GOAL_30_S, GOAL_RATIO, GOAL_RSS_MB = 15.0, 3.3, 300.0


def child(days: float) -> None:
    scenario = load_scenario(SCENARIO)
    mortality = scenario.config.mortality.model_copy(update={"stochastic_death": False})
    config = scenario.config.model_copy(update={"mortality": mortality})
    simulation = scenario.simulation.model_copy(update={"horizon_days": days})
    scenario = replace(scenario, config=config, simulation=simulation)
    before = reference_loop_ms()
    with tempfile.TemporaryDirectory() as out:
        spec = LifeSpec(SCENARIO, 1, Path(out), days)
        started, cpu = time.perf_counter(), time.process_time()
        result = trio.run(live, scenario, spec)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    reference = [before, reference_loop_ms()]
    summary = result.summary
    print(
        json.dumps(
            {"wall_s": wall, "cpu_s": cpu, "rss_mb": rss_mb, "reference_ms": reference, **summary}
        )
    )


def main(repeat: int, quick: bool) -> None:
    spans = QUICK_SPANS if quick else SPANS
    runs: dict[float, list[dict[str, float]]] = {days: [] for days in spans}
    for _ in range(repeat):
        for days in spans:
            run = subprocess.run(
                [sys.executable, __file__, "--child", str(days)],
                capture_output=True,
                text=True,
                check=True,
            )
            runs[days].append(json.loads(run.stdout.splitlines()[-1]))
    results = {days: min(done, key=lambda r: r["wall_s"]) for days, done in runs.items()}
    print(f"best of {repeat} runs per span{' (quick)' if quick else ''}")
    print(
        f"{'days':>5} {'lived':>7} {'ticks':>8} {'wall s':>8} {'cpu s':>8} "
        f"{'cpu µs/tick':>12} {'peak RSS MB':>12}"
    )
    for days, r in results.items():
        per_tick = 1e6 * r["cpu_s"] / max(1, r["ticks"])
        print(
            f"{days:5.4g} {r['lifespan_days']:7.2f} {r['ticks']:8d} {r['wall_s']:8.2f} "
            f"{r['cpu_s']:8.2f} {per_tick:12.1f} {r['rss_mb']:12.1f}"
        )
    for days, done in runs.items():
        walls = [r["wall_s"] for r in done]
        listed = ", ".join(f"{w:.2f}" for w in walls)
        print(f"{days:.4g} days, every run (s): {listed}; median {statistics.median(walls):.2f}")
    references = " / ".join(
        f"{days:.4g} days: {r['reference_ms'][0]:.0f} before, {r['reference_ms'][1]:.0f} after"
        for days, r in results.items()
    )
    print(f"machine, best runs: reference loop (10^6 pure-Python steps) in ms, {references}")
    short, long = results[spans[0]], results[spans[1]]
    ratio = long["wall_s"] / short["wall_s"]
    rss = max(r["rss_mb"] for done in runs.values() for r in done)
    if quick:
        print(
            f"(quick) {spans[1]:g}/{spans[0]:g} days wall: {ratio:.2f}; peak RSS {rss:.0f} MB; "
            "goals not judged in --quick"
        )
        return
    print(
        f"goals: 30 days <= {GOAL_30_S:.0f} s: {short['wall_s']:.1f} s "
        f"({'met' if short['wall_s'] <= GOAL_30_S else 'missed'}); "
        f"90/30 <= {GOAL_RATIO}: {ratio:.2f} ({'met' if ratio <= GOAL_RATIO else 'missed'}); "
        f"peak RSS <= {GOAL_RSS_MB:.0f} MB: {rss:.0f} MB "
        f"({'met' if rss <= GOAL_RSS_MB else 'missed'})"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, help="runs per span (default 3, --quick 1)")
    parser.add_argument(
        "--quick", action="store_true", help="0.2 and 0.6 days, one run each, goals not judged"
    )
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child)
    else:
        repeat = args.repeat if args.repeat is not None else (1 if args.quick else 3)
        main(max(1, repeat), args.quick)
