"""`golem replay` end to end on the state of a short simulated life: one decision asked
again of OpenAI (answered at the network edge by a recorded body) and shown beside the
original; `--all` as an agreement table; and the one-line failures (unknown id, a request
older than the retention, no state, a provider's refusal)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from golem.cli import main
from golem.runtime.agreement import agree
from golem.runtime.store import DB_NAME, StateStore
from tests.fixtures import PROVIDERS

SIMULATIONS = Path(__file__).parents[1] / "simulations"
ANSWER = {
    "severity": "low",
    "action": "observe",
    "confidence": 0.6,
    "rationale": "a small move in a calm market",
    "signals": [],
    "escalate": False,
    "expected_move": None,
}
OPENAI = ["--provider", "openai", "--model", "gpt-4o-mini"]


def simulated_life(out: Path) -> Path:
    """A 43-minute simulated life (decline.toml, seed 3) with model decisions kept; its
    --out directory."""
    argv = ["simulate", str(SIMULATIONS / "decline.toml"), "--days", "0.03", "--seed", "3"]
    assert main([*argv, "--out", str(out)]) == 0
    return out


def model_ids(out: Path, subsystem: str) -> list[str]:
    """The `id`s of the model decisions of `subsystem` in the life's log."""
    lines = (orjson.loads(line) for line in (out / "golem.log").read_bytes().splitlines())
    return [
        line["id"]
        for line in lines
        if line["event"] == "decision" and line["subsystem"] == subsystem and "id" in line
    ]


@pytest.fixture(scope="module")
def life(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return simulated_life(tmp_path_factory.mktemp("life"))


def recorded_body(content: dict[str, Any]) -> dict[str, Any]:
    """The recorded OpenAI chat completion with `content` as its answer."""
    body: dict[str, Any] = orjson.loads(PROVIDERS.read("openai/chat-json-schema-strict.json"))
    body["choices"][0]["message"]["content"] = orjson.dumps(content).decode()
    body["model"] = "gpt-4o-mini-2024-07-18"
    return body


@pytest.fixture
def openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[httpx.Request]]:
    """OpenAI at the network edge: every request answered with the recorded body."""
    PROVIDERS.require()
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json=recorded_body(ANSWER))

    monkeypatch.setenv("OPENAI_API_KEY", "sk-replay-test")
    monkeypatch.setattr(httpx, "AsyncHTTPTransport", lambda **_: httpx.MockTransport(handler))
    yield sent


def test_one_decision_is_replayed_beside_the_original(
    life: Path, openai: list[httpx.Request], capsys: pytest.CaptureFixture[str]
) -> None:
    decision = model_ids(life, "heartbeat")[0]
    assert main(["replay", str(life / "golem.log"), "--decision", decision, *OPENAI]) == 0
    out = capsys.readouterr().out
    with StateStore.open(life / "state") as store:
        kept = store.requests.get(decision)
    assert kept is not None
    # The request sent is the kept one: the same prompt, asked for the same schema.
    (request,) = openai
    body = orjson.loads(request.content)
    assert [m["content"] for m in body["messages"]] == [m.content for m in kept.request.messages]
    assert body["response_format"]["json_schema"]["name"] == "heartbeat_decision"
    assert body["model"] == "gpt-4o-mini"
    assert body["max_completion_tokens"] == kept.request.max_tokens
    # Side by side, with what differs marked.
    assert decision in out and "heartbeat_decision" in out
    for label in ("provider", "input tokens", "reasoning tokens", "cost $", "latency s"):
        assert label in out
    assert "synthetic" in out and "openai" in out and "≠" in out
    assert "decision fields differ" in out or "the same in every field" in out
    # The replay paid OpenAI's price for the recorded usage (172 in, 29 out of gpt-4o-mini).
    assert f"{(172 * 0.15 + 29 * 0.60) / 1e6:.6f}" in out
    # The key went on the wire, never into the state.
    assert request.headers["authorization"] == "Bearer sk-replay-test"
    assert b"sk-replay-test" not in (life / "state" / DB_NAME).read_bytes()


def test_depth_and_a_state_directory_are_taken(
    life: Path, openai: list[httpx.Request], capsys: pytest.CaptureFixture[str]
) -> None:
    decision = model_ids(life, "heartbeat")[0]
    argv = ["replay", str(life), "--decision", decision, *OPENAI, "--depth", "max"]
    assert main(argv) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "reasoning depth" in line)
    assert "max" in row and "≠" in row


def test_all_prints_the_agreement_per_subsystem(
    life: Path, openai: list[httpx.Request], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["replay", str(life / "state"), "--all", "--subsystem", "heartbeat", *OPENAI]
    assert main([*argv, "--since", "1d"]) == 0
    out = capsys.readouterr().out
    with StateStore.open(life / "state") as store:
        kept = store.requests.select(["heartbeat"])
    assert len(openai) == len(kept) >= 2
    severity = sum(k.answer.decision["severity"] == "low" for k in kept)
    confidence = sum(agree(k.answer.decision["confidence"], 0.6, 0.1) for k in kept)
    both = sum(
        k.answer.decision["severity"] == "low"
        and k.answer.decision["action"] == "observe"
        and agree(k.answer.decision["confidence"], 0.6, 0.1)
        and k.answer.decision["escalate"] is False
        and k.answer.decision["expected_move"] is None
        for k in kept
    )
    n = len(kept)
    flat = " ".join(out.split())
    assert f"severity {100 * severity / n:.0f}% ({severity}/{n})" in flat
    assert f"confidence {100 * confidence / n:.0f}% ({confidence}/{n})" in flat
    assert f"{100 * both / n:.0f}% ({both}/{n})" in flat
    assert "daimon" not in out  # --subsystem heartbeat


def test_limit_takes_the_most_recent(
    life: Path, openai: list[httpx.Request], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(life), "--all", *OPENAI, "--limit", "1"]) in (0, 1)
    assert len(openai) == 1
    with StateStore.open(life / "state") as store:
        newest = store.requests.select()[-1]
    assert newest.subsystem in capsys.readouterr().out


def test_a_provider_failure_is_one_line_exit_1(
    life: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(400, json={"error": {"message": "bad model", "type": "invalid"}})

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setattr(httpx, "AsyncHTTPTransport", lambda **_: httpx.MockTransport(handler))
    decision = model_ids(life, "heartbeat")[0]
    assert main(["replay", str(life), "--decision", decision, *OPENAI]) == 1
    captured = capsys.readouterr()
    (line,) = captured.err.strip().splitlines()
    assert line.startswith(f"golem replay: {decision}: openai failed") and "bad model" in line
    assert captured.out == ""


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--decision", "heartbeat@99999.0"], "no model decision of that id is kept"),
        (["--decision", "risk"], "is not a decision id"),
        (["--decision", "heartbeat@0.0", "--since", "2d"], "go with --all"),
        (["--all", "--subsystem", "curator"], "no kept decisions of curator"),
    ],
)
def test_bad_inputs_are_one_line_exit_2(
    life: Path, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(life), *argv, "--provider", "synthetic"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert said in line and "Traceback" not in line


def test_a_decision_older_than_the_kept_requests_says_so(
    life: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    shutil.copytree(life / "state", state)
    with StateStore.open(state) as store:
        first, second = store.requests.select()[:2]
        store.requests.prune(second.time)
    assert main(["replay", str(state), "--decision", first.id, "--provider", "synthetic"]) == 2
    err = capsys.readouterr().err
    assert "before the oldest request kept" in err and "keep_requests" in err


def test_no_state_and_an_old_state_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--decision", "risk@1.0", "--provider", "synthetic"]
    assert main(["replay", str(tmp_path), *argv]) == 2
    assert "no golem state (golem.db)" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "nowhere"), *argv]) == 2
    assert "no such file or directory" in capsys.readouterr().err
    conn = sqlite3.connect(tmp_path / DB_NAME)  # a state of schema 3: no requests table
    conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    conn.execute("INSERT INTO schema_version VALUES (3)")
    conn.commit()
    conn.close()
    assert main(["replay", str(tmp_path / DB_NAME), *argv]) == 2
    assert "older golem (schema 3) that kept no requests" in capsys.readouterr().err


def test_an_http_provider_needs_its_key(
    life: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    decision = model_ids(life, "heartbeat")[0]
    assert main(["replay", str(life), "--decision", decision, *OPENAI]) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err


def test_a_rules_decision_before_the_first_model_call_is_not_blamed_on_retention(
    life: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """heartbeat@0.0 of a golem whose first model call came later (here: the state of the
    life without its tick-0 calls, as if its daimon were off then): it was decided by the
    rules, and keep_requests, which dropped nothing, is not why it has no request."""
    state = tmp_path / "state"
    shutil.copytree(life / "state", state)
    with sqlite3.connect(state / DB_NAME) as db:
        (born,) = db.execute("SELECT time FROM vitality WHERE tick = 1").fetchone()
        db.execute("DELETE FROM requests WHERE time < ?", (born,))
        db.execute("DELETE FROM charges WHERE time < ?", (born,))
    db.close()
    argv = ["replay", str(state), "--decision", "heartbeat@0.0", "--provider", "synthetic"]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "before the golem's first model decision" in line and "without a model" in line
    assert "keep_requests" not in line
