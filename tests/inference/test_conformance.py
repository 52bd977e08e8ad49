"""The conformance corpus: 391 real provider responses recorded by other projects' test
suites (../shared/fixtures/conformance, provenance in its SOURCES.md), each decoded by
`golem.inference.decode` and compared field by field with what `expected.json` says the
recording holds, read from the recording alone. Every `.sse` file also decodes to the same
outcome under seeded random chunkings and one byte at a time.

How an expected.json entry maps onto the outcome of `decode(provider, body, stream=...,
status=...)`, where the outcome is a Response or a raised exception:

- `status` >= 400, or `error` set: decode raises; the exception is an instance of one of
  `error.golem_class` (names in golem.inference.errors) and `error.message`, when given,
  is part of its text. `in_band` errors arrive in a 200 body or mid-stream.
- `refusal` set: decode raises `Refusal`; its `.refusal` holds the text (for Gemini's
  blocked prompt, written `(prompt blocked: REASON)`, it names REASON).
- `content`: `Response.content` verbatim (an empty text is no text: None). With the
  provider's `think_tags` quirk on, an
  `inline_think` entry gives the split instead: content without the `<think>` block, and
  its text as the reasoning (whitespace at the edges aside).
- `tool_calls`: `Response.tool_calls` in order: name and arguments equal, the id equal
  when the recording has one. These are the calls the caller must execute, so they never
  include `server_tool_calls` (tools the provider ran itself: Anthropic server_tool_use,
  Responses web_search_call, Gemini executableCode, ...).
- `server_tool_calls`: `Response.server_tool_calls` in order, as (name, provider type).
  The corpus lists a Gemini call's result (codeExecutionResult, toolResponse) as an entry
  of its own; golem keeps it as the `result` of its call, so those entries are dropped.
- `finish_ok`: the FinishReason values that are right for the recording (its raw reason
  is `finish_reason_raw`); empty for an error.
- `model`: `Response.model`, when the recording names one.
- `usage`: the provider's raw counts. golem's `Usage` counts input with cache reads and
  writes included (Anthropic's `input_tokens` excludes them) and Gemini's tool-use prompt
  (expected.json's Gemini `input_tokens` holds it already, `tool_use_prompt_tokens` is the
  part of it); `cached_input_tokens` is the cache read (`cached_tokens`,
  `cache_read_input_tokens`); `output_tokens` excludes reasoning, so for OpenAI and
  Anthropic, whose output count includes it, golem's output + reasoning is the raw output,
  while Gemini's candidates count excludes thoughts already. A null count is zero.
- `reasoning`: `present` says whether there was reasoning at all (the chain's visibility
  is not NONE: a step, or reasoning tokens spent unseen); `text` is the
  visible (or summarised) reasoning text, compared with the chain's steps joined without
  whitespace differences; a `summary` kind needs a summarised step, `encrypted` an opaque
  one.
- `signatures`: the steps' signatures, in order. `opaque_data`: redacted or encrypted
  payloads that must reach the steps' `redacted_data`, in order (golem may keep more: the
  corpus lists Anthropic's and OpenRouter's, not the Responses API's encrypted_content).
- `notes`, `endpoint`, `format`, `finish_reason_raw`: provenance, not compared.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from golem.inference import errors
from golem.inference.errors import ProviderError, Refusal
from golem.inference.providers import default_registry
from golem.inference.reasoning import Visibility
from golem.inference.types import Response
from golem.inference.wire import StreamDecoder, decode
from tests.fixtures import CONFORMANCE

CORPUS = CONFORMANCE.path
EXPECTED: dict[str, dict[str, Any]] = (
    json.loads((CORPUS / "expected.json").read_bytes()) if CONFORMANCE.present else {}
)
NAMES = sorted(EXPECTED)
STREAMS = [name for name in NAMES if name.endswith(".sse")]
CHUNKINGS = 20


@dataclass(frozen=True)
class Outcome:
    """What one decode gave: a Response, or the exception it raised."""

    response: Response | None = None
    error: BaseException | None = None

    def key(self) -> object:
        """Comparable across decodes: the Response, or the exception's type and text."""
        if self.error is not None:
            return (type(self.error), str(self.error))
        return self.response


def _decode(name: str, chunks: Iterator[bytes] | None = None) -> Outcome:
    entry = EXPECTED[name]
    body = (CORPUS / name).read_bytes()
    try:
        if chunks is None:
            response = decode(
                entry["provider"], body, stream=entry["stream"], status=entry["status"]
            )
        else:
            decoder = StreamDecoder(entry["provider"])
            for chunk in chunks:
                decoder.feed(chunk)
            response = decoder.finish()
    except ProviderError as exc:
        return Outcome(error=exc)
    return Outcome(response=response)


@cache
def _think_tags(provider: str) -> bool:
    return bool(default_registry().profile(provider).quirks.get("think_tags"))


def _squash(text: str | None) -> str:
    return re.sub(r"\s+", "", text or "")


_RESULT_ENTRIES = frozenset({"codeExecutionResult", "toolResponse"})  # results, not calls


def mismatches(name: str, outcome: Outcome) -> list[str]:
    """Every field where golem's decode differs from expected.json (empty: conformant)."""
    entry = EXPECTED[name]
    if entry["error"] or entry["status"] >= 400:
        return _error_mismatches(entry, outcome)
    if entry["refusal"]:
        return _refusal_mismatches(entry, outcome)
    if outcome.error is not None:
        return [f"raised {type(outcome.error).__name__}: {outcome.error}"]
    assert outcome.response is not None
    return _response_mismatches(entry, outcome.response)


def _error_mismatches(entry: dict[str, Any], outcome: Outcome) -> list[str]:
    error = entry["error"] or {}
    if outcome.error is None:
        return [f"decoded to a Response, expected {error.get('golem_class')}"]
    classes = tuple(getattr(errors, c) for c in error.get("golem_class") or ["ProviderError"])
    found: list[str] = []
    if not isinstance(outcome.error, classes):
        found.append(f"raised {type(outcome.error).__name__}, expected one of {classes}")
    message = error.get("message")
    if message and message not in str(outcome.error):
        found.append(f"error text {str(outcome.error)!r} lacks {message!r}")
    return found


def _refusal_mismatches(entry: dict[str, Any], outcome: Outcome) -> list[str]:
    if not isinstance(outcome.error, Refusal):
        got = type(outcome.error).__name__ if outcome.error else "a Response"
        return [f"expected Refusal, got {got}"]
    refusal: str = entry["refusal"]
    blocked = re.fullmatch(r"\(prompt blocked: (.*)\)", refusal)
    wanted = blocked.group(1) if blocked else refusal
    if wanted not in outcome.error.refusal:
        return [f"refusal {outcome.error.refusal!r} lacks {wanted!r}"]
    return []


def _response_mismatches(entry: dict[str, Any], response: Response) -> list[str]:
    found: list[str] = []

    def check(field: str, got: object, want: object) -> None:
        if got != want:
            found.append(f"{field}: got {got!r}, expected {want!r}")

    inline = entry.get("inline_think")
    reasoning = entry["reasoning"]
    if inline and _think_tags(entry["provider"]):
        check("content", _squash(response.content), _squash(inline["content"]))
        want_reasoning = inline["reasoning"]
    else:
        check("content", response.content or None, entry["content"] or None)
        want_reasoning = reasoning["text"]
    if entry["model"]:
        check("model", response.model, entry["model"])
    check(
        "tool_calls",
        [(c.name, dict(c.arguments)) for c in response.tool_calls],
        [(c["name"], c["arguments"]) for c in entry["tool_calls"]],
    )
    ids = [c["id"] for c in entry["tool_calls"]]
    if len(ids) == len(response.tool_calls):
        for got_call, want_id in zip(response.tool_calls, ids, strict=True):
            if want_id:
                check("tool call id", got_call.id, want_id)
    check(
        "server_tool_calls",
        [(c.name, c.provider_type) for c in response.server_tool_calls],
        [
            (c["name"], c["type"])
            for c in entry["server_tool_calls"]
            if c["type"] not in _RESULT_ENTRIES
        ],
    )
    if response.finish_reason.value not in entry["finish_ok"]:
        found.append(f"finish_reason: got {response.finish_reason.value}, ok {entry['finish_ok']}")
    if entry["usage"]:
        check("usage", _golem_usage(response), _expected_usage(entry["format"], entry["usage"]))
    chain = response.reasoning
    steps = chain.steps
    present = chain.visibility is not Visibility.NONE
    check("reasoning present", present, bool(reasoning["present"] or want_reasoning))
    shown = "".join(s.text for s in steps if s.visibility is not Visibility.OPAQUE)
    check("reasoning text", _squash(shown), _squash(want_reasoning))
    if "summary" in reasoning["kinds"]:
        check("summarised step", any(s.visibility is Visibility.SUMMARIZED for s in steps), True)
    check("signatures", [s.signature for s in steps if s.signature], entry["signatures"])
    kept = iter(s.redacted_data for s in steps if s.redacted_data)
    lost = [data[:40] for data in entry["opaque_data"] if data not in kept]
    check("opaque data lost", lost, [])
    return found


def _golem_usage(response: Response) -> dict[str, int]:
    usage = response.usage
    return {
        "input": usage.input_tokens,
        "cached": usage.cached_input_tokens,
        "output with reasoning": usage.output_tokens + usage.reasoning_tokens,
        "reasoning": usage.reasoning_tokens,
    }


def _expected_usage(wire_format: str, raw: dict[str, int | None]) -> dict[str, int]:
    def n(key: str) -> int:
        return raw.get(key) or 0

    if wire_format == "anthropic":
        read, written = n("cache_read_input_tokens"), n("cache_creation_input_tokens")
        return {
            "input": n("input_tokens") + read + written,
            "cached": read,
            "output with reasoning": n("output_tokens"),
            "reasoning": n("reasoning_tokens"),
        }
    if wire_format == "gemini":
        return {
            "input": n("input_tokens"),
            "cached": n("cached_tokens"),
            "output with reasoning": n("output_tokens") + n("reasoning_tokens"),
            "reasoning": n("reasoning_tokens"),
        }
    return {
        "input": n("input_tokens"),
        "cached": n("cached_tokens"),
        "output with reasoning": n("output_tokens"),
        "reasoning": n("reasoning_tokens"),
    }


def test_the_corpus_is_complete() -> None:
    CONFORMANCE.require()
    files = sorted(
        str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*") if p.suffix in (".json", ".sse")
    )
    assert [f for f in files if f != "expected.json"] == NAMES
    assert len(NAMES) == 391
    assert (CORPUS / "SOURCES.md").is_file()


@pytest.mark.parametrize("name", CONFORMANCE.cases(NAMES), ids=str)
def test_recording_decodes_as_expected(name: str) -> None:
    outcome = _decode(name)
    assert not mismatches(name, outcome)


@pytest.mark.parametrize("name", CONFORMANCE.cases(STREAMS), ids=str)
def test_stream_decodes_the_same_under_random_chunkings(name: str) -> None:
    body = (CORPUS / name).read_bytes()
    whole = _decode(name, iter([body])).key()
    rng = random.Random(name)
    for _ in range(CHUNKINGS):
        cuts = sorted(rng.sample(range(1, len(body)), rng.randint(1, min(40, len(body) - 1))))
        bounds = [0, *cuts, len(body)]
        chunks = (body[a:b] for a, b in itertools.pairwise(bounds))
        assert _decode(name, chunks).key() == whole
    one_byte_chunks = (body[i : i + 1] for i in range(len(body)))
    assert _decode(name, one_byte_chunks).key() == whole
