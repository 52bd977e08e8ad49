"""The transport end to end with the real codecs and recorded provider bodies: requests
encoded, answers decoded and priced, recorded error bodies typed and retried as they should."""

from __future__ import annotations

import random

import httpx
import orjson
import pytest
import trio
from pydantic import BaseModel, ConfigDict
from trio.testing import MockClock

from golem.inference import (
    AuthError,
    FallbackProvider,
    FinishReason,
    HTTPProvider,
    Message,
    Overloaded,
    ProviderError,
    Refusal,
    Request,
    StructuredOutput,
    Usage,
    decode,
    run_structured,
)
from golem.inference.providers import price_for
from tests.fixtures import PROVIDERS, provider_fixture
from tests.inference.transport_support import NOW, ChunkedBody, Script

# Every test here replays recorded bodies; marked so that the skip keeps its reason
# (pytest-trio drops the reason of a skip raised inside an async test).
pytestmark = PROVIDERS.needed

ENV = {
    "OPENAI_API_KEY": "sk-test-SECRET123",
    "ANTHROPIC_API_KEY": "sk-ant-test-SECRET456",
    "GEMINI_API_KEY": "gm-test-SECRET789",
}
JSON = {"content-type": "application/json"}


class Person(StructuredOutput):
    schema_name = "transport_person"

    name: str
    age: int


class Author(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    first_name: str
    last_name: str


class Book(StructuredOutput):
    schema_name = "transport_book"

    title: str
    author: Author
    rating: int


def provider(name: str, model: str, script: Script) -> HTTPProvider:
    transport = httpx.MockTransport(script)
    return HTTPProvider.named(name, model, transport=transport, environ=ENV, jitter=random.random)


def recorded(path: str, status: int = 200, **headers: str) -> httpx.Response:
    return httpx.Response(status, content=provider_fixture(path), headers={**JSON, **headers})


async def test_openai_structured_call_end_to_end() -> None:
    script = Script([recorded("openai/chat-json-schema-strict-simple.json")])
    openai = provider("openai", "gpt-4.1-nano", script)
    request = Request(messages=(Message.user("Generate a person named John, 30"),))
    with trio.fail_after(5):
        response = await run_structured(openai, request, Person)
    assert response.parsed == Person(name="John", age=30)
    assert (response.provider, response.model) == ("openai", "gpt-4.1-nano-2025-04-14")
    price = price_for("openai", "gpt-4.1-nano")
    assert price is not None
    assert response.cost_usd == pytest.approx(price.cost(response.usage))
    assert response.cost_usd > 0
    sent = script.requests[0]
    assert str(sent.url) == "https://api.openai.com/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer sk-test-SECRET123"
    body = orjson.loads(sent.content)
    assert body["model"] == "gpt-4.1-nano"
    assert body["response_format"]["json_schema"]["strict"] is True


async def test_openai_stream_in_random_chunks_matches_decode() -> None:
    transcript = provider_fixture("openai/chat-json-schema-strict-stream.sse")
    cuts = sorted(random.Random(3).sample(range(1, len(transcript)), 40))
    chunks = [transcript[a:b] for a, b in zip([0, *cuts], [*cuts, len(transcript)], strict=True)]
    script = Script([httpx.Response(200, stream=ChunkedBody(chunks))])
    openai = provider("openai", "gpt-4o", script)
    request = Request(messages=(Message.user("a book"),), stream=True)
    with trio.fail_after(5):
        response = await run_structured(openai, request, Book)
    expected = decode("openai", transcript, stream=True)
    assert response.content == expected.content
    assert response.usage == expected.usage
    assert response.parsed.title == "THE NAME OF THE WIND"
    assert orjson.loads(script.requests[0].content)["stream"] is True


async def test_openai_truncated_stream_is_asked_again_not_used(
    autojump_clock: MockClock,
) -> None:
    transcript = provider_fixture("openai/chat-json-schema-strict-stream.sse")
    # The whole JSON answer, but no finish, no usage, no [DONE]: used as it is, it would
    # be charged nothing. Asked again; the cut attempt is billed by estimate (its stream
    # reported no usage: the input and the streamed answer, estimated).
    cut = b"\n\n".join(transcript.split(b"\n\n")[:-4]) + b"\n\n"
    script = Script([httpx.Response(200, content=cut), httpx.Response(200, content=transcript)])
    openai = provider("openai", "gpt-4o", script)
    request = Request(messages=(Message.user("a book"),), stream=True)
    with trio.fail_after(5):
        response = await run_structured(openai, request, Book)
    assert response.parsed.rating == 7
    (cut_attempt,) = response.failed_attempts
    assert cut_attempt.error == "incomplete_stream" and cut_attempt.reported == Usage()
    assert cut_attempt.estimated.input_tokens > 0 and cut_attempt.estimated.output_tokens > 0
    assert cut_attempt.estimated_usd == cut_attempt.cost_usd > 0
    assert response.usage == decode("openai", transcript, stream=True).usage + cut_attempt.usage
    assert response.finish_reason is FinishReason.STOP
    assert len(script.requests) == 2


@pytest.mark.parametrize("stream", [False, True])
async def test_openai_refusal_is_typed_and_not_retried(stream: bool) -> None:
    path = "openai/chat-json-schema-refusal" + ("-stream.sse" if stream else ".json")
    script = Script([recorded(path)])
    openai = provider("openai", "gpt-4o", script)
    with trio.fail_after(5), pytest.raises(Refusal):
        await openai.complete(Request(messages=(Message.user("x"),), stream=stream))
    assert len(script.requests) == 1


async def test_anthropic_overloaded_is_retried_then_typed(autojump_clock: MockClock) -> None:
    script = Script([recorded("anthropic/error-529-overloaded.json", 529)])
    anthropic = provider("anthropic", "claude-sonnet-4-20250514", script)
    with trio.fail_after(120), pytest.raises(Overloaded) as caught:
        await anthropic.complete(Request(messages=(Message.user("x"),)))
    assert len(script.requests) == 4
    assert "overloaded_error" in caught.value.body_excerpt
    assert script.requests[0].headers["x-api-key"] == "sk-ant-test-SECRET456"


async def test_gemini_retry_info_delay_is_waited(autojump_clock: MockClock) -> None:
    script = Script(
        [
            recorded("gemini/error-429-resource-exhausted.json", 429),
            recorded("gemini/generate-content-response-schema.json"),
        ]
    )
    gemini = provider("gemini", "gemini-2.5-flash", script)
    with trio.fail_after(120):
        response = await gemini.complete(Request(messages=(Message.user("x"),)))
    assert script.times[1] - script.times[0] == pytest.approx(48.0)  # RetryInfo "48s"
    assert response.content


async def test_openrouter_retry_after_date_is_waited(autojump_clock: MockClock) -> None:
    limited = recorded(
        "openrouter/error-429-upstream-rate-limited.json",
        429,
        **{"retry-after": "Thu, 01 Jan 2026 00:00:09 GMT"},
    )
    script = Script([limited, recorded("openrouter/chat-reasoning-effort.json")])
    openrouter = HTTPProvider.named(
        "openrouter",
        "google/gemini-2.0-flash-exp:free",
        transport=httpx.MockTransport(script),
        environ={"OPENROUTER_API_KEY": "or-test-SECRET"},
        now=lambda: NOW,
    )
    with trio.fail_after(120):
        await openrouter.complete(Request(messages=(Message.user("x"),)))
    assert script.times[1] - script.times[0] == pytest.approx(9.0)


async def test_out_of_quota_falls_back_to_the_next_provider() -> None:
    quota = Script([recorded("openai/error-429-insufficient-quota.json", 429)])
    claude = Script([recorded("anthropic/messages-forced-tool-use.json")])
    chain = FallbackProvider(
        [
            provider("openai", "gpt-4.1", quota),
            provider("anthropic", "claude-sonnet-4-20250514", claude),
        ]
    )
    with trio.fail_after(5):
        response = await chain.complete(Request(messages=(Message.user("a book"),)))
    assert len(quota.requests) == 1  # out of money is not worth a retry
    assert response.provider == "anthropic"
    assert response.downgrades == ("fallback: openai → anthropic after auth_error",)
    assert response.tool_calls[0].arguments["rating"] == 7
    assert response.cost_usd > 0


async def test_a_missing_key_falls_back_without_a_request() -> None:
    unused = Script([recorded("openai/chat-json-schema-strict-simple.json")])
    claude = Script([recorded("anthropic/messages-forced-tool-use.json")])
    keyless = httpx.MockTransport(unused)
    openai = HTTPProvider.named("openai", "gpt-4.1", transport=keyless, environ={})
    anthropic = provider("anthropic", "claude-sonnet-4-20250514", claude)
    with trio.fail_after(5):
        response = await FallbackProvider([openai, anthropic]).complete(
            Request(messages=(Message.user("a book"),))
        )
    assert unused.requests == []
    assert response.downgrades == ("fallback: openai → anthropic after auth_error",)
    with pytest.raises(AuthError, match="OPENAI_API_KEY"):
        await openai.complete(Request(messages=(Message.user("x"),)))


async def test_no_key_leaks_from_a_real_codec_error() -> None:
    script = Script([recorded("openai/error-400-invalid-function-schema.json", 400)])
    openai = provider("openai", "gpt-4.1", script)
    with pytest.raises(ProviderError) as caught:
        await openai.complete(Request(messages=(Message.user("x"),)))
    error = caught.value
    text = " ".join([str(error), repr(error), repr(vars(error)), repr(openai), str(vars(openai))])
    assert ENV["OPENAI_API_KEY"] not in text
    assert (error.status, error.provider) == (400, "openai")
