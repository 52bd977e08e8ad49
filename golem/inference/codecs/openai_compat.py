"""The OpenAI-compatible family (DeepSeek, Qwen, OpenRouter, Venice, Bankr, llama.cpp, vLLM,
Ollama, Together, Groq, GPUStack): one codec; each vendor's differences are profile data."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from golem.inference.codecs.base import ProviderProfile, WireRequest
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.codecs.openai_chat import OpenAIChatCodec
from golem.inference.modes import Capabilities
from golem.inference.reasoning import ReasoningChain, ReasoningCost, ReasoningDepth, Visibility
from golem.inference.reasoning.think import (
    ContentChunk,
    ReasoningEvent,
    ThinkChunk,
    ThinkEnd,
    ThinkTagSplitter,
)
from golem.inference.types import Request, Response, Role

__all__ = ["FAMILY", "OpenAICompatCodec"]

FAMILY = "openai-compatible"

_DETAIL_VISIBILITY = {
    "reasoning.text": Visibility.VISIBLE,
    "reasoning.summary": Visibility.SUMMARIZED,
    "reasoning.encrypted": Visibility.OPAQUE,
}
# The field of a reasoning_details entry that holds its content, by the step it becomes.
_DETAIL_CONTENT = {
    Visibility.VISIBLE: "text",
    Visibility.SUMMARIZED: "summary",
    Visibility.OPAQUE: "data",
}


def _effort_params(codec: OpenAIChatCodec, request: Request, model: str) -> dict[str, Any]:
    return {"reasoning_effort": codec.effort(request.reasoning.depth.openai_effort(), model)}


def _openrouter_params(codec: OpenAIChatCodec, request: Request, model: str) -> dict[str, Any]:
    depth = request.reasoning.depth
    if depth is ReasoningDepth.NONE:
        return {"reasoning": {"enabled": False}}
    reasoning: dict[str, Any] = {"effort": codec.effort(depth.openai_effort(), model)}
    if not request.reasoning.visible:
        reasoning["exclude"] = True
    return {"reasoning": reasoning}


def _qwen_params(codec: OpenAIChatCodec, request: Request, model: str) -> dict[str, Any]:
    return dict(request.reasoning.depth.qwen_params())


def _no_params(codec: OpenAIChatCodec, request: Request, model: str) -> dict[str, Any]:
    return {}


_ReasoningParams = Callable[[OpenAIChatCodec, Request, str], dict[str, Any]]
_REASONING_PARAMS: Mapping[str, _ReasoningParams] = {
    "effort": _effort_params,  # reasoning_effort, as OpenAI
    "openrouter": _openrouter_params,  # reasoning: {effort | enabled, exclude}
    "qwen": _qwen_params,  # enable_thinking, thinking_budget
    "none": _no_params,  # the model name decides (deepseek-reasoner always reasons)
}


class OpenAICompatCodec(OpenAIChatCodec):
    """Chat Completions as the compatible vendors speak it. A message's `reasoning_details`
    (OpenRouter's, copied by Snowflake and others), when present, carry signatures and
    encrypted reasoning and supersede the plain reasoning fields. They go back on the
    assistant turn they came with, to the profile that sent them (no quirk: only a vendor
    that speaks the format sends them, and it needs them back to verify its signatures).

    Profile quirks, beyond the chat codec's: `reasoning_param` (a key of
    `_REASONING_PARAMS`), `reasoning_fields` (the message fields that may carry reasoning
    text, first present wins: DeepSeek and GPUStack `reasoning_content`, Ollama and
    OpenRouter `reasoning`), `think_tags` (split inline
    `<think>` blocks out of the content), `think_starts_open` (the server put the open
    tag in the prompt, so the answer starts inside the block) and `schema_format`
    (`json_schema`, the default, or `json_object`: the schema sent as
    `{"type": "json_object", "schema": ...}`, the one form llama-cpp-python's server takes
    and llama.cpp's server also reads), and `reasoning_with_tool_calls` (DeepSeek's
    thinking mode: an assistant turn with tool calls gets back the plain reasoning text it
    came with, under the field it came in, exactly as received; a turn without tool calls
    never does, and reasoning from reasoning_details or `<think>` tags never does).
    """

    default_max_tokens_field: ClassVar[str] = "max_tokens"

    def __init__(self, profile: ProviderProfile) -> None:
        super().__init__(profile)
        quirks = profile.quirks
        style = str(quirks.get("reasoning_param", "effort"))
        if style not in _REASONING_PARAMS:
            raise ValueError(
                f"provider {profile.name!r}: unknown reasoning_param {style!r}; "
                f"expected one of {sorted(_REASONING_PARAMS)}"
            )
        self._reasoning_params = _REASONING_PARAMS[style]
        self._fields: tuple[str, ...] = tuple(
            quirks.get("reasoning_fields", ("reasoning_content", "reasoning"))
        )
        self._fields_with_calls = bool(quirks.get("reasoning_with_tool_calls", False))
        self._think_tags = bool(quirks.get("think_tags", False))
        self._think_open = bool(quirks.get("think_starts_open", False))
        schema_format = str(quirks.get("schema_format", "json_schema"))
        if schema_format not in ("json_schema", "json_object"):
            raise ValueError(
                f"provider {profile.name!r}: unknown schema_format {schema_format!r}; "
                "expected json_schema or json_object"
            )
        self._schema_as_object = schema_format == "json_object"

    def encode(self, request: Request, model: str) -> WireRequest:
        wire = super().encode(request, model)
        if not self._schema_as_object or "response_format" not in wire.body:
            return wire
        assert request.response_schema is not None  # response_format is set only with one
        body = {
            **wire.body,
            "response_format": {"type": "json_object", "schema": request.response_schema.schema},
        }
        return replace(wire, body=body)

    def messages(self, request: Request, caps: Capabilities) -> list[dict[str, Any]]:
        """An assistant turn whose reasoning came from this profile's reasoning_details gets
        them back, unchanged and in their order (OpenRouter's "Preserving reasoning blocks":
        Anthropic thinking signatures, Gemini thought signatures), while reasoning is on.

        Plain reasoning text goes back only under `reasoning_with_tool_calls`, and only on
        a turn with tool calls. DeepSeek's thinking mode: "between two user messages", a
        turn with tool calls must get its `reasoning_content` back in every later request
        (else 400); one without is ignored (deepseek-reasoner, which took no tools,
        answered 400). This does not wait for reasoning to be on in the request: DeepSeek
        thinks by default, golem sends it no switch (`reasoning_param = "none"`) and its
        models' table need not flag reasoning, so a turn that came with the text was a
        thinking turn, and the API requires it back whatever this request asks."""
        messages = super().messages(request, caps)
        details_back = caps.reasoning and request.reasoning.enabled
        for sent, message in zip(messages, request.messages, strict=True):
            chain = message.reasoning
            if message.role is not Role.ASSISTANT or chain is None:
                continue
            if chain.provider != self.profile.name:
                continue
            if details_back and (details := _reasoning_details(chain)):
                sent["reasoning_details"] = details
            elif self._fields_with_calls and message.tool_calls:
                sent.update(_reasoning_fields(chain))
        return messages

    def reasoning_params(self, request: Request, model: str, caps: Capabilities) -> dict[str, Any]:
        return self._reasoning_params(self, request, model)

    def new_builder(self) -> ResponseBuilder:
        if not self._think_tags:
            return super().new_builder()
        return _ThinkTagBuilder(
            self.profile.name,
            billing=self.profile.reasoning_billing,
            splitter=ThinkTagSplitter(start_in_reasoning=self._think_open),
        )

    def apply_delta(self, delta: Mapping[str, Any], builder: ResponseBuilder) -> None:
        details = delta.get("reasoning_details")
        if details:
            _apply_details(details, builder)
        else:
            for name in self._fields:
                text = delta.get(name)
                if text:
                    builder.reasoning(text, field=name)
                    break
        super().apply_delta(delta, builder)


def _apply_details(details: list[Mapping[str, Any]], builder: ResponseBuilder) -> None:
    """reasoning_details: text (with a signature), summary, or encrypted. A summary and
    its encrypted original share an index: they are kept apart as steps of their own. The
    entry's other fields (type, id, format, index) stay with its step, to send it back."""
    for position, detail in enumerate(details):
        kind = _DETAIL_VISIBILITY.get(str(detail.get("type")), Visibility.VISIBLE)
        key = ("detail", detail.get("index", position), kind)
        content = _DETAIL_CONTENT[kind]
        # An encrypted entry's signature, if one ever came, stays among its other fields.
        signature = None if kind is Visibility.OPAQUE else detail.get("signature")
        if kind is Visibility.OPAQUE:
            builder.opaque_reasoning(data=detail.get(content), key=key)
        else:
            builder.reasoning(detail.get(content) or "", visibility=kind, key=key)
            if signature:
                builder.reasoning_signature(signature, key=key)
        own = {content, "signature"} if signature else {content}
        builder.reasoning_detail({k: v for k, v in detail.items() if k not in own}, key=key)


def _reasoning_details(chain: ReasoningChain) -> list[dict[str, Any]]:
    """The reasoning_details entries the chain was decoded from, in their order, each
    rebuilt as it came: its own fields, its text (summary, data) and its signature. Steps
    from plain reasoning text or `<think>` tags have no entry and stay behind."""
    details: list[dict[str, Any]] = []
    for step in chain.steps:
        if step.detail is None:
            continue
        if step.visibility is Visibility.OPAQUE:
            content: Any = step.redacted_data
        else:
            content = step.text
        detail = {**step.detail, _DETAIL_CONTENT[step.visibility]: content}
        if step.signature is not None:
            detail["signature"] = step.signature
        details.append(detail)
    return details


def _reasoning_fields(chain: ReasoningChain) -> dict[str, str]:
    """The plain reasoning text of the chain by the message field it came in, each
    field's steps joined as received (a stream's deltas, in their order)."""
    fields: dict[str, str] = {}
    for step in chain.steps:
        if step.field is not None:
            fields[step.field] = fields.get(step.field, "") + step.text
    return fields


class _ThinkTagBuilder(ResponseBuilder):
    """A ResponseBuilder for a vendor that puts reasoning inline: the text it is given goes
    through a `<think>` splitter, and build() flushes the splitter first."""

    def __init__(
        self, provider: str, *, billing: ReasoningCost, splitter: ThinkTagSplitter
    ) -> None:
        super().__init__(provider, billing=billing)
        self._splitter = splitter
        self._blocks = 0

    def text(self, text: str) -> None:
        self._route(self._splitter.feed(text))

    def build(self) -> Response:
        self._route(self._splitter.finish())
        return super().build()

    def _route(self, events: list[ReasoningEvent]) -> None:
        answer = super().text
        for event in events:
            if type(event) is ContentChunk:
                answer(event)
            elif type(event) is ThinkChunk:
                self.reasoning(event.text, key=("think", self._blocks))
            elif type(event) is ThinkEnd:
                self._blocks += 1
