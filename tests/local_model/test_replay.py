"""`golem replay` against the embedded model: a simulated life's heartbeat decision, its
kept prompt asked again of the local model (one call), shown beside the original."""

from __future__ import annotations

from pathlib import Path

import pytest

from golem.cli import main
from tests.test_cli_replay import model_ids, simulated_life


@pytest.mark.local_model
def test_a_decision_is_replayed_on_the_local_model(
    gguf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    life = simulated_life(tmp_path / "life")
    decision = model_ids(life, "heartbeat")[0]
    config = tmp_path / "golem.toml"
    config.write_text(f'[providers.local]\nmodel_path = "{gguf}"\nmax_tokens = 300\n')
    capsys.readouterr()
    argv = ["replay", str(life), "--decision", decision, "--provider", "local"]
    assert main([*argv, "--config", str(config)]) == 0
    out = capsys.readouterr().out
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 3}
    assert "synthetic" in rows["provider"] and "local" in rows["provider"]
    assert "schema_enforced" in rows["mode"]
    assert "0.000000" in rows["cost $"].split("│")[3]  # the local model costs nothing
    for field in ("severity", "action", "confidence", "escalate"):
        assert field in rows  # a valid heartbeat decision on both sides
