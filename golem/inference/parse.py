"""From a model's text to a typed decision: the fast path for enforced output, tolerant
extraction otherwise, and the decision type's own `from_text` as the last resort."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, NamedTuple, TypeVar

import orjson
from pydantic import ValidationError

from golem.inference.errors import StructuredOutputInvalid, UnparseableOutput
from golem.inference.extract import extract_json
from golem.inference.structured import StructuredOutput, validation_issues

__all__ = ["Parsed", "parse_response", "parse_value"]

T = TypeVar("T", bound=StructuredOutput)


class Parsed(NamedTuple, Generic[T]):
    value: T
    repairs: tuple[str, ...]


def parse_response(decision: type[T], text: str, schema_enforced: bool = False) -> Parsed[T]:
    """Read a `decision` out of `text`. Raises StructuredOutputInvalid naming every
    problem when neither the JSON nor the free text yields a valid decision."""
    if schema_enforced:
        try:
            return Parsed(decision.model_validate_json(text), ())
        except ValidationError as exc:
            if _is_json(text):
                # Well-formed JSON the provider let through: a schema violation to re-ask,
                # not a formatting problem to repair.
                raise _invalid(decision, text, [str(i) for i in validation_issues(exc)]) from exc
    try:
        extracted = extract_json(text, keys=decision.model_fields.keys())
    except UnparseableOutput as exc:
        return _from_text(decision, text, [f"no JSON object found: {exc}"])
    try:
        return Parsed(decision.model_validate(extracted.value), extracted.repairs)
    except ValidationError as exc:
        errors = [str(i) for i in validation_issues(exc)]
        return _from_text(decision, text, errors, extracted.value)


def parse_value(decision: type[T], value: Mapping[str, Any], raw: str) -> T:
    """Validate an already-decoded value (a tool call's input)."""
    try:
        return decision.model_validate(value)
    except ValidationError as exc:
        errors = [str(i) for i in validation_issues(exc)]
        raise _invalid(decision, raw, errors, value) from exc


def _from_text(decision: type[T], text: str, errors: list[str], value: Any = None) -> Parsed[T]:
    try:
        return Parsed(decision.from_text(text), ("from_text",))
    except (UnparseableOutput, ValidationError, ValueError) as exc:
        raise _invalid(decision, text, errors, value) from exc


def _invalid(
    decision: type[StructuredOutput], raw: str, errors: list[str], value: Any = None
) -> StructuredOutputInvalid:
    schema = decision.response_schema()
    return StructuredOutputInvalid(
        f"the answer is not a valid {schema.name}: " + "; ".join(errors),
        schema=schema.schema,
        raw=raw,
        errors=errors,
        last_value=value,
        attempts=1,
    )


def _is_json(text: str) -> bool:
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True
