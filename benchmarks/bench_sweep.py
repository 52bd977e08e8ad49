"""Lives per minute of a batch on Dask (`golem simulate --seeds`'s executor) with 1, 2 and
4 worker processes of a LocalCluster, and the scheduler's overhead per life against a
plain local process pool's.

Throughput: the same N seeded lives of simulations/decline.toml (`--days` each) on each
cluster size; the clock runs from the first submit to the last life's end (the cluster's
start, and a first 0.01-day life per worker that imports golem, are left out). The
scaling is bounded by the cores (os.cpu_count()): a life is CPU-bound Python, so workers
beyond the cores share them.

Overhead: M lives of 0.01 days (a few hundred heartbeats each) on 2 workers, through Dask
and through a ProcessPoolExecutor of 2 spawned processes (what batch.py ran before Dask).
Overhead per life = (wall x workers - the lives' own seconds, measured inside each task)
/ M: the worker time a life costs beyond itself (pickling the spec and the summary, the
scheduler's round trips, waiting for the next task).

No goal is judged; the machine is shared, so its pure-Python speed is printed beside.
`--quick` (part of `make test`) runs 4 lives of 0.05 days and 12 overhead lives.
"""

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _machine import reference_loop_ms  # noqa: E402 (beside this script)

from golem.simulation import LifeSpec, executor, run_life, run_lives  # noqa: E402
from golem.simulation.batch import LifeEnd  # noqa: E402

SCENARIO = ROOT / "simulations" / "decline.toml"
WORKERS = (1, 2, 4)


def specs(out: Path, count: int, days: float) -> list[LifeSpec]:
    return [
        LifeSpec(SCENARIO, seed, out / f"seed-{seed}", days, record=False)
        for seed in range(1, count + 1)
    ]


def life(spec: LifeSpec) -> tuple[dict[str, object], float]:
    """A life in a pool's process, as a Dask task runs one: its summary, its seconds."""
    started = time.perf_counter()
    summary = run_life(spec).summary
    return summary, time.perf_counter() - started


def on_dask(workers: int, count: int, days: float) -> tuple[float, float, list[LifeEnd]]:
    """(cluster start s, wall s, the lives' ends) of `count` lives on `workers` processes,
    timed after each worker has lived once (its imports warm)."""
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        with executor(workers=workers) as client:
            start_s = time.perf_counter() - started
            run_lives(client, specs(Path(out), workers, 0.01))
            began = time.perf_counter()
            ends = run_lives(client, specs(Path(out), count, days))
            wall = time.perf_counter() - began
    assert all(end.error is None for end in ends), [end.error for end in ends]
    return start_s, wall, ends


def throughput(workers: int, count: int, days: float) -> tuple[float, float, float]:
    """(cluster start s, wall s, lives per minute) for `count` lives on `workers`."""
    start_s, wall, _ = on_dask(workers, count, days)
    return start_s, wall, 60.0 * count / wall


def dask_overhead(count: int, workers: int) -> tuple[float, float, float]:
    """(start s, wall s, overhead ms per life) of `count` 0.01-day lives on Dask."""
    start_s, wall, ends = on_dask(workers, count, 0.01)
    own = sum(end.seconds for end in ends)
    return start_s, wall, 1e3 * (wall * workers - own) / count


def pool_overhead(count: int, workers: int) -> tuple[float, float, float]:
    """The same through a plain ProcessPoolExecutor of spawned processes."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            list(pool.map(life, specs(Path(out), workers, 0.01)))  # starts and warms them
            start_s = time.perf_counter() - started
            began = time.perf_counter()
            results = list(pool.map(life, specs(Path(out), count, 0.01)))
            wall = time.perf_counter() - began
    own = sum(seconds for _, seconds in results)
    return start_s, wall, 1e3 * (wall * workers - own) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small: a smoke run")
    parser.add_argument("--lives", type=int, help="lives per cluster size (default 16)")
    parser.add_argument("--days", type=float, help="each life's days (default 2)")
    parser.add_argument("--overhead-lives", type=int, help="0.01-day lives (default 120)")
    args = parser.parse_args()
    count = args.lives or (4 if args.quick else 16)
    days = args.days or (0.05 if args.quick else 2.0)
    small = args.overhead_lives or (12 if args.quick else 120)
    label = " (quick)" if args.quick else ""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"cores: {os.cpu_count()}; load average {load}; "
        f"pure-Python loop: {reference_loop_ms():.0f} ms{label}"
    )
    print(f"throughput: {count} lives of decline.toml, {days} days each{label}")
    rates = {}
    for workers in WORKERS:
        start_s, wall, rate = throughput(workers, count, days)
        rates[workers] = rate
        print(
            f"  {workers} worker process(es): {rate:6.1f} lives/min "
            f"({wall:.1f} s for {count}; cluster start {start_s:.1f} s; "
            f"load {os.getloadavg()[0]:.1f})"
        )
    for workers in WORKERS[1:]:
        print(f"  speed-up {workers} vs 1: {rates[workers] / rates[1]:.2f}x")
    print(f"overhead per life: {small} lives of 0.01 days on 2 workers{label}")
    runs = {"dask LocalCluster": dask_overhead(small, 2), "process pool": pool_overhead(small, 2)}
    for name, (start_s, wall, ms) in runs.items():
        print(f"  {name:17}: {ms:6.1f} ms per life ({wall:.1f} s wall; start {start_s:.1f} s)")
    dask_ms, pool_ms = runs["dask LocalCluster"][2], runs["process pool"][2]
    print(f"  Dask's scheduling costs {dask_ms - pool_ms:+.1f} ms per life beyond the pool's")


if __name__ == "__main__":
    main()
