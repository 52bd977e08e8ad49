"""ResponseBuilder: the one accumulator every codec feeds, streamed or not.

A codec turns a non-streaming body into the same calls it makes for stream deltas
(text, reasoning, tool-call fragments, usage, finish), so the two paths cannot disagree.
A tool call exists only once a codec opened it with its name (`tool_call`); calls the
provider executed itself are kept apart (`server_tool_call`) and never reach the caller
as calls to execute.
It also says what it recognised: a marker of its own wire format (`recognise`), and a
stream's final event (`end`); the codec's caller turns their absence into a typed error.
The pieces it collects, and how a call's arguments and the reasoning chain are read from
them, are _pieces.py's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from golem.inference.codecs._pieces import Call, Step, call_arguments, reasoning_chain
from golem.inference.errors import InvalidResponse, Refusal
from golem.inference.reasoning import ReasoningChain, ReasoningCost, Visibility
from golem.inference.reasoning.chain import ReasoningStep
from golem.inference.types import FinishReason, Response, ServerToolCall, ToolCall, Usage

__all__ = ["ResponseBuilder"]


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
        self._steps: dict[object, Step] = {}
        self._calls: dict[object, Call] = {}
        self._server_calls: dict[object, Call] = {}
        # The type of each block a codec opened, by key, so that its deltas go where the
        # block's type says (Anthropic's content_block index -> "tool_use", ...).
        self.blocks: dict[object, str] = {}
        self._order: list[str] = []  # "text" / "reasoning" / "tool", as segments begin
        self._usage: dict[str, int] = {}
        self._finish = FinishReason.UNKNOWN
        self._finish_raw: str | None = None
        self._finished = False
        self._last_step_key: object = None
        self.reasoning_chars = 0  # reasoning text so far, for a watcher's running count
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
        self,
        text: str,
        *,
        visibility: Visibility = Visibility.VISIBLE,
        key: object = None,
        field: str | None = None,
    ) -> None:
        """Append reasoning text to step `key` (a new step when the key is new); `field`
        names the plain message field it came in (`reasoning_content`), when it did."""
        step = self._step(key, visibility)
        if field is not None:
            step.field = field
        if text:
            step.parts.append(text)
            self.reasoning_chars += len(text)

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

    def sign_reasoning(self, signature: str, *, part: str | None = None) -> None:
        """A signature over the reasoning so far that arrives after it (Gemini's
        thoughtSignature rides on the next part): kept on the latest step without starting
        a new reasoning segment, or as an opaque step when no reasoning was shown or the
        latest step is signed already (one answer may carry several). `part` says which
        part carried it: "text", or "tool" for the next tool call opened."""
        last = None if self._last_step_key is None else self._steps.get(self._last_step_key)
        if last is None or last.signature is not None:
            self.opaque_reasoning(signature=signature)
            step = self._steps[self._last_step_key]
        else:
            step = last
            step.signature = signature
        step.part = ("tool", len(self._calls)) if part == "tool" else part

    def reasoning_item(
        self, keys: Sequence[object], *, item_id: str | None, data: str | None = None
    ) -> None:
        """The provider item that steps `keys` (its parts, in order) were decoded from: its
        id goes on each step, its encrypted payload (when given) on the first. Steps not
        begun are left alone, and the order of segments and the current step stay as they
        are: a stream names an item when it closes it, after its deltas."""
        steps = [self._steps[key] for key in keys if key in self._steps]
        for step in steps:
            step.item_id = item_id
        if steps and data is not None:
            steps[0].redacted_data = data

    def reasoning_detail(self, fields: Mapping[str, Any], *, key: object) -> None:
        """The other fields of the wire entry step `key` comes from (OpenRouter's
        reasoning_details: type, id, format, index). A stream repeats them on each piece of
        the entry: a value that came stays unless a later piece gives another."""
        step = self._step(key, Visibility.VISIBLE)
        if step.detail is None:
            step.detail = {}
        for name, value in fields.items():
            if value is not None or name not in step.detail:
                step.detail[name] = value

    def _step(self, key: object, visibility: Visibility) -> Step:
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
            step = self._steps[key] = Step(visibility)
        self._last_step_key = key
        self._mark("reasoning")
        return step

    # -- tool calls ------------------------------------------------------------------
    def tool_call(self, key: object, *, id: str | None = None, name: str | None = None) -> None:
        call = self._calls.setdefault(key, Call())
        self._mark("tool")
        if id:
            call.id = id
        if name:
            call.name += name

    def tool_call_arguments(self, key: object, fragment: str) -> None:
        """A fragment of a tool call's arguments as JSON text (a stream delta)."""
        self._opened(self._calls, key).fragments.append(fragment)

    def tool_call_arguments_done(self, key: object, arguments: str) -> None:
        """A call's whole arguments as JSON text, sent when the call closes: they replace
        the fragments (a server may send no delta before them, or all of them)."""
        self._opened(self._calls, key).fragments[:] = [arguments]

    def has_tool_call(self, key: object) -> bool:
        return key in self._calls

    def tool_call_input(self, key: object, arguments: Mapping[str, Any]) -> None:
        """A tool call's whole input, already decoded."""
        self._opened(self._calls, key).arguments = arguments

    def _opened(self, calls: dict[object, Call], key: object) -> Call:
        call = calls.get(key)
        if call is None:
            # Never a nameless call: arguments for a call no event began is a broken answer.
            raise InvalidResponse(
                f"tool call arguments for block {key!r}, which no event opened as a call",
                provider=self.provider,
            )
        return call

    # -- tools the provider ran itself -----------------------------------------------
    def server_tool_call(
        self,
        key: object,
        *,
        provider_type: str,
        id: str | None = None,
        name: str | None = None,
        arguments: Mapping[str, Any] | None = None,
        result: Any = None,
    ) -> None:
        """A call the provider executed (or will, within this answer); later calls with
        the same key fill in what was missing."""
        call = self._server_calls.setdefault(key, Call(provider_type=provider_type))
        if id:
            call.id = id
        if name:
            call.name = name
        if arguments:
            call.arguments = arguments
        if result is not None:
            call.result = result

    @property
    def server_tool_call_count(self) -> int:
        """Server-executed calls begun so far: a key for providers whose parts carry no
        index."""
        return len(self._server_calls)

    def server_tool_arguments(self, key: object, fragment: str) -> None:
        """A fragment of a server-executed call's input as JSON text (a stream delta)."""
        self._opened(self._server_calls, key).fragments.append(fragment)

    def server_tool_result(self, result: Any, *, id: str | None = None) -> bool:
        """The result of a server-executed call: the one with `id`, else (no id given)
        the latest without a result. False when there is no such call."""
        calls = list(self._server_calls.values())
        if id:
            match = next((c for c in calls if c.id == id), None)
        else:
            match = next((c for c in reversed(calls) if c.result is None), None)
        if match is None:
            return False
        match.result = result
        return True

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

    def finish(self, reason: FinishReason, raw: object = None) -> None:
        """The answer's finish reason, and the value the wire gave for it (kept on the
        Response as text: a word, or an enum's integer)."""
        self._finish = reason
        if raw is not None:
            self._finish_raw = str(raw)
        self._finished = True

    @property
    def finished(self) -> bool:
        """A finish reason was given (a stream's may come before its usage)."""
        return self._finished

    @property
    def has_usage(self) -> bool:
        return bool(self._usage)

    @property
    def reasoning_tokens(self) -> int | None:
        """The reasoning tokens the provider reported so far, if it reported any."""
        return self._usage.get("reasoning_tokens")

    def delivered(self) -> tuple[Usage, str, str]:
        """What the answer had delivered so far, for the bill of an attempt cut short:
        the usage reported, the output text (answer, refusal, the tool calls' names and
        arguments) and the reasoning text."""
        calls = (*self._calls.values(), *self._server_calls.values())
        output = [*self._text, *self._refusal]
        for call in calls:
            output.append(call.name)
            if call.arguments is not None:
                output.append(orjson.dumps(call.arguments).decode())
            output.extend(call.fragments)
        reasoning = "".join(part for step in self._steps.values() for part in step.parts)
        return Usage(**self._usage), "".join(output), reasoning

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
            server_tool_calls=tuple(
                self._build_server_call(k, c) for k, c in self._server_calls.items()
            ),
            finish_reason=self._finish,
            finish_reason_raw=self._finish_raw,
            usage=usage,
            reasoning=self._build_chain(usage),
            provider=self.provider,
            model=self.model,
        )

    def _build_call(self, key: object, call: Call) -> ToolCall:
        return ToolCall(
            id=self._call_id(key, call),
            name=call.name,
            arguments=call_arguments(call, self.provider),
        )

    def _build_server_call(self, key: object, call: Call) -> ServerToolCall:
        return ServerToolCall(
            id=self._call_id(key, call),
            name=call.name,
            arguments=call_arguments(call, self.provider),
            provider_type=call.provider_type,
            result=call.result,
        )

    @staticmethod
    def _call_id(key: object, call: Call) -> str:
        return call.id or f"call_{key}"

    def _part(self, part: object) -> str | None:
        """A step's `part` as the Response names it: "text", or the tool call's id."""
        if isinstance(part, tuple):
            key = part[1]
            call = self._calls.get(key)
            return f"tool_call:{self._call_id(key, call)}" if call is not None else None
        return part if isinstance(part, str) else None

    def _build_chain(self, usage: Usage) -> ReasoningChain:
        steps = tuple(
            ReasoningStep(
                "".join(s.parts),
                s.visibility,
                s.signature,
                s.redacted_data,
                self._part(s.part),
                s.item_id,
                s.detail,
                s.field,
            )
            for s in self._steps.values()
        )
        return reasoning_chain(
            steps,
            self._order,
            usage,
            provider=self.provider,
            model=self.model,
            billing=self._billing,
        )
