import json
import re
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
from golem.inference.codecs.gemini import PROFILE, GeminiCodec
from golem.inference.errors import (
    AuthError,
    InvalidRequest,
    RateLimited,
    Refusal,
    ResponseFormatRejected,
    ServerError,
)
from golem.inference.sse import iter_sse
from tests.fixtures import provider_fixture
from tests.inference.stream_splits import (
    check_every_offset,
    check_one_byte_at_a_time,
    check_random_chunkings,
    decode_chunks,
)

CODEC = GeminiCodec(PROFILE)
STREAM = "gemini/generate-content-thinking-stream.sse"


def fixture_json(name: str) -> Any:
    return json.loads(provider_fixture(f"gemini/{name}"))


def decode(name: str) -> Response:
    return CODEC.decode(200, {}, provider_fixture(f"gemini/{name}"))


def parts(body: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = body["candidates"][0]["content"]["parts"]
    return result


# -- decoding --------------------------------------------------------------------------


def test_response_schema_body() -> None:
    body = fixture_json("generate-content-response-schema.json")
    response = decode("generate-content-response-schema.json")
    assert response.content == parts(body)[0]["text"]
    assert json.loads(response.content or "")["author"]["last_name"] == "Rothfuss"
    assert response.finish_reason is FinishReason.STOP
    assert response.model == "gemini-2.5-flash"
    # Thoughts were not included: the chain is opaque, known only by its token count,
    # which is not part of candidatesTokenCount.
    assert response.usage.input_tokens == 11
    assert response.usage.output_tokens == 29
    assert response.usage.reasoning_tokens == 227
    assert response.reasoning.visibility is Visibility.OPAQUE
    assert response.reasoning.reasoning_tokens == 227
    assert response.reasoning.steps == ()
    assert not response.reasoning.cost.billed_as_output


def test_thought_parts_body() -> None:
    body = fixture_json("generate-content-thinking.json")
    thought, answer = parts(body)
    response = decode("generate-content-thinking.json")
    assert response.content == answer["text"]
    assert response.content is not None
    assert response.content.endswith("\n\n3")
    chain = response.reasoning
    assert chain.visibility is Visibility.VISIBLE
    assert chain.content == thought["text"]
    assert chain.reasoning_tokens == response.usage.reasoning_tokens == 1754
    assert response.usage.output_tokens == 136
    assert response.usage.input_tokens == 30
    assert not chain.interleaved


def test_gemini3_thought_signature_kept_with_the_thought() -> None:
    body = fixture_json("generate-content-thinking-gemini3-signature.json")
    thought, answer = parts(body)
    response = decode("generate-content-thinking-gemini3-signature.json")
    assert response.content == answer["text"]
    (step,) = response.reasoning.steps
    assert step.text == thought["text"]
    assert step.signature == answer["thoughtSignature"]
    assert not response.reasoning.interleaved
    assert response.usage.output_tokens == 551
    assert response.usage.reasoning_tokens == 1116
    assert response.model == "gemini-3-flash-preview"


def test_stream_crlf_thought_chunks_join_into_one_step() -> None:
    body = provider_fixture(STREAM)
    chunks = [json.loads(e.data) for e in iter_sse(body)]
    thoughts = [p["text"] for c in chunks for p in parts(c) if p.get("thought")]
    assert len(thoughts) == 4
    response = decode_chunks(CODEC, [body])
    assert response.content == "3"
    (step,) = response.reasoning.steps
    assert step.visibility is Visibility.VISIBLE
    assert step.text == "".join(thoughts)
    assert step.text.startswith("**Analyzing Prime Substrings**")
    # usageMetadata repeats running totals; the last chunk's are the answer's.
    assert response.usage.reasoning_tokens == 1947
    assert response.usage.input_tokens == 30
    assert response.usage.output_tokens == 0  # the last chunk reports no candidatesTokenCount
    assert response.finish_reason is FinishReason.STOP


def test_stream_every_offset() -> None:
    check_every_offset(CODEC, provider_fixture(STREAM))


def test_stream_one_byte_at_a_time() -> None:
    check_one_byte_at_a_time(CODEC, provider_fixture(STREAM))


def test_stream_random_chunkings() -> None:
    check_random_chunkings(CODEC, provider_fixture(STREAM), seed=STREAM)


def test_function_calls_and_signature_without_thoughts() -> None:
    body = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"functionCall": {"name": "a", "args": {"x": 1}}, "thoughtSignature": "S"},
                        {"functionCall": {"name": "b", "args": {}}},
                    ],
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 5,
            "candidatesTokenCount": 7,
            "thoughtsTokenCount": 3,
        },
    }
    response = CODEC.decode(200, {}, json.dumps(body).encode())
    assert [(c.name, c.arguments) for c in response.tool_calls] == [("a", {"x": 1}), ("b", {})]
    assert len({c.id for c in response.tool_calls}) == 2
    assert response.finish_reason is FinishReason.TOOL_CALLS
    (step,) = response.reasoning.steps
    assert step.visibility is Visibility.OPAQUE
    assert step.signature == "S"
    assert response.reasoning.reasoning_tokens == 3


@pytest.mark.parametrize(
    ("reason", "finish"),
    [("MAX_TOKENS", FinishReason.LENGTH), ("SAFETY", FinishReason.CONTENT_FILTER)],
)
def test_finish_reasons(reason: str, finish: FinishReason) -> None:
    body = fixture_json("generate-content-thinking.json")
    body["candidates"][0]["finishReason"] = reason
    assert CODEC.decode(200, {}, json.dumps(body).encode()).finish_reason is finish


def test_blocked_prompt_is_a_refusal() -> None:
    body = {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 9}}
    with pytest.raises(Refusal) as info:
        CODEC.decode(200, {}, json.dumps(body).encode())
    assert "SAFETY" in info.value.refusal


# -- errors ----------------------------------------------------------------------------


def test_resource_exhausted_uses_retry_info_delay() -> None:
    body = provider_fixture("gemini/error-429-resource-exhausted.json")
    error = CODEC.error(429, {}, body)
    assert isinstance(error, RateLimited)
    assert error.retry_after == 48.0  # RetryInfo.retryDelay "48s"
    assert error.status == 429
    assert "RESOURCE_EXHAUSTED" in str(error)
    assert "generate_content_paid_tier_input_token_count" in error.body_excerpt


def test_resource_exhausted_without_retry_info_reads_the_header() -> None:
    body = b'{"error": {"code": 429, "message": "slow", "status": "RESOURCE_EXHAUSTED"}}'
    error = CODEC.error(429, {"retry-after": "5"}, body)
    assert isinstance(error, RateLimited)
    assert error.retry_after == 5.0


@pytest.mark.parametrize(
    ("status", "kind", "expected"),
    [
        (400, "INVALID_ARGUMENT", InvalidRequest),
        (403, "PERMISSION_DENIED", AuthError),
        (500, "INTERNAL", ServerError),
        (503, "UNAVAILABLE", ServerError),
    ],
)
def test_error_statuses(status: int, kind: str, expected: type[Exception]) -> None:
    body = json.dumps({"error": {"code": status, "message": "m", "status": kind}}).encode()
    assert type(CODEC.error(status, {}, body)) is expected


def test_schema_rejection_is_response_format_rejected() -> None:
    message = (
        "Invalid JSON payload received. Unknown name \"responseJsonSchema\" at 'generation_config'"
    )
    body = json.dumps({"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}})
    assert isinstance(CODEC.error(400, {}, body.encode()), ResponseFormatRejected)


def test_error_inside_a_stream_is_typed() -> None:
    body = (
        b'data: {"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}\r\n\r\n'
    )
    with pytest.raises(ServerError):
        decode_chunks(CODEC, [body])


# -- encoding --------------------------------------------------------------------------


def _camel(key: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), key)


def test_response_schema_request() -> None:
    recorded = fixture_json("generate-content-response-schema.request.json")
    schema = ResponseSchema(
        "book",
        {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "author": {
                    "type": "object",
                    "properties": {
                        "first_name": {"type": "string"},
                        "last_name": {"type": "string"},
                    },
                    "required": ["first_name", "last_name"],
                },
                "rating": {"type": "integer"},
            },
            "required": ["title", "author", "rating"],
        },
    )
    request = Request(
        messages=(Message.user(recorded["contents"][0]["parts"][0]["text"]),),
        mode=Mode.SCHEMA_ENFORCED,
        response_schema=schema,
    )
    wire = CODEC.encode(request, "gemini-2.5-flash")
    assert wire.path == "models/gemini-2.5-flash:generateContent"
    config = wire.body["generationConfig"]
    assert config["responseMimeType"] == recorded["generationConfig"]["responseMimeType"]
    # The JSON Schema goes verbatim in responseJsonSchema (the recorded call used the older
    # OpenAPI-typed responseSchema); both constrain the same fields.
    assert config["responseJsonSchema"] == schema.schema
    old = recorded["generationConfig"]["responseSchema"]
    assert config["responseJsonSchema"]["required"] == old["required"]
    assert set(config["responseJsonSchema"]["properties"]) == set(old["properties"])
    assert wire.body["contents"] == recorded["contents"]


@pytest.mark.parametrize(
    "name",
    ["generate-content-thinking.request.json", "generate-content-thinking-stream.request.json"],
)
def test_thinking_budget_request(name: str) -> None:
    recorded = fixture_json(name)
    stream = "stream" in name
    request = Request(
        messages=(Message.user(recorded["contents"][0]["parts"][0]["text"]),),
        reasoning=ReasoningConfig(ReasoningDepth.MEDIUM, visible=True),
        stream=stream,
    )
    wire = CODEC.encode(request, "gemini-2.5-flash")
    expected = {_camel(k) for k in recorded["generationConfig"]["thinkingConfig"]}
    thinking = wire.body["generationConfig"]["thinkingConfig"]
    assert set(thinking) == expected == {"includeThoughts", "thinkingBudget"}
    assert thinking["includeThoughts"] is True
    assert thinking["thinkingBudget"] == ReasoningDepth.MEDIUM.gemini_thinking_budget()
    assert wire.body["contents"] == recorded["contents"]
    if stream:
        assert wire.path == "models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        assert wire.stream


def test_gemini3_thinking_level_request() -> None:
    recorded = fixture_json("generate-content-thinking-gemini3-signature.request.json")
    request = Request(
        messages=(Message.user(recorded["contents"][0]["parts"][0]["text"]),),
        reasoning=ReasoningConfig(ReasoningDepth.LOW, visible=True),
    )
    assert dict(CODEC.encode(request, "gemini-3-flash-preview").body) == recorded


def test_multi_turn_contents_match_recorded_request() -> None:
    recorded = fixture_json("error-429-resource-exhausted.request.json")
    messages = tuple(
        Message.user(c["parts"][0]["text"])
        if c["role"] == "user"
        else Message.assistant(c["parts"][0]["text"])
        for c in recorded["contents"]
    )
    body = CODEC.encode(Request(messages=messages), "gemini-2.5-flash").body
    assert body["contents"] == recorded["contents"]
    # Reasoning depth NONE turns 2.5 Flash's thinking off; 2.5 Pro cannot, so it gets its floor.
    assert body["generationConfig"] == {"thinkingConfig": {"thinkingBudget": 0}}
    pro = CODEC.encode(Request(messages=messages), "gemini-2.5-pro").body
    assert pro["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 128}


def test_tools_system_and_function_round_trip() -> None:
    call = ToolCall("call_0", "get_temperature", {"city": "Utrecht"})
    tool = Tool("get_temperature", "Temperature of a city", {"type": "object"})
    request = Request(
        messages=(
            Message.system("Be brief."),
            Message.user("How warm is Utrecht?"),
            Message.assistant(None, (call,)),
            Message.tool("call_0", '{"celsius": 21}'),
            Message.tool("call_0", "sunny"),
        ),
        tools=(tool,),
        tool_choice="get_temperature",
        max_tokens=300,
        temperature=0.2,
    )
    body = CODEC.encode(request, "gemini-2.5-flash-lite").body
    assert body["systemInstruction"] == {"parts": [{"text": "Be brief."}]}
    assert body["contents"] == [
        {"role": "user", "parts": [{"text": "How warm is Utrecht?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": call.name, "args": call.arguments}}]},
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": call.name, "response": {"celsius": 21}}},
                {"functionResponse": {"name": call.name, "response": {"result": "sunny"}}},
            ],
        },
    ]
    assert body["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": tool.name,
                    "description": tool.description,
                    "parametersJsonSchema": tool.parameters,
                }
            ]
        }
    ]
    assert body["toolConfig"] == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_temperature"]}
    }
    assert body["generationConfig"]["maxOutputTokens"] == 300
    assert body["generationConfig"]["temperature"] == 0.2


def test_key_goes_in_a_header_never_the_url() -> None:
    wire = CODEC.encode(Request(messages=(Message.user("hi"),)), "gemini-2.5-flash")
    assert CODEC.auth_headers("AIza-secret") == {"x-goog-api-key": "AIza-secret"}
    assert "key=" not in wire.path


def test_signature_on_a_late_empty_part_stays_with_the_thought() -> None:
    def chunk(*parts: dict[str, Any], **finish: str) -> bytes:
        body = {"candidates": [{"content": {"role": "model", "parts": list(parts)}, **finish}]}
        return b"data: " + json.dumps(body).encode() + b"\r\n\r\n"

    transcript = (
        chunk({"text": "plan", "thought": True})
        + chunk({"text": "The answer"})
        + chunk({"text": " is 3."})
        + chunk({"text": "", "thoughtSignature": "SIG"}, finishReason="STOP")
    )
    response = decode_chunks(CODEC, [transcript])
    assert response.content == "The answer is 3."
    (step,) = response.reasoning.steps
    assert (step.text, step.signature) == ("plan", "SIG")
    assert not response.reasoning.interleaved
    check_random_chunkings(CODEC, transcript, seed="late-signature", rounds=50)
