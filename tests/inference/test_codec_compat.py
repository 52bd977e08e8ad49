"""The OpenAI-compatible codec: DeepSeek, OpenRouter, Together, Groq, Ollama and GPUStack
recorded bodies, and each vendor's request dialect, all from profile data."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from golem.inference import (
    FinishReason,
    IncompleteStream,
    Message,
    Mode,
    RateLimited,
    ReasoningConfig,
    ReasoningDepth,
    Request,
    ResponseSchema,
    StructuredOutputConfig,
    Tool,
    ToolCall,
    Visibility,
    decode,
    resolve_structured_output,
)
from golem.inference.codecs.base import ProviderProfile
from golem.inference.codecs.openai_compat import OpenAICompatCodec
from golem.inference.providers import default_registry
from golem.inference.serialize import response_to_dict
from tests.fixtures import provider_fixture

REGISTRY = default_registry()
STRICT = ResponseSchema(
    "pulse",
    {
        "type": "object",
        "properties": {"level": {"type": "integer"}},
        "required": ["level"],
        "additionalProperties": False,
    },
)


def raw(path: str) -> Any:
    return orjson.loads(provider_fixture(path))


def message(path: str) -> Any:
    return raw(path)["choices"][0]["message"]


def encode(provider: str, model: str, **changes: Any) -> dict[str, Any]:
    request = Request(messages=(Message.user("Hi"),), **changes)
    return dict(REGISTRY.codec(provider).encode(request, model).body)


# -- DeepSeek ----------------------------------------------------------------------------


def test_deepseek_reasoning_content_body() -> None:
    path = "deepseek/reasoner-reasoning-content.json"
    response = decode("deepseek", provider_fixture(path))
    assert response.content == message(path)["content"]
    assert response.reasoning.content == message(path)["reasoning_content"]
    assert response.reasoning.visibility is Visibility.VISIBLE
    assert response.reasoning.reasoning_tokens == 6485
    assert response.usage.input_tokens == 48
    assert response.usage.output_tokens == 6609 - 6485
    assert response.model == "deepseek-reasoner"
    assert response.finish_reason is FinishReason.STOP
    # $0.28 in, $0.42 out (reasoning billed as output).
    assert response.cost_usd == pytest.approx((48 * 0.28 + 6609 * 0.42) / 1e6)
    assert response.reasoning.cost.billed_as_output


def test_deepseek_stream_reasoning_then_content() -> None:
    path = "deepseek/reasoner-reasoning-content-stream.sse"
    response = decode("deepseek", provider_fixture(path), stream=True)
    assert response.content == "Hello there! 😊 How can I help you today?"
    assert response.reasoning.content.startswith('Hmm, the user just said "Hello".')
    assert response.reasoning.content.endswith("and that's okay too.")
    assert response.usage.reasoning_tokens == 198
    assert response.usage.output_tokens == 212 - 198
    assert len(response.reasoning.steps) == 1
    assert not response.reasoning.interleaved


def test_deepseek_reasoner_gets_prompt_guidance_and_no_response_format() -> None:
    caps = REGISTRY.profile("deepseek").capabilities_for("deepseek-reasoner")
    resolution = resolve_structured_output(STRICT, caps, StructuredOutputConfig())
    assert resolution.mode is Mode.PROMPT_GUIDED
    body = encode("deepseek", "deepseek-reasoner", response_schema=STRICT, mode=resolution.mode)
    assert "response_format" not in body
    assert "reasoning_effort" not in body  # the model name decides; no knob to send


def test_deepseek_chat_uses_the_tool_and_max_tokens() -> None:
    caps = REGISTRY.profile("deepseek").capabilities_for("deepseek-chat")
    assert resolve_structured_output(STRICT, caps, StructuredOutputConfig()).mode is Mode.TOOL_USE
    assert encode("deepseek", "deepseek-chat", max_tokens=200)["max_tokens"] == 200


def test_deepseek_cache_hits_count_as_cached_input() -> None:
    body = {
        "model": "deepseek-chat",
        "choices": [{"index": 0, "message": {"content": "ok"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 90, "completion_tokens": 3, "prompt_cache_hit_tokens": 64},
    }
    assert decode("deepseek", orjson.dumps(body)).usage.cached_input_tokens == 64


# -- OpenRouter --------------------------------------------------------------------------


def test_openrouter_reasoning_details_with_signature_and_tool_call() -> None:
    path = "openrouter/chat-reasoning-details-tool-call.json"
    detail = message(path)["reasoning_details"][0]
    response = decode("openrouter", provider_fixture(path))
    assert response.tool_calls == (
        ToolCall("toolu_bdrk_01ADw53o3uvrGvccVaVYUX4G", "reasoning_weather", {"city": "Berlin"}),
    )
    assert response.finish_reason is FinishReason.TOOL_CALLS
    assert response.content is None
    # reasoning and reasoning_details carry the same text: it is kept once, signed.
    assert response.reasoning.content == detail["text"] == message(path)["reasoning"]
    assert [s.signature for s in response.reasoning.steps] == [detail["signature"]]
    # The entry's other fields stay with its step, to send it back as it came.
    assert [s.detail for s in response.reasoning.steps] == [
        {"type": "reasoning.text", "format": "anthropic-claude-v1", "index": 0}
    ]
    assert response.usage.reasoning_tokens == 61
    assert response.usage.output_tokens == 113 - 61
    # anthropic/claude-haiku-4.5 is priced as Anthropic's claude-haiku-4-5: $1 in, $5 out.
    assert response.cost_usd == pytest.approx((626 * 1.0 + 113 * 5.0) / 1e6)


def test_openrouter_stream_joins_reasoning_details_and_the_late_signature() -> None:
    path = "openrouter/chat-reasoning-details-stream.sse"
    response = decode("openrouter", provider_fixture(path), stream=True)
    (step,) = response.reasoning.steps
    assert step.text.startswith("The user is asking for the weather in Berlin")
    assert step.text.endswith("Let me call the function with this parameter.")
    assert step.signature is not None
    assert step.signature.startswith("EvsCCkgIEBABGAIqQNe")
    assert step.detail == {"type": "reasoning.text", "format": "anthropic-claude-v1", "index": 0}
    assert response.tool_calls == (
        ToolCall("toolu_bdrk_01L9pX1Wp4FAEq9TT2Z6UAe7", "reasoning_weather", {"city": "Berlin"}),
    )
    assert response.usage.input_tokens == 626
    assert response.usage.reasoning_tokens == 54
    assert response.usage.output_tokens == 106 - 54


def test_openrouter_stream_detail_fields_that_come_late_are_kept() -> None:
    """Each piece of an entry repeats its fields; an id or signature that is null at first
    and given later is kept, and one given is not lost to a later null."""
    pieces = [
        {"type": "reasoning.text", "text": "Check ", "signature": None, "id": None, "index": 0},
        {"type": "reasoning.text", "text": "it.", "signature": None, "id": "rt-1", "index": 0},
        {"type": "reasoning.text", "signature": "c2ln", "id": None, "index": 0},
    ]
    chunks = [{"choices": [{"delta": {"reasoning_details": [piece]}}]} for piece in pieces]
    chunks.append({"choices": [{"delta": {"content": "ok"}, "finish_reason": "stop"}]})
    sse = b"".join(b"data: " + orjson.dumps(c) + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
    response = decode("openrouter", sse, stream=True)
    (step,) = response.reasoning.steps
    assert (step.text, step.signature) == ("Check it.", "c2ln")
    assert step.detail == {"type": "reasoning.text", "signature": None, "id": "rt-1", "index": 0}
    # `golem wire decode` shows them.
    (shown,) = response_to_dict(response)["reasoning"]["steps"]
    assert shown["detail"] == step.detail


def test_openrouter_leading_blank_lines_and_effort_body() -> None:
    path = "openrouter/chat-reasoning-effort.json"
    assert provider_fixture(path).startswith(b"\n")
    response = decode("openrouter", provider_fixture(path))
    assert response.content == message(path)["content"]
    assert response.reasoning.content == message(path)["reasoning"]
    assert response.model == "anthropic/claude-4.5-haiku-20251001"
    assert response.usage.reasoning_tokens == 586


def test_openrouter_reasoning_without_tokens_is_still_visible() -> None:
    path = "openrouter/chat-reasoning-glm.json"
    response = decode("openrouter", provider_fixture(path))
    assert response.reasoning.content == message(path)["reasoning"]
    assert response.reasoning.visibility is Visibility.VISIBLE
    assert response.usage.reasoning_tokens == 0
    assert response.usage.output_tokens == 2801
    assert response.cost_usd == 0.0  # z-ai/glm-4.6 is not in the price table


def test_openrouter_upstream_rate_limit_is_transient() -> None:
    body = provider_fixture("openrouter/error-429-upstream-rate-limited.json")
    for status in (429, 200):  # as served, and as a 200 body holding an error object
        with pytest.raises(RateLimited) as caught:
            decode("openrouter", body, status=status)
        assert caught.value.status == 429
        assert "temporarily rate-limited upstream" in str(caught.value)


def test_openrouter_summary_and_encrypted_details() -> None:
    details = [
        {"type": "reasoning.summary", "summary": "Checked the price.", "index": 0},
        {"type": "reasoning.encrypted", "data": "gAAAA...", "index": 1},
    ]
    body = {
        "model": "openai/o3",
        "choices": [
            {"message": {"content": "ok", "reasoning_details": details}, "finish_reason": "stop"}
        ],
    }
    response = decode("openrouter", orjson.dumps(body))
    first, second = response.reasoning.steps
    assert (first.visibility, first.text) == (Visibility.SUMMARIZED, "Checked the price.")
    assert (second.visibility, second.redacted_data) == (Visibility.OPAQUE, "gAAAA...")
    assert [first.detail, second.detail] == [
        {"type": "reasoning.summary", "index": 0},
        {"type": "reasoning.encrypted", "index": 1},
    ]
    assert response.reasoning.visibility is Visibility.SUMMARIZED


def test_openrouter_reasoning_parameter_matches_recorded_request() -> None:
    recorded = raw("openrouter/chat-reasoning-effort.request.json")
    body = encode(
        "openrouter", recorded["model"], reasoning=ReasoningConfig(ReasoningDepth.MEDIUM, True)
    )
    assert body["reasoning"] == recorded["reasoning"] == {"effort": "medium"}
    hidden = encode("openrouter", recorded["model"], reasoning=ReasoningConfig.low())
    assert hidden["reasoning"] == {"effort": "low", "exclude": True}
    off = encode("openrouter", recorded["model"], reasoning=ReasoningConfig.none())
    assert off["reasoning"] == {"enabled": False}


def test_openrouter_tools_match_recorded_request() -> None:
    recorded = raw("openrouter/chat-reasoning-details-stream.request.json")
    function = recorded["tools"][0]["function"]
    tool = Tool(function["name"], function["description"], function["parameters"])
    body = encode("openrouter", recorded["model"], tools=(tool,), stream=True, tool_choice=None)
    assert body["tools"] == recorded["tools"]
    assert body["stream_options"] == recorded["stream_options"]
    assert body["stream"] is True


def test_openrouter_anthropic_models_keep_anthropic_capabilities() -> None:
    caps = REGISTRY.profile("openrouter").capabilities_for("anthropic/claude-haiku-4.5")
    assert caps == REGISTRY.profile("anthropic").capabilities_for("claude-haiku-4-5")
    assert not caps.forced_tool_with_thinking


# -- inline <think> and reasoning fields ------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "path"),
    [
        ("together", "together/deepseek-r1-inline-think.json"),
        ("groq", "groq/qwen3-32b-inline-think.json"),
        ("groq", "groq/r1-distill-raw-inline-think.json"),
    ],
)
def test_inline_think_is_split_out_of_the_content(provider: str, path: str) -> None:
    text = message(path)["content"]
    before, _, rest = text.partition("<think>")
    thought, _, answer = rest.partition("</think>")
    response = decode(provider, provider_fixture(path))
    assert before == ""
    assert response.reasoning.content == thought
    assert response.content == answer
    assert "<think>" not in (response.content or "")
    assert response.reasoning.visibility is Visibility.VISIBLE
    usage = raw(path)["usage"]
    assert response.usage.input_tokens == usage["prompt_tokens"]
    assert response.usage.output_tokens == usage["completion_tokens"]  # no split reported


def test_groq_qwen_answer() -> None:
    response = decode("groq", provider_fixture("groq/qwen3-32b-inline-think.json"))
    assert response.content == "\n\n4"
    assert response.model == "qwen/qwen3-32b"


def test_together_stream_think_tag_arrives_as_its_own_delta() -> None:
    path = "together/deepseek-r1-inline-think-stream.sse"
    response = decode("together", provider_fixture(path), stream=True)
    assert response.reasoning.content.startswith('\nOkay, the user asked "How do I cross')
    assert response.content is not None
    assert response.content.startswith("\nCrossing the street safely requires attention")
    assert "think>" not in response.content
    assert response.usage.input_tokens == 10
    assert response.usage.output_tokens == 955


@pytest.mark.parametrize(
    ("provider", "path", "field"),
    [
        ("ollama", "ollama/qwen3-reasoning-field.json", "reasoning"),
        ("gpustack", "gpustack/qwen3-reasoning-content.json", "reasoning_content"),
    ],
)
def test_reasoning_field(provider: str, path: str, field: str) -> None:
    response = decode(provider, provider_fixture(path))
    assert response.content == message(path)["content"]
    assert response.reasoning.content == message(path)[field]
    assert response.reasoning.visibility is Visibility.VISIBLE


def test_gpustack_reasoning_tokens() -> None:
    response = decode("gpustack", provider_fixture("gpustack/qwen3-reasoning-content.json"))
    assert response.content == "\n\n5 + 3 = 8."
    assert response.usage.reasoning_tokens == 220
    assert response.usage.output_tokens == 11
    assert response.cost_usd == 0.0  # a local server: no price


def test_think_tags_split_across_stream_deltas() -> None:
    deltas = ["<th", "ink>I sh", "ould say hi.</thi", "nk>\n\nHi", "!"]
    transcript = b"".join(
        b"data: " + orjson.dumps({"choices": [{"delta": {"content": d}}]}) + b"\n\n" for d in deltas
    )
    response = decode("ollama", transcript + b"data: [DONE]\n\n", stream=True)
    assert response.reasoning.content == "I should say hi."
    assert response.content == "\n\nHi!"


def test_stream_cut_inside_a_think_block_keeps_the_reasoning() -> None:
    transcript = b'data: {"choices":[{"delta":{"content":"<think>still thinking"}}]}\n\n'
    with pytest.raises(IncompleteStream) as raised:
        decode("groq", transcript, stream=True)
    response = raised.value.partial
    assert response is not None
    assert response.reasoning.content == "still thinking"
    assert response.content is None


def test_reasoning_with_no_opening_tag_when_the_profile_says_so() -> None:
    profile = ProviderProfile(
        "r1-server", "openai-compatible", quirks={"think_tags": True, "think_starts_open": True}
    )
    codec = OpenAICompatCodec(profile)
    body = b'{"choices":[{"message":{"content":"plan</think>answer"}}]}'
    response = codec.decode(200, {}, body)
    assert (response.reasoning.content, response.content) == ("plan", "answer")


# -- request dialects --------------------------------------------------------------------


def test_qwen_thinking_parameters() -> None:
    on = encode("qwen", "qwen-plus", reasoning=ReasoningConfig.medium())
    assert on["enable_thinking"] is True
    assert on["thinking_budget"] == ReasoningDepth.MEDIUM.budget_tokens()
    off = encode("qwen", "qwen-plus", reasoning=ReasoningConfig.none())
    assert off["enable_thinking"] is False
    assert "thinking_budget" not in off
    assert "enable_thinking" not in encode("qwen", "qwen-max")  # does not reason


def test_venice_response_format_only_for_flagged_models_and_strict() -> None:
    venice = REGISTRY.profile("venice")
    config = StructuredOutputConfig()
    flagged = resolve_structured_output(STRICT, venice.capabilities_for("qwen3-235b"), config)
    assert flagged.mode is Mode.SCHEMA_ENFORCED
    other = resolve_structured_output(STRICT, venice.capabilities_for("venice-uncensored"), config)
    assert other.mode is Mode.TOOL_USE
    loose = ResponseSchema("loose", {"type": "object", "properties": {"a": {"type": "string"}}})
    downgraded = resolve_structured_output(loose, venice.capabilities_for("qwen3-235b"), config)
    assert downgraded.mode is not Mode.SCHEMA_ENFORCED
    body = encode("venice", "qwen3-235b", response_schema=STRICT, mode=Mode.SCHEMA_ENFORCED)
    assert body["response_format"]["json_schema"]["strict"] is True
    assert body["venice_parameters"] == {"include_venice_system_prompt": False}


def test_bankr_models_take_their_makers_capabilities_and_prices() -> None:
    bankr = REGISTRY.profile("bankr")
    assert bankr.capabilities_for("gpt-5-mini") == REGISTRY.profile("openai").capabilities_for(
        "gpt-5-mini"
    )
    claude = bankr.capabilities_for("claude-sonnet-4.5")
    assert not claude.forced_tool_with_thinking  # Anthropic's rule travels with the model
    assert REGISTRY.price_for("bankr", "claude-haiku-4.5") == REGISTRY.price_for(
        "anthropic", "claude-haiku-4-5"
    )
    assert REGISTRY.price_for("bankr", "gemini-2.5-flash") == REGISTRY.price_for(
        "gemini", "gemini-2.5-flash"
    )
    assert encode("bankr", "gpt-5-mini", reasoning=ReasoningConfig.low())["reasoning_effort"] == (
        "low"
    )


def test_generic_server_body_has_no_vendor_extras() -> None:
    body = encode("openai-compatible", "qwen3:8b", max_tokens=64, stream=True)
    assert body == {
        "model": "qwen3:8b",
        "messages": [{"role": "user", "content": "Hi"}],
        "max_tokens": 64,
        "stream": True,
        "stream_options": {"include_usage": True},
    }


def test_unknown_reasoning_param_style_is_refused() -> None:
    profile = ProviderProfile("odd", "openai-compatible", quirks={"reasoning_param": "magic"})
    with pytest.raises(ValueError, match="reasoning_param"):
        OpenAICompatCodec(profile)


@pytest.mark.parametrize(
    ("provider", "path"),
    [
        ("deepseek", "deepseek/reasoner-reasoning-content-stream.request.json"),
        ("openrouter", "openrouter/chat-reasoning-glm.request.json"),
        ("openrouter", "openrouter/error-429-upstream-rate-limited.request.json"),
        ("ollama", "ollama/qwen3-reasoning-field.request.json"),
        ("gpustack", "gpustack/qwen3-reasoning-content.request.json"),
        ("together", "together/deepseek-r1-inline-think-stream.request.json"),
    ],
)
def test_plain_requests_match_recorded_requests(provider: str, path: str) -> None:
    recorded = raw(path)
    roles = {"system": Message.system, "user": Message.user}
    messages = tuple(roles[m["role"]](m["content"]) for m in recorded["messages"])
    request = Request(messages=messages, stream=recorded["stream"])
    body = dict(REGISTRY.codec(provider).encode(request, recorded["model"]).body)
    assert body["model"] == recorded["model"]
    assert body["messages"] == [
        {"role": m["role"], "content": m["content"]} for m in recorded["messages"]
    ]
    assert body.get("stream", False) == recorded["stream"]
    assert body.get("stream_options") == recorded.get("stream_options", body.get("stream_options"))
    # Depth NONE is said out loud where the vendor has a switch: reasoning costs money.
    if provider == "openrouter":
        assert body.pop("reasoning") == {"enabled": False}
    # Nothing else the recorded client did not send: no vendor extras, no response_format.
    assert set(body) <= {"model", "messages", "stream", "stream_options"}
