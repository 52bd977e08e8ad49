"""Reasoning where people look: the log line keeps the chain's provenance, token count
and text (cut to a documented limit); a watched decision tells its thinking to the
console's live line ("risk thinking… N tokens"), which gives way to the decision's line."""

from __future__ import annotations

import io
from collections.abc import Iterator

import httpx
import orjson
import pytest
import structlog
import trio
from rich.console import Console

from golem.cli.thinking import ThinkingLine, thinking_text, watching
from golem.inference import HTTPProvider
from golem.inference.progress import Thinking, ThinkingDone, ThinkingStarted, ThinkingTokens
from golem.inference.reasoning import ReasoningChain, ReasoningStep, Visibility
from golem.inference.scripted import ScriptedProvider
from golem.inference.types import Response, Usage
from golem.mortality import ModelTier, SubsystemName
from golem.runtime.asking import Budgeting, Route, Routes
from golem.runtime.decide import decide
from golem.runtime.logs.reasoning import REASONING_TEXT_LIMIT, reasoning_fields
from golem.runtime.logs.sinks import LogSinks
from tests.inference.decisions import VALID
from tests.inference.test_progress import answer_stream, streamed
from tests.inference.transport_support import Script
from tests.runtime.test_decide import NOW, PRICE, Toy, budgeting, context

SIGNED = ReasoningChain(
    provider="anthropic",
    model="claude-sonnet-4-5",
    visibility=Visibility.VISIBLE,
    content="The drawdown is 4%; the stake is small. Approve at half size.",
    reasoning_tokens=1240,
    steps=(ReasoningStep("The drawdown ...", signature="EqsDCpQB"),),
)
REDACTED = ReasoningChain(
    provider="anthropic",
    model="claude-sonnet-4-5",
    visibility=Visibility.OPAQUE,
    reasoning_tokens=812,
    steps=(ReasoningStep("", Visibility.OPAQUE, redacted_data="EmwKAhgB"),),
)


@pytest.fixture(autouse=True)
def _restore_structlog() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def test_the_log_line_keeps_a_visible_chain_with_its_provenance() -> None:
    assert reasoning_fields(SIGNED) == {
        "provider": "anthropic",
        "model": "claude-sonnet-4-5",
        "visibility": "visible",
        "redacted": False,
        "signed": True,
        "steps": 1,
        "tokens": 1240,
        "text": SIGNED.content,
    }


def test_an_opaque_chain_keeps_its_provenance_and_count_without_text() -> None:
    assert reasoning_fields(REDACTED) == {
        "provider": "anthropic",
        "model": "claude-sonnet-4-5",
        "visibility": "opaque",
        "redacted": True,
        "signed": False,
        "steps": 1,
        "tokens": 812,
    }
    assert reasoning_fields(ReasoningChain.empty("openai", "gpt-4.1-nano")) is None


def test_a_long_chain_keeps_its_opening_and_its_end_within_the_limit() -> None:
    text = "o" * REASONING_TEXT_LIMIT + "middle" + "e" * REASONING_TEXT_LIMIT
    fields = reasoning_fields(ReasoningChain(visibility=Visibility.VISIBLE, content=text))
    assert fields is not None
    kept = fields["text"]
    assert fields["text_chars"] == len(text)
    assert kept.startswith("o" * (REASONING_TEXT_LIMIT // 2) + "\n[… ")
    assert kept.endswith("…]\n" + "e" * (REASONING_TEXT_LIMIT // 2))
    assert "middle" not in kept and len(kept) < REASONING_TEXT_LIMIT + 40


async def test_a_decision_logs_its_chain_and_tells_its_watch() -> None:
    answer = Response(
        content=orjson.dumps(VALID).decode(),
        usage=Usage(input_tokens=100, output_tokens=50, reasoning_tokens=1240),
        reasoning=SIGNED,
    )
    told: list[tuple[SubsystemName, Thinking]] = []
    env = budgeting(ScriptedProvider([answer], price=PRICE))
    env = Budgeting(**{**_fields(env), "watch": lambda name, event: told.append((name, event))})
    record = await decide(Toy(name=SubsystemName.RISK), context(), env)
    line = record.fields()
    assert line["reasoning"] == reasoning_fields(SIGNED)
    assert line["tokens"]["reasoning"] == 1240
    assert "reasoning_summary" not in line
    assert told == [
        (SubsystemName.RISK, ThinkingStarted()),
        (SubsystemName.RISK, ThinkingDone(1240)),
    ]


def _fields(env: Budgeting) -> dict[str, object]:
    return {name: getattr(env, name) for name in Budgeting.__dataclass_fields__}


def terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=100, highlight=False), out


def test_the_line_counts_then_gives_way() -> None:
    console, out = terminal()
    line = ThinkingLine(console)
    line(SubsystemName.RISK, ThinkingStarted())
    line(SubsystemName.RISK, ThinkingTokens(1240))
    line(SubsystemName.RISK, ThinkingDone(1240))
    line.stream.write("12:00:15 decision  risk  approved hedge\n")
    shown = out.getvalue()
    assert "risk thinking…" in shown
    assert shown.index("risk thinking… 1,240 tokens") < shown.index("decision  risk")
    # Nothing of the live line after the decision's line: it was erased before it.
    assert "thinking" not in shown[shown.index("decision  risk") :]
    assert thinking_text("dream", 0) == "dream thinking…"


async def test_a_watched_risk_decision_on_the_console() -> None:
    """End to end: a streaming provider (httpx.MockTransport), decide, the log's sinks on
    the console, and the live line between them."""
    thoughts = ["The position is small and the drawdown mild. " * 10] * 6
    script = Script([streamed(answer_stream(thoughts, orjson.dumps(VALID).decode(), 1240))])
    transport = httpx.MockTransport(script)
    provider = HTTPProvider.named(
        "deepseek", "deepseek-reasoner", transport=transport, environ={"DEEPSEEK_API_KEY": "k"}
    )
    console, out = terminal()
    line = ThinkingLine(console)
    sinks = LogSinks(None, line.stream, "pretty", now=lambda: NOW)
    route = Route(provider=provider, model="deepseek-reasoner", price=PRICE)
    base = budgeting(ScriptedProvider([]))
    env = Budgeting(**{**_fields(base), "routes": Routes({ModelTier.T1: route}), "watch": line})
    with trio.fail_after(5):  # risk reasons (high) by default: the call is streamed
        record = await decide(Toy(name=SubsystemName.RISK), context(), env)
    sinks.publish(record)
    assert record.source == "model" and orjson.loads(script.requests[0].content)["stream"]
    shown = out.getvalue()
    decided = shown.index("decision  risk")
    first, all_six = (f"risk thinking… {-(-n * len(thoughts[0]) // 4):,} tokens" for n in (1, 6))
    assert shown.index(first) < shown.index(all_six) < shown.index("1,240 tokens")
    assert shown.index("risk thinking… 1,240 tokens") < decided
    assert "thinking" not in shown[decided:]


def test_only_a_pretty_terminal_gets_the_line() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert isinstance(watching("auto", Tty()), ThinkingLine)
    assert isinstance(watching("pretty", Tty()), ThinkingLine)
    assert watching("json", Tty()) is None
    assert watching("auto", io.StringIO()) is None
