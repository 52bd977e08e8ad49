"""Time per log line of `golem inspect`: the table (written to a file: every column; at 80
and at 160 columns) against `--json`, on a real log.

The log is written by a simulated life of simulations/decline.toml (the real logging code,
the real line format), repeated until it has `--lines` lines (175,000 by default: the
60-day log of the issue that asked for this, issue 17, where the table took 68.7 s and
`--json` 1.5 s, 46 times as long). Goal: the table at least 10 times faster than that,
so at most 4.6 times `--json`'s time. Each mode runs `--repeat` times, modes alternating,
in this process with stdout sent to /dev/null; the best run is the figure (this machine's
speed has been seen to vary twofold within an hour). The machine's pure-Python speed is
printed too, as in bench_simulate.py.
"""

import argparse
import contextlib
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _machine import reference_loop_ms  # noqa: E402 (beside this script)

from golem.cli import main as golem  # noqa: E402

SCENARIO = ROOT / "simulations" / "decline.toml"
OLD_TABLE_OVER_JSON = 68.7 / 1.5  # issue 17's figures for the rich table
GOAL_RATIO = OLD_TABLE_OVER_JSON / 10
MODES = {
    "--json": ["--json"],
    "table, file": ["--width", "0"],
    "table, 80 col": ["--width", "80"],
    "table, 160 col": ["--width", "160"],
}


def write_log(out: Path, days: float, lines: int) -> Path:
    """A simulated life's log, repeated to `lines` lines."""
    life_out = out / "life"
    command = ["golem", "simulate", str(SCENARIO), "--seed", "1", "--days", str(days)]
    subprocess.run(
        [sys.executable, "-m", *command, "--out", str(life_out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    life = (life_out / "golem.log").read_bytes().splitlines(keepends=True)
    repeated = (life * math.ceil(lines / len(life)))[:lines]
    log = out / "golem.log"
    log.write_bytes(b"".join(repeated))
    return log


def seconds(log: Path, args: list[str]) -> float:
    with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
        started = time.perf_counter()
        code = golem(["inspect", str(log), *args])
        elapsed = time.perf_counter() - started
    assert code == 0, (args, code)
    return elapsed


def main(days: float, lines: int, repeat: int) -> None:
    os.environ.pop("COLUMNS", None)
    with tempfile.TemporaryDirectory() as out:
        log = write_log(Path(out), days, lines)
        before = reference_loop_ms()
        runs: dict[str, list[float]] = {mode: [] for mode in MODES}
        for _ in range(repeat):
            for mode, args in MODES.items():
                runs[mode].append(seconds(log, args))
        after = reference_loop_ms()
    print(f"{lines} log lines (a {days:g}-day life, repeated); best of {repeat} runs per mode")
    print(f"{'mode':<16} {'best s':>8} {'µs/line':>8} {'x --json':>9}   every run (s)")
    json_s = min(runs["--json"])
    for mode, done in runs.items():
        best = min(done)
        listed = ", ".join(f"{s:.2f}" for s in done)
        print(f"{mode:<16} {best:8.2f} {1e6 * best / lines:8.1f} {best / json_s:9.2f}   {listed}")
    loop = f"{before:.0f} ms before, {after:.0f} after"
    print(f"machine: reference loop (10^6 pure-Python steps) {loop}")
    worst = max(min(done) for mode, done in runs.items() if mode != "--json") / json_s
    print(
        f"goal: every table <= {GOAL_RATIO:.1f}x --json (10x faster than the rich table's "
        f"{OLD_TABLE_OVER_JSON:.0f}x): {worst:.2f}x ({'met' if worst <= GOAL_RATIO else 'missed'})"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small log, one run per mode")
    parser.add_argument("--lines", type=int, default=175_000, help="log lines (default 175000)")
    parser.add_argument("--days", type=float, default=6.0, help="the simulated life (days)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per mode (default 3)")
    args = parser.parse_args()
    if args.quick:
        main(days=0.5, lines=5_000, repeat=1)
    else:
        main(args.days, max(1, args.lines), max(1, args.repeat))
