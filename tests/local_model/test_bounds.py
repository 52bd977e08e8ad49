"""The decoder's schema, without the model: every string, array and number bounded, never
loosened, fitted to the answer budget; the keywords each backend ignores; the outline and
Gemma prompt a small model is given."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

import golem.subsystems
from golem.inference import Message
from golem.inference.local.bounds import (
    Backend,
    DecoderBounds,
    bounded_schema,
    ignored_keywords,
    longest_answer,
)
from golem.inference.local.model import gemma_prompt
from golem.inference.local.outline import schema_outline
from golem.inference.schema import ResponseSchema

DECISIONS = golem.subsystems.DECISIONS
LOOSE = {
    "type": "object",
    "properties": {
        "note": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 500}},
        "score": {"type": "number"},
        "count": {"type": "integer", "minimum": 0},
        "kind": {"enum": ["a", "b"]},
        "code": {"type": "string", "minLength": 300},
    },
}


def _nodes(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        return [node, *(n for value in node.values() for n in _nodes(value))]
    if isinstance(node, list):
        return [n for value in node for n in _nodes(value)]
    return []


def test_unbounded_values_get_bounds_and_bounded_ones_keep_theirs() -> None:
    bounded = bounded_schema(LOOSE, DecoderBounds(answer_chars=10_000))
    props = bounded["properties"]
    assert props["note"]["maxLength"] == 200
    assert props["tags"]["maxItems"] == 5 and props["tags"]["items"]["maxLength"] == 200
    assert props["score"] | {"minimum": -1e9, "maximum": 1e9, "multipleOf": 1e-4} == props["score"]
    assert props["count"]["minimum"] == 0 and "multipleOf" not in props["count"]
    assert "maxLength" not in props["kind"]
    assert props["code"]["maxLength"] == 300  # a floor above the cap wins


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: d.response_schema().name)
def test_every_decision_is_bounded_and_fits_the_budget(decision: Any) -> None:
    original = decision.response_schema().schema
    bounded = bounded_schema(original, DecoderBounds())
    ResponseSchema("bounded", bounded)  # still a valid JSON Schema
    assert longest_answer(bounded) <= DecoderBounds().answer_chars
    for node in _nodes(bounded):
        kind = node.get("type")
        if kind == "string" and "enum" not in node:
            assert "maxLength" in node, node
        if kind == "array":
            assert "maxItems" in node, node
        if kind == "number":
            assert {"minimum", "maximum", "multipleOf"} <= set(node), node


@given(st.integers(1, 400), st.integers(0, 9), st.integers(100, 5000))
def test_bounds_only_tighten(chars: int, items: int, budget: int) -> None:
    bounds = DecoderBounds(max_string_chars=chars, max_array_items=items, answer_chars=budget)
    for decision in DECISIONS:
        original = _nodes(dict(decision.response_schema().schema))
        for before, after in zip(
            original, _nodes(bounded_schema(original[0], bounds)), strict=False
        ):
            for key in ("maxLength", "maxItems", "maximum"):
                if key in before and key in after:
                    assert after[key] <= before[key]
            for key in ("minLength", "minItems", "minimum"):
                if key in before:
                    assert after[key] >= before[key]


def test_ignored_keywords_per_backend() -> None:
    schema = bounded_schema(
        LOOSE
        | {"properties": {**LOOSE["properties"], "u": {"type": "array", "uniqueItems": True}}},
        DecoderBounds(),
    )
    assert ignored_keywords(schema, Backend.LLAMA_GRAMMAR) == [
        "maximum",
        "minimum",
        "multipleOf",
        "uniqueItems",
    ]
    assert ignored_keywords(schema, Backend.LLGUIDANCE) == ["uniqueItems"]


def test_outline_names_every_field_with_its_choices_and_range() -> None:
    schema = golem.subsystems.HeartbeatDecision.response_schema().schema
    outline = schema_outline("heartbeat_decision", bounded_schema(schema, DecoderBounds()))
    assert outline.startswith("Answer with one JSON object, a heartbeat_decision")
    for field in schema["properties"]:
        assert f"- {field}: " in outline
    assert "one of none|low|moderate|high|critical" in outline
    assert "number from 0 to 1" in outline
    assert "  - source: short text" in outline  # a signal's fields, indented


def test_gemma_prompt_folds_the_system_text_into_the_first_user_turn() -> None:
    prompt = gemma_prompt(
        (
            Message.system("Be brief."),
            Message.user("Hi"),
            Message.assistant('{"a": 1}'),
            Message.user("Again"),
        )
    )
    assert prompt == (
        "<start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n"
        '<start_of_turn>model\n{"a": 1}<end_of_turn>\n'
        "<start_of_turn>user\nAgain<end_of_turn>\n"
        "<start_of_turn>model\n"
    )


def test_the_decoder_schema_is_deterministic() -> None:
    schema = golem.subsystems.RiskAssessment.response_schema().schema
    first = orjson.dumps(bounded_schema(schema, DecoderBounds()))
    assert first == orjson.dumps(bounded_schema(schema, DecoderBounds()))
