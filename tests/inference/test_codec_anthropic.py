import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from golem.inference import (
    FinishReason,
    Message,
    Mode,
    ReasoningConfig,
    ReasoningDepth,
    Request,
    Response,
    ResponseSchema,
    Tool,
    ToolCall,
    Visibility,
)
from golem.inference.codecs.anthropic import PROFILE, AnthropicCodec
from golem.inference.errors import (
    AuthError,
    InvalidRequest,
    Overloaded,
    RateLimited,
    Refusal,
    ResponseFormatRejected,
    ServerError,
)
from golem.inference.run import respond_tool, run_structured
from golem.inference.scripted import ScriptedProvider, tool_answer
from golem.inference.sse import iter_sse
from tests.fixtures import PROVIDERS, provider_fixture
from tests.inference.decisions import Pulse
from tests.inference.stream_splits import (
    check_every_offset,
    check_one_byte_at_a_time,
    check_random_chunkings,
    decode_chunks,
    frames,
)

CODEC = AnthropicCodec(PROFILE)
# The recorded requests were sent without prompt-cache breakpoints (test_prompt_cache.py
# shows the quirk's effect): they are compared with what the plain codec sends.
PLAIN = AnthropicCodec(replace(PROFILE, quirks={**PROFILE.quirks, "prompt_cache": False}))
STREAMS = PROVIDERS.params("anthropic/*.sse")


def fixture_json(name: str) -> Any:
    return json.loads(provider_fixture(f"anthropic/{name}"))


def decode(name: str) -> Response:
    return CODEC.decode(200, {}, provider_fixture(f"anthropic/{name}"))


def stream(name: str) -> Response:
    return decode_chunks(CODEC, [provider_fixture(f"anthropic/{name}")])


# -- decoding whole bodies -------------------------------------------------------------


def test_forced_tool_use_body() -> None:
    body = fixture_json("messages-forced-tool-use.json")
    block = body["content"][0]
    response = decode("messages-forced-tool-use.json")
    assert response.content is None
    assert response.tool_calls == (ToolCall(block["id"], block["name"], block["input"]),)
    assert response.tool_calls[0].arguments["author"]["last_name"] == "Rothfuss"
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert response.usage.input_tokens == 563
    assert response.usage.output_tokens == 81
    assert response.usage.reasoning_tokens == 0
    assert response.model == "claude-sonnet-4-20250514"
    assert response.reasoning.visibility is Visibility.NONE


def test_thinking_with_signature_body() -> None:
    body = fixture_json("messages-thinking-signature.json")
    thinking = body["content"][0]
    response = decode("messages-thinking-signature.json")
    assert response.content == "3"
    assert response.finish_reason is FinishReason.STOP
    chain = response.reasoning
    assert chain.visibility is Visibility.VISIBLE
    assert chain.content == thinking["thinking"]
    (step,) = chain.steps
    assert step.visibility is Visibility.VISIBLE
    assert step.signature == thinking["signature"]
    assert not chain.interleaved
    # The body reports no thinking count: output_tokens (which includes thinking) stays
    # whole rather than being split by a guess.
    assert response.usage.output_tokens == body["usage"]["output_tokens"] == 964
    assert response.usage.reasoning_tokens == 0
    assert chain.cost.billed_as_output


def test_redacted_thinking_body() -> None:
    body = fixture_json("messages-redacted-thinking.json")
    response = decode("messages-redacted-thinking.json")
    assert response.content == body["content"][1]["text"]
    chain = response.reasoning
    assert chain.visibility is Visibility.OPAQUE
    assert chain.content == ""
    (step,) = chain.steps
    assert step.visibility is Visibility.OPAQUE
    assert step.redacted_data == body["content"][0]["data"]
    assert response.usage.input_tokens == 92
    assert response.usage.output_tokens == 196


# -- decoding streams ------------------------------------------------------------------


def test_stream_thinking_then_tool_call() -> None:
    response = stream("messages-stream-thinking-tool-use.sse")
    events = [
        json.loads(e.data)
        for e in iter_sse(provider_fixture("anthropic/messages-stream-thinking-tool-use.sse"))
    ]
    thinking = "".join(
        e["delta"]["thinking"] for e in events if e.get("delta", {}).get("type") == "thinking_delta"
    )
    signature = next(
        e["delta"]["signature"]
        for e in events
        if e.get("delta", {}).get("type") == "signature_delta"
    )
    assert response.content is None
    assert response.tool_calls == (
        ToolCall("toolu_01TUGHRCfso8VSw9ekt21nAR", "get_temperature", {"city": "Utrecht"}),
    )
    assert response.finish_reason is FinishReason.TOOL_CALLS
    chain = response.reasoning
    assert chain.visibility is Visibility.VISIBLE
    assert chain.content == thinking
    assert chain.content.startswith("The user wants to know the temperature in Utrecht.")
    assert chain.steps[0].signature == signature
    assert not chain.interleaved
    # message_delta: output_tokens 101 of which output_tokens_details.thinking_tokens 45.
    assert response.usage.output_tokens == 56
    assert response.usage.reasoning_tokens == chain.reasoning_tokens == 45
    assert response.usage.input_tokens == 597
    assert response.usage.cached_input_tokens == 0
    assert response.model == "claude-sonnet-4-5-20250929"


def test_stream_redacted_thinking_arrives_whole_in_block_start() -> None:
    response = stream("messages-redacted-thinking-stream.sse")
    starts = [
        json.loads(e.data)["content_block"]
        for e in iter_sse(provider_fixture("anthropic/messages-redacted-thinking-stream.sse"))
        if e.event == "content_block_start"
    ]
    redacted = [b["data"] for b in starts if b["type"] == "redacted_thinking"]
    assert len(redacted) == 2
    chain = response.reasoning
    assert chain.visibility is Visibility.OPAQUE
    assert [s.redacted_data for s in chain.steps] == redacted
    assert all(s.visibility is Visibility.OPAQUE and not s.text for s in chain.steps)
    assert response.content is not None
    assert response.content.startswith("I notice that you've sent what appears to be")
    assert response.content.endswith("a legitimate task or question?")
    assert response.finish_reason is FinishReason.STOP
    # message_delta's cumulative count replaces message_start's.
    assert response.usage.output_tokens == 189
    assert response.usage.input_tokens == 92


@pytest.mark.parametrize("path", STREAMS, ids=str)
def test_stream_every_offset(path: Path) -> None:
    check_every_offset(CODEC, path.read_bytes())


@pytest.mark.parametrize("path", STREAMS, ids=str)
def test_stream_one_byte_at_a_time(path: Path) -> None:
    check_one_byte_at_a_time(CODEC, path.read_bytes())


@pytest.mark.parametrize("path", STREAMS, ids=str)
def test_stream_random_chunkings(path: Path) -> None:
    check_random_chunkings(CODEC, path.read_bytes(), seed=path.name)


def test_interleaved_thinking_detected() -> None:
    def start(index: int, block: dict[str, Any]) -> dict[str, Any]:
        return {"type": "content_block_start", "index": index, "content_block": block}

    events = [
        start(0, {"type": "thinking", "thinking": "a"}),
        start(1, {"type": "tool_use", "id": "t1", "name": "f", "input": {}}),
        start(2, {"type": "thinking", "thinking": "b"}),
        start(3, {"type": "text", "text": "done"}),
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}},
        {"type": "message_stop"},
    ]
    body = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    response = decode_chunks(CODEC, [body])
    assert response.reasoning.interleaved
    assert response.reasoning.content == "a\n\nb"
    assert response.tool_calls == (ToolCall("t1", "f", {}),)


def test_cache_reads_count_as_cached_input() -> None:
    body = fixture_json("messages-forced-tool-use.json")
    body["usage"].update(
        input_tokens=10, cache_read_input_tokens=500, cache_creation_input_tokens=40
    )
    response = CODEC.decode(200, {}, json.dumps(body).encode())
    assert response.usage.input_tokens == 550
    assert response.usage.cached_input_tokens == 500


def test_refusal_stop_reason_raises() -> None:
    body = fixture_json("messages-redacted-thinking.json")
    body["stop_reason"] = "refusal"
    with pytest.raises(Refusal):
        CODEC.decode(200, {}, json.dumps(body).encode())


def test_max_tokens_is_length() -> None:
    body = fixture_json("messages-thinking-signature.json")
    body["stop_reason"] = "max_tokens"
    assert CODEC.decode(200, {}, json.dumps(body).encode()).finish_reason is FinishReason.LENGTH


# -- errors ----------------------------------------------------------------------------


def test_prompt_too_long_is_invalid_request() -> None:
    body = provider_fixture("anthropic/error-400-prompt-too-long.json")
    error = CODEC.error(400, {"request-id": "x"}, body)
    assert type(error) is InvalidRequest
    assert error.status == 400
    assert "prompt is too long: 3333404 tokens > 200000 maximum" in str(error)
    assert "req_011CeCGmMJJGRCp7xgjqapmJ" in error.body_excerpt
    assert error.headers == {"request-id": "x"}
    assert not error.transient


def test_overloaded_is_transient() -> None:
    error = CODEC.error(529, {}, provider_fixture("anthropic/error-529-overloaded.json"))
    assert isinstance(error, Overloaded)
    assert error.transient
    assert error.status == 529


def test_rate_limit_keeps_retry_after() -> None:
    body = b'{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}'
    error = CODEC.error(429, {"Retry-After": "17"}, body)
    assert isinstance(error, RateLimited)
    assert error.retry_after == 17.0


@pytest.mark.parametrize(
    ("kind", "status", "expected"),
    [
        ("authentication_error", 401, AuthError),
        ("permission_error", 403, AuthError),
        ("api_error", 500, ServerError),
        ("not_found_error", 404, InvalidRequest),
        ("mystery_error", 503, ServerError),
    ],
)
def test_error_types(kind: str, status: int, expected: type[Exception]) -> None:
    body = json.dumps({"type": "error", "error": {"type": kind, "message": "m"}}).encode()
    assert type(CODEC.error(status, {}, body)) is expected


def test_non_json_error_body_typed_by_status() -> None:
    assert type(CODEC.error(502, {}, b"<html>bad gateway</html>")) is ServerError


def test_output_config_rejection_is_response_format_rejected() -> None:
    error = {"type": "invalid_request_error", "message": "output_config.format: not supported"}
    body = json.dumps({"type": "error", "error": error}).encode()
    assert isinstance(CODEC.error(400, {}, body), ResponseFormatRejected)


def test_stream_error_event_is_typed() -> None:
    opening = frames(provider_fixture("anthropic/messages-stream-thinking-tool-use.sse"))[:3]
    error = b'event: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\n'
    with pytest.raises(Overloaded):
        decode_chunks(CODEC, [*opening, error])


# -- encoding --------------------------------------------------------------------------


def book_schema() -> ResponseSchema:
    """The schema of the recorded forced-tool-use request's tool."""
    recorded = fixture_json("messages-forced-tool-use.request.json")
    return ResponseSchema("book", recorded["tools"][0]["input_schema"])


def test_forced_tool_use_matches_recorded_request() -> None:
    recorded = fixture_json("messages-forced-tool-use.request.json")
    tool = recorded["tools"][0]
    request = Request(
        messages=(
            Message.system("Use the tool."),
            Message.user(recorded["messages"][0]["content"]),
        ),
        mode=Mode.TOOL_USE,
        tools=(Tool(tool["name"], tool["description"], tool["input_schema"]),),
        tool_choice=tool["name"],
        max_tokens=recorded["max_tokens"],
    )
    wire = PLAIN.encode(request, "claude-sonnet-4-0")
    body = dict(wire.body)
    assert wire.path == "messages"
    assert wire.headers["anthropic-version"] == "2023-06-01"
    assert body["tools"] == [{k: tool[k] for k in ("name", "description", "input_schema")}]
    assert body["tool_choice"] == {"type": "tool", "name": tool["name"]}
    assert body["max_tokens"] == recorded["max_tokens"]
    assert body["system"] == "Use the tool."
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": recorded["messages"][0]["content"]}]}
    ]
    assert "thinking" not in body


def test_thinking_matches_recorded_request() -> None:
    recorded = fixture_json("messages-redacted-thinking.request.json")
    request = Request(
        messages=(Message.user(recorded["messages"][0]["content"][0]["text"]),),
        reasoning=ReasoningConfig(ReasoningDepth.LOW),
        max_tokens=recorded["max_tokens"] - 1024,
        temperature=0.3,
    )
    body = CODEC.encode(request, recorded["model"]).body
    assert body["thinking"] == recorded["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert body["max_tokens"] == recorded["max_tokens"]
    assert body["messages"] == recorded["messages"]
    assert "temperature" not in body


def test_stream_thinking_auto_tool_matches_recorded_request() -> None:
    recorded = fixture_json("messages-stream-thinking-tool-use.request.json")
    tool = recorded["tools"][0]
    request = Request(
        messages=(Message.user(recorded["messages"][0]["content"][0]["text"]),),
        tools=(Tool(tool["name"], tool["description"], tool["input_schema"]),),
        tool_choice="auto",
        reasoning=ReasoningConfig(ReasoningDepth.LOW),
        max_tokens=recorded["max_tokens"] - 1024,
        stream=True,
    )
    wire = PLAIN.encode(request, recorded["model"])
    assert wire.stream
    assert dict(wire.body) == recorded


@pytest.mark.parametrize("depth", list(ReasoningDepth)[1:])
def test_thinking_budget_below_max_tokens_within_ceiling(depth: ReasoningDepth) -> None:
    for model, ceiling in (("claude-sonnet-4-5", 64000), ("claude-opus-4-1", 32000)):
        request = Request(messages=(Message.user("hi"),), reasoning=ReasoningConfig(depth))
        thinking = CODEC.encode(request, model).body["thinking"]
        max_tokens = CODEC.encode(request, model).body["max_tokens"]
        assert 1024 <= thinking["budget_tokens"] < max_tokens <= ceiling
        if depth.anthropic_budget_tokens() + 4096 <= ceiling:
            assert thinking["budget_tokens"] == depth.anthropic_budget_tokens()


def test_thinking_never_sends_a_forced_tool() -> None:
    tool = respond_tool(book_schema())
    request = Request(
        messages=(Message.user("recommend a book"),),
        mode=Mode.TOOL_USE,
        force_tool=False,
        tools=(tool,),
        tool_choice="auto",
        reasoning=ReasoningConfig(ReasoningDepth.MEDIUM),
    )
    body = CODEC.encode(request, "claude-sonnet-4-0").body
    assert body["tool_choice"] == {"type": "auto"}
    assert body["tools"][0]["input_schema"] == book_schema().schema
    assert body["thinking"]["type"] == "enabled"
    # Even a request that asks for the forced tool while thinking gets auto.
    forced = request.evolve(force_tool=True, tool_choice=tool.name)
    assert CODEC.encode(forced, "claude-sonnet-4-0").body["tool_choice"] == {"type": "auto"}
    required = request.evolve(tool_choice="required")
    assert CODEC.encode(required, "claude-sonnet-4-0").body["tool_choice"] == {"type": "auto"}
    # Without thinking the tool is forced.
    plain = forced.evolve(reasoning=ReasoningConfig())
    assert CODEC.encode(plain, "claude-sonnet-4-0").body["tool_choice"] == {
        "type": "tool",
        "name": tool.name,
    }


async def test_run_structured_with_thinking_sends_auto_and_records_downgrade() -> None:
    model = "claude-sonnet-4-0"
    arguments = {"severity": "low", "action": "observe", "confidence": 0.7}
    provider = ScriptedProvider(
        [tool_answer("respond_test_pulse", arguments)],
        capabilities=PROFILE.capabilities_for(model),
    )
    request = Request(
        messages=(Message.user("status?"),), reasoning=ReasoningConfig(ReasoningDepth.LOW)
    )
    response = await run_structured(provider, request, Pulse)
    assert response.parsed == Pulse(severity="low", action="observe", confidence=0.7)
    assert response.mode is Mode.TOOL_USE
    assert any("tool_choice auto" in d for d in response.downgrades)
    body = CODEC.encode(provider.requests[0], model).body
    assert body["tool_choice"] == {"type": "auto"}
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert [t["name"] for t in body["tools"]] == ["respond_test_pulse"]
    assert "respond_test_pulse" in body["system"][0]["text"]


def test_native_json_output_for_flagged_models() -> None:
    assert not PROFILE.capabilities_for("claude-sonnet-4-0").response_schema
    assert PROFILE.capabilities_for("claude-sonnet-4-5-20250929").response_schema
    request = Request(
        messages=(Message.user("a book"),), mode=Mode.SCHEMA_ENFORCED, response_schema=book_schema()
    )
    body = CODEC.encode(request, "claude-sonnet-4-5").body
    assert body["output_config"] == {
        "format": {"type": "json_schema", "schema": book_schema().schema}
    }


def test_tool_round_trip_messages() -> None:
    call = ToolCall("toolu_1", "get_temperature", {"city": "Utrecht"})
    request = Request(
        messages=(
            Message.user("How warm is it in Utrecht?"),
            Message.assistant("Let me look.", (call,)),
            Message.tool("toolu_1", "21 C"),
            Message.user("And tomorrow?"),
        )
    )
    assert CODEC.encode(request, "claude-haiku-4-5").body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "How warm is it in Utrecht?"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Let me look."},
                {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "21 C"},
                {"type": "text", "text": "And tomorrow?"},
            ],
        },
    ]  # fmt: skip


def test_auth_header_carries_the_key_and_wire_headers_do_not() -> None:
    wire = CODEC.encode(Request(messages=(Message.user("hi"),)), "claude-haiku-4-5")
    assert CODEC.auth_headers("sk-ant-secret") == {"x-api-key": "sk-ant-secret"}
    assert "sk-ant-secret" not in json.dumps(dict(wire.headers))
    assert wire.body["max_tokens"] == 4096
