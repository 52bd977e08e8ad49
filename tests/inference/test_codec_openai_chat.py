"""The OpenAI Chat Completions codec against recorded bodies, streams, error bodies and
request bodies (../shared/fixtures/providers/openai)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from golem.inference import (
    AuthError,
    FinishReason,
    InvalidRequest,
    InvalidResponse,
    Message,
    Mode,
    Overloaded,
    RateLimited,
    ReasoningConfig,
    ReasoningDepth,
    Refusal,
    Request,
    ResponseFormatRejected,
    ResponseSchema,
    ServerError,
    Timeout,
    Tool,
    ToolCall,
    Visibility,
    decode,
    respond_tool,
)
from golem.inference.codecs.openai_chat import OpenAIChatCodec
from golem.inference.providers import default_registry
from tests.fixtures import provider_fixture

CODEC = default_registry().codec("openai")
PERSON = ResponseSchema(
    "response",
    {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
        "required": ["name", "age"],
        "additionalProperties": False,
    },
)


def body_json(name: str) -> Any:
    return orjson.loads(provider_fixture(f"openai/{name}"))


def encode(request: Request, model: str = "gpt-4o") -> dict[str, Any]:
    return dict(CODEC.encode(request, model).body)


def ask(text: str = "Hi", **changes: Any) -> Request:
    return Request(messages=(Message.user(text),), **changes)


# -- decoding recorded bodies ------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["chat-json-schema-strict.json", "chat-json-schema-strict-simple.json"]
)
def test_json_schema_body(name: str) -> None:
    raw = body_json(name)
    response = decode("openai", provider_fixture(f"openai/{name}"))
    assert response.content == raw["choices"][0]["message"]["content"]
    assert orjson.loads(response.content or "")  # the schema's JSON, verbatim
    assert response.model == raw["model"]
    assert response.provider == "openai"
    assert response.finish_reason is FinishReason.STOP
    assert response.usage.input_tokens == raw["usage"]["prompt_tokens"]
    assert response.usage.output_tokens == raw["usage"]["completion_tokens"]
    assert response.usage.reasoning_tokens == 0
    assert response.reasoning.visibility is Visibility.NONE
    assert response.tool_calls == ()


def test_strict_body_values_and_cost() -> None:
    response = decode("openai", provider_fixture("openai/chat-json-schema-strict.json"))
    assert orjson.loads(response.content or "") == {
        "title": "THE NAME OF THE WIND",
        "author": {"first_name": "Patrick", "last_name": "Rothfuss"},
        "rating": 7,
    }
    assert response.model == "gpt-4o-2024-08-06"
    # gpt-4o: $2.50 in, $10 out per Mtok; 172 in, 29 out.
    assert response.cost_usd == pytest.approx((172 * 2.5 + 29 * 10.0) / 1e6)


def test_stream_equals_body() -> None:
    whole = decode("openai", provider_fixture("openai/chat-json-schema-strict.json"))
    streamed = decode(
        "openai", provider_fixture("openai/chat-json-schema-strict-stream.sse"), stream=True
    )
    assert streamed.content == whole.content
    assert streamed.usage == whole.usage
    assert streamed.finish_reason is FinishReason.STOP
    assert streamed.cost_usd == whole.cost_usd


@pytest.mark.parametrize(
    ("name", "stream"),
    [("chat-json-schema-refusal.json", False), ("chat-json-schema-refusal-stream.sse", True)],
)
def test_refusal_is_a_typed_error(name: str, stream: bool) -> None:
    with pytest.raises(Refusal) as caught:
        decode("openai", provider_fixture(f"openai/{name}"), stream=stream)
    assert caught.value.refusal == "I'm very sorry, but I can't assist with that request."
    assert caught.value.provider == "openai"
    assert not caught.value.transient


# -- errors ------------------------------------------------------------------------------


def test_insufficient_quota_is_a_non_transient_auth_error() -> None:
    body = provider_fixture("openai/error-429-insufficient-quota.json")
    with pytest.raises(AuthError) as caught:
        decode("openai", body, status=429)
    assert caught.value.status == 429
    assert not caught.value.transient
    assert "exceeded your current quota" in str(caught.value)
    # Without a status, the error object in the body is still an error.
    with pytest.raises(AuthError):
        decode("openai", body)


def test_request_larger_than_the_rate_limit_is_not_retried() -> None:
    body = provider_fixture("openai/error-429-rate-limit-tpm.json")
    error = CODEC.error(429, {"retry-after": "1"}, body)
    assert type(error) is InvalidRequest
    assert "Limit 400000, Requested 2500013" in str(error)


def test_invalid_function_schema_is_invalid_request_not_format() -> None:
    body = provider_fixture("openai/error-400-invalid-function-schema.json")
    error = CODEC.error(400, {}, body)
    assert type(error) is InvalidRequest
    assert "get_current_weather" in str(error)
    assert error.status == 400
    assert "invalid_function_parameters" in error.body_excerpt


def openai_error(message: str, kind: str = "invalid_request_error", **extra: Any) -> bytes:
    return orjson.dumps({"error": {"message": message, "type": kind, "code": None, **extra}})


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [({"retry-after": "7"}, 7.0), ({"Retry-After-Ms": "1500"}, 1.5), ({}, None)],
)
def test_rate_limit_keeps_retry_after(headers: dict[str, str], seconds: float | None) -> None:
    error = CODEC.error(429, headers, openai_error("Rate limit reached", "requests"))
    assert isinstance(error, RateLimited)
    assert error.transient
    assert error.retry_after == seconds


def test_rate_limit_with_http_date_keeps_the_header_for_the_transport() -> None:
    date = "Wed, 21 Oct 2026 07:28:00 GMT"
    error = CODEC.error(429, {"Retry-After": date}, openai_error("slow down", "requests"))
    assert isinstance(error, RateLimited)
    assert error.retry_after is None
    assert error.headers["Retry-After"] == date


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (400, openai_error("bad", param="response_format"), ResponseFormatRejected),
        (400, openai_error("Invalid schema for response_format 'x'"), ResponseFormatRejected),
        (422, openai_error("json_schema is not supported by this model"), ResponseFormatRejected),
        (400, openai_error("messages is empty", param="messages"), InvalidRequest),
        (404, openai_error("The model `gpt-9` does not exist"), InvalidRequest),
        (422, b'{"detail": "bad"}', InvalidRequest),
        (401, openai_error("Incorrect API key provided", "invalid_api_key"), AuthError),
        (403, openai_error("not allowed", "permission_error"), AuthError),
        (402, b'{"error": {"message": "Insufficient credits", "code": 402}}', AuthError),
        (408, b"", Timeout),
        (500, openai_error("The server had an error", "server_error"), ServerError),
        (502, b"<html>Bad Gateway</html>", ServerError),
        (503, b"", ServerError),
        (529, b"", Overloaded),
    ],
)
def test_status_and_body_map_to_the_error_tree(
    status: int, body: bytes, expected: type[Exception]
) -> None:
    error = CODEC.error(status, {}, body)
    assert type(error) is expected
    assert error.status == status
    assert error.provider == "openai"


def test_non_json_error_body_keeps_an_excerpt_in_the_message() -> None:
    error = CODEC.error(502, {}, b"<html>Bad Gateway</html>")
    assert "Bad Gateway" in str(error)


def test_error_event_mid_stream_is_typed() -> None:
    transcript = (
        b'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'
        b'data: {"error":{"message":"upstream overloaded","code":529}}\n\n'
    )
    with pytest.raises(Overloaded):
        decode("openai", transcript, stream=True)


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b"\n\n"])
def test_undecodable_body_is_invalid_response(body: bytes) -> None:
    with pytest.raises(InvalidResponse):
        decode("openai", body)


def test_undecodable_stream_event_is_invalid_response() -> None:
    with pytest.raises(InvalidResponse):
        decode("openai", b"data: {truncated\n\n", stream=True)


# -- decoding shapes the fixtures do not hold --------------------------------------------


def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
    event = {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}
    return b"data: " + orjson.dumps(event) + b"\n\n"


def test_streamed_tool_call_arguments_join_by_index() -> None:
    transcript = b"".join(
        [
            chunk({"role": "assistant", "content": None}),
            chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                                   "function": {"name": "respond_pulse", "arguments": ""}}]}),
            chunk({"tool_calls": [{"index": 1, "id": "call_b", "type": "function",
                                   "function": {"name": "lookup", "arguments": '{"q"'}}]}),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"level": '}}]}),
            chunk({"tool_calls": [{"index": 1, "function": {"arguments": ': "eth"}'}}]}),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": "3}"}}]}),
            chunk({}, "tool_calls"),
            chunk({}, usage=None),
            b"data: [DONE]\n\n",
        ]
    )  # fmt: skip
    response = decode("openai", transcript, stream=True, model="gpt-4o")
    assert response.tool_calls == (
        ToolCall("call_a", "respond_pulse", {"level": 3}),
        ToolCall("call_b", "lookup", {"q": "eth"}),
    )
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert response.content is None
    assert response.model == "gpt-4o"


def test_reasoning_tokens_are_not_output_tokens() -> None:
    body = {
        "model": "o3-2025-04-16",
        "choices": [{"index": 0, "message": {"content": "{}"}, "finish_reason": "length"}],
        "usage": {
            "prompt_tokens": 1000,
            "completion_tokens": 700,
            "prompt_tokens_details": {"cached_tokens": 400},
            "completion_tokens_details": {"reasoning_tokens": 640},
        },
    }
    response = decode("openai", orjson.dumps(body))
    assert response.usage.input_tokens == 1000
    assert response.usage.cached_input_tokens == 400
    assert response.usage.output_tokens == 60
    assert response.usage.reasoning_tokens == 640
    assert response.finish_reason is FinishReason.LENGTH
    # Hidden reasoning: tokens were spent, no text came back.
    assert response.reasoning.visibility is Visibility.OPAQUE
    assert response.reasoning.reasoning_tokens == 640
    # o3: $2 in, $0.50 cached, $8 out; reasoning priced as output.
    expected = (600 * 2.0 + 400 * 0.5 + 60 * 8.0 + 640 * 8.0) / 1e6
    assert response.cost_usd == pytest.approx(expected)
    assert response.reasoning.cost.usd == pytest.approx(640 * 8.0 / 1e6)


# -- encoding ----------------------------------------------------------------------------


def test_conformance_023_openai_wire_shape() -> None:
    schema = PERSON
    body = encode(ask(response_schema=schema, mode=Mode.SCHEMA_ENFORCED))
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "response", "schema": schema.schema, "strict": True},
    }
    assert body["response_format"]["json_schema"]["schema"] is schema.schema  # verbatim
    assert "response_format" not in encode(ask())


@pytest.mark.parametrize("mode", [Mode.PROMPT_GUIDED, Mode.TOOL_USE, Mode.NONE])
def test_no_response_format_outside_schema_enforced(mode: Mode) -> None:
    assert "response_format" not in encode(ask(response_schema=PERSON, mode=mode))


def test_non_strict_schema_is_sent_with_strict_false() -> None:
    loose = ResponseSchema("loose", {"type": "object", "properties": {"a": {"type": "string"}}})
    body = encode(ask(response_schema=loose, mode=Mode.SCHEMA_ENFORCED))
    assert body["response_format"]["json_schema"]["strict"] is False


@pytest.mark.parametrize(
    "name",
    ["chat-json-schema-strict", "chat-json-schema-strict-simple", "chat-json-schema-refusal"],
)
def test_response_format_matches_recorded_request(name: str) -> None:
    recorded = body_json(f"{name}.request.json")
    wire = recorded["response_format"]["json_schema"]
    schema = ResponseSchema(
        wire["name"], wire["schema"], strict=wire["strict"], description=wire.get("description", "")
    )
    messages = tuple(Message.user(m["content"]) for m in recorded["messages"])
    request = Request(messages=messages, response_schema=schema, mode=Mode.SCHEMA_ENFORCED)
    body = encode(request, recorded["model"])
    assert body["response_format"] == recorded["response_format"]
    assert body["messages"] == recorded["messages"]
    assert body["model"] == recorded["model"]


def test_stream_request_matches_recorded_request() -> None:
    recorded = body_json("chat-json-schema-strict-stream.request.json")
    wire = recorded["response_format"]["json_schema"]
    schema = ResponseSchema(wire["name"], wire["schema"], description=wire["description"])
    request = ask(
        recorded["messages"][0]["content"],
        response_schema=schema,
        mode=Mode.SCHEMA_ENFORCED,
        stream=True,
    )
    encoded = CODEC.encode(request, "gpt-4o")
    assert encoded.stream
    assert encoded.headers["accept"] == "text/event-stream"
    body = dict(encoded.body)
    for key in ("response_format", "stream", "stream_options", "messages", "model"):
        assert body[key] == recorded[key], key


def test_tool_use_mode_forces_the_respond_tool() -> None:
    tool = respond_tool(PERSON)
    body = encode(ask(mode=Mode.TOOL_USE, tools=(tool,), tool_choice=tool.name))
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "respond_response",
                "description": tool.description,
                "parameters": PERSON.schema,
                "strict": True,
            },
        }
    ]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "respond_response"}}


@pytest.mark.parametrize("choice", ["auto", "none", "required"])
def test_tool_choice_keywords_pass_through(choice: str) -> None:
    tool = Tool("lookup", "Look up a price.", {"type": "object", "properties": {}})
    body = encode(ask(tools=(tool,), tool_choice=choice))
    assert body["tool_choice"] == choice
    assert "strict" not in body["tools"][0]["function"]


def test_no_tools_means_no_tool_choice() -> None:
    body = encode(ask(tool_choice="auto"))
    assert "tools" not in body
    assert "tool_choice" not in body


def test_messages_with_tool_calls_and_results() -> None:
    call = ToolCall("call_1", "lookup", {"q": "eth"})
    messages = (
        Message.system("You watch ETH."),
        Message.user("Price?"),
        Message.assistant(None, (call,)),
        Message.tool("call_1", "3120.5"),
    )
    assert encode(Request(messages=messages))["messages"] == [
        {"role": "system", "content": "You watch ETH."},
        {"role": "user", "content": "Price?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"q":"eth"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "3120.5"},
    ]


def test_limits_and_sampling() -> None:
    body = encode(ask(max_tokens=300, temperature=0.2))
    assert body["max_completion_tokens"] == 300
    assert body["temperature"] == 0.2
    assert "max_tokens" not in body
    assert "stream" not in body
    assert "reasoning_effort" not in body  # gpt-4o does not reason


def test_reasoning_model_gets_an_effort_and_no_temperature() -> None:
    body = encode(ask(temperature=0.2, reasoning=ReasoningConfig.high()), "gpt-5-mini")
    assert body["reasoning_effort"] == "high"
    assert "temperature" not in body


@pytest.mark.parametrize(
    ("model", "depth", "effort"),
    [
        ("gpt-5", ReasoningDepth.NONE, "minimal"),  # gpt-5 cannot stop reasoning
        ("gpt-5", ReasoningDepth.MAX, "high"),
        ("gpt-5.1", ReasoningDepth.NONE, "none"),
        ("gpt-5.2", ReasoningDepth.MAX, "xhigh"),
        ("o3", ReasoningDepth.NONE, "low"),
        ("o4-mini", ReasoningDepth.MEDIUM, "medium"),
    ],
)
def test_effort_is_clamped_to_what_the_model_accepts(
    model: str, depth: ReasoningDepth, effort: str
) -> None:
    body = encode(ask(reasoning=ReasoningConfig(depth)), model)
    assert body["reasoning_effort"] == effort


def test_auth_header_carries_the_key_and_wire_headers_do_not() -> None:
    assert CODEC.auth_headers("sk-test") == {"authorization": "Bearer sk-test"}
    wire = CODEC.encode(ask(), "gpt-4o")
    assert "sk-test" not in orjson.dumps(dict(wire.headers)).decode()
    assert wire.method == "POST"
    assert wire.path == "/chat/completions"
    assert orjson.loads(wire.content()) == wire.body


def test_codec_class_is_the_openai_chat_family() -> None:
    assert isinstance(CODEC, OpenAIChatCodec)
