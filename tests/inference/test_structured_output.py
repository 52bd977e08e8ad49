"""StructuredOutput: strict schema generation, the registry, parsing entry points."""

from __future__ import annotations

from typing import Any, Literal

import orjson
import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel, Field, ValidationError

from golem.inference import (
    StructuredOutput,
    StructuredOutputInvalid,
    get_schema,
    parse_response,
    registered_schemas,
    strict_preflight,
)

from .decisions import VALID, Pulse


def test_generated_schema_is_strict_and_valid() -> None:
    schema = Pulse.schema()
    assert strict_preflight(schema) is None
    Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == set(Pulse.model_fields)


def test_of_and_json_fields_are_model_validate_and_model_dump() -> None:
    pulse = Pulse.of(VALID)
    assert pulse == Pulse.model_validate(VALID)
    with pytest.raises(ValidationError):
        Pulse.of(VALID | {"confidence": 2})
    first = pulse.json_fields()
    assert first == pulse.model_dump(mode="json")
    first["extra"] = 1  # a caller's copy: the next line's dump is unchanged
    assert pulse.json_fields() == pulse.model_dump(mode="json")
    other = Pulse.of(VALID | {"severity": "low", "escalate": False})
    assert other.json_fields()["severity"] == "low"


def test_optional_field_is_type_or_null_and_required() -> None:
    note = Pulse.schema()["properties"]["note"]
    assert {"type": "null"} in note["anyOf"]
    assert "note" in Pulse.schema()["required"]


def test_nested_models_and_enums_are_inlined_without_refs() -> None:
    text = orjson.dumps(Pulse.schema()).decode()
    assert "$ref" not in text and "$defs" not in text
    signal = Pulse.schema()["properties"]["signals"]["items"]
    assert signal["additionalProperties"] is False
    assert Pulse.schema()["properties"]["severity"]["enum"] == ["low", "medium", "high", "critical"]


def test_defaults_and_titles_are_dropped_but_property_names_kept() -> None:
    class Titled(StructuredOutput):
        title: str = "x"
        default: int = 0

    schema = Titled.schema()
    assert set(schema["properties"]) == {"title", "default"}
    assert "title" not in schema and "default" not in schema["properties"]["default"]


def test_schema_is_a_copy() -> None:
    Pulse.schema()["properties"].clear()
    assert Pulse.schema()["properties"]


def test_registry_holds_named_types_only() -> None:
    class Helper(StructuredOutput):
        x: int

    assert registered_schemas()["test_pulse"] is Pulse
    assert get_schema("test_pulse") is Pulse
    assert Helper not in registered_schemas().values()
    with pytest.raises(KeyError, match="unknown schema 'nope'"):
        get_schema("nope")


def test_from_json_is_lax_where_the_schema_allows() -> None:
    decision = Pulse.from_json(orjson.dumps({**VALID, "confidence": "0.72"}))
    assert decision.confidence == 0.72


def test_from_json_rejects_unknown_fields() -> None:
    with pytest.raises(ValidationError):
        Pulse.from_json(orjson.dumps({**VALID, "extra": 1}))


def test_prompt_guidance_names_the_schema() -> None:
    guidance = Pulse.prompt_guidance()
    assert "test_pulse" in guidance
    assert orjson.dumps(Pulse.response_schema().schema).decode() in guidance


def test_base_from_text_raises_a_typed_error() -> None:
    class Bare(StructuredOutput):
        x: int

    with pytest.raises(StructuredOutputInvalid):
        parse_response(Bare, "no json here")


def test_validate_content_issues_have_pointers() -> None:
    decision = Pulse.model_validate({**VALID, "severity": "low"})
    assert [str(i) for i in decision.validate_content()] == [
        "/escalate: escalation needs severity high or critical"
    ]


class Mixed(StructuredOutput):
    kind: Literal["a", "b"]
    items: list[int] = Field(max_length=3)
    nested: dict[str, Any] | None = None


def test_literal_and_bounds_survive() -> None:
    schema = Mixed.schema()
    assert schema["properties"]["kind"]["enum"] == ["a", "b"]
    assert schema["properties"]["items"]["maxItems"] == 3


class Inner(BaseModel):
    value: float


class Outer(StructuredOutput):
    inner: Inner
    inners: list[Inner]


def test_plain_pydantic_submodels_are_closed_too() -> None:
    schema = Outer.schema()
    assert strict_preflight(schema) is None
    assert schema["properties"]["inners"]["items"]["additionalProperties"] is False
