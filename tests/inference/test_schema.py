"""ResponseSchema construction, the strict preflight and the cached validators."""

from __future__ import annotations

from typing import Any

import pytest

from golem.inference import InvalidSchema, ResponseSchema, strict_preflight

CLOSED: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "string"}},
    "required": ["a"],
    "additionalProperties": False,
}


def test_valid_schema_is_accepted_and_strict() -> None:
    schema = ResponseSchema("answer", CLOSED)
    assert schema.strict_ok
    assert schema.validate({"a": "x"}) == []


@pytest.mark.parametrize("name", ["", "   "])
def test_empty_name_is_rejected(name: str) -> None:
    with pytest.raises(InvalidSchema, match="non-empty name"):
        ResponseSchema(name, CLOSED)


@pytest.mark.parametrize("schema", [{"type": "array"}, {"type": "string"}, {}])
def test_non_object_top_level_is_rejected(schema: dict[str, Any]) -> None:
    with pytest.raises(InvalidSchema, match="type 'object'"):
        ResponseSchema("answer", schema)


def test_invalid_json_schema_is_rejected_with_its_path() -> None:
    bad = {"type": "object", "properties": {"a": {"type": "strng"}}}
    with pytest.raises(InvalidSchema) as caught:
        ResponseSchema("answer", bad)
    assert caught.value.path == "/properties/a/type"
    assert "not a valid JSON Schema" in str(caught.value)


def test_validation_errors_carry_pointers() -> None:
    schema = ResponseSchema("answer", CLOSED)
    issues = schema.validate({"a": 3, "b": 1})
    assert [i.pointer for i in issues] == ["/", "/a"]
    assert "3 is not of type 'string'" in str(issues[1])


def test_validator_is_compiled_once_per_schema() -> None:
    from golem.inference.schema import _validator

    ResponseSchema("one", CLOSED).validate({"a": "x"})
    before = _validator.cache_info().hits
    ResponseSchema("two", dict(CLOSED)).validate({"a": "y"})
    assert _validator.cache_info().hits == before + 1


def test_strict_passes_for_a_closed_schema() -> None:
    assert strict_preflight(CLOSED) is None


def test_strict_fails_on_an_open_object() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert strict_preflight(schema) == "/"


def test_strict_fails_on_a_property_missing_from_required() -> None:
    schema = {**CLOSED, "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
    assert strict_preflight(schema) == "/properties/b"


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        ({**CLOSED, "properties": {"a": {"type": "object", "properties": {}}}}, "/properties/a"),
        (
            {**CLOSED, "properties": {"a": {"type": "array", "items": {"type": "object"}}}},
            "/properties/a/items",
        ),
        (
            {**CLOSED, "properties": {"a": {"anyOf": [{"type": "null"}, {"type": "object"}]}}},
            "/properties/a/anyOf/1",
        ),
        ({**CLOSED, "allOf": [{"type": "object", "properties": {"x": {}}}]}, "/allOf/0"),
        ({**CLOSED, "oneOf": [CLOSED, {"properties": {"y": {}}}]}, "/oneOf/1"),
        ({**CLOSED, "$defs": {"Inner": {"type": "object", "properties": {}}}}, "/$defs/Inner"),
    ],
)
def test_strict_recurses_everywhere(schema: dict[str, Any], pointer: str) -> None:
    assert strict_preflight(schema) == pointer


def test_non_strict_schema_is_not_sent_strict() -> None:
    loose = ResponseSchema("loose", {"type": "object", "properties": {"a": {}}})
    assert not loose.strict_ok
    assert not ResponseSchema("closed", CLOSED, strict=False).strict_ok


def test_equal_schemas_compare_and_hash_equal() -> None:
    assert ResponseSchema("x", CLOSED) == ResponseSchema("x", dict(CLOSED))
    assert len({ResponseSchema("x", CLOSED), ResponseSchema("x", dict(CLOSED))}) == 1
