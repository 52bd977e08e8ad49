"""A simulated life to its death: the testament states the credits the golem leaves, the
figure summary.json gives, though the death review is paid after the golem died."""

from __future__ import annotations

import re
from pathlib import Path

import orjson

from golem.cli import main

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"


def test_the_testament_states_the_credits_summary_json_gives(tmp_path: Path) -> None:
    # decline.toml with $0.10 and the hazard clock at its cap (0.1% a tick): dead within
    # hours, its review (the synthetic claude-sonnet-4, thinking) costing more than is left.
    # (Not of an empty wallet: the budget lines hold a poor golem's spending, issue 21.)
    scenario = tmp_path / "poor.toml"
    text = DECLINE.read_text()
    assert "initial_credits_usd = 8.0" in text
    text = text.replace("initial_credits_usd = 8.0", "initial_credits_usd = 0.1")
    scenario.write_text(text + "\n[mortality.hazard]\nmakeham = 1.0\n")
    out = tmp_path / "out"
    assert main(["simulate", str(scenario), "--days", "1", "--out", str(out)]) == 0
    summary = orjson.loads((out / "summary.json").read_bytes())
    assert summary["ended"] == "died" and summary["spend_usd_by_subsystem"]["death"] > 0.01
    testament = (out / "state" / "testament.md").read_text()
    stated = re.search(r"Credits \$(-?[\d.]+) of \$0\.10 after paying for this review", testament)
    assert stated is not None, testament
    assert stated[1] == f"{summary['final']['credits_usd']:.2f}"
