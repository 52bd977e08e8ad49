"""The schema a local decoder is given: the decision's schema with every free-text field,
array and number bounded, so no value can run on until max_tokens truncates the JSON; and
which of the schema's keywords each decoding backend leaves unenforced."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import orjson

__all__ = [
    "Backend",
    "DecoderBounds",
    "bounded_schema",
    "ignored_keywords",
    "longest_answer",
]


class Backend(StrEnum):
    """How the local model is held to a schema while decoding."""

    LLGUIDANCE = "llguidance"  # a token mask per step from llguidance (fast)
    LLAMA_GRAMMAR = "llama-grammar"  # llama.cpp's own GBNF grammar from the schema


@dataclass(frozen=True, slots=True)
class DecoderBounds:
    """Limits applied to the schema sent to the decoder (never to client-side validation,
    which keeps the decision's own schema). Existing bounds are tightened to these."""

    max_string_chars: int = 200
    max_array_items: int = 5
    answer_chars: int = 1200  # longest whole answer; caps shrink until the schema fits
    number_limit: float = 1e9  # |x| bound for a number without minimum/maximum
    number_step: float = 1e-4  # multipleOf for a number without one: at most 4 decimals


# Keywords that only annotate, or that decoding satisfies by construction.
_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "$schema", "$id"})
_STRUCTURE = frozenset({"type", "properties", "required", "additionalProperties", "items"})
_COMBINATORS = frozenset({"anyOf", "oneOf", "allOf", "$defs", "definitions", "$ref"})
_ENFORCED: Mapping[Backend, frozenset[str]] = {
    Backend.LLGUIDANCE: _ANNOTATIONS
    | _STRUCTURE
    | _COMBINATORS
    | {"enum", "const", "prefixItems", "minItems", "maxItems", "minLength", "maxLength"}
    | {"pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    | {"multipleOf", "minProperties", "maxProperties"},
    # llama.cpp's converter (llama_cpp.llama_grammar) builds no rule for number ranges.
    Backend.LLAMA_GRAMMAR: _ANNOTATIONS
    | _STRUCTURE
    | _COMBINATORS
    | {"enum", "const", "prefixItems", "minItems", "maxItems", "minLength", "maxLength"}
    | {"pattern", "format"},
}
_MIN_STRING_CAP = 24
_NUMBER_CHARS = 12  # a bounded number with a few decimals
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_ONE = ("items", "not", "contains", "additionalProperties", "propertyNames")


def bounded_schema(schema: Mapping[str, Any], bounds: DecoderBounds) -> dict[str, Any]:
    """A copy of `schema` whose strings, arrays and numbers are all bounded by `bounds`,
    with the string and array caps lowered until the longest answer the schema allows fits
    in `answer_chars` (a decision with many lists gets shorter lists and strings).

    Every value the result accepts is accepted by `schema`: bounds are only ever added or
    tightened, never loosened past the original's (a minLength above the cap wins)."""
    bounded: dict[str, Any] = _bound(schema, bounds)
    while longest_answer(bounded) > bounds.answer_chars:
        chars = max(_MIN_STRING_CAP, bounds.max_string_chars * 3 // 4)
        items = max(1, bounds.max_array_items - 1)
        if (chars, items) == (bounds.max_string_chars, bounds.max_array_items):
            break  # as tight as it goes; the floors of the schema itself decide the rest
        bounds = replace(bounds, max_string_chars=chars, max_array_items=items)
        bounded = _bound(schema, bounds)
    return bounded


def longest_answer(schema: Mapping[str, Any]) -> int:
    """The length of the longest compact JSON `schema` admits (escapes aside), in chars."""
    options = [
        o for key in ("anyOf", "oneOf") for o in schema.get(key, ()) if isinstance(o, Mapping)
    ]
    if options:
        return max(longest_answer(option) for option in options)
    if "enum" in schema or "const" in schema:
        values = schema.get("enum", [schema.get("const")])
        return max(len(orjson.dumps(v)) for v in values)
    kinds = _types(schema)
    sizes = [_longest_of(kind, schema) for kind in kinds] or [_NUMBER_CHARS]
    return max(sizes)


def _longest_of(kind: str, schema: Mapping[str, Any]) -> int:
    if kind == "object":
        properties = schema.get("properties", {})
        fields = sum(len(name) + 3 + longest_answer(sub) for name, sub in properties.items())
        return 2 + fields + max(0, len(properties) - 1)
    if kind == "array":
        items = schema.get("items")
        each = longest_answer(items) if isinstance(items, Mapping) else _NUMBER_CHARS
        count = int(schema.get("maxItems", 1))
        return 2 + count * (each + 1)
    if kind == "string":
        return 2 + int(schema.get("maxLength", 0))
    if kind == "boolean":
        return 5
    if kind == "null":
        return 4
    return _NUMBER_CHARS


def ignored_keywords(schema: Mapping[str, Any], backend: Backend) -> list[str]:
    """The keywords in `schema` that `backend` does not enforce while decoding, sorted."""
    enforced = _ENFORCED[backend]
    return sorted({key for node in _nodes(schema) for key in node if key not in enforced})


def _bound(node: Any, bounds: DecoderBounds) -> Any:
    if isinstance(node, list):
        return [_bound(item, bounds) for item in node]
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _SCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {name: _bound(sub, bounds) for name, sub in value.items()}
        elif key in ("enum", "const", "examples", "default", "required"):
            out[key] = value
        else:
            out[key] = _bound(value, bounds)
    kinds = _types(out)
    # A pattern is capped too: llguidance enforces both (the local grammar's word patterns).
    if "string" in kinds and "enum" not in out and "const" not in out:
        out["maxLength"] = _cap(out.get("maxLength"), bounds.max_string_chars, out.get("minLength"))
    if "array" in kinds:
        out["maxItems"] = _cap(out.get("maxItems"), bounds.max_array_items, out.get("minItems"))
    if kinds & {"number", "integer"} and "enum" not in out and "const" not in out:
        if "minimum" not in out and "exclusiveMinimum" not in out:
            out["minimum"] = -bounds.number_limit
        if "maximum" not in out and "exclusiveMaximum" not in out:
            out["maximum"] = bounds.number_limit
        if "number" in kinds and "multipleOf" not in out:
            out["multipleOf"] = bounds.number_step
    return out


def _cap(current: Any, cap: int, floor: Any) -> int:
    limit = cap if not isinstance(current, int) else min(current, cap)
    return max(limit, floor) if isinstance(floor, int) else limit


def _types(node: Mapping[str, Any]) -> set[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    return set()


def _nodes(node: Any) -> Iterator[Mapping[str, Any]]:
    if not isinstance(node, Mapping):
        return
    yield node
    for key in _SCHEMA_MAPS:
        children = node.get(key)
        if isinstance(children, Mapping):
            for child in children.values():
                yield from _nodes(child)
    for key in _SCHEMA_LISTS:
        children = node.get(key)
        if isinstance(children, list):
            for child in children:
                yield from _nodes(child)
    for key in _SCHEMA_ONE:
        yield from _nodes(node.get(key))
