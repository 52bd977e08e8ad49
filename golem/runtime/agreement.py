"""How far a replayed decision agrees with the original: the fields that differ (for one
replay, side by side), and per subsystem over many, how often they agree on what the
decision decides.

What a decision decides are its top-level verdict fields, read off its schema: booleans
(approved, escalate) and enums (severity, action) must be equal; numbers (adjusted_size_usd,
confidence) agree within a relative `tolerance` (|a - b| <= tolerance x max(|a|, |b|)); null
agrees with null only. Free text, lists and nested objects are shown, never scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from golem.inference.structured import get_schema
from golem.runtime.store.requests import Answer, KeptRequest

__all__ = ["Agreement", "agree", "differing", "flatten", "tally", "verdict_fields"]


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """A decision's fields as dotted paths to scalars (`layers.hard_shields.passed`,
    `signals.0.source`)."""
    if isinstance(value, Mapping):
        items: Iterable[tuple[str, Any]] = ((str(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        return {prefix: value}
    out: dict[str, Any] = {}
    for key, inner in items:
        out |= flatten(inner, f"{prefix}.{key}" if prefix else key)
    return out


def differing(original: Mapping[str, Any], replayed: Mapping[str, Any]) -> list[str]:
    """The dotted fields whose values differ (present in one only counts), in order."""
    a, b = flatten(original), flatten(replayed)
    return [key for key in {**a, **b} if a.get(key, _MISSING) != b.get(key, _MISSING)]


_MISSING = object()


@cache
def verdict_fields(schema: str) -> tuple[str, ...]:
    """The top-level fields of a decision schema that say what it decided: booleans,
    enums and numbers (nullable or not)."""
    properties = get_schema(schema).response_schema().schema.get("properties", {})
    return tuple(name for name, node in properties.items() if _is_verdict(node))


def _is_verdict(node: Mapping[str, Any]) -> bool:
    variants = node.get("anyOf", [node])
    kinds = [v for v in variants if v.get("type") != "null"]
    return bool(kinds) and all(
        "enum" in v or v.get("type") in ("boolean", "number", "integer") for v in kinds
    )


def agree(a: Any, b: Any, tolerance: float) -> bool:
    """Whether two values of one verdict field agree (numbers within `tolerance`)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(a - b) <= tolerance * max(abs(a), abs(b))
    return bool(a == b)


@dataclass
class Agreement:
    """One subsystem's replays: how many, how many failed, how many agreed on every
    verdict field, and per field how many agreed; what each side cost."""

    subsystem: str
    fields: tuple[str, ...] = ()
    n: int = 0
    failed: int = 0
    agreed: int = 0
    by_field: dict[str, int] = field(default_factory=dict)
    original_usd: float = 0.0
    replay_usd: float = 0.0
    original_tokens: int = 0
    replay_tokens: int = 0

    @property
    def answered(self) -> int:
        return self.n - self.failed

    def add(self, kept: KeptRequest, replayed: Answer | None, tolerance: float) -> None:
        fields = verdict_fields(kept.schema)
        self.fields = tuple(dict.fromkeys((*self.fields, *fields)))
        self.n += 1
        original = kept.answer
        self.original_usd += original.cost_usd
        self.original_tokens += _tokens(original)
        if replayed is None:
            self.failed += 1
            return
        self.replay_usd += replayed.cost_usd
        self.replay_tokens += _tokens(replayed)
        same = [
            name
            for name in fields
            if agree(original.decision.get(name), replayed.decision.get(name), tolerance)
        ]
        for name in same:
            self.by_field[name] = self.by_field.get(name, 0) + 1
        if fields:  # a decision with nothing to score agrees with nothing
            self.agreed += len(same) == len(fields)


def tally(
    replays: Iterable[tuple[KeptRequest, Answer | None]], tolerance: float
) -> list[Agreement]:
    """Per subsystem (in the order first met), the agreement of the replays (None: the
    replay failed)."""
    by_subsystem: dict[str, Agreement] = {}
    for kept, replayed in replays:
        row = by_subsystem.setdefault(kept.subsystem, Agreement(kept.subsystem))
        row.add(kept, replayed, tolerance)
    return list(by_subsystem.values())


def _tokens(answer: Answer) -> int:
    return answer.input_tokens + answer.output_tokens + answer.reasoning_tokens
