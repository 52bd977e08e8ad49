"""Regime adaptation and decisions judged right in simulated lives: a short life with a
scheduled shock reports both; a golem whose models always know the truth has every model
decision judged right (the judgement and the minds share one definition and one truth);
a life with the quality table off is judged too (the realized path needs no foresight);
the figures reach the batch report and the comparison."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

from golem.simulation.compare import DIMENSIONS
from golem.simulation.outcomes import OUTCOME_KEYS, outcome_distribution
from golem.simulation.run import LifeSpec, live
from golem.simulation.scenario import load_scenario

from .test_simulate_quality import OFF, SURE

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
SHOCK = """
[[world.market.shocks]]
at = "PT3H"
magnitude = -0.08
duration = "PT1H"
"""
NEW_KEYS = (
    "adaptation_ticks_median",
    "shocks_recovered",
    "shocks_unrecovered",
    "correct_share_model",
    "correct_share_rules",
    "cost_per_correct_usd",
)


def life(tmp_path: Path, name: str, extra: str, days: float = 0.5) -> dict[str, Any]:
    path = tmp_path / f"{name}.toml"
    path.write_text(DECLINE.read_text() + extra)
    spec = LifeSpec(path, 1, tmp_path / name, days=days, record=False)
    return trio.run(live, load_scenario(path), spec).summary


def test_a_life_with_a_shock_reports_adaptation_and_judged_decisions(tmp_path: Path) -> None:
    summary = life(tmp_path, "shock", SHOCK)
    # decline's own shocks (days 3 and 9) come after this half day: only the one at 3 h counts.
    assert summary["shocks_recovered"] + summary["shocks_unrecovered"] == 1
    assert len(summary["adaptation_ticks"]) == 1
    ticks = summary["adaptation_ticks"][0]
    assert summary["adaptation_ticks_median"] == ticks
    assert ticks is None or 0 <= ticks <= 0.5 * 86_400 / 15  # within the life, in ticks
    judged = summary["decisions_judged"]
    rules = judged["heartbeat"]["rules"]
    # Every tick's heartbeat is judged but the last horizon's (20 ticks) of the life's (2,880
    # at 15 s; fewer once Conservation doubles the interval), and a tick that escalates has
    # two (its model's first answer and the re-run).
    beats = sum(group["judged"] for group in judged["heartbeat"].values())
    lived = summary["ticks"]
    assert 1_440 <= lived <= 2_880
    assert lived - 20 - 5 <= beats <= lived - 20 + judged["heartbeat"]["model"]["judged"]
    assert 0 <= rules["right"] <= rules["judged"]
    assert 0.0 <= summary["correct_share_rules"] <= 1.0
    model = [g["model"] for g in judged.values() if "model" in g]
    right = sum(group["right"] for group in model)
    spend = sum(group["spend_usd"] for by_source in judged.values() for group in by_source.values())
    assert right > 0 and abs(summary["cost_per_correct_usd"] - spend / right) < 1e-8
    assert spend <= summary["spend_usd"] + 1e-9  # curator, dreams and death are not judged


def test_models_that_always_know_the_truth_are_always_judged_right(tmp_path: Path) -> None:
    summary = life(tmp_path, "sure", SHOCK + SURE)
    assert summary["correct_share_model"] == 1.0
    assert summary["decisions_judged"]["heartbeat"]["model"]["judged"] > 0


def test_a_life_with_the_quality_table_off_is_judged_too(tmp_path: Path) -> None:
    summary = life(tmp_path, "off", SHOCK + OFF)
    for key in NEW_KEYS:
        assert key in summary, key
    assert summary["correct_share_rules"] is not None
    assert summary["shocks_recovered"] + summary["shocks_unrecovered"] == 1


def test_the_new_keys_reach_the_batch_report_and_the_comparison() -> None:
    compared = {dimension.key for dimension in DIMENSIONS}
    lives = [dict.fromkeys(NEW_KEYS, 1.0), dict.fromkeys(NEW_KEYS)]
    report = outcome_distribution(lives)
    for key in NEW_KEYS:
        assert key in OUTCOME_KEYS and key in compared
        assert report[key]["lives"] == 1 and report[key]["median"] == 1.0
