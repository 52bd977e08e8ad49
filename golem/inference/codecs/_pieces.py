"""The pieces ResponseBuilder (builder.py) collects, and how they become the Response's: a
reasoning step and a tool call as they arrive, a call's arguments read from its JSON
fragments, and the steps as one ReasoningChain.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from golem.inference.errors import InvalidResponse
from golem.inference.reasoning import ReasoningChain, ReasoningCost, Visibility
from golem.inference.reasoning.chain import ReasoningStep
from golem.inference.types import Usage

__all__ = ["Call", "Step", "call_arguments", "reasoning_chain"]


@dataclass(slots=True)
class Step:
    """One reasoning step as it arrives: its text parts, signature and opaque data."""

    visibility: Visibility
    parts: list[str] = field(default_factory=list)
    signature: str | None = None
    redacted_data: str | None = None
    part: object = None  # "text", or ("tool", key) of the call the signature came with
    item_id: str | None = None
    detail: dict[str, Any] | None = None
    field: str | None = None


@dataclass(slots=True)
class Call:
    """One tool call as it arrives: its name, its arguments' JSON fragments."""

    id: str = ""
    name: str = ""
    fragments: list[str] = field(default_factory=list)
    arguments: Mapping[str, Any] | None = None
    provider_type: str = ""  # set for a server-executed call
    result: Any = None


def call_arguments(call: Call, provider: str) -> Mapping[str, Any]:
    """A call's arguments: as decoded, else read from its JSON fragments (none: {})."""
    arguments = call.arguments
    if not isinstance(call.id, str) or not (arguments is None or isinstance(arguments, dict)):
        raise InvalidResponse(
            f"tool call {call.name!r} has an id or arguments of the wrong type",
            provider=provider,
        )
    if arguments is None:
        raw = "".join(call.fragments).strip() or "{}"
        try:
            arguments = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise InvalidResponse(
                f"tool call {call.name!r} has arguments that are not JSON: {exc}",
                provider=provider,
                body=raw,
            ) from exc
        if not isinstance(arguments, dict):
            raise InvalidResponse(
                f"tool call {call.name!r} has arguments that are not an object",
                provider=provider,
                body=raw,
            )
    return arguments


def reasoning_chain(
    steps: tuple[ReasoningStep, ...],
    order: Sequence[str],
    usage: Usage,
    *,
    provider: str,
    model: str,
    billing: ReasoningCost,
) -> ReasoningChain:
    """The answer's steps as one chain: visible if any step is, else summarized, else
    opaque (hidden steps, or reasoning tokens billed without a step); interleaved when
    reasoning resumed after another segment (`order`: the segments as they began)."""
    if any(
        not isinstance(v, str | None)
        for s in steps
        for v in (s.signature, s.redacted_data, s.item_id)
    ):
        raise InvalidResponse(
            "a reasoning signature, opaque data or item id is not a string",
            provider=provider,
        )
    kinds = {s.visibility for s in steps}
    if Visibility.VISIBLE in kinds:
        visibility = Visibility.VISIBLE
    elif Visibility.SUMMARIZED in kinds:
        visibility = Visibility.SUMMARIZED
    elif steps or usage.reasoning_tokens:
        visibility = Visibility.OPAQUE
    else:
        return ReasoningChain.empty(provider, model)
    first = order.index("reasoning") if "reasoning" in order else 0
    interleaved = "reasoning" in order[first + 1 :]
    return ReasoningChain(
        provider=provider,
        model=model,
        visibility=visibility,
        content="\n\n".join(s.text for s in steps if s.text),
        reasoning_tokens=usage.reasoning_tokens,
        interleaved=interleaved,
        steps=steps,
        cost=billing,
    )
