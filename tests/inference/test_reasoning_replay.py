"""The other direction: when the structured loop re-asks, the assistant turn it sends
back carries the reasoning the provider requires, in the shape its documentation gives.

Each test answers the first call with a recorded body (the respond tool renamed where the
re-ask needs golem's own tool; signatures and thinking are left byte for byte), runs the
real re-ask path through HTTPProvider and the real codec, and reads the second request's
body off the mock transport.

- Anthropic (extended thinking with tool use): the thinking / redacted_thinking blocks of
  the last assistant turn go back unmodified, signature included, before its text and
  tool_use blocks.
- Gemini (thought signatures): each signature goes back on the part it came with.
- DeepSeek (thinking mode): a turn with tool calls gets its `reasoning_content` back
  beside them, as received (else their API answers 400); a turn without tool calls never
  does (deepseek-reasoner answered 400 to it).
- OpenAI Responses: the turn's reasoning items go back before its message and
  function_call items, each with its summary texts and its encrypted_content (a stream's
  from `response.output_item.done`), and without its id (see the codec's
  `_reasoning_items`): an item with no encrypted_content is not sent.
- OpenRouter ("Preserving reasoning blocks"): the turn's `reasoning_details` go back on
  its assistant message unchanged and in their order (a stream's pieces joined), while
  reasoning is on; plain reasoning text never does.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import httpx
import orjson
import pytest
import trio

from golem.inference import (
    HTTPProvider,
    Message,
    ReasoningConfig,
    ReasoningDepth,
    Request,
    SchemaIssue,
    StructuredOutput,
    StructuredOutputInvalid,
    run_structured,
)
from golem.inference.codecs.openai_responses import PROFILE, OpenAIResponsesCodec
from golem.inference.providers import codec_for, profile
from golem.inference.sse import iter_sse
from tests.fixtures import CONFORMANCE, PROVIDERS
from tests.inference.transport_support import Script

ENV = {
    "ANTHROPIC_API_KEY": "sk-ant-test-SECRET456",
    "GEMINI_API_KEY": "gm-test-SECRET789",
    "DEEPSEEK_API_KEY": "sk-test-SECRET123",
    "OPENAI_API_KEY": "sk-test-SECRET321",
    "OPENROUTER_API_KEY": "sk-or-test-SECRET654",
    "GPUSTACK_API_KEY": "gs-test-SECRET987",
}
JSON = {"content-type": "application/json"}
SSE = {"content-type": "text/event-stream"}
THINKING = ReasoningConfig(ReasoningDepth.LOW)


class Temperature(StructuredOutput):
    """Invalid for the recorded answer's city, so that answer is re-asked."""

    schema_name = "test_replay_temperature"
    city: str

    def validate_content(self) -> list[SchemaIssue]:
        return [SchemaIssue("city", "name the country too")] if self.city == "Utrecht" else []


class Weather(StructuredOutput):
    """Invalid for the recorded answer's latitude, so that answer is re-asked."""

    schema_name = "test_replay_weather"
    latitude: str
    longitude: str

    def validate_content(self) -> list[SchemaIssue]:
        if self.latitude == "52.5200":
            return [SchemaIssue("latitude", "round it to two decimals")]
        return []


class Forecast(StructuredOutput):
    """Invalid for the recorded answer's city, so that answer is re-asked."""

    schema_name = "test_replay_forecast"
    city: str

    def validate_content(self) -> list[SchemaIssue]:
        return [SchemaIssue("city", "name the country too")] if self.city == "Berlin" else []


class Capital(StructuredOutput):
    """Invalid for the recorded answer's country, so that answer is re-asked."""

    schema_name = "test_replay_capital"
    country: str

    def validate_content(self) -> list[SchemaIssue]:
        return [SchemaIssue("country", "no such country")] if self.country == "PotatoLand" else []


class Capability(StructuredOutput):
    """Invalid for the recorded answer's id, so that answer is re-asked."""

    schema_name = "test_replay_capability"
    id: str

    def validate_content(self) -> list[SchemaIssue]:
        return [SchemaIssue("id", "no such capability")] if self.id == "DICE_ROLL" else []


class Verdict(StructuredOutput):
    """The recorded answers are prose, not this object: each is re-asked."""

    schema_name = "test_replay_verdict"
    answer: str


def provider(name: str, model: str, script: Script) -> HTTPProvider:
    transport = httpx.MockTransport(script)
    return HTTPProvider.named(name, model, transport=transport, environ=ENV, jitter=random.random)


async def second_request(
    name: str,
    model: str,
    answer: httpx.Response,
    decision: type[StructuredOutput],
    request: Request,
) -> dict[str, object]:
    """The body of the re-ask that follows `answer` (answered the same way again)."""
    script = Script([answer])
    with trio.fail_after(5), pytest.raises(StructuredOutputInvalid):
        await run_structured(provider(name, model, script), request, decision, max_attempts=2)
    assert len(script.requests) == 2
    body: dict[str, object] = orjson.loads(script.requests[1].content)
    return body


def recorded_thinking(sse: bytes) -> tuple[str, str]:
    """(the thinking text, its signature) as the recorded stream's deltas spell them."""
    text, signature = [], []
    for event in iter_sse(sse):
        data = orjson.loads(event.data) if event.data.startswith("{") else {}
        delta = data.get("delta") or {}
        if delta.get("type") == "thinking_delta":
            text.append(delta["thinking"])
        elif delta.get("type") == "signature_delta":
            signature.append(delta["signature"])
    return "".join(text), "".join(signature)


@PROVIDERS.needed
async def test_anthropic_thinking_goes_back_signed_before_the_tool_use() -> None:
    sse = PROVIDERS.read("anthropic/messages-stream-thinking-tool-use.sse")
    sse = sse.replace(b'"name":"get_temperature"', b'"name":"respond_test_replay_temperature"')
    answer = httpx.Response(200, content=sse, headers=SSE)
    request = Request(messages=(Message.user("How warm is Utrecht?"),), reasoning=THINKING)
    request = request.evolve(stream=True)
    body = await second_request("anthropic", "claude-sonnet-4-0", answer, Temperature, request)

    thinking, signature = recorded_thinking(sse)
    assert thinking and signature
    messages = body["messages"]
    assert isinstance(messages, list)
    assistant, correction = messages[1], messages[2]
    assert assistant["role"] == "assistant"
    kinds = [block["type"] for block in assistant["content"]]
    assert kinds[0] == "thinking" and kinds[-1] == "tool_use"
    assert set(kinds[1:-1]) <= {"text"}
    assert assistant["content"][0] == {
        "type": "thinking",
        "thinking": thinking,
        "signature": signature,
    }
    tool_use = assistant["content"][-1]
    assert tool_use["name"] == "respond_test_replay_temperature"
    assert correction["content"][0]["tool_use_id"] == tool_use["id"]


@PROVIDERS.needed
async def test_anthropic_redacted_thinking_goes_back_as_its_data() -> None:
    raw = PROVIDERS.read("anthropic/messages-redacted-thinking.json")
    recorded = orjson.loads(raw)["content"]
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("Think, then answer."),), reasoning=THINKING)
    body = await second_request("anthropic", "claude-sonnet-4-0", answer, Verdict, request)

    messages = body["messages"]
    assert isinstance(messages, list)
    sent = messages[1]["content"]
    reasoning = [b for b in recorded if b["type"] in ("thinking", "redacted_thinking")]
    assert reasoning, "the recording holds reasoning blocks"
    # The reasoning blocks first, unchanged and in their order, then the answer's text.
    assert sent[: len(reasoning)] == [
        {"type": "redacted_thinking", "data": b["data"]}
        if b["type"] == "redacted_thinking"
        else {"type": "thinking", "thinking": b["thinking"], "signature": b["signature"]}
        for b in reasoning
    ]
    assert [b["type"] for b in sent[len(reasoning) :]] == ["text"]


@PROVIDERS.needed
async def test_anthropic_thinking_is_not_sent_back_while_thinking_is_off() -> None:
    raw = PROVIDERS.read("anthropic/messages-thinking-signature.json")
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("Think, then answer."),))
    body = await second_request("anthropic", "claude-sonnet-4-0", answer, Verdict, request)
    messages = body["messages"]
    assert isinstance(messages, list)
    assert [b["type"] for b in messages[1]["content"]] == ["text"]


@CONFORMANCE.needed
async def test_gemini_signature_goes_back_on_its_function_call() -> None:
    relative = (
        "gemini/rllm-chat_function_calling_thought_signatures_gemini_gemini-3_1-pro-preview"
        "_includes_thou-486de8.json"
    )
    raw = CONFORMANCE.read(relative)
    recorded = orjson.loads(raw)["candidates"][0]["content"]["parts"]
    signature = recorded[1]["thoughtSignature"]
    raw = raw.replace(b'"name": "weather"', b'"name": "respond_test_replay_weather"')
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("Weather in Berlin?"),), reasoning=THINKING)
    body = await second_request("gemini", "gemini-2.5-flash", answer, Weather, request)

    contents = body["contents"]
    assert isinstance(contents, list)
    model_turn = contents[1]
    assert model_turn["role"] == "model"
    # The call's part carries the signature it came with; the unsigned thought text is
    # not sent back.
    assert model_turn["parts"] == [
        {
            "functionCall": {
                "name": "respond_test_replay_weather",
                "args": {"latitude": "52.5200", "longitude": "13.4050"},
            },
            "thoughtSignature": signature,
        }
    ]


@PROVIDERS.needed
async def test_gemini_signature_goes_back_on_its_text() -> None:
    raw = PROVIDERS.read("gemini/generate-content-thinking-gemini3-signature.json")
    text_part = orjson.loads(raw)["candidates"][0]["content"]["parts"][1]
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("The mirror?"),), reasoning=THINKING)
    body = await second_request("gemini", "gemini-2.5-flash", answer, Verdict, request)

    contents = body["contents"]
    assert isinstance(contents, list)
    # The answer's own text goes back unchanged, with the signature that came on it.
    assert contents[1] == {
        "role": "model",
        "parts": [{"text": text_part["text"], "thoughtSignature": text_part["thoughtSignature"]}],
    }


@PROVIDERS.needed
async def test_deepseek_reasoning_content_is_never_sent_back() -> None:
    raw = PROVIDERS.read("deepseek/reasoner-reasoning-content.json")
    assert b'"reasoning_content"' in raw
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("The mirror?"),), reasoning=THINKING)
    body = await second_request("deepseek", "deepseek-reasoner", answer, Verdict, request)

    messages = body["messages"]
    assert isinstance(messages, list)
    assistant = next(m for m in messages if m["role"] == "assistant")
    assert "reasoning_content" not in assistant
    assert set(assistant) == {"role", "content"}


DS_TOOL_CALL = "deepseek/pai-test_deepseek_deferred_capability_with_thinking-0.json"


def deepseek_tool_answer() -> tuple[httpx.Response, dict[str, Any]]:
    """The recorded thinking-mode answer (reasoning_content beside a tool call), its tool
    renamed to golem's respond tool, and the recorded message."""
    raw = CONFORMANCE.read(DS_TOOL_CALL)
    recorded: dict[str, Any] = orjson.loads(raw)["choices"][0]["message"]
    assert recorded["reasoning_content"] and len(recorded["tool_calls"]) == 1
    raw = raw.replace(b'"name": "load_capability"', b'"name": "respond_test_replay_capability"')
    return httpx.Response(200, content=raw, headers=JSON), recorded


@CONFORMANCE.needed
@pytest.mark.parametrize("reasoning", [None, THINKING], ids=["default", "thinking"])
async def test_deepseek_reasoning_content_goes_back_beside_the_tool_call(
    reasoning: ReasoningConfig | None,
) -> None:
    answer, recorded = deepseek_tool_answer()
    request = Request(messages=(Message.user("Roll a die; I guess 4."),))
    if reasoning is not None:
        request = request.evolve(reasoning=reasoning)
    body = await second_request("deepseek", "deepseek-v4-flash", answer, Capability, request)

    assistant = sent_assistant(body)
    # The text exactly as it came, whether or not this request asked for reasoning:
    # DeepSeek thinks by default and requires it back on a turn with tool calls.
    assert assistant["reasoning_content"] == recorded["reasoning_content"]
    (call,) = assistant["tool_calls"]
    assert call["id"] == recorded["tool_calls"][0]["id"]
    assert call["function"]["name"] == "respond_test_replay_capability"
    assert set(assistant) == {"role", "content", "tool_calls", "reasoning_content"}


@CONFORMANCE.needed
async def test_reasoning_content_stays_behind_without_the_quirk() -> None:
    """GPUStack reads the same field but does not ask for it back: nothing is sent."""
    answer, recorded = deepseek_tool_answer()
    request = Request(messages=(Message.user("Roll a die; I guess 4."),), reasoning=THINKING)
    body = await second_request("gpustack", "qwen3", answer, Capability, request)

    assistant = sent_assistant(body)
    assert assistant["tool_calls"][0]["id"] == recorded["tool_calls"][0]["id"]
    assert set(assistant) == {"role", "content", "tool_calls"}


def test_deepseek_reasoning_content_goes_back_only_from_deepseek() -> None:
    """Not DeepSeek's text to another provider, nor another provider's text to DeepSeek,
    nor reasoning that came in `<think>` tags."""
    raw = CONFORMANCE.read(DS_TOOL_CALL)

    def sent_back(raw: bytes, *, source: str = "deepseek", provider: str = "deepseek") -> object:
        answer = codec_for(profile(source)).decode(200, {}, raw)
        chain = replace(answer.reasoning, provider=provider)
        turn = (Message.user("Q?"), Message.assistant(answer.content, answer.tool_calls, chain))
        request = Request(messages=(*turn, Message.user("Again.")))
        messages = codec_for(profile("deepseek")).encode(request, "deepseek-chat").body
        sent = messages["messages"]
        assert isinstance(sent, list)
        return sent[1].get("reasoning_content")

    text = orjson.loads(raw)["choices"][0]["message"]["reasoning_content"]
    assert sent_back(raw) == text
    assert sent_back(raw, provider="gpustack") is None
    # The same answer with its reasoning inline, as GPUStack's <think> tags carry it.
    body = orjson.loads(raw)
    message = body["choices"][0]["message"]
    message["content"] = f"<think>{message.pop('reasoning_content')}</think>{message['content']}"
    inline = orjson.dumps(body)
    assert codec_for(profile("gpustack")).decode(200, {}, inline).reasoning.content == text
    assert sent_back(inline, source="gpustack") is None


# -- OpenAI Responses -------------------------------------------------------------------

RESPONSES = "openai-responses"


def reasoning_item(item: dict[str, Any]) -> dict[str, object]:
    """A recorded reasoning output item as it goes back: its summary texts and its
    encrypted_content, unchanged; no id."""
    summary = [{"type": "summary_text", "text": p["text"]} for p in item["summary"]]
    return {"type": "reasoning", "summary": summary, "encrypted_content": item["encrypted_content"]}


def sent_items(body: dict[str, object]) -> list[dict[str, Any]]:
    """The re-ask's input items after the first user message (the previous turn on)."""
    items = body["input"]
    assert isinstance(items, list)
    first = next(i for i, item in enumerate(items) if item.get("role") == "user")
    return items[first + 1 :]


@CONFORMANCE.needed
async def test_openai_responses_encrypted_reasoning_goes_back_before_the_message_and_call() -> None:
    relative = "openai-responses/pai-test_openai_responses_phase_live-0.json"
    raw = CONFORMANCE.read(relative)
    reasoning, message, call = orjson.loads(raw)["output"]
    assert reasoning["type"] == "reasoning" and reasoning["encrypted_content"]
    raw = raw.replace(b'"name": "get_capital"', b'"name": "respond_test_replay_capital"')
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("The capital of PotatoLand?"),), reasoning=THINKING)
    body = await second_request(RESPONSES, "gpt-5", answer, Capital, request)

    sent = sent_items(body)
    # The reasoning item first, unchanged, then the text and the call it led to.
    assert sent[:3] == [
        reasoning_item(reasoning),
        {"role": "assistant", "content": message["content"][0]["text"]},
        {
            "type": "function_call",
            "call_id": call["call_id"],
            "name": "respond_test_replay_capital",
            "arguments": call["arguments"],
        },
    ]
    assert sent[3]["type"] == "function_call_output"
    assert sent[3]["call_id"] == call["call_id"]


@CONFORMANCE.needed
async def test_openai_responses_summaries_go_back_with_their_encrypted_content() -> None:
    relative = "openai-responses/pai-test_openai_responses_model_thinking_part-1.json"
    raw = CONFORMANCE.read(relative)
    reasoning, message = orjson.loads(raw)["output"]
    assert len(reasoning["summary"]) > 1 and reasoning["encrypted_content"]
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("Crossing a river?"),), reasoning=THINKING)
    body = await second_request(RESPONSES, "gpt-5", answer, Verdict, request)

    assert sent_items(body)[:2] == [
        reasoning_item(reasoning),
        {"role": "assistant", "content": message["content"][0]["text"]},
    ]


@CONFORMANCE.needed
async def test_openai_responses_stream_sends_back_the_finished_item() -> None:
    relative = "openai-responses/pai-test_openai_responses_thinking_part_iter-0.sse"
    sse = CONFORMANCE.read(relative)
    events = [orjson.loads(e.data) for e in iter_sse(sse) if e.data.startswith("{")]
    added, done = (
        e["item"]
        for e in events
        if e["type"] in ("response.output_item.added", "response.output_item.done")
        and e["item"]["type"] == "reasoning"
    )
    # The item as it opened carries another encrypted_content and no summary yet.
    assert added["encrypted_content"] != done["encrypted_content"] and done["summary"]
    answer = httpx.Response(200, content=sse, headers=SSE)
    request = Request(messages=(Message.user("Crossing a street?"),), reasoning=THINKING)
    body = await second_request(RESPONSES, "gpt-5", answer, Verdict, request.evolve(stream=True))

    sent = sent_items(body)
    assert sent[0] == reasoning_item(done)
    assert sent[1]["role"] == "assistant"


def test_openai_responses_reasoning_goes_back_only_when_it_can() -> None:
    """Not to another provider, not while reasoning is off, not alone, and not without
    its encrypted_content (only the item's id could stand for it then)."""
    codec = OpenAIResponsesCodec(PROFILE)

    def sent_back(
        raw: bytes, *, provider: str = RESPONSES, reasoning: bool = True, text: bool = True
    ) -> list[Any]:
        answer = codec.decode(200, {}, raw)
        chain = replace(answer.reasoning, provider=provider)
        content = answer.content if text else None
        turn = (Message.user("Q?"), Message.assistant(content, (), chain))
        request = Request(messages=(*turn, Message.user("Again.")))
        if reasoning:
            request = request.evolve(reasoning=THINKING)
        items = codec.encode(request, "gpt-5").body["input"]
        assert isinstance(items, list)
        return [item for item in items if item.get("type") == "reasoning"]

    relative = "openai-responses/pai-test_openai_responses_model_thinking_part-1.json"
    encrypted = CONFORMANCE.read(relative)
    assert len(sent_back(encrypted)) == 1
    assert sent_back(encrypted, provider="openai") == []
    assert sent_back(encrypted, provider="anthropic") == []
    assert sent_back(encrypted, reasoning=False) == []
    # Nothing of the turn follows it: a reasoning item does not go back alone.
    assert sent_back(encrypted, text=False) == []

    summary_only = PROVIDERS.read("openai/responses-reasoning-summary.json")
    (recorded,) = (o for o in orjson.loads(summary_only)["output"] if o["type"] == "reasoning")
    steps = codec.decode(200, {}, summary_only).reasoning.steps
    assert "encrypted_content" not in recorded
    assert {s.item_id for s in steps} == {recorded["id"]}
    assert sent_back(summary_only) == []


# -- OpenRouter (Chat Completions) -----------------------------------------------------

OPENROUTER = "openrouter"
HAIKU = "anthropic/claude-haiku-4.5"
OR_DETAILS = "openrouter/chat-reasoning-details-tool-call.json"
OR_STREAM = "openrouter/chat-reasoning-details-stream.sse"
OR_TEXT = (
    "openrouter/rllm-chat_with_extended_thinking_openrouter_claude-haiku-4-5_preserves"
    "_thinking_signature-b67615.json"
)
OR_SUMMARY = "openrouter/pai-test_openrouter_preserve_reasoning_block-1.json"


def sent_assistant(body: dict[str, object]) -> dict[str, Any]:
    messages = body["messages"]
    assert isinstance(messages, list)
    (assistant,) = (m for m in messages if m["role"] == "assistant")
    assert isinstance(assistant, dict)
    return assistant


def recorded_details(raw: bytes) -> list[dict[str, Any]]:
    details: list[dict[str, Any]] = orjson.loads(raw)["choices"][0]["message"]["reasoning_details"]
    return details


@PROVIDERS.needed
async def test_openrouter_reasoning_details_go_back_with_the_tool_call() -> None:
    raw = PROVIDERS.read(OR_DETAILS)
    details = recorded_details(raw)
    assert details[0]["signature"] and details[0]["format"] == "anthropic-claude-v1"
    raw = raw.replace(b'"name":"reasoning_weather"', b'"name":"respond_test_replay_forecast"')
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("Weather in Berlin?"),), reasoning=THINKING)
    body = await second_request(OPENROUTER, HAIKU, answer, Forecast, request)

    assistant = sent_assistant(body)
    # The entries as they came (type, text, signature, format, index), beside the call.
    assert assistant["reasoning_details"] == details
    (call,) = assistant["tool_calls"]
    assert call["function"]["name"] == "respond_test_replay_forecast"
    assert "reasoning" not in assistant


@CONFORMANCE.needed
async def test_openrouter_reasoning_details_go_back_with_the_text() -> None:
    raw = CONFORMANCE.read(OR_TEXT)
    recorded = orjson.loads(raw)["choices"][0]["message"]
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("5 + 3?"),), reasoning=THINKING)
    body = await second_request(OPENROUTER, HAIKU, answer, Verdict, request)

    assert sent_assistant(body) == {
        "role": "assistant",
        "content": recorded["content"],
        "reasoning_details": recorded["reasoning_details"],
    }


@CONFORMANCE.needed
async def test_openrouter_summary_and_encrypted_entries_go_back_in_their_order() -> None:
    raw = CONFORMANCE.read(OR_SUMMARY)
    details = recorded_details(raw)
    # A summary and its encrypted original share index 0; only the second has an id.
    assert [d["type"] for d in details] == ["reasoning.summary", "reasoning.encrypted"]
    assert {d["index"] for d in details} == {0} and "id" not in details[0]
    answer = httpx.Response(200, content=raw, headers=JSON)
    request = Request(messages=(Message.user("Voltaire?"),), reasoning=THINKING)
    body = await second_request(OPENROUTER, "openai/gpt-5-mini", answer, Verdict, request)

    assert sent_assistant(body)["reasoning_details"] == details


@PROVIDERS.needed
async def test_openrouter_stream_sends_back_the_joined_entry() -> None:
    sse = PROVIDERS.read(OR_STREAM)
    pieces = [
        detail
        for event in iter_sse(sse)
        if event.data.startswith("{")
        for detail in orjson.loads(event.data)["choices"][0]["delta"].get("reasoning_details", ())
    ]
    assert len(pieces) > 2 and {(p["type"], p["index"]) for p in pieces} == {("reasoning.text", 0)}
    (signature,) = (p["signature"] for p in pieces if "signature" in p)
    sse = sse.replace(b'"name":"reasoning_weather"', b'"name":"respond_test_replay_forecast"')
    answer = httpx.Response(200, content=sse, headers=SSE)
    request = Request(messages=(Message.user("Weather in Berlin?"),), reasoning=THINKING)
    body = await second_request(OPENROUTER, HAIKU, answer, Forecast, request.evolve(stream=True))

    assert sent_assistant(body)["reasoning_details"] == [
        {
            "type": "reasoning.text",
            "text": "".join(p.get("text", "") for p in pieces),
            "signature": signature,
            "format": "anthropic-claude-v1",
            "index": 0,
        }
    ]


def test_openrouter_reasoning_details_go_back_only_when_they_can() -> None:
    """Not to another provider, not while reasoning is off, and never reasoning that came
    as plain text."""

    def sent_back(
        raw: bytes, *, provider: str = OPENROUTER, to: str = OPENROUTER, reasoning: bool = True
    ) -> object:
        answer = codec_for(profile(OPENROUTER)).decode(200, {}, raw)
        chain = replace(answer.reasoning, provider=provider)
        turn = (Message.user("Q?"), Message.assistant(answer.content, (), chain))
        request = Request(messages=(*turn, Message.user("Again.")))
        if reasoning:
            request = request.evolve(reasoning=THINKING)
        model = "deepseek-reasoner" if to == "deepseek" else HAIKU
        messages = codec_for(profile(to)).encode(request, model).body["messages"]
        assert isinstance(messages, list)
        return messages[1].get("reasoning_details")

    raw = CONFORMANCE.read(OR_TEXT)
    assert sent_back(raw) == recorded_details(raw)
    assert sent_back(raw, provider="anthropic") is None
    assert sent_back(raw, reasoning=False) is None
    # OpenRouter's reasoning does not go to DeepSeek (whose own never goes back: above).
    assert sent_back(raw, to="deepseek") is None
    # The same recording's `reasoning` text alone (no reasoning_details) stays behind.
    body = orjson.loads(raw)
    del body["choices"][0]["message"]["reasoning_details"]
    plain = orjson.dumps(body)
    assert codec_for(profile(OPENROUTER)).decode(200, {}, plain).reasoning.steps
    assert sent_back(plain) is None
