"""The senses' part of the fast-forward (issue [speed]) against the step-by-step senses:
CPU per tick, and how many ticks are quiet from the market's side.

For each scenario's simulated market (its seed, its market parameters, the golem's own
compiled probes), two golems live the same heartbeats: one as `Golem.tick` observes,
pushes, hears, summarises, marks and probes; the other through `QuietSenses` stretches of
up to an hour (`begin`, `step` x n, `end`), each non-quiet tick lived step by step as the
driver would. Both must end in the same state (checked). Figures (CPU time, best of 3
runs): µs per tick of the step-by-step senses, of the fast-forward's (its stretches and
the ticks that end them, over every tick), and of the part alone (all its begin/step/end
time over the quiet ticks it lived: a stretch's set-up is charged to them), the share
of quiet ticks and the mean quiet stretch; "loose" repeats it with probes no move fires
(every tick quiet: the part's cost on long stretches).

Run: .venv/bin/python benchmarks/bench_quiet_senses.py [--days 1] [--quick]
(--quick: 0.05 days, a smoke run)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golem.runtime.golem import Golem  # noqa: E402
from golem.runtime.quiet import Stretch  # noqa: E402
from golem.runtime.quiet_senses import QuietSenses  # noqa: E402
from golem.runtime.store.state import StateStore  # noqa: E402
from golem.simulation import load_scenario  # noqa: E402
from golem.subsystems.heartbeat.probes import (  # noqa: E402
    ProbeConfig,
    ProbePolicy,
    ProbeThresholds,
    readings,
)
from golem.world import SimulatedMarket  # noqa: E402
from tests.runtime.test_life import routes  # noqa: E402

SCENARIOS = ("decline", "whipsaw", "bull_run_income")
clock = time.process_time  # this process's CPU: the machine is shared
HOUR = 240  # heartbeats of 15 s: the longest stretch the driver builds
LOOSE = ProbePolicy.of(
    ProbeConfig(
        thresholds=ProbeThresholds(
            price_minor=0.5,
            price_major=0.9,
            volume_spike=1e9,
            health_warning=1e-9,
            health_critical=1e-10,
            band_sigmas=1e3,
        )
    )
)


def tick(golem: Golem, now: datetime) -> bool:
    """The senses' share of one step-by-step tick; whether a probe fired."""
    observation = golem.market.observe(now)
    golem.senses.push(observation)
    golem.knowledge.hear(observation)
    market = golem.window.summary()
    golem.portfolio.mark(observation.price)
    fired = readings(
        market,
        golem.previous,
        credits_usd=golem.store.credits(),
        burn_rate_usd=golem.vitals.burn_rate_usd,
        policy=golem.probes,
    )
    golem.previous = market
    return bool(fired)


@dataclass
class Figures:
    reference_us: float
    fast_us: float  # every tick: the stretches and the ticks lived step by step
    part_us: float
    quiet: int
    ticks: int
    stretches: int


def run(
    name: str, days: float, loose: bool, tmp: Path, allow_below: float | None = None
) -> Figures:
    scenario = load_scenario(ROOT / "simulations" / f"{name}.toml")
    cfg = scenario.config
    start, every = scenario.start, cfg.heartbeat.interval
    count = int(days * 86_400 / every.total_seconds())
    times = [start + k * every for k in range(count)]
    golems = []
    for side in ("reference", "part"):
        raw = cfg.model_copy(
            update={"golem": cfg.golem.model_copy(update={"state_dir": tmp / name / side})}
        )
        store = StateStore.open(raw.golem.state_dir)
        market = SimulatedMarket(cfg.golem.seed, cfg.world.market)
        golem = Golem(raw, store=store, market=market, routes=routes()[0], now=lambda: start)
        if loose:
            golem.probes = LOOSE
        for now in times[:30]:  # born and warmed up step by step
            tick(golem, now)
        golems.append(golem)
    reference, fast = golems
    lived = times[30:]
    began = clock()
    for now in lived:
        tick(reference, now)
    reference_s = clock() - began

    part = QuietSenses.of(
        fast,
        None if allow_below is None else lambda fired: sum(r.weight for r in fired) < allow_below,
    )
    part_s, quiet, stretches, at = 0.0, 0, 0, 0
    whole = clock()
    while at < len(lived):
        stretch = Stretch(first_tick=30 + at, times=lived[at : at + HOUR])
        began = clock()
        n = part.begin(stretch)
        step = part.step
        for i in range(n):
            step(i)
        part.end(n)
        part_s += clock() - began
        if n:
            fast.previous = part.last
        quiet, stretches, at = quiet + n, stretches + 1, at + n
        if n < len(stretch) and at < len(lived):  # the tick that is not quiet
            tick(fast, lived[at])
            at += 1
    fast_s = clock() - whole
    assert fast.window.observations == reference.window.observations, name
    assert fast.portfolio.to_dict() == reference.portfolio.to_dict(), name
    assert fast.market.state() == reference.market.state(), name  # type: ignore[attr-defined]
    for golem in golems:
        golem.store.close()
    return Figures(
        reference_us=reference_s / len(lived) * 1e6,
        fast_us=fast_s / len(lived) * 1e6,
        part_us=part_s / max(quiet, 1) * 1e6,
        quiet=quiet,
        ticks=len(lived),
        stretches=stretches,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--days", type=float, default=1.0)
    parser.add_argument("--quick", action="store_true", help="0.05 days, a smoke run")
    parser.add_argument(
        "--allow-below",
        type=float,
        default=None,
        help="also live ticks whose probes weigh less than this in bulk (a driver's "
        "`allows`: e.g. the gate θ, under which the rules decide at T0)",
    )
    args = parser.parse_args(argv)
    days = 0.05 if args.quick else args.days
    print(
        f"{'scenario':<24} {'step µs/tick':>12} {'fast µs/tick':>12} "
        f"{'part µs/quiet tick':>18} {'quiet':>10} {'mean stretch':>12}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for loose in (False, True):
            for name in SCENARIOS:
                # The best of three runs: the machine is shared.
                runs = [
                    run(
                        name,
                        days,
                        loose,
                        Path(tmp) / f"{'loose' if loose else 'probes'}{k}",
                        args.allow_below,
                    )
                    for k in range(1 if args.quick else 3)
                ]
                f = min(runs, key=lambda f: f.part_us)
                f.reference_us = min(r.reference_us for r in runs)
                f.fast_us = min(r.fast_us for r in runs)
                label = f"{name}{' (loose)' if loose else ''}"
                share = f"{f.quiet}/{f.ticks}"
                print(
                    f"{label:<24} {f.reference_us:>12.2f} {f.fast_us:>12.2f} "
                    f"{f.part_us:>18.2f} {share:>10} {f.quiet / max(f.stretches, 1):>12.2f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
