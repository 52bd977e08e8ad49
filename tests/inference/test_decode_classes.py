"""One Hypothesis property per class of decoding failure of issue 34, on bodies generated
for the class: reasoning tokens inside or outside completion_tokens, whole-body tool calls
with a null index, a JSON value as message.content, Responses call arguments only in the
closing events, Gemini's partialArgs, integer and vendor-word finish reasons, and server
tool items golem does not know. The recordings that show each class are in
test_fresh_corpus.py."""

from __future__ import annotations

import itertools
import string
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golem.inference.errors import InvalidResponse
from golem.inference.types import FinishReason
from golem.inference.wire import decode

PROPERTY = settings(max_examples=150, deadline=None)
names = st.text(string.ascii_lowercase + "_", min_size=1, max_size=12)
scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=12)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(names, inner, max_size=3),
    max_leaves=8,
)
arguments = st.dictionaries(names, scalars, max_size=4)


def _sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(b"data: " + orjson.dumps(e) + b"\n\n" for e in events)


def _chat(message: dict[str, Any], usage: dict[str, Any], finish: str = "stop") -> bytes:
    choice = {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}
    return orjson.dumps({"model": "m", "choices": [choice], "usage": usage})


# 1 -------------------------------------------------------------------------------------
@PROPERTY
@given(
    prompt=st.integers(0, 10**6),
    visible=st.integers(0, 10**5),
    reasoning=st.integers(1, 10**5),
    included=st.booleans(),
    provider=st.sampled_from(["openai", "xai", "openai-compatible"]),
)
def test_reasoning_tokens_split_by_the_total(
    prompt: int, visible: int, reasoning: int, included: bool, provider: str
) -> None:
    """Whatever the vendor's default, a total_tokens that settles it decides whether
    completion_tokens included the reasoning, and every token is counted once."""
    completion = visible + reasoning if included else visible
    usage = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + visible + reasoning,
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }
    got = decode(provider, _chat({"content": "x"}, usage)).usage
    assert (got.output_tokens, got.reasoning_tokens) == (visible, reasoning)
    assert got.total_tokens == prompt + visible + reasoning


@pytest.mark.parametrize(("provider", "visible"), [("openai", 10), ("xai", 30)])
def test_without_a_total_the_vendors_documentation_decides(provider: str, visible: int) -> None:
    """OpenAI's completion_tokens includes the reasoning (30 = 10 visible + 20); xAI's
    excludes it (30 visible, 20 reasoning besides): the `reasoning_in_completion` quirk."""
    usage = {
        "prompt_tokens": 5,
        "completion_tokens": 30,
        "completion_tokens_details": {"reasoning_tokens": 20},
    }
    got = decode(provider, _chat({"content": "x"}, usage)).usage
    assert (got.output_tokens, got.reasoning_tokens) == (visible, 20)


def test_a_count_smaller_than_its_reasoning_is_not_clamped() -> None:
    usage = {"prompt_tokens": 5, "completion_tokens": 3}
    usage["completion_tokens_details"] = {"reasoning_tokens": 20}  # type: ignore[assignment]
    got = decode("openai", _chat({"content": "x"}, usage)).usage
    assert (got.output_tokens, got.reasoning_tokens) == (3, 20)  # not (0, 20)


# 2 -------------------------------------------------------------------------------------
@PROPERTY
@given(calls=st.lists(st.tuples(names, arguments), min_size=1, max_size=5))
def test_whole_body_calls_with_a_null_index_are_told_apart_by_position(
    calls: list[tuple[str, dict[str, Any]]],
) -> None:
    wire = [
        {
            "index": None,
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": name, "arguments": orjson.dumps(args).decode()},
        }
        for i, (name, args) in enumerate(calls)
    ]
    body = _chat({"content": None, "tool_calls": wire}, {"prompt_tokens": 1}, "tool_calls")
    got = decode("openai-compatible", body).tool_calls
    assert [(c.id, c.name, dict(c.arguments)) for c in got] == [
        (f"call_{i}", name, args) for i, (name, args) in enumerate(calls)
    ]


# 3 -------------------------------------------------------------------------------------
@PROPERTY
@given(answer=st.dictionaries(names, json_values, min_size=1, max_size=4))
def test_a_json_object_as_content_is_kept_as_the_answer(answer: dict[str, Any]) -> None:
    got = decode("openai-compatible", _chat({"content": answer}, {"prompt_tokens": 1}))
    assert got.content is not None
    assert orjson.loads(got.content) == answer


# 4 -------------------------------------------------------------------------------------
@PROPERTY
@given(calls=st.lists(st.tuples(names, arguments, st.sampled_from(["done", "item"])), max_size=4))
def test_responses_arguments_only_in_the_closing_events(
    calls: list[tuple[str, dict[str, Any], str]],
) -> None:
    """No delta: the arguments come in response.function_call_arguments.done (after an
    output_item.added), or only in the call's output_item.done."""
    events: list[dict[str, Any]] = [{"type": "response.created", "response": {"model": "m"}}]
    for i, (name, args, where) in enumerate(calls):
        text = orjson.dumps(args).decode()
        item = {"type": "function_call", "call_id": f"c{i}", "name": name, "arguments": ""}
        if where == "done":
            events.append({"type": "response.output_item.added", "output_index": i, "item": item})
            events.append(
                {
                    "type": "response.function_call_arguments.done",
                    "output_index": i,
                    "arguments": text,
                }
            )
        done = {**item, "arguments": text}
        events.append({"type": "response.output_item.done", "output_index": i, "item": done})
    events.append({"type": "response.completed", "response": {"model": "m", "status": "completed"}})
    got = decode("openai-responses", _sse(events), stream=True).tool_calls
    assert [(c.id, c.name, dict(c.arguments)) for c in got] == [
        (f"c{i}", name, args) for i, (name, args, _) in enumerate(calls)
    ]


# 5 -------------------------------------------------------------------------------------
@PROPERTY
@given(
    name=names,
    fields=st.dictionaries(names, st.text(min_size=1, max_size=20), min_size=1, max_size=3),
    number=st.integers(-100, 100),
    cuts=st.lists(st.integers(1, 19), max_size=3),
)
def test_gemini_partial_arguments_are_assembled(
    name: str, fields: dict[str, str], number: int, cuts: list[int]
) -> None:
    """Strings split over several PartialArgs (willContinue), a nested number: one call."""
    parts: list[dict[str, Any]] = [{"functionCall": {"name": name, "willContinue": True}}]
    for key, value in fields.items():
        bounds = sorted({0, len(value), *(c for c in cuts if c < len(value))})
        pieces = [value[a:b] for a, b in itertools.pairwise(bounds)]
        for n, piece in enumerate(pieces):
            more = n < len(pieces) - 1
            arg = {"jsonPath": f"$.{key}", "stringValue": piece, "willContinue": more}
            parts.append({"functionCall": {"partialArgs": [arg], "willContinue": True}})
    nested = {"jsonPath": "$.nested.n", "numberValue": number}
    parts.append({"functionCall": {"partialArgs": [nested]}})
    chunks = [{"candidates": [{"content": {"parts": [p]}}]} for p in parts]
    chunks[-1]["candidates"][0]["finishReason"] = "STOP"
    got = decode("gemini", _sse(chunks), stream=True)
    assert [(c.name, dict(c.arguments)) for c in got.tool_calls] == [
        (name, {**fields, "nested": {"n": number}})
    ]


def test_gemini_partial_arguments_no_part_named_are_a_typed_error() -> None:
    arg = {"jsonPath": "$.a", "stringValue": "x"}
    chunks = [{"candidates": [{"content": {"parts": [{"functionCall": {"partialArgs": [arg]}}]}}]}]
    with pytest.raises(InvalidResponse, match="before any part named it"):
        decode("gemini", _sse(chunks), stream=True)


# 6 -------------------------------------------------------------------------------------
_VERTEX = {
    1: FinishReason.STOP,
    2: FinishReason.LENGTH,
    3: FinishReason.CONTENT_FILTER,
    4: FinishReason.CONTENT_FILTER,
    5: FinishReason.UNKNOWN,
    6: FinishReason.CONTENT_FILTER,
    7: FinishReason.CONTENT_FILTER,
    8: FinishReason.CONTENT_FILTER,
    9: FinishReason.ERROR,
    10: FinishReason.CONTENT_FILTER,
}


@PROPERTY
@given(number=st.integers(1, 40))
def test_vertex_integer_finish_reasons(number: int) -> None:
    """FINISH_REASON_UNSPECIFIED (0), proto3's default, is the field left out: no finish."""
    body = {"candidates": [{"content": {"parts": [{"text": "x"}]}, "finishReason": number}]}
    got = decode("gemini", orjson.dumps(body))
    assert got.finish_reason is _VERTEX.get(number, FinishReason.UNKNOWN)
    assert got.finish_reason_raw == str(number)


@PROPERTY
@given(raw=st.sampled_from(["eos", "eos_token", "stop_sequence", "stop"]) | names)
def test_vendor_finish_words_and_the_raw_value(raw: str) -> None:
    got = decode("openai-compatible", _chat({"content": "x"}, {"prompt_tokens": 1}, raw))
    words = {"eos", "eos_token", "stop_sequence", "stop"}
    if raw in words:
        assert got.finish_reason is FinishReason.STOP
    assert got.finish_reason_raw == raw


# 7 -------------------------------------------------------------------------------------
_KNOWN = {"function_call", "web_search_call", "file_search_call", "code_interpreter_call"}


@PROPERTY
@given(stem=names, asked=arguments, stream=st.booleans())
def test_unknown_server_tool_items_surface(stem: str, asked: dict[str, Any], stream: bool) -> None:
    kind = f"{stem}_call"
    if kind in _KNOWN | {"image_generation_call", "mcp_call", "tool_search_call"}:
        return
    item = {"type": kind, "id": "x1", "arguments": orjson.dumps(asked).decode()}
    message = {"type": "message", "content": [{"type": "output_text", "text": "ok"}]}
    if stream:
        events = [
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.output_text.delta", "delta": "ok"},
            {"type": "response.completed", "response": {"model": "m", "status": "completed"}},
        ]
        got = decode("openai-responses", _sse(events), stream=True)
    else:
        body = {
            "object": "response",
            "model": "m",
            "status": "completed",
            "output": [item, message],
        }
        got = decode("openai-responses", orjson.dumps(body))
    assert got.tool_calls == ()
    assert [(c.provider_type, c.id, dict(c.arguments)) for c in got.server_tool_calls] == [
        (kind, "x1", asked)
    ]
    assert got.content == "ok"
