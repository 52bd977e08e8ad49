"""ResponseBuilder: the one accumulator every codec feeds, streamed or not.

A codec turns a non-streaming body into the same calls it makes for stream deltas
(text, reasoning, tool-call fragments, usage, finish), so the two paths cannot disagree.
It also says what it recognised: a marker of its own wire format (`recognise`), and a
stream's final event (`end`); the codec's caller turns their absence into a typed error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from golem.inference.errors import InvalidResponse, Refusal
from golem.inference.reasoning import ReasoningChain, ReasoningCost, Visibility
from golem.inference.reasoning.chain import ReasoningStep
from golem.inference.types import FinishReason, Response, ToolCall, Usage

__all__ = ["ResponseBuilder"]


@dataclass(slots=True)
class _Step:
    visibility: Visibility
    parts: list[str] = field(default_factory=list)
    signature: str | None = None
    redacted_data: str | None = None


@dataclass(slots=True)
class _Call:
    id: str = ""
    name: str = ""
    fragments: list[str] = field(default_factory=list)
    arguments: Mapping[str, Any] | None = None


class ResponseBuilder:
    """Collects one answer's pieces in arrival order and builds the Response.

    Reasoning steps and tool calls are keyed by the provider's block index (`key`), so
    deltas for the same block join up; `None` means "the current step"."""

    def __init__(self, provider: str, *, billing: ReasoningCost | None = None) -> None:
        self.provider = provider
        self.model = ""
        self._billing = billing or ReasoningCost()
        self._text: list[str] = []
        self._refusal: list[str] = []
        self._steps: dict[object, _Step] = {}
        self._calls: dict[object, _Call] = {}
        self._order: list[str] = []  # "text" / "reasoning" / "tool", as segments begin
        self._usage: dict[str, int] = {}
        self._finish = FinishReason.UNKNOWN
        self._finished = False
        self._last_step_key: object = None
        self.recognised = False  # a marker of the codec's own wire format was seen
        self.ended = False  # the stream's final event was seen

    # -- content ---------------------------------------------------------------------
    def text(self, text: str) -> None:
        if not text:
            return
        self._mark("text")
        self._text.append(text)

    def refusal(self, text: str) -> None:
        if text:
            self._refusal.append(text)

    # -- reasoning -------------------------------------------------------------------
    def reasoning(
        self, text: str, *, visibility: Visibility = Visibility.VISIBLE, key: object = None
    ) -> None:
        """Append reasoning text to step `key` (a new step when the key is new)."""
        step = self._step(key, visibility)
        if text:
            step.parts.append(text)

    def reasoning_signature(self, signature: str, *, key: object = None) -> None:
        step = self._step(key, Visibility.VISIBLE)
        step.signature = (step.signature or "") + signature

    def opaque_reasoning(
        self, *, data: str | None = None, signature: str | None = None, key: object = None
    ) -> None:
        """A block whose text is hidden: redacted or encrypted thinking."""
        step = self._step(key, Visibility.OPAQUE)
        step.visibility = Visibility.OPAQUE
        step.redacted_data = data
        step.signature = signature

    def sign_reasoning(self, signature: str) -> None:
        """A signature over the reasoning so far that arrives after it (Gemini's
        thoughtSignature rides on the next part): kept on the latest step without starting
        a new reasoning segment, or as an opaque step when no reasoning was shown or the
        latest step is signed already (one answer may carry several)."""
        last = self._steps.get(self._last_step_key)
        if last is None or last.signature is not None:
            self.opaque_reasoning(signature=signature)
        else:
            last.signature = signature

    def _step(self, key: object, visibility: Visibility) -> _Step:
        if key is None:
            # Keyless deltas continue the current step until something else arrives, or a
            # signature closes it.
            last = self._steps.get(self._last_step_key)
            continuing = (
                self._order[-1:] == ["reasoning"] and last is not None and last.signature is None
            )
            key = self._last_step_key if continuing else ("step", len(self._steps))
        step = self._steps.get(key)
        if step is None:
            step = self._steps[key] = _Step(visibility)
        self._last_step_key = key
        self._mark("reasoning")
        return step

    # -- tool calls ------------------------------------------------------------------
    def tool_call(self, key: object, *, id: str | None = None, name: str | None = None) -> None:
        call = self._calls.setdefault(key, _Call())
        self._mark("tool")
        if id:
            call.id = id
        if name:
            call.name += name

    def tool_call_arguments(self, key: object, fragment: str) -> None:
        """A fragment of a tool call's arguments as JSON text (a stream delta)."""
        self._calls.setdefault(key, _Call()).fragments.append(fragment)

    def tool_call_input(self, key: object, arguments: Mapping[str, Any]) -> None:
        """A tool call's whole input, already decoded."""
        self._calls.setdefault(key, _Call()).arguments = arguments

    @property
    def tool_call_count(self) -> int:
        """Tool calls begun so far: a key for providers whose calls carry no index."""
        return len(self._calls)

    # -- bookkeeping -----------------------------------------------------------------
    def usage(self, **tokens: int | None) -> None:
        """Set usage fields (input_tokens, cached_input_tokens, output_tokens,
        reasoning_tokens); later values replace earlier ones, None leaves a field alone."""
        for name, value in tokens.items():
            if name not in Usage.__dataclass_fields__:
                raise TypeError(f"unknown usage field {name!r}")
            if value is not None:
                self._usage[name] = int(value)

    def finish(self, reason: FinishReason) -> None:
        self._finish = reason
        self._finished = True

    @property
    def finished(self) -> bool:
        """A finish reason was given (a stream's may come before its usage)."""
        return self._finished

    @property
    def has_usage(self) -> bool:
        return bool(self._usage)

    def recognise(self) -> None:
        """The body or event carries a marker of the codec's wire format (OpenAI's
        `choices`, Anthropic's message events, ...): it is not another provider's."""
        self.recognised = True

    def end(self) -> None:
        """The stream's final event arrived: nothing of the answer is missing."""
        self.recognised = True
        self.ended = True

    def _mark(self, kind: str) -> None:
        if not self._order or self._order[-1] != kind:
            self._order.append(kind)

    # -- result ----------------------------------------------------------------------
    def build(self) -> Response:
        if self._refusal:
            text = "".join(self._refusal)
            raise Refusal(f"the model refused: {text}", provider=self.provider, refusal=text)
        if not isinstance(self.model, str):
            raise InvalidResponse(
                f"the model name is not a string: {self.model!r}", provider=self.provider
            )
        usage = Usage(**self._usage)
        return Response(
            content="".join(self._text) if self._text else None,
            tool_calls=tuple(self._build_call(k, c) for k, c in self._calls.items()),
            finish_reason=self._finish,
            usage=usage,
            reasoning=self._build_chain(usage),
            provider=self.provider,
            model=self.model,
        )

    def _build_call(self, key: object, call: _Call) -> ToolCall:
        arguments = call.arguments
        if not isinstance(call.id, str) or not (arguments is None or isinstance(arguments, dict)):
            raise InvalidResponse(
                f"tool call {call.name!r} has an id or arguments of the wrong type",
                provider=self.provider,
            )
        if arguments is None:
            raw = "".join(call.fragments).strip() or "{}"
            try:
                arguments = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise InvalidResponse(
                    f"tool call {call.name!r} has arguments that are not JSON: {exc}",
                    provider=self.provider,
                    body=raw,
                ) from exc
            if not isinstance(arguments, dict):
                raise InvalidResponse(
                    f"tool call {call.name!r} has arguments that are not an object",
                    provider=self.provider,
                    body=raw,
                )
        return ToolCall(id=call.id or f"call_{key}", name=call.name, arguments=arguments)

    def _build_chain(self, usage: Usage) -> ReasoningChain:
        steps = tuple(
            ReasoningStep("".join(s.parts), s.visibility, s.signature, s.redacted_data)
            for s in self._steps.values()
        )
        if any(
            not isinstance(v, str | None) for s in steps for v in (s.signature, s.redacted_data)
        ):
            raise InvalidResponse(
                "a reasoning signature or opaque data is not a string", provider=self.provider
            )
        kinds = {s.visibility for s in steps}
        if Visibility.VISIBLE in kinds:
            visibility = Visibility.VISIBLE
        elif Visibility.SUMMARIZED in kinds:
            visibility = Visibility.SUMMARIZED
        elif steps or usage.reasoning_tokens:
            visibility = Visibility.OPAQUE
        else:
            return ReasoningChain.empty(self.provider, self.model)
        first = self._order.index("reasoning") if "reasoning" in self._order else 0
        interleaved = "reasoning" in self._order[first + 1 :]
        return ReasoningChain(
            provider=self.provider,
            model=self.model,
            visibility=visibility,
            content="\n\n".join(s.text for s in steps if s.text),
            reasoning_tokens=usage.reasoning_tokens,
            interleaved=interleaved,
            steps=steps,
            cost=self._billing,
        )
