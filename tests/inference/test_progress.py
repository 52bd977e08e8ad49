"""A watched call's thinking, told as it happens: the transport streams a reasoning call
someone watches and counts its reasoning chunk by chunk (a recorded DeepSeek stream, fed
through httpx.MockTransport one event a chunk); run_structured brackets the call with
started and done, counting over re-asks; nobody watching changes nothing on the wire."""

from __future__ import annotations

import re
from typing import Any

import httpx
import orjson
import pytest
import trio

from golem.inference import (
    HTTPProvider,
    Message,
    ReasoningConfig,
    Request,
    ServerError,
    run_structured,
)
from golem.inference.progress import (
    Thinking,
    ThinkingDone,
    ThinkingStarted,
    ThinkingTokens,
)
from golem.inference.scripted import ScriptedProvider
from golem.inference.types import Response, Usage
from tests.fixtures import PROVIDERS, provider_fixture
from tests.inference.decisions import VALID, Pulse
from tests.inference.transport_support import ChunkedBody, Script

ENV = {"DEEPSEEK_API_KEY": "sk-test-SECRET123"}
RECORDED = "deepseek/reasoner-reasoning-content-stream.sse"


def events(body: bytes) -> list[bytes]:
    """The stream's events, one chunk each, as a provider flushes them."""
    return [part + b"\n\n" for part in re.split(rb"\r?\n\r?\n", body) if part.strip()]


def streamed(chunks: list[bytes]) -> httpx.Response:
    return httpx.Response(
        200, headers={"content-type": "text/event-stream"}, stream=ChunkedBody(chunks)
    )


def chunk(
    delta: dict[str, Any], usage: dict[str, Any] | None = None, finish: str | None = None
) -> bytes:
    body = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "model": "deepseek-reasoner",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        "usage": usage,
    }
    return b"data: " + orjson.dumps(body) + b"\n\n"


def answer_stream(thoughts: list[str], answer: str, reasoning_tokens: int) -> list[bytes]:
    """A DeepSeek-shaped stream: the thoughts, the answer, then the usage and [DONE]."""
    usage = {
        "prompt_tokens": 40,
        "completion_tokens": reasoning_tokens + 20,
        "total_tokens": reasoning_tokens + 60,
        "completion_tokens_details": {"reasoning_tokens": reasoning_tokens},
    }
    return [
        *(chunk({"content": None, "reasoning_content": t}) for t in thoughts),
        chunk({"content": answer, "reasoning_content": None}),
        chunk({"content": ""}, usage=usage, finish="stop"),
        b"data: [DONE]\n\n",
    ]


def deepseek(script: Script) -> HTTPProvider:
    transport = httpx.MockTransport(script)
    return HTTPProvider.named("deepseek", "deepseek-reasoner", transport=transport, environ=ENV)


def asking(progress: Any = None, reasoning: ReasoningConfig | None = None) -> Request:
    return Request(
        messages=(Message.user("How are you today?"),),
        reasoning=reasoning or ReasoningConfig.low(),
        progress=progress,
    )


@PROVIDERS.needed
async def test_a_watched_stream_tells_its_reasoning_tokens_as_they_grow() -> None:
    script = Script([streamed(events(provider_fixture(RECORDED)))])
    seen: list[Thinking] = []
    with trio.fail_after(5):
        response = await deepseek(script).complete(asking(seen.append))
    assert orjson.loads(script.requests[0].content)["stream"] is True
    counts = [e.tokens for e in seen if isinstance(e, ThinkingTokens)]
    assert all(isinstance(e, ThinkingTokens) for e in seen)
    assert len(counts) > 20 and counts == sorted(set(counts))  # one a step, always growing
    assert not any(e.counted for e in seen if isinstance(e, ThinkingTokens))  # estimated
    # The estimate follows the text streamed (4 characters a token) until the usage comes.
    assert counts[-1] == -(-len(response.reasoning.content) // 4)
    assert response.usage.reasoning_tokens == 198


async def test_a_provider_count_replaces_the_estimate_when_the_stream_gives_one() -> None:
    thoughts = ["Let me think about the pulse. ", "The price is calm; observe."]
    usage = {"prompt_tokens": 1, "completion_tokens": 3000, "total_tokens": 3001}
    usage["completion_tokens_details"] = {"reasoning_tokens": 2500}  # type: ignore[assignment]
    chunks = [
        *(chunk({"reasoning_content": t}) for t in thoughts),
        chunk({}, usage=usage),  # some providers report usage before the answer ends
        chunk({"content": "fine"}, finish="stop"),
        b"data: [DONE]\n\n",
    ]
    seen: list[Thinking] = []
    with trio.fail_after(5):
        await deepseek(Script([streamed(chunks)])).complete(asking(seen.append))
    assert seen[-1] == ThinkingTokens(2500, counted=True)


@PROVIDERS.needed
async def test_nobody_watching_nothing_is_streamed() -> None:
    body = provider_fixture("deepseek/reasoner-reasoning-content.json")
    script = Script(
        [httpx.Response(200, content=body, headers={"content-type": "application/json"})]
    )
    with trio.fail_after(5):
        await deepseek(script).complete(asking())
    assert "stream" not in orjson.loads(script.requests[0].content)


@PROVIDERS.needed
async def test_a_watched_call_without_reasoning_is_not_streamed_either() -> None:
    body = provider_fixture("deepseek/reasoner-reasoning-content.json")
    script = Script(
        [httpx.Response(200, content=body, headers={"content-type": "application/json"})]
    )
    seen: list[Thinking] = []
    with trio.fail_after(5):
        await deepseek(script).complete(asking(seen.append, ReasoningConfig.none()))
    assert "stream" not in orjson.loads(script.requests[0].content)
    assert seen == []


async def test_run_structured_brackets_the_call_and_counts_over_re_asks() -> None:
    valid = orjson.dumps(VALID).decode()
    script = Script(
        [
            streamed(answer_stream(["a" * 400, "b" * 400], "not a pulse at all", 300)),
            streamed(answer_stream(["c" * 40, "d" * 40], valid, 30)),
        ]
    )
    seen: list[Thinking] = []
    with trio.fail_after(5):
        response = await run_structured(deepseek(script), asking(seen.append), Pulse)
    assert response.parsed == Pulse.model_validate(VALID) and response.attempts == 2
    assert seen == [
        ThinkingStarted(),
        ThinkingTokens(100),
        ThinkingTokens(200),
        ThinkingTokens(300, counted=True),  # the usage at the stream's end
        # The re-ask's count goes on from what the first attempt reported.
        ThinkingTokens(310),
        ThinkingTokens(320),
        ThinkingTokens(330, counted=True),
        ThinkingDone(330),
    ]


async def test_a_provider_that_does_not_stream_is_started_then_done() -> None:
    answer = Response(
        content=orjson.dumps(VALID).decode(),
        usage=Usage(input_tokens=10, output_tokens=5, reasoning_tokens=1240),
    )
    seen: list[Thinking] = []
    await run_structured(ScriptedProvider([answer]), asking(seen.append), Pulse)
    assert seen == [ThinkingStarted(), ThinkingDone(1240)]


async def test_a_failed_call_is_done_all_the_same() -> None:
    seen: list[Thinking] = []
    with pytest.raises(ServerError):
        await run_structured(ScriptedProvider([ServerError("down")]), asking(seen.append), Pulse)
    assert seen == [ThinkingStarted(), ThinkingDone(0)]
