"""What a decision's schema can say of its content rules: a narrower schema, built from
the strict one, that a decoder building its own grammar uses instead (the local model),
so an answer breaking a rule the grammar can state is never decoded. The schema itself
stays the contract sent to every other provider; `validate_content` still checks every
answer, the rules a grammar cannot state (a cause that is its own effect) included.

    either(schema,
        {"/approved": keywords(const=True), "/layers/hard_shields/passed": keywords(const=True)},
        {"/approved": keywords(const=False), "/warnings": keywords(minItems=1)},
    )

Every change only adds keywords or alternatives to a node, so whatever the narrowed
schema accepts, the original accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from golem.inference.errors import InvalidSchema

__all__ = ["Change", "either", "keywords", "narrowed"]

# A node of the schema -> the node narrowed.
Change = Callable[[Mapping[str, Any]], dict[str, Any]]


def keywords(**added: Any) -> Change:
    """A change adding `added` to the node (a keyword it had is replaced: tightened)."""
    return lambda node: {**node, **added}


def narrowed(schema: Mapping[str, Any], changes: Mapping[str, Change]) -> dict[str, Any]:
    """`schema` with each change applied at its pointer (property names from the root,
    `*` for every item of an array)."""
    out = dict(schema)
    for pointer, change in changes.items():
        out = _apply(out, [part for part in pointer.split("/") if part], change, pointer)
    return out


def either(schema: Mapping[str, Any], *variants: Mapping[str, Change]) -> dict[str, Any]:
    """`schema` as alternatives: an answer is one of `variants` (each a set of changes)."""
    return {"anyOf": [narrowed(schema, variant) for variant in variants]}


def _apply(node: Mapping[str, Any], parts: list[str], change: Change, pointer: str) -> Any:
    if not parts:
        return change(node)
    if parts[0] == "*" and isinstance(node.get("items"), Mapping):
        return {**node, "items": _apply(node["items"], parts[1:], change, pointer)}
    properties = node.get("properties")
    if not isinstance(properties, Mapping) or parts[0] not in properties:
        raise InvalidSchema(f"a narrowing names {pointer!r}, which the schema does not have")
    head = parts[0]
    return {
        **node,
        "properties": {**properties, head: _apply(properties[head], parts[1:], change, pointer)},
    }
