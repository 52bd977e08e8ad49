"""Mutated recordings through every codec: a decode returns a Response or raises a typed
ProviderError, never anything else, whatever the bytes.

Hypothesis mutates the conformance corpus's real bodies (truncation at any offset; a JSON
value anywhere swapped for another type, removed, a list where a string was, a string
where an object was) and feeds each result to one provider of every codec family, as a
whole body and as a stream (a .json body also framed as one SSE event, so the stream path
sees the same mutation)."""

from __future__ import annotations

import json
from contextlib import suppress
from functools import cache
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golem.inference.errors import ProviderError
from golem.inference.sse import iter_sse
from golem.inference.types import Response
from golem.inference.wire import StreamDecoder, decode
from tests.fixtures import CONFORMANCE

CORPUS = CONFORMANCE.path
EXPECTED: dict[str, dict[str, Any]] = (
    json.loads((CORPUS / "expected.json").read_bytes()) if CONFORMANCE.present else {}
)
# Bodies under 40 KB keep an example to a few milliseconds per codec.
RECORDINGS = sorted(n for n in EXPECTED if (CORPUS / n).stat().st_size < 40_000)
# One provider per codec family, and the compatible vendors whose quirks change decoding.
PROVIDERS = ("openai", "openrouter", "groq", "openai-responses", "anthropic", "gemini")
FUZZ = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Path_ = tuple[int | str, ...]


def decodes_or_raises_typed(body: bytes) -> None:
    """Every provider, whole body (as a 200 and as an error status) and stream (whole,
    and fed in two halves); a Response that comes back is well typed."""
    for provider in PROVIDERS:
        for stream, status in ((False, 200), (True, 200), (False, 400), (False, 429)):
            with suppress(ProviderError):
                well_typed(decode(provider, body, stream=stream, status=status))
        decoder = StreamDecoder(provider)
        with suppress(ProviderError):
            decoder.feed(body[: len(body) // 2])
            decoder.feed(body[len(body) // 2 :])
            well_typed(decoder.finish())


def well_typed(response: Response) -> None:
    assert response.content is None or isinstance(response.content, str)
    assert isinstance(response.model, str)
    for call in response.tool_calls:
        assert isinstance(call.id, str)
        assert isinstance(call.name, str)
        assert isinstance(call.arguments, dict)
    for count in (response.usage.input_tokens, response.usage.output_tokens):
        assert type(count) is int
    assert isinstance(response.cost_usd, float)
    for step in response.reasoning.steps:
        assert isinstance(step.text, str)
        assert step.signature is None or isinstance(step.signature, str)
        assert step.redacted_data is None or isinstance(step.redacted_data, str)


@cache
def _documents(name: str) -> tuple[Any, ...]:
    """The recording's JSON values: the body, or each SSE event's data that is JSON."""
    body = (CORPUS / name).read_bytes()
    if name.endswith(".json"):
        return (orjson.loads(body),)
    values = []
    for event in iter_sse(body):
        try:
            values.append(orjson.loads(event.data))
        except orjson.JSONDecodeError:
            continue
    return tuple(values)


@cache
def _paths(name: str, document: int) -> tuple[Path_, ...]:
    found: list[Path_] = []

    def walk(value: Any, path: Path_) -> None:
        found.append(path)
        if isinstance(value, dict):
            for key, child in value.items():
                walk(child, (*path, key))
        elif isinstance(value, list):
            for index, child in enumerate(value):
                walk(child, (*path, index))

    walk(_documents(name)[document], ())
    return tuple(found)


def _replace(value: Any, path: Path_, new: Any) -> Any:
    """`value` with the node at `path` replaced by `new` (`_REMOVE`: taken out)."""
    if not path:
        return None if new is _REMOVE else new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        copy = dict(value)
        if rest or new is not _REMOVE:
            copy[head] = _replace(value[head], rest, new)
        else:
            del copy[head]
        return copy
    assert isinstance(head, int)
    items = list(value)
    if rest or new is not _REMOVE:
        items[head] = _replace(value[head], rest, new)
    else:
        del items[head]
    return items


def _at(value: Any, path: Path_) -> Any:
    for step in path:
        value = value[step]
    return value


_REMOVE = object()
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=6,
)


def _mutation(old: Any) -> st.SearchStrategy[Any]:
    """Another type in the place of `old`, nothing at all, a list of it, a string for it."""
    return st.one_of(
        st.just(_REMOVE),
        _VALUES,
        st.just([old]),
        st.just(str(old)),
        st.just({"value": old}),
    )


@st.composite
def mutated_bodies(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(RECORDINGS))
    documents = _documents(name)
    if not documents:
        return (CORPUS / name).read_bytes()
    which = draw(st.integers(0, len(documents) - 1))
    path = draw(st.sampled_from(_paths(name, which)))
    old = _at(documents[which], path)
    new_value = _replace(documents[which], path, draw(_mutation(old)))
    mutated = orjson.dumps(new_value)
    others = [orjson.dumps(d) for d in documents]
    others[which] = mutated
    if name.endswith(".json") and not draw(st.booleans()):
        return mutated
    # As a stream: the documents as SSE events (a .json body becomes one event), maybe
    # closed by OpenAI's [DONE].
    events = b"".join(b"data: " + d + b"\n\n" for d in others)
    return events + (b"data: [DONE]\n\n" if draw(st.booleans()) else b"")


@CONFORMANCE.needed
@FUZZ
@given(st.sampled_from(RECORDINGS), st.data())
def test_truncated_recordings_decode_or_raise_typed(name: str, data: st.DataObject) -> None:
    body = (CORPUS / name).read_bytes()
    cut = data.draw(st.integers(0, len(body)))
    decodes_or_raises_typed(body[:cut])


@CONFORMANCE.needed
@FUZZ
@given(mutated_bodies())
def test_mutated_recordings_decode_or_raise_typed(body: bytes) -> None:
    decodes_or_raises_typed(body)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"null",
        b"[]",
        b"[1, 2]",
        b'"text"',
        b"\xff\xfe",
        b"data: null\n\n",
        b"data: []\n\n",
        b'data: {"choices": "x"}\n\n',
        b'data: {"choices": [null]}\n\n',
        b'data: {"choices": [{"delta": "x", "finish_reason": 1}]}\n\n',
        b'{"choices": [{"message": {"content": {"a": 1}, "tool_calls": "x"}}]}',
        b'{"candidates": [{"content": {"parts": ["x"]}}], "usageMetadata": []}',
        b'{"type": "message", "content": [{"type": "text", "text": 3}], "usage": "x"}',
        b'{"output": [{"type": "message", "content": "x"}], "usage": {"input_tokens": "x"}}',
    ],
)
def test_hostile_bodies_decode_or_raise_typed(body: bytes) -> None:
    decodes_or_raises_typed(body)
