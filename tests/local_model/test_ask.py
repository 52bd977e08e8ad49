"""`golem ask`: the embedded model with no key and no network, a config's [providers.local]
table, and the clear failures (unknown schema, missing model, missing key: exit 2)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from golem.cli import main
from golem.subsystems import HeartbeatDecision


@pytest.mark.local_model
def test_ask_local_prints_a_valid_decision(
    gguf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "golem.toml"
    config.write_text(f'[providers.local]\nmodel_path = "{gguf}"\nmax_tokens = 300\n')
    argv = ["ask", "--provider", "local", "--schema", "heartbeat_decision"]
    code = main([*argv, "--config", str(config), "ETH fell 4% in 15 minutes"])
    out = orjson.loads(capsys.readouterr().out)
    assert code == 0, out
    decision = HeartbeatDecision.model_validate(out["decision"])
    assert decision.validate_content() == []
    assert out["provider"] == "local" and out["mode"] == "schema_enforced"
    assert out["cost_usd"] == 0.0 and out["latency_s"] > 0 and out["attempts"] >= 1
    assert out["usage"]["output_tokens"] > 0


def test_ask_names_an_unknown_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--provider", "local", "--schema", "no_such", "x"]) == 2
    assert "unknown schema 'no_such'" in capsys.readouterr().err


def test_ask_needs_the_key_of_an_http_provider(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    argv = ["ask", "--provider", "openai", "--model", "gpt-4o-mini", "--schema"]
    assert main([*argv, "heartbeat_decision", "x"]) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err


def test_ask_needs_a_model_for_an_http_provider(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--provider", "openai", "--schema", "heartbeat_decision", "x"]) == 2
    assert "--model" in capsys.readouterr().err


def test_ask_reports_a_bad_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "golem.toml"
    config.write_text('[providers.local]\nmodel_path = "/nowhere/model.gguf"\n')
    argv = ["ask", "--provider", "local", "--schema", "heartbeat_decision", "--config"]
    assert main([*argv, str(config), "x"]) == 2
    assert "providers.local.model_path" in capsys.readouterr().err
