"""Gemini function calls whose arguments stream in pieces (Vertex AI's
`functionCallingConfig.streamFunctionCallArguments`): the first part of a call names it,
later parts carry `partialArgs` (each a JSON Path and a value, a string possibly split over
several parts), and `willContinue` says more of the same call follows. Assembled here into
one call with whole arguments; a piece no named call began is a typed error, never a
nameless call."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import InvalidResponse

__all__ = ["GeminiBuilder", "PartialCalls"]

# One step of an RFC 9535 path as the API writes it: .name, ['name'] / ["name"], or [index].
_STEP = re.compile(r"""\.([A-Za-z_][\w-]*)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]""")
_VALUE_FIELDS = ("stringValue", "numberValue", "boolValue", "nullValue")


class PartialCalls:
    """The call being streamed in parts, if any, and its arguments so far."""

    def __init__(self) -> None:
        self.key: object = None  # the builder's key of the open call
        self.name: str | None = None
        self.arguments: dict[str, Any] = {}
        self.continuing: set[str] = set()  # paths whose string value is still arriving

    def apply(self, call: Mapping[str, Any], builder: ResponseBuilder) -> bool:
        """Feed one functionCall part; False when it is a whole call (none of this)."""
        pieces = call.get("partialArgs")
        more = bool(call.get("willContinue"))
        if pieces is None and not more and self.key is None:
            return False
        name = call.get("name")
        if self.key is None or (name and name != self.name):
            self._open(call, builder)
        for piece in pieces or ():
            self._piece(piece, builder)
        if not more:
            self.close(builder)
        return True

    def close(self, builder: ResponseBuilder) -> None:
        """The open call's arguments are all in (its last part, or the answer's end)."""
        if self.key is not None:
            builder.tool_call_input(self.key, self.arguments)
        self.key, self.name, self.arguments, self.continuing = None, None, {}, set()

    def _open(self, call: Mapping[str, Any], builder: ResponseBuilder) -> None:
        name = call.get("name")
        if not name:
            raise InvalidResponse(
                "a streamed function call's partial arguments came before any part named it",
                provider=builder.provider,
            )
        self.close(builder)  # a call that never said it ended has, when another begins
        self.key, self.name = builder.tool_call_count, name
        self.arguments, self.continuing = dict(call.get("args") or {}), set()
        builder.tool_call(self.key, id=call.get("id"), name=name)

    def _piece(self, piece: Mapping[str, Any], builder: ResponseBuilder) -> None:
        path = piece.get("jsonPath")
        field = next((f for f in _VALUE_FIELDS if f in piece), None)
        if not isinstance(path, str) or field is None:
            raise InvalidResponse(
                f"a partial function-call argument without a jsonPath or a value: {dict(piece)}",
                provider=builder.provider,
            )
        value = None if field == "nullValue" else piece[field]
        container, last = _walk(self.arguments, path, builder.provider)
        if field == "stringValue" and path in self.continuing:
            value = _get(container, last) + value
        _set(container, last, value)
        if field == "stringValue" and piece.get("willContinue"):
            self.continuing.add(path)
        else:
            self.continuing.discard(path)


def _steps(path: str, provider: str) -> list[str | int]:
    if not path.startswith("$"):
        raise InvalidResponse(f"a partial argument's jsonPath {path!r}", provider=provider)
    steps: list[str | int] = []
    at = 1
    while at < len(path):
        match = _STEP.match(path, at)
        if match is None:
            raise InvalidResponse(
                f"a partial argument's jsonPath {path!r} cannot be read", provider=provider
            )
        name, index, single, double = match.groups()
        steps.append(int(index) if index is not None else name or single or double or "")
        at = match.end()
    if not steps:
        raise InvalidResponse(
            f"a partial argument's jsonPath {path!r} names no field", provider=provider
        )
    return steps


def _walk(root: dict[str, Any], path: str, provider: str) -> tuple[Any, str | int]:
    """The container that holds `path`'s last step (made on the way), and that step."""
    steps = _steps(path, provider)
    node: Any = root
    for step, following in itertools.pairwise(steps):
        child = _get(node, step)
        if child is None:
            child = [] if isinstance(following, int) else {}
            _set(node, step, child)
        node = child
    return node, steps[-1]


def _get(node: Any, step: str | int) -> Any:
    if isinstance(step, int):
        return node[step] if step < len(node) else None
    return node.get(step)


def _set(node: Any, step: str | int, value: Any) -> None:
    if isinstance(step, int):
        node.extend([None] * (step + 1 - len(node)))
    node[step] = value


class GeminiBuilder(ResponseBuilder):
    """A ResponseBuilder that also holds the function call being streamed in parts."""

    def __init__(self, provider: str, **kwargs: Any) -> None:
        super().__init__(provider, **kwargs)
        self.partial = PartialCalls()
