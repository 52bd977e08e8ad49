"""One focused test per decoding bug the conformance corpus (issue 19) found, each on the
recording that showed it (../shared/fixtures/conformance) or on the smallest body of its shape."""

from __future__ import annotations

import orjson
import pytest

from golem.inference import StreamDecoder, decode
from golem.inference.codecs._framing import JSONArrayFramer, SSEOrJSONArrayFramer
from golem.inference.errors import AuthError, IncompleteStream, InvalidRequest, InvalidResponse
from golem.inference.reasoning import Visibility
from golem.inference.sse import iter_sse
from golem.inference.types import FinishReason
from tests.fixtures import CONFORMANCE


def recording(name: str) -> bytes:
    return CONFORMANCE.read(name)


# -- 1. an error object beside `choices` ends the stream with a typed error ---------------


def test_openrouter_error_event_beside_choices_is_a_typed_error() -> None:
    body = recording("openrouter/pai-test_openrouter_stream_error-0.sse")
    with pytest.raises(InvalidRequest, match="Token limit reached"):
        decode("openrouter", body, stream=True)


def test_a_whole_body_with_an_error_beside_choices_is_a_typed_error() -> None:
    body = {
        "choices": [{"index": 0, "message": {"content": ""}, "finish_reason": None}],
        "error": {"code": 400, "message": "Token limit reached"},
    }
    with pytest.raises(InvalidRequest, match="Token limit reached"):
        decode("openrouter", orjson.dumps(body))


# -- 2. Groq streams that report usage only in x_groq.usage -------------------------------


@pytest.mark.parametrize(
    ("name", "tokens_in", "tokens_out"),
    [
        ("groq/pai-test_groq_model_web_search_tool_stream-0.sse", 5003, 359),
        ("groq/pai-test_groq_model_thinking_part_iter-0.sse", 21, 988),
    ],
)
def test_groq_stream_usage_in_x_groq_is_counted(name: str, tokens_in: int, tokens_out: int) -> None:
    response = decode("groq", recording(name), stream=True)
    assert response.usage.input_tokens == tokens_in
    assert response.usage.output_tokens == tokens_out


# -- 4. Mistral's list-typed content, under every OpenAI-style codec ----------------------

MISTRAL_BODY = "openai-compatible/pai-test_mistral_model_thinking_part-1.json"
MISTRAL_STREAM = (
    "openai-compatible/rllm-chat_with_extended_thinking_mistral_mistral-small-latest_"
    "streams_thinking_content_wh-44b994.sse"
)


@pytest.mark.parametrize("provider", ["openai-compatible", "openai", "deepseek", "openrouter"])
def test_mistral_list_content_keeps_the_answer_and_the_thinking(provider: str) -> None:
    message = orjson.loads(recording(MISTRAL_BODY))["choices"][0]["message"]
    thinking, text = message["content"]
    response = decode(provider, recording(MISTRAL_BODY))
    assert response.content == text["text"]
    assert response.reasoning.content == thinking["thinking"][0]["text"]
    assert response.finish_reason is FinishReason.STOP


@pytest.mark.parametrize("provider", ["openai-compatible", "openai", "deepseek", "openrouter"])
def test_mistral_stream_of_list_content_keeps_the_answer_and_the_thinking(provider: str) -> None:
    response = decode(provider, recording(MISTRAL_STREAM), stream=True)
    assert response.content is not None
    assert response.content.startswith("To see your future")
    assert response.content.endswith(", so it shows you instead.")
    assert response.reasoning.content.startswith("The user is presenting a hypothetical")


# -- 5. reasoning_details from any compatible vendor --------------------------------------


def test_snowflake_reasoning_details_keep_text_and_signature() -> None:
    name = "openai-compatible/pai-test_snowflake_thinking-0.json"
    (detail,) = orjson.loads(recording(name))["choices"][0]["message"]["reasoning_details"]
    response = decode("openai-compatible", recording(name))
    (step,) = response.reasoning.steps
    assert (step.text, step.signature) == (detail["text"], detail["signature"])
    assert response.content == "Sure! Let me check that for you!"


def test_snowflake_stream_reasoning_details() -> None:
    name = "openai-compatible/pai-test_snowflake_thinking_streaming-0.sse"
    response = decode("openai-compatible", recording(name), stream=True)
    assert response.reasoning.content == "15 * 27 = 405"


# -- a summary and its encrypted original at the same index stay two steps ----------------


def test_openrouter_summary_and_encrypted_detail_at_one_index() -> None:
    name = "openrouter/pai-test_openrouter_preserve_reasoning_block-1.json"
    summary, encrypted = orjson.loads(recording(name))["choices"][0]["message"]["reasoning_details"]
    response = decode("openrouter", recording(name))
    first, second = response.reasoning.steps
    assert (first.visibility, first.text) == (Visibility.SUMMARIZED, summary["summary"])
    assert (second.visibility, second.redacted_data) == (Visibility.OPAQUE, encrypted["data"])


# -- 6. a Responses stream that closes with `data: [DONE]` (OpenRouter's /responses) ------


def test_responses_stream_closed_by_done_keeps_the_answer() -> None:
    name = "openai-responses/pai-test_openai_responses_raw_cot_stream_openrouter-0.sse"
    response = decode("openai-responses", recording(name), stream=True)
    assert response.content
    assert response.finish_reason is FinishReason.STOP
    assert response.usage.reasoning_tokens == 22


def test_responses_stream_of_only_done_is_still_incomplete() -> None:
    created = {"type": "response.created", "response": {"status": "in_progress"}}
    body = b"data: " + orjson.dumps(created) + b"\n\ndata: [DONE]\n\n"
    with pytest.raises(IncompleteStream):
        decode("openai-responses", body, stream=True)


# -- 8. Gemini: tool-use prompt tokens are input; every thoughtSignature is kept ----------


def test_gemini_tool_use_prompt_tokens_count_as_input() -> None:
    name = "gemini/pai-test_code_execution-1.json"
    usage = orjson.loads(recording(name))["usageMetadata"]
    response = decode("gemini", recording(name))
    assert response.usage.input_tokens == 893 + 3056
    assert response.usage.total_tokens == usage["totalTokenCount"]


def test_gemini_tool_use_prompt_tokens_are_priced_as_input() -> None:
    body = {
        "candidates": [{"content": {"parts": [{"text": "4"}]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 0, "toolUsePromptTokenCount": 1_000_000},
        "modelVersion": "gemini-2.5-flash",
    }
    response = decode("gemini", orjson.dumps(body))
    assert response.cost_usd == pytest.approx(0.30)  # gemini-2.5-flash: $0.30 per M input


@pytest.mark.parametrize(
    "name",
    ["gemini/pai-test_code_execution-1.json", "gemini/pai-test_code_execution_stream-0.sse"],
)
def test_gemini_keeps_every_thought_signature_in_order(name: str) -> None:
    body = recording(name)
    stream = name.endswith(".sse")
    chunks = [body] if not stream else [e.data.encode() for e in iter_sse(body)]
    wanted = [
        part["thoughtSignature"]
        for chunk in chunks
        for candidate in orjson.loads(chunk).get("candidates", ())
        for part in candidate.get("content", {}).get("parts", ())
        if "thoughtSignature" in part
    ]
    assert len(wanted) > 1
    response = decode("gemini", body, stream=stream)
    assert [s.signature for s in response.reasoning.steps] == wanted


def test_gemini_signed_thought_is_not_continued_by_the_next_thought() -> None:
    parts = [
        {"text": "first", "thought": True, "thoughtSignature": "S1"},
        {"text": "second", "thought": True, "thoughtSignature": "S2"},
        {"text": "answer"},
    ]
    body = {"candidates": [{"content": {"parts": parts}, "finishReason": "STOP"}]}
    steps = decode("gemini", orjson.dumps(body)).reasoning.steps
    assert [(s.text, s.signature) for s in steps] == [("first", "S1"), ("second", "S2")]


# -- Gemini's streamGenerateContent without alt=sse: a JSON array, element by element -----

ARRAY_STREAMS = [
    "gemini/llmg-test_nested_model_direct_reference-0.sse",
    "gemini/llmg-test_nested_model_deep_composition-0.sse",
]


@pytest.mark.parametrize("name", ARRAY_STREAMS)
def test_gemini_json_array_stream_decodes(name: str) -> None:
    body = recording(name)
    elements = orjson.loads(body)
    parts = [p for e in elements for c in e["candidates"] for p in c["content"]["parts"]]
    response = decode("gemini", body, stream=True)
    assert response.content == "".join(p["text"] for p in parts if not p.get("thought"))
    assert response.reasoning.content.startswith(parts[0]["text"].strip()[:40])
    assert response.finish_reason is FinishReason.STOP
    assert response.usage.reasoning_tokens == elements[-1]["usageMetadata"]["thoughtsTokenCount"]
    for size in (1, 2, 3, 7, 64):
        decoder = StreamDecoder("gemini")
        for start in range(0, len(body), size):
            decoder.feed(body[start : start + size])
        assert decoder.finish() == response, size


def test_gemini_json_array_cut_short_is_incomplete() -> None:
    body = recording(ARRAY_STREAMS[0])
    first_element_end = body.index(b"\n}\n,") + 3
    for cut in (first_element_end, first_element_end + 40, len(body) - 3):
        with pytest.raises(IncompleteStream):
            decode("gemini", body[:cut], stream=True)


def test_gemini_json_array_with_bytes_after_it_is_invalid() -> None:
    body = recording(ARRAY_STREAMS[0]) + b"\n{oops"
    with pytest.raises(InvalidResponse):
        decode("gemini", body, stream=True)


def test_json_array_framer_splits_elements_at_any_cut() -> None:
    body = b' [ {"a": "]},[\\"\\\\"}, [1, {"b": []}] ,\n"x,y", 3 ] '
    want = ['{"a": "]},[\\"\\\\"}', '[1, {"b": []}]', '"x,y"', "3"]
    for cut in range(len(body) + 1):
        framer = JSONArrayFramer()
        events = framer.feed(body[:cut]) + framer.feed(body[cut:]) + framer.finish()
        assert [e.data for e in events] == want, cut
    framer = JSONArrayFramer()
    events = [e for i in range(len(body)) for e in framer.feed(body[i : i + 1])]
    assert [e.data for e in events + framer.finish()] == want


def test_sse_or_json_array_framer_sniffs_the_first_byte() -> None:
    sse = b'\xef\xbb\xbf\n: a comment [\ndata: {"a": 1}\n\n'
    for cut in range(len(sse) + 1):
        framer = SSEOrJSONArrayFramer()
        events = framer.feed(sse[:cut]) + framer.feed(sse[cut:]) + framer.finish()
        assert [e.data for e in events] == ['{"a": 1}'], cut
    framer = SSEOrJSONArrayFramer()
    events = framer.feed(b"\xef\xbb\xbf \n") + framer.feed(b'[{"a": 1}]') + framer.finish()
    assert [e.data for e in events] == ['{"a": 1}']


# -- an error status decides the error, whatever the body's shape -------------------------


def test_mistral_401_detail_body_is_an_auth_error_in_its_own_words() -> None:
    name = (
        "openai-compatible/rllm-chat_error_handling_with_mistral_mistral-small-latest_"
        "raises_appropriate_auth_error-0.json"
    )
    with pytest.raises(AuthError) as caught:
        decode("openai-compatible", recording(name), status=401)
    assert str(caught.value) == "openai-compatible: Invalid API Key (HTTP 401)"
