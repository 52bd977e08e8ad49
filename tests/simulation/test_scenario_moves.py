"""Scenarios are what they say: the bull run's market rises, decline's and whipsaw's fall,
each measured as its header states it (the median 30-day move over seeds 1-20, the market
on its own grid, so it is the path every policy of a seed sees)."""

from __future__ import annotations

import statistics
from datetime import timedelta
from pathlib import Path

import pytest

from golem.runtime import make_market
from golem.simulation.run import seeded
from golem.simulation.scenario import load_scenario

SIMULATIONS = Path(__file__).parents[2] / "simulations"
SEEDS = range(1, 21)


def moves(name: str, tmp_path: Path) -> list[float]:
    """The market's move over the scenario's first 30 days (or its horizon), in %."""
    scenario = load_scenario(SIMULATIONS / name)
    start = scenario.simulation.start
    end = start + timedelta(days=min(30.0, scenario.simulation.horizon_days))
    found = []
    for seed in SEEDS:
        market = make_market(seeded(scenario.config, seed, tmp_path))
        first, last = market.observe(start).price, market.observe(end).price
        found.append(100.0 * (last / first - 1.0))
    return found


@pytest.mark.parametrize(
    ("name", "median", "up"),
    [
        ("bull_run_income.toml", 17.0, 17),  # the header's figures
        ("decline.toml", -20.1, 0),
        ("whipsaw.toml", -35.8, 0),
    ],
)
def test_the_headers_median_move_is_the_markets(
    name: str, median: float, up: int, tmp_path: Path
) -> None:
    found = moves(name, tmp_path)
    assert (statistics.median(found) > 0) == (median > 0)  # a bull run rises, a decline falls
    assert round(statistics.median(found), 1) == median
    assert sum(move > 0 for move in found) == up
