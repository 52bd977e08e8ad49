"""One focused test per decoding bug the conformance corpus (issue 19) found, each on the
recording that showed it (tests/data/conformance) or on the smallest body of its shape."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from golem.inference import decode
from golem.inference.errors import IncompleteStream, InvalidRequest
from golem.inference.reasoning import Visibility
from golem.inference.types import FinishReason

CORPUS = Path(__file__).resolve().parents[1] / "data" / "conformance"


def recording(name: str) -> bytes:
    return (CORPUS / name).read_bytes()


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
