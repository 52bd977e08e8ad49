import json
from typing import Any

import pytest

from golem.inference import (
    FinishReason,
    Message,
    Mode,
    ReasoningConfig,
    ReasoningDepth,
    Request,
    ResponseSchema,
    Tool,
    ToolCall,
    Visibility,
)
from golem.inference.codecs.openai_responses import PROFILE, OpenAIResponsesCodec
from golem.inference.errors import (
    AuthError,
    InvalidRequest,
    InvalidResponse,
    RateLimited,
    Refusal,
    ResponseFormatRejected,
    ServerError,
)
from golem.inference.sse import iter_sse
from tests.fixtures import CONFORMANCE, provider_fixture
from tests.inference.stream_splits import (
    check_every_offset,
    check_one_byte_at_a_time,
    check_random_chunkings,
    decode_chunks,
)

CODEC = OpenAIResponsesCodec(PROFILE)
STREAM = "openai/responses-reasoning-summary-stream.sse"


def fixture_json(name: str) -> Any:
    return json.loads(provider_fixture(f"openai/{name}"))


def sse(*events: dict[str, Any]) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


# -- decoding --------------------------------------------------------------------------


def test_reasoning_summary_body() -> None:
    body = fixture_json("responses-reasoning-summary.json")
    summary = [p["text"] for p in body["output"][0]["summary"]]
    response = CODEC.decode(200, {}, provider_fixture("openai/responses-reasoning-summary.json"))
    assert response.content == "3"
    assert response.finish_reason is FinishReason.STOP
    assert response.model == "gpt-5-2025-08-07"
    chain = response.reasoning
    assert chain.visibility is Visibility.SUMMARIZED
    assert [s.text for s in chain.steps] == summary
    assert len(chain.steps) == 5
    assert chain.content == "\n\n".join(summary)
    # output_tokens 1095 includes reasoning_tokens 1088.
    assert response.usage.output_tokens == 7
    assert response.usage.reasoning_tokens == chain.reasoning_tokens == 1088
    assert response.usage.input_tokens == 32
    assert response.usage.cached_input_tokens == 0
    assert not chain.cost.billed_as_output


def test_reasoning_summary_stream() -> None:
    body = provider_fixture(STREAM)
    events = [json.loads(e.data) for e in iter_sse(body)]
    completed = events[-1]["response"]
    summary = [p["text"] for p in completed["output"][0]["summary"]]
    response = decode_chunks(CODEC, [body])
    assert response.content == "3"
    assert [s.text for s in response.reasoning.steps] == summary
    assert all(s.visibility is Visibility.SUMMARIZED for s in response.reasoning.steps)
    assert response.usage.output_tokens == 839 - 832
    assert response.usage.reasoning_tokens == 832
    assert response.finish_reason is FinishReason.STOP
    assert response.model == "gpt-5-2025-08-07"


def test_stream_every_offset() -> None:
    check_every_offset(CODEC, provider_fixture(STREAM))


def test_stream_one_byte_at_a_time() -> None:
    check_one_byte_at_a_time(CODEC, provider_fixture(STREAM))


def test_stream_random_chunkings() -> None:
    check_random_chunkings(CODEC, provider_fixture(STREAM), seed=STREAM)


FUNCTION_CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_abc",
    "name": "get_current_weather",
    "arguments": '{"location":"San Francisco, CA","unit":"celsius"}',
    "status": "completed",
}
REASONING_NO_SUMMARY = {
    "type": "reasoning",
    "id": "rs_1",
    "summary": [],
    "encrypted_content": "gAAA",
}
USAGE = {
    "input_tokens": 80,
    "input_tokens_details": {"cached_tokens": 64},
    "output_tokens": 150,
    "output_tokens_details": {"reasoning_tokens": 128},
}


def test_function_call_and_opaque_reasoning_body() -> None:
    body = {
        "model": "gpt-5-mini",
        "status": "completed",
        "output": [REASONING_NO_SUMMARY, FUNCTION_CALL],
        "usage": USAGE,
    }
    response = CODEC.decode(200, {}, json.dumps(body).encode())
    assert response.tool_calls == (
        ToolCall("call_abc", "get_current_weather", json.loads(FUNCTION_CALL["arguments"])),
    )
    assert response.finish_reason is FinishReason.TOOL_CALLS
    chain = response.reasoning
    assert chain.visibility is Visibility.OPAQUE
    assert chain.steps[0].redacted_data == "gAAA"
    assert chain.reasoning_tokens == 128
    assert response.usage.cached_input_tokens == 64
    assert response.usage.output_tokens == 22


def test_function_call_stream_matches_the_body() -> None:
    arguments = FUNCTION_CALL["arguments"]
    added = {**FUNCTION_CALL, "arguments": "", "status": "in_progress"}
    body = {
        "model": "gpt-5-mini",
        "status": "completed",
        "output": [REASONING_NO_SUMMARY, FUNCTION_CALL],
        "usage": USAGE,
    }
    transcript = sse(
        {
            "type": "response.created",
            "response": {"model": "gpt-5-mini", "status": "in_progress", "output": []},
        },
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {**REASONING_NO_SUMMARY, "encrypted_content": None},
        },
        {"type": "response.output_item.done", "output_index": 0, "item": REASONING_NO_SUMMARY},
        {"type": "response.output_item.added", "output_index": 1, "item": added},
        {
            "type": "response.function_call_arguments.delta",
            "output_index": 1,
            "item_id": "fc_1",
            "delta": arguments[:9],
        },
        {
            "type": "response.function_call_arguments.delta",
            "output_index": 1,
            "item_id": "fc_1",
            "delta": arguments[9:],
        },
        {
            "type": "response.function_call_arguments.done",
            "output_index": 1,
            "item_id": "fc_1",
            "arguments": arguments,
        },
        {"type": "response.output_item.done", "output_index": 1, "item": FUNCTION_CALL},
        {"type": "response.completed", "response": body},
    )
    streamed = decode_chunks(CODEC, [transcript])
    assert streamed == CODEC.decode(200, {}, json.dumps(body).encode())
    check_random_chunkings(CODEC, transcript, seed="function-call", rounds=50)


def test_reasoning_items_keep_their_id_and_encrypted_content() -> None:
    """Each step knows its item's id; the item's encrypted_content is on its first step
    (a stream's from output_item.done: the one output_item.added carried differs)."""
    relative = "openai-responses/pai-test_openai_responses_thinking_with_tool_calls-0.json"
    raw = CONFORMANCE.read(relative)
    item = json.loads(raw)["output"][0]
    steps = CODEC.decode(200, {}, raw).reasoning.steps
    wanted = [(part["text"], item["id"]) for part in item["summary"]]
    assert [(s.text, s.item_id) for s in steps] == wanted
    assert [s.redacted_data for s in steps] == [item["encrypted_content"]] + [None] * 4

    relative = "openai-responses/pai-test_openai_responses_thinking_part_iter-0.sse"
    transcript = CONFORMANCE.read(relative)
    events = [json.loads(e.data) for e in iter_sse(transcript)]
    added, done = [e["item"] for e in events if e["type"].startswith("response.output_item")][:2]
    assert added["encrypted_content"] != done["encrypted_content"]
    steps = decode_chunks(CODEC, [transcript]).reasoning.steps
    wanted = [(part["text"], done["id"]) for part in done["summary"]]
    assert [(s.text, s.item_id) for s in steps] == wanted
    assert [s.redacted_data for s in steps] == [done["encrypted_content"]] + [None] * 3
    check_random_chunkings(CODEC, transcript, seed=relative, rounds=20)


def test_refusal_content_raises() -> None:
    refusal = "I'm sorry, I can't help with that."
    message = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "refusal", "refusal": refusal}],
    }
    body = {"status": "completed", "output": [message]}
    with pytest.raises(Refusal) as info:
        CODEC.decode(200, {}, json.dumps(body).encode())
    assert info.value.refusal == refusal
    transcript = sse(
        {
            "type": "response.refusal.delta",
            "output_index": 0,
            "content_index": 0,
            "delta": refusal[:10],
        },
        {
            "type": "response.refusal.delta",
            "output_index": 0,
            "content_index": 0,
            "delta": refusal[10:],
        },
        {"type": "response.completed", "response": body},
    )
    with pytest.raises(Refusal) as streamed:
        decode_chunks(CODEC, [transcript])
    assert streamed.value.refusal == refusal


def test_incomplete_is_length() -> None:
    body = fixture_json("responses-reasoning-summary.json")
    body.update(status="incomplete", incomplete_details={"reason": "max_output_tokens"})
    assert CODEC.decode(200, {}, json.dumps(body).encode()).finish_reason is FinishReason.LENGTH


def test_failed_and_error_events_are_typed() -> None:
    failed = {
        "type": "response.failed",
        "response": {"status": "failed", "error": {"code": "server_error", "message": "boom"}},
    }
    with pytest.raises(ServerError):
        decode_chunks(CODEC, [sse(failed)])
    error = {"type": "error", "code": "rate_limit_exceeded", "message": "slow down", "param": None}
    with pytest.raises(RateLimited):
        decode_chunks(CODEC, [sse(error)])
    with pytest.raises(InvalidResponse):
        decode_chunks(CODEC, [b"data: {not json\n\n"])


# -- errors ----------------------------------------------------------------------------


def test_invalid_function_schema_is_invalid_request() -> None:
    body = provider_fixture("openai/error-400-invalid-function-schema.json")
    error = CODEC.error(400, {}, body)
    assert type(error) is InvalidRequest
    assert error.status == 400
    assert "Invalid schema for function 'get_current_weather'" in str(error)
    assert "invalid_function_parameters" in error.body_excerpt
    assert not error.transient


def test_text_format_rejection_is_response_format_rejected() -> None:
    error = {
        "message": "Invalid schema for response_format 'x'",
        "type": "invalid_request_error",
        "param": "text.format.schema",
        "code": "invalid_json_schema",
    }
    assert isinstance(
        CODEC.error(400, {}, json.dumps({"error": error}).encode()), ResponseFormatRejected
    )


def test_quota_and_rate_limit() -> None:
    quota = CODEC.error(429, {}, provider_fixture("openai/error-429-insufficient-quota.json"))
    assert isinstance(quota, AuthError)  # out of credit: waiting will not help
    limited = CODEC.error(
        429, {"retry-after": "2"}, provider_fixture("openai/error-429-rate-limit-tpm.json")
    )
    assert isinstance(limited, (RateLimited, InvalidRequest))


# -- encoding --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["responses-reasoning-summary.request.json", "responses-reasoning-summary-stream.request.json"],
)
def test_reasoning_request_matches_recorded(name: str) -> None:
    recorded = fixture_json(name)
    request = Request(
        messages=(Message.user(recorded["input"][0]["content"]),),
        reasoning=ReasoningConfig(ReasoningDepth.MEDIUM, visible=True),
        stream="stream" in name,
    )
    wire = CODEC.encode(request, recorded["model"])
    assert wire.path == "responses"
    body = dict(wire.body)
    # Beside what was recorded: the prompt cache's key (test_prompt_cache.py).
    assert body.pop("prompt_cache_key").startswith("golem-")
    assert body == recorded


def test_function_tool_request_matches_recorded() -> None:
    recorded = fixture_json("error-400-invalid-function-schema.request.json")
    tool = recorded["tools"][0]
    request = Request(
        messages=(Message.user(recorded["input"][0]["content"]),),
        tools=(Tool(tool["name"], tool["description"], tool["parameters"], strict=tool["strict"]),),
    )
    body = dict(CODEC.encode(request, recorded["model"]).body)
    assert body.pop("prompt_cache_key").startswith("golem-")
    assert body == recorded


def test_text_format_carries_the_schema_like_chat_json_schema() -> None:
    chat = fixture_json("chat-json-schema-strict.request.json")["response_format"]["json_schema"]
    schema = ResponseSchema(chat["name"], chat["schema"])
    request = Request(
        messages=(Message.system("Recommend books."), Message.user("one book")),
        mode=Mode.SCHEMA_ENFORCED,
        response_schema=schema,
        max_tokens=500,
    )
    body = CODEC.encode(request, "gpt-5-mini").body
    assert body["text"] == {
        "format": {
            "type": "json_schema",
            "name": chat["name"],
            "schema": chat["schema"],
            "strict": chat["strict"],
        }
    }
    assert body["instructions"] == "Recommend books."
    assert body["input"] == [{"role": "user", "content": "one book"}]
    assert body["max_output_tokens"] == 500
    assert body["reasoning"] == {"effort": "minimal"}  # gpt-5 knows no "none"


def test_forced_tool_and_round_trip_items() -> None:
    call = ToolCall("call_1", "respond_book", {"title": "X"})
    tool = Tool("respond_book", "Answer", {"type": "object"}, strict=False)
    request = Request(
        messages=(
            Message.user("a book"),
            Message.assistant(None, (call,)),
            Message.tool("call_1", "not valid: title too short"),
        ),
        mode=Mode.TOOL_USE,
        tools=(tool,),
        tool_choice=tool.name,
        reasoning=ReasoningConfig(ReasoningDepth.HIGH),
        temperature=0.5,
    )
    body = CODEC.encode(request, "gpt-5.1").body
    assert body["tool_choice"] == {"type": "function", "name": "respond_book"}
    assert body["input"][1:] == [
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "respond_book",
            "arguments": '{"title":"X"}',
        },
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": "not valid: title too short",
        },
    ]
    assert body["reasoning"] == {"effort": "high"}
    assert "temperature" not in body  # reasoning models reject it


@pytest.mark.parametrize(
    ("model", "depth", "effort"),
    [
        ("gpt-5", ReasoningDepth.NONE, "minimal"),
        ("gpt-5", ReasoningDepth.MAX, "high"),
        ("gpt-5.1", ReasoningDepth.NONE, "none"),
        ("gpt-5.2", ReasoningDepth.MAX, "xhigh"),
    ],
)
def test_effort_maps_to_what_the_model_accepts(
    model: str, depth: ReasoningDepth, effort: str
) -> None:
    request = Request(messages=(Message.user("hi"),), reasoning=ReasoningConfig(depth))
    assert CODEC.encode(request, model).body["reasoning"] == {"effort": effort}


def test_bearer_key_only_in_auth_headers() -> None:
    wire = CODEC.encode(Request(messages=(Message.user("hi"),)), "gpt-5-nano")
    assert CODEC.auth_headers("sk-secret") == {"authorization": "Bearer sk-secret"}
    assert "sk-secret" not in json.dumps(dict(wire.headers))
