"""A schema as a few lines of plain text for a small model's prompt: each field with its
kind, choices, range and description. The decoder enforces the shape; the outline tells
the model what the fields mean, at a fraction of the JSON Schema's prompt tokens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["schema_outline"]


def schema_outline(name: str, schema: Mapping[str, Any]) -> str:
    """`Answer with one JSON object, a <name>:` and one line per field."""
    lines = [f"Answer with one JSON object, a {name}, with these fields:"]
    lines += _fields(schema, "")
    return "\n".join(lines)


def _fields(schema: Mapping[str, Any], indent: str) -> list[str]:
    lines: list[str] = []
    for field, sub in schema.get("properties", {}).items():
        lines.append(f"{indent}- {field}: {_kind(sub)}{_about(sub)}")
        item = sub.get("items") if isinstance(sub.get("items"), Mapping) else None
        target = item if item is not None else sub
        if isinstance(target, Mapping) and "properties" in target:
            lines += _fields(target, indent + "  ")
    return lines


def _kind(node: Mapping[str, Any]) -> str:
    options = node.get("anyOf")
    if isinstance(options, list):
        return " or ".join(_kind(option) for option in options if isinstance(option, Mapping))
    if "enum" in node:
        return "one of " + "|".join(str(v) for v in node["enum"])
    if "const" in node:
        return f"exactly {node['const']}"
    kind = node.get("type")
    if kind == "array":
        items = node.get("items")
        of = _kind(items) if isinstance(items, Mapping) else "values"
        most = node.get("maxItems")
        return f"list of {of}" + (f" (at most {most})" if most is not None else "")
    if kind == "object":
        return "object"
    if kind == "string":
        most = node.get("maxLength")
        return "short text" if most is not None and most <= 200 else "text"
    if kind in ("number", "integer"):
        low, high = node.get("minimum"), node.get("maximum")
        if low is not None and high is not None:
            return f"{kind} from {low:g} to {high:g}"
        return str(kind)
    return str(kind or "value")


def _about(node: Mapping[str, Any]) -> str:
    text = node.get("description")
    return f" ({text})" if isinstance(text, str) and text else ""
