"""`golem inspect LOG_OR_STATE --decision ID`: a decision's panel with its reasoning, read
from a log written by the real path (decide, its record, the log's sinks)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from golem.cli import main
from golem.inference.reasoning import ReasoningChain
from golem.inference.scripted import ScriptedProvider
from golem.inference.types import Response, Usage
from golem.mortality import SubsystemName
from golem.runtime.decide import decide
from golem.runtime.logs.sinks import LogSinks
from tests.inference.decisions import VALID
from tests.runtime.test_decide import NOW, PRICE, Toy, budgeting, context
from tests.runtime.test_reasoning_surfaces import REDACTED, SIGNED


def answer(chain: ReasoningChain) -> Response:
    return Response(
        content=orjson.dumps(VALID).decode(),
        usage=Usage(input_tokens=900, output_tokens=60, reasoning_tokens=chain.reasoning_tokens),
        reasoning=chain,
    )


@pytest.fixture
async def log(tmp_path: Path) -> Path:
    """A state directory's golem.log: risk@7.0 reasoned visibly, risk@8.0 opaquely,
    heartbeat@9.0 without reasoning."""
    path = tmp_path / "state" / "golem.log"
    steps = [answer(SIGNED), answer(REDACTED), answer(ReasoningChain())]
    env = budgeting(ScriptedProvider(list(steps), price=PRICE))
    with LogSinks(path, None, "json", now=lambda: NOW) as sinks:
        for tick, name in ((7, SubsystemName.RISK), (8, SubsystemName.RISK), (9, None)):
            toy = Toy(name=name) if name is not None else Toy()
            sinks.publish(await decide(toy, context(tick=tick), env))
    return path


def shown(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["inspect", *args])
    out, err = capsys.readouterr()
    return code, out, err


async def test_a_visible_chain_is_shown_whole_with_the_decision(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = shown(capsys, str(log), "--decision", "risk@7.0")
    assert code == 0
    assert "decision risk@7.0" in out
    assert "reasoning · anthropic:claude-sonnet-4-5 · visible · 1,240 tokens · signed" in out
    assert SIGNED.content in out
    for fact in ("risk (tier 1)", "input 900, output 60, reasoning 1,240", "$0.", '"severity"'):
        assert fact in out, fact


async def test_an_opaque_chain_says_it_was_performed_and_its_count(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = shown(capsys, str(log.parent), "--decision", "risk@8.0")  # the state dir
    assert code == 0
    assert "opaque · 812 tokens · redacted blocks" in out
    assert "reasoning performed (not visible): 812 tokens" in out


async def test_no_reasoning_says_so_and_json_gives_the_line(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = shown(capsys, str(log), "--decision", "heartbeat@9.0")
    assert code == 0 and "no reasoning" in out
    code, out, _ = shown(capsys, str(log), "--decision", "risk@8.0", "--json")
    line = orjson.loads(out)
    assert code == 0 and line["reasoning"]["visibility"] == "opaque"


async def test_an_unknown_id_is_one_line_and_exit_2(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = shown(capsys, str(log), "--decision", "risk@99.0")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"golem inspect: --decision risk@99.0: no model decision with that id in {log}"
    ]
    code, _, err = shown(capsys, str(log.parent.parent), "--decision", "risk@7.0")
    assert code == 2 and "no golem.log beside it" in err


async def test_the_panels_take_the_width_asked(
    capsys: pytest.CaptureFixture[str], log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = shown(capsys, str(log), "--decision", "risk@7.0", "--width", "72")
    assert code == 0
    assert max(map(len, out.splitlines())) == 72
    _, wide, _ = shown(capsys, str(log), "--decision", "risk@7.0")  # a pipe: 180 columns
    assert max(map(len, wide.splitlines())) == 180
