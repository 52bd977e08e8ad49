"""A stream cut mid-answer is billed by the provider for what it processed and sent: the
transport returns each cut attempt's bill (what the stream reported, plus an estimate of
what it streamed beyond that) with the error, or with a later attempt's answer. Real
Anthropic stream bytes (../shared/fixtures/providers), cut at chosen byte offsets,
through httpx.MockTransport, the real codec and the real transport."""

from __future__ import annotations

from pathlib import Path

import httpx
import orjson
import pytest
from trio.testing import MockClock

from golem.inference import (
    ConnectionFailed,
    IncompleteStream,
    Message,
    ProviderError,
    Request,
    Timeout,
    Usage,
)
from golem.inference.billing import prompt_tokens
from golem.inference.providers import default_registry
from golem.inference.tokens import estimate_tokens
from golem.inference.transport import HTTPProvider, TransportConfig
from tests.inference.transport_support import ChunkedBody, Script

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "providers"
RECORDING = SHARED / "anthropic" / "messages-stream-thinking-tool-use.sse"
MODEL = "claude-sonnet-4-5"
PRICE = default_registry().price_for("anthropic", MODEL)
ENV = {"ANTHROPIC_API_KEY": "sk-ant-test"}
REQUEST = Request(messages=(Message.user("What is the temperature in Utrecht?"),), stream=True)

needs_recording = pytest.mark.skipif(
    not RECORDING.exists(), reason=f"{RECORDING} is absent (the shared fixtures are not here)"
)


def recording() -> bytes:
    return RECORDING.read_bytes()


def provider(script: Script, retries: int) -> HTTPProvider:
    config = TransportConfig(max_retries=retries, backoff_base_s=0.0)
    return HTTPProvider.named(
        "anthropic", MODEL, transport=httpx.MockTransport(script), environ=ENV, config=config
    )


def reset_after(prefix: bytes) -> httpx.Response:
    """The stream's first `prefix` bytes, then the connection reset."""
    body = ChunkedBody([prefix], error=httpx.ReadError("connection reset"))
    return httpx.Response(200, stream=body, headers={"content-type": "text/event-stream"})


def whole(body: bytes) -> httpx.Response:
    return httpx.Response(200, content=body, headers={"content-type": "text/event-stream"})


def billed(prefix: bytes) -> Usage:
    """What the provider bills for a stream cut after `prefix`, read from the recording
    independently of the codec: the usage its whole events reported, plus the tokens of
    the text they streamed beyond the output counted so far (estimated)."""
    reported, streamed = {"input": 0, "output": 0, "thinking": 0}, []
    for event in prefix.split(b"\n\n")[:-1]:  # events whose closing blank line arrived
        data = next(line[5:] for line in event.split(b"\n") if line.startswith(b"data:"))
        value = orjson.loads(data)
        usage = (value.get("message") or {}).get("usage") or value.get("usage") or {}
        if "input_tokens" in usage:
            reported["input"] = usage["input_tokens"]
        if "output_tokens" in usage:
            reported["output"] = usage["output_tokens"]
            details = usage.get("output_tokens_details") or {}
            reported["thinking"] = details.get("thinking_tokens", 0)
        block = value.get("content_block") or {}
        if block.get("type") == "tool_use":
            streamed.append(("output", block["name"]))
        delta = value.get("delta") or {}
        for kind, field in (
            ("thinking", "thinking"),
            ("output", "text"),
            ("output", "partial_json"),
        ):
            if delta.get(field):
                streamed.append((kind, delta[field]))
    out = "".join(t for k, t in streamed if k == "output")
    thinking = "".join(t for k, t in streamed if k == "thinking")
    est_out = estimate_tokens(out) if out else 0
    est_thinking = estimate_tokens(thinking) if thinking else 0
    beyond = max(0, est_out + est_thinking - reported["output"])
    return Usage(input_tokens=reported["input"], output_tokens=reported["output"] + beyond)


def flat(usage: Usage | None) -> tuple[int, int]:
    """(input, output) tokens: Anthropic bills thinking as output, counted inside it."""
    assert usage is not None
    return usage.input_tokens, usage.output_tokens + usage.reasoning_tokens


@needs_recording
async def test_a_cut_then_an_answer_charges_both(autojump_clock: MockClock) -> None:
    body = recording()
    cut = body.index(b"event: content_block_delta", body.index(b"input_json_delta"))
    script = Script([reset_after(body[:cut]), whole(body)])
    async with provider(script, retries=2) as anthropic:
        response = await anthropic.complete(REQUEST)
    assert PRICE is not None
    answered = Usage(input_tokens=597, output_tokens=56, reasoning_tokens=45)
    (attempt,) = response.failed_attempts
    assert attempt.error == "connection_failed"
    assert attempt.reported.input_tokens == 597  # message_start's, before the cut
    assert flat(attempt.estimated) > (0, 0)  # thinking and tool input streamed
    assert flat(attempt.usage) == flat(billed(body[:cut]))
    assert response.usage == answered + attempt.usage
    assert response.cost_usd == pytest.approx(PRICE.cost(answered) + PRICE.cost(billed(body[:cut])))
    assert response.cost_usd > PRICE.cost(answered + Usage(input_tokens=597))  # input twice
    assert 0 < attempt.estimated_usd < attempt.cost_usd


@needs_recording
async def test_every_attempt_cut_is_charged_with_the_error(autojump_clock: MockClock) -> None:
    body = recording()
    cuts = [len(body) // 5, len(body) // 3, len(body) // 2, len(body) - 40]
    script = Script([reset_after(body[:k]) for k in cuts])
    async with provider(script, retries=3) as anthropic:
        with pytest.raises(ConnectionFailed) as caught:
            await anthropic.complete(REQUEST)
    assert PRICE is not None
    error = caught.value
    assert len(error.failed_attempts) == 4
    assert flat(error.usage) == flat(sum((billed(body[:k]) for k in cuts), Usage()))
    assert error.cost_usd == pytest.approx(sum(PRICE.cost(billed(body[:k])) for k in cuts))
    assert error.usage is not None and error.usage.input_tokens == 4 * 597


@needs_recording
async def test_a_truncated_stream_is_billed_like_a_cut(autojump_clock: MockClock) -> None:
    body = recording()
    end = body.index(b"event: message_delta")  # before the final output count
    script = Script([whole(body[:end])])
    async with provider(script, retries=0) as anthropic:
        with pytest.raises(IncompleteStream) as caught:
            await anthropic.complete(REQUEST)
    (attempt,) = caught.value.failed_attempts
    assert attempt.error == "incomplete_stream"
    assert flat(attempt.usage) == flat(billed(body[:end]))
    assert attempt.reported == Usage(input_tokens=597, output_tokens=8)


@needs_recording
async def test_a_stream_timed_out_mid_answer_is_billed(autojump_clock: MockClock) -> None:
    body = recording()
    half = body.index(b"\n\n", len(body) // 2) + 2
    # The first half at 6 s, the rest at 12 s: past the stream's 10 s limit.
    stalled = ChunkedBody([body[:half], body[half:]], pause=6.0)
    script = Script([httpx.Response(200, stream=stalled)])
    config = TransportConfig(max_retries=0, max_stream_s=10.0)
    anthropic = HTTPProvider.named(
        "anthropic", MODEL, transport=httpx.MockTransport(script), environ=ENV, config=config
    )
    with pytest.raises(Timeout) as caught:
        await anthropic.complete(REQUEST)
    (attempt,) = caught.value.failed_attempts
    assert attempt.error == "timeout" and stalled.sent == 1
    assert flat(attempt.usage) == flat(billed(body[:half]))


async def test_a_cut_before_the_answer_began_is_billed_nothing(autojump_clock: MockClock) -> None:
    script = Script([reset_after(b""), reset_after(b"event: message_start\n")])
    async with provider(script, retries=1) as anthropic:
        with pytest.raises(ConnectionFailed) as caught:
            await anthropic.complete(REQUEST)
    assert caught.value.failed_attempts == ()
    assert caught.value.usage is None and caught.value.cost_usd == 0.0


WHOLE = SHARED / "anthropic" / "messages-forced-tool-use.json"


def whole_body_cut(prefix: bytes) -> httpx.Response:
    """A non-streamed body whose first `prefix` bytes arrive, then the connection resets."""
    body = ChunkedBody([prefix], error=httpx.ReadError("connection reset"))
    return httpx.Response(200, stream=body, headers={"content-type": "application/json"})


@pytest.mark.skipif(not WHOLE.exists(), reason=f"{WHOLE} is absent")
async def test_a_whole_body_cut_before_its_usage_is_billed_by_estimate(
    autojump_clock: MockClock,
) -> None:
    body = WHOLE.read_bytes()
    cut = body.index(b'"rating"')  # the answer half read, its usage not yet
    script = Script([whole_body_cut(body[:cut]), httpx.Response(200, content=body)])
    request = REQUEST.evolve(stream=False)
    async with provider(script, retries=1) as anthropic:
        response = await anthropic.complete(request)
    (attempt,) = response.failed_attempts
    assert attempt.reported == Usage()  # Anthropic's usage comes last
    assert attempt.estimated.input_tokens == prompt_tokens(request) > 0
    assert attempt.estimated.output_tokens > 0  # the tool's name and input that arrived
    assert attempt.estimated_usd == attempt.cost_usd > 0
    assert response.usage == Usage(input_tokens=563, output_tokens=81) + attempt.usage


@pytest.mark.skipif(not WHOLE.exists(), reason=f"{WHOLE} is absent")
async def test_a_whole_body_cut_after_its_usage_is_billed_as_reported(
    autojump_clock: MockClock,
) -> None:
    body = WHOLE.read_bytes()
    script = Script([whole_body_cut(body[:-3])])
    async with provider(script, retries=0) as anthropic:
        with pytest.raises(ConnectionFailed) as caught:
            await anthropic.complete(REQUEST.evolve(stream=False))
    (attempt,) = caught.value.failed_attempts
    assert attempt.reported == Usage(input_tokens=563, output_tokens=81)
    assert attempt.estimated == Usage() and attempt.estimated_usd == 0.0
    assert PRICE is not None and attempt.cost_usd == pytest.approx(PRICE.cost(attempt.reported))


async def test_an_error_status_is_billed_nothing(autojump_clock: MockClock) -> None:
    overloaded = httpx.Response(529, json={"type": "error", "error": {"type": "overloaded_error"}})
    script = Script([overloaded])
    async with provider(script, retries=0) as anthropic:
        with pytest.raises(ProviderError) as caught:
            await anthropic.complete(REQUEST.evolve(stream=False))
    assert caught.value.failed_attempts == () and caught.value.cost_usd == 0.0
