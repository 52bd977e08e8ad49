"""Schema plans: a JSON Schema compiled once into nodes that make a valid value from a
seeded Random, conforming any hint a policy gives (strings clipped, numbers clamped,
unknown enum values replaced), and that can spoil a value for the schema-invalid fault."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from random import Random
from typing import Any

__all__ = ["MISSING", "Node", "compile_schema"]

MISSING: Any = object()
_WORDS = ("steady", "thin", "rising", "falling", "mixed", "quiet", "noisy", "early")
_DEFAULT_ITEMS = 2  # arrays without a policy get at most this many items


class Node(ABC):
    """One schema node. `make(rng, hint)` returns a value valid for the node."""

    @abstractmethod
    def make(self, rng: Random, hint: Any = MISSING) -> Any: ...


class Const(Node):
    def __init__(self, value: Any) -> None:
        self.value = value

    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        return self.value


class Enum(Node):
    def __init__(self, values: list[Any]) -> None:
        self.values = values
        self.allowed = {_key(v) for v in values}

    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        if hint is not MISSING and _key(hint) in self.allowed:
            return hint
        return self.values[int(rng.random() * len(self.values))]


class Number(Node):
    def __init__(self, schema: Mapping[str, Any], integer: bool) -> None:
        low, high = schema.get("minimum"), schema.get("maximum")
        if "exclusiveMinimum" in schema:
            low = schema["exclusiveMinimum"] + (1 if integer else 1e-6)
        if "exclusiveMaximum" in schema:
            high = schema["exclusiveMaximum"] - (1 if integer else 1e-6)
        self.integer = integer
        self.low = -math.inf if low is None else float(low)
        self.high = math.inf if high is None else float(high)
        # Where unhinted values fall: a narrow range whole, else small counts or fractions.
        span = 10.0 if integer else 1.0
        if self.high - self.low <= 2 * span:
            self.typical = (self.low, self.high)
        else:
            start = max(self.low, 0.0) if self.high >= 0 else self.high - span
            self.typical = (start, min(self.high, start + span))

    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        if isinstance(hint, int | float) and not isinstance(hint, bool) and math.isfinite(hint):
            value = min(self.high, max(self.low, float(hint)))
        else:
            low, high = self.typical
            value = low + rng.random() * (high - low)
        if self.integer:
            return int(min(self.high, max(self.low, round(value))))
        return round(value, 3) if self.low <= round(value, 3) <= self.high else value

    def spoiled(self) -> Any:
        if math.isfinite(self.high):
            return int(self.high) + 1 if self.integer else self.high + 1
        return int(self.low) - 1 if self.integer else self.low - 1


class Text(Node):
    def __init__(self, schema: Mapping[str, Any], name: str) -> None:
        self.min = int(schema.get("minLength", 0))
        self.max = int(schema.get("maxLength", 80))
        self.label = name.replace("_", " ") or "note"

    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        text = hint if isinstance(hint, str) else self._fresh(rng)
        text = text[: self.max]
        return text + "." * (self.min - len(text)) if len(text) < self.min else text

    def _fresh(self, rng: Random) -> str:
        return f"{self.label} {_WORDS[int(rng.random() * len(_WORDS))]}"


class Boolean(Node):
    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        return hint if isinstance(hint, bool) else rng.random() < 0.5


class Null(Node):
    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        return None


class Nullable(Node):
    """`anyOf: [X, null]` (or `type: [X, "null"]`): null when hinted, else sometimes."""

    def __init__(self, inner: Node, chance: float = 0.3) -> None:
        self.inner, self.chance = inner, chance

    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        if hint is None or (hint is MISSING and rng.random() < self.chance):
            return None
        return self.inner.make(rng, hint)


class Array(Node):
    def __init__(self, schema: Mapping[str, Any], item: Node) -> None:
        self.item = item
        self.min = int(schema.get("minItems", 0))
        self.max = int(schema.get("maxItems", max(self.min, 8)))

    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        if isinstance(hint, list | tuple):
            made = [self.item.make(rng, h) for h in hint[: self.max]]
        else:
            high = max(self.min, min(self.max, _DEFAULT_ITEMS))
            made = [
                self.item.make(rng)
                for _ in range(self.min + int(rng.random() * (high - self.min + 1)))
            ]
        while len(made) < self.min:
            made.append(self.item.make(rng))
        return made


class Object(Node):
    def __init__(self, fields: dict[str, Node], required: list[str]) -> None:
        self.fields = fields
        self.required = frozenset(required)

    def make(self, rng: Random, hint: Any = MISSING) -> Any:
        hints = hint if isinstance(hint, Mapping) else {}
        out = {}
        for name, node in self.fields.items():
            given = hints.get(name, MISSING)
            if name in self.required or given is not MISSING:
                out[name] = node.make(rng, given)
        return out

    def spoil(self, value: dict[str, Any], rng: Random) -> dict[str, Any]:
        """`value` with one enum or bounded number made invalid (else a required field
        dropped): a schema violation, in valid JSON."""
        targets = [name for name, node in self.fields.items() if _spoilable(node)]
        if not targets:
            nested = [n for n, node in self.fields.items() if isinstance(node, Object)]
            if nested and isinstance(value.get(nested[0]), dict):
                name = nested[0]
                node = self.fields[name]
                assert isinstance(node, Object)
                return {**value, name: node.spoil(value[name], rng)}
            return dict(list(value.items())[1:])
        name = targets[int(rng.random() * len(targets))]
        node = self.fields[name]
        bad = node.spoiled() if isinstance(node, Number) else "not_one_of_them"
        return {**value, name: bad}


def _spoilable(node: Node) -> bool:
    if isinstance(node, Enum):
        return all(isinstance(v, str) for v in node.values)
    return isinstance(node, Number) and (math.isfinite(node.high) or math.isfinite(node.low))


def _key(value: Any) -> Any:
    return (type(value) is bool, value) if isinstance(value, int | float | str | bool) else None


def compile_schema(schema: Mapping[str, Any], name: str = "") -> Node:
    """The plan of one (inlined, `$ref`-free) JSON Schema node."""
    if "const" in schema:
        return Const(schema["const"])
    if "enum" in schema:
        return Enum(list(schema["enum"]))
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        real = [o for o in options if o.get("type") != "null"]
        merged = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
        inner = compile_schema({**merged, **real[0]}, name) if real else Null()
        return Nullable(inner) if real and len(real) < len(options) else inner
    kind = schema.get("type")
    if isinstance(kind, list):
        rest = [k for k in kind if k != "null"]
        inner = compile_schema({**schema, "type": rest[0]}, name) if rest else Null()
        return Nullable(inner) if "null" in kind and rest else inner
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        fields = {key: compile_schema(sub, key) for key, sub in props.items()}
        return Object(fields, list(schema.get("required", props)))
    if kind == "array":
        return Array(schema, compile_schema(schema.get("items", {}), name))
    if kind in ("number", "integer"):
        return Number(schema, kind == "integer")
    if kind == "boolean":
        return Boolean()
    if kind == "null":
        return Null()
    return Text(schema, name)
