"""`golem ask` without the embedded model: the synthetic provider answers as configs know
it, and --max-tokens reaches the wire request."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
import pytest

from golem.cli import main
from golem.subsystems import HeartbeatDecision

ASK = ["ask", "--schema", "heartbeat_decision"]


def test_ask_synthetic_prints_a_valid_decision(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([*ASK, "--provider", "synthetic", "ETH fell 4% in 15 minutes"])
    out = orjson.loads(capsys.readouterr().out)
    assert code == 0, out
    decision = HeartbeatDecision.model_validate(out["decision"])
    assert decision.validate_content() == []
    assert (out["provider"], out["model"]) == ("synthetic", "gpt-4o-mini")  # the defaults
    assert out["usage"]["output_tokens"] > 0 and out["cost_usd"] > 0


def test_ask_synthetic_reads_the_config_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "golem.toml"
    config.write_text(
        '[providers.synthetic]\nemulate = "anthropic"\nmodel = "claude-haiku-4-5"\nseed = 7\n'
    )
    argv = [*ASK, "--provider", "synthetic", "--config", str(config), "ETH is flat"]
    assert main(argv) == 0
    out = orjson.loads(capsys.readouterr().out)
    assert out["model"] == "claude-haiku-4-5"
    assert main([*argv, "--model", "claude-sonnet-4"]) == 0
    assert orjson.loads(capsys.readouterr().out)["model"] == "claude-sonnet-4"


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[httpx.Request]]:
    """The requests an HTTP provider sends, answered 400 at the network edge."""
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(400, json={"error": {"message": "no", "type": "invalid"}})

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setattr(httpx, "AsyncHTTPTransport", lambda **_: httpx.MockTransport(handler))
    yield requests


@pytest.mark.parametrize(("given", "wanted"), [(["--max-tokens", "7"], 7), ([], None)])
def test_max_tokens_reaches_the_request(
    sent: list[httpx.Request],
    given: list[str],
    wanted: int | None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [*ASK, "--provider", "openai", "--model", "gpt-4.1-nano", *given, "x"]
    assert main(argv) == 1  # the 400 above, printed as the typed error
    assert orjson.loads(capsys.readouterr().out)["error"]["error"] == "InvalidRequest"
    (request,) = sent
    assert orjson.loads(request.content).get("max_completion_tokens") == wanted
