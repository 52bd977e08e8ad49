"""Ticks per second of the seeded market plus the heartbeat's window statistics.

90 days of 15 s heartbeats (518,400 ticks): SimulatedMarket.run, MarketWindow.push and
the T0 probes' reads (price delta, z-score band, volume ratio, health factor) per tick.
Goal: >= 200,000 ticks/s, so a 90-day life's market costs about 2.5 s or less.
`--quick`: 2 days (11,520 ticks), goal not judged (a smoke run that `make test` makes).
"""

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golem.world import MarketWindow, PriceBand, SimulatedMarket

TICKS = 90 * 24 * 60 * 4
QUICK_TICKS = 2 * 24 * 60 * 4
GOAL_TICKS_PER_S = 200_000.0
START = datetime(2025, 1, 1, tzinfo=UTC)


def market_only(seed: int, ticks: int) -> float:
    market = SimulatedMarket(seed)
    began = time.perf_counter()
    for _ in market.run(START, ticks):
        pass
    return time.perf_counter() - began


def market_and_probes(seed: int, ticks: int) -> tuple[float, int]:
    market = SimulatedMarket(seed)
    window = MarketWindow()
    push, delta, band, volume_ratio = (
        window.push,
        window.price_delta,
        window.band,
        window.volume_ratio,
    )
    alerts = 0
    began = time.perf_counter()
    for obs in market.run(START, ticks):
        push(obs)
        moved = delta(1)
        side = band()
        ratio = volume_ratio()
        hf = obs.health_factor
        if (
            (moved is not None and abs(moved) > 0.005)
            or side is not PriceBand.WITHIN
            or (ratio is not None and ratio > 3.0)
            or (hf is not None and hf < 1.5)
        ):
            alerts += 1
    return time.perf_counter() - began, alerts


def main(quick: bool) -> int:
    ticks = QUICK_TICKS if quick else TICKS
    print(f"{ticks:,} ticks ({ticks // (24 * 60 * 4)} days at 15 s){' (quick)' if quick else ''}")
    bare = min(market_only(seed, ticks) for seed in (1, 2))
    print(f"  SimulatedMarket.run           {ticks / bare:>10,.0f} ticks/s  {bare:5.2f} s")
    runs = [market_and_probes(seed, ticks) for seed in (1, 2)]
    elapsed = min(r[0] for r in runs)
    rate = ticks / elapsed
    print(f"  + MarketWindow and T0 probes  {rate:>10,.0f} ticks/s  {elapsed:5.2f} s")
    for seed, (_, alerts) in zip((1, 2), runs, strict=True):
        print(f"    seed {seed}: {alerts:,} ticks with a probe outside its band")
    verdict = "meets" if rate >= GOAL_TICKS_PER_S else "misses"
    if quick:
        verdict = "not judged in --quick"
    print(f"  goal {GOAL_TICKS_PER_S:,.0f} ticks/s: {verdict}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 days of ticks: a smoke run")
    raise SystemExit(main(parser.parse_args().quick))
