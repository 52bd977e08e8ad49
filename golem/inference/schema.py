"""ResponseSchema: a named JSON Schema checked once, with its strict-mode preflight and a
compiled validator cached per schema."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from golem.inference.errors import InvalidSchema

__all__ = ["ResponseSchema", "SchemaIssue", "strict_preflight"]

_NESTED_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_NESTED_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
_NESTED_ONE = ("items", "not", "additionalItems", "contains")


@dataclass(frozen=True, slots=True)
class SchemaIssue:
    """One problem with a value, located by a JSON pointer into it."""

    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.message}"


@dataclass(frozen=True, eq=False)
class ResponseSchema:
    """A named JSON Schema for a structured answer. Construction checks it."""

    name: str
    schema: Mapping[str, Any]
    strict: bool = True
    description: str = ""
    # Top-level fields a decoder that builds its own grammar may leave out: the decision
    # derives them from the rest of the answer after decoding (counts that must agree with
    # the answer's lists). The schema still requires them of every other provider.
    derived: tuple[str, ...] = ()
    # The schema narrowed by what JSON Schema can say of the decision's content rules
    # (golem.inference.narrow), for a decoder that builds its own grammar; None: none.
    narrowed: Mapping[str, Any] | None = field(default=None, repr=False)
    _key: bytes = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.name or not self.name.strip():
            raise InvalidSchema("a response schema needs a non-empty name")
        if not isinstance(self.schema, Mapping):
            raise InvalidSchema(f"schema {self.name!r} is not a JSON object")
        top = self.schema.get("type")
        if top != "object":
            raise InvalidSchema(
                f"schema {self.name!r} must have type 'object' at the top level, not {top!r}"
            )
        try:
            Draft202012Validator.check_schema(self.schema)
        except SchemaError as exc:
            pointer = "/" + "/".join(str(p) for p in exc.absolute_path)
            raise InvalidSchema(
                f"schema {self.name!r} is not a valid JSON Schema: {exc.message}", path=pointer
            ) from exc
        object.__setattr__(self, "_key", orjson.dumps(self.schema, option=orjson.OPT_SORT_KEYS))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ResponseSchema):
            return NotImplemented
        return (self.name, self.strict, self._key) == (other.name, other.strict, other._key)

    def __hash__(self) -> int:
        return hash((self.name, self._key))

    @property
    def strict_ok(self) -> bool:
        """True when the schema may be sent with `strict: true`."""
        return self.strict and strict_preflight(self.schema) is None

    def validate(self, value: Any) -> list[SchemaIssue]:
        """Every way `value` breaks the schema, each with a JSON pointer (empty when valid)."""
        return _validate_cached(self._key, value)


def _validate_cached(key: bytes, value: Any) -> list[SchemaIssue]:
    validator = _validator(key)
    issues = [
        SchemaIssue("/" + "/".join(str(p) for p in err.absolute_path), err.message)
        for err in validator.iter_errors(value)
    ]
    issues.sort(key=lambda i: i.pointer)
    return issues


@lru_cache(maxsize=256)
def _validator(key: bytes) -> Draft202012Validator:
    # Compiled once per distinct schema: jsonschema.validate() would re-check the
    # schema itself on every call (about 3.7 ms against about 0.1 ms here).
    return Draft202012Validator(orjson.loads(key))


def strict_preflight(schema: Mapping[str, Any]) -> str | None:
    """The JSON pointer of the first place that breaks strict mode, or None if it passes.

    Strict mode (OpenAI, Venice) needs every object to set `additionalProperties: false`
    and to list every property in `required`.
    """
    for pointer, node in _walk(schema, ""):
        if not _is_object_schema(node):
            continue
        if node.get("additionalProperties", True) is not False:
            return pointer or "/"
        props = node.get("properties", {})
        required = set(node.get("required", ()))
        for name in props:
            if name not in required:
                return f"{pointer}/properties/{_escape(name)}"
    return None


def _is_object_schema(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def _walk(node: Any, pointer: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    if not isinstance(node, Mapping):
        return
    yield pointer, node
    for key in _NESTED_MAPS:
        children = node.get(key)
        if isinstance(children, Mapping):
            for name, child in children.items():
                yield from _walk(child, f"{pointer}/{key}/{_escape(name)}")
    for key in _NESTED_LISTS:
        children = node.get(key)
        if isinstance(children, list):
            for i, child in enumerate(children):
                yield from _walk(child, f"{pointer}/{key}/{i}")
    for key in _NESTED_ONE:
        child = node.get(key)
        if isinstance(child, Mapping):
            yield from _walk(child, f"{pointer}/{key}")


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")
