"""Quality in a simulated life: a golem whose models are always informed (the quality table
set so) forecasts with more skill than one whose table is off; the same scenario and seed
give the same life."""

from __future__ import annotations

from pathlib import Path

import trio

from golem.runtime.store import StateStore
from golem.simulation.run import LifeSpec, live
from golem.simulation.scenario import load_scenario

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
SURE = """
[quality.t1]
informed = 1.0
reasoning_gain = 0.0
[quality.t2]
informed = 1.0
reasoning_gain = 0.0
[quality.profiles]
fast = 1.0
"""
OFF = "\n[quality]\nenabled = false\n"
# A falling and a rising spell in the first day: moves the heartbeat calls notable (0.5%
# over its 20-tick horizon), which calm markets make only rarely.
SPELLS = """
[[world.market.shocks]]
at = "PT3H"
magnitude = -0.08
duration = "PT3H"

[[world.market.shocks]]
at = "PT12H"
magnitude = 0.06
duration = "PT3H"
"""
DAYS = 1.0


def skill(pairs: list[tuple[float, float]]) -> float:
    """1 − MSE/MSE_naive on returns, the naive forecast being no change."""
    error = sum((actual - predicted) ** 2 for predicted, actual in pairs)
    return 1.0 - error / sum(actual * actual for _, actual in pairs)


def life(tmp_path: Path, name: str, table: str) -> tuple[dict[str, object], float, int]:
    """(summary, the forecast skill of the model-made episodes, their count)."""
    path = tmp_path / f"{name}.toml"
    path.write_text(DECLINE.read_text() + SPELLS + table)
    spec = LifeSpec(path, 1, tmp_path / name, days=DAYS)
    summary = trio.run(live, load_scenario(path), spec).summary
    with StateStore.open(tmp_path / name / "state") as store:
        pairs = [
            (episode.decision.predicted_delta, episode.outcome.actual_delta)
            for episode in store.episodes()
            if episode.outcome is not None and episode.decision.tier not in ("0", "t0")
        ]
    return summary, skill(pairs), len(pairs)


def test_informed_models_forecast_with_more_skill_than_blind_ones(tmp_path: Path) -> None:
    sure_life, sure, count = life(tmp_path, "sure", SURE)
    blind_life, blind, blind_count = life(tmp_path, "blind", OFF)
    assert count >= 10 and blind_count >= 10  # enough scored model episodes to compare
    assert sure > 0.9  # an informed answer expects the truth's own move
    assert blind < 0.5  # guesses from the window: half of them on the wrong side
    # The epistemic clock reads every episode, the rules' (no forecast: skill 0) too.
    assert float(sure_life["fitness_mean"]) > float(blind_life["fitness_mean"])  # type: ignore[arg-type]


def test_the_same_seed_gives_the_same_life_with_quality(tmp_path: Path) -> None:
    first, _, _ = life(tmp_path, "first", "")
    again, _, _ = life(tmp_path, "again", "")
    assert {k: v for k, v in first.items() if k != "scenario"} == {
        k: v for k, v in again.items() if k != "scenario"
    }
