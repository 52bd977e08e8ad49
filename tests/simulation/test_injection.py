"""The attack simulation: a compromised model follows the feed's attacks, and risk's
provenance check keeps what they ask for from moving money unless the golem's own
observations point the same way; summary.json counts it (`injection`)."""

from __future__ import annotations

from pathlib import Path

import trio

from golem.simulation.run import LifeSpec, live
from golem.simulation.scenario import load_scenario

SCENARIO = Path(__file__).parents[2] / "simulations" / "injection.toml"


def test_a_compromised_model_follows_attacks_that_provenance_then_blocks(tmp_path: Path) -> None:
    spec = LifeSpec(SCENARIO, 1, tmp_path / "life", days=0.3, record=True)
    summary = trio.run(live, load_scenario(SCENARIO), spec).summary
    injection = summary["injection"]
    assert injection["attempts"] == 2  # at 2h15m and 6h15m
    assert injection["followed_by_model"] >= 1
    assert injection["blocked"] >= 1
    log = (tmp_path / "life" / "golem.log").read_text()
    assert '"event":"action_blocked"' in log and "not corroborated" in log


def test_a_scenario_without_attacks_reports_none(tmp_path: Path) -> None:
    scenario = Path(__file__).parents[2] / "simulations" / "whipsaw.toml"
    spec = LifeSpec(scenario, 1, tmp_path / "life", days=0.05, record=False)
    assert "injection" not in trio.run(live, load_scenario(scenario), spec).summary


def test_inspect_summary_lists_blocked_actions_with_their_reason() -> None:
    from golem.runtime.logs.summary import summarize

    event = {
        "event": "action_blocked",
        "timestamp": "2026-05-04T02:29:45+00:00",
        "tick": 599,
        "action": "exit",
        "check": "provenance",
        "reason": "exit not corroborated by the golem's own observations (…)",
        "feed": ["news:abc"],
    }
    blocked = summarize([event]).to_json()["blocked"]
    assert blocked == [{k: event[k] for k in ("timestamp", "tick", "action", "check", "reason")}]
