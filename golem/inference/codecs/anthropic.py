"""The Anthropic Messages codec: requests with the ToolUseWorkaround and extended thinking
(their turns are _anthropic_turns.py's), responses and SSE streams with thinking,
redacted_thinking and tool_use blocks, and Anthropic's error bodies. Pure: no IO."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from golem.inference.codecs._anthropic_turns import (
    cache_breakpoint,
    system_and_turns,
    tool_choice_block,
)
from golem.inference.codecs._errors import (
    error_body,
    error_class_for_status,
    error_object,
    event_json,
    retry_after_seconds,
    typed_error,
)
from golem.inference.codecs.base import Codec, ProviderProfile, WireRequest, by_longest_prefix
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import (
    AuthError,
    InvalidRequest,
    InvalidResponse,
    Overloaded,
    ProviderError,
    RateLimited,
    ResponseFormatRejected,
    ServerError,
)
from golem.inference.modes import Capabilities
from golem.inference.pricing import Price
from golem.inference.reasoning import ReasoningCost
from golem.inference.sse import SSEEvent
from golem.inference.types import FinishReason, Mode, Request

__all__ = ["FAMILY", "PRICES", "PROFILE", "AnthropicCodec"]

FAMILY = "anthropic"
API_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 4096  # the API requires max_tokens; the answer's room when unset
MIN_THINKING_BUDGET = 1024  # the API's floor for budget_tokens

_CAPABILITIES = Capabilities(
    tool_use=True,
    forced_tool=True,
    # A forced tool_choice ("tool" or "any") is rejected while extended thinking is on.
    forced_tool_with_thinking=False,
    reasoning=True,
)
# Native JSON output (output_config.format) exists only on these models.
_NATIVE_JSON = Capabilities(
    response_schema=True,
    tool_use=True,
    forced_tool_with_thinking=False,
    reasoning=True,
)

PROFILE = ProviderProfile(
    name="anthropic",
    family=FAMILY,
    base_url="https://api.anthropic.com/v1",
    api_key_env="ANTHROPIC_API_KEY",
    capabilities=_CAPABILITIES,
    model_capabilities={
        "claude-sonnet-4-5": _NATIVE_JSON,
        "claude-opus-4-1": _NATIVE_JSON,
        "claude-opus-4-5": _NATIVE_JSON,
        "claude-haiku-4-5": _NATIVE_JSON,
    },
    # Thinking tokens are billed as output tokens.
    reasoning_billing=ReasoningCost(billed_as_output=True),
    quirks={
        # Largest max_tokens per model (longest matching prefix wins); thinking budgets
        # are clamped to fit under it.
        "max_output_tokens": {"claude": 64000, "claude-opus-4-0": 32000, "claude-opus-4-1": 32000},
        # A cache_control breakpoint on the stable prefix (tools, then system): see encode.
        "prompt_cache": True,
    },
)

# USD per million tokens; cached = cache reads.
PRICES: Mapping[str, Price] = {
    # A 5-minute cache write is billed at 1.25x the input price, a read at 0.1x.
    "claude-opus-4": Price(15.0, 75.0, cached_input=1.5, cache_write=18.75),
    "claude-opus-4-5": Price(5.0, 25.0, cached_input=0.5, cache_write=6.25),
    "claude-sonnet-4": Price(3.0, 15.0, cached_input=0.3, cache_write=3.75),
    "claude-haiku-4-5": Price(1.0, 5.0, cached_input=0.1, cache_write=1.25),
}

_STOP_REASONS = {
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "max_tokens": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "tool_use": FinishReason.TOOL_CALLS,
    "refusal": FinishReason.REFUSAL,
}
_ERROR_TYPES: Mapping[str, type[ProviderError]] = {
    "overloaded_error": Overloaded,
    "rate_limit_error": RateLimited,
    "invalid_request_error": InvalidRequest,
    "request_too_large": InvalidRequest,
    "not_found_error": InvalidRequest,
    "authentication_error": AuthError,
    "permission_error": AuthError,
    "api_error": ServerError,
}


_STREAM_EVENTS = frozenset(
    (
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    )
)


class AnthropicCodec(Codec):
    """Anthropic Messages (POST /messages), streamed or not."""

    format_name = "an Anthropic message"
    format_markers = "Messages 'type' (message, message_start, content_block_delta, ...)"
    stream_end = "message_stop"

    def __init__(self, profile: ProviderProfile) -> None:
        super().__init__(profile)
        self._prompt_cache = bool(profile.quirks.get("prompt_cache", False))

    def encode(self, request: Request, model: str) -> WireRequest:
        capabilities = self.profile.capabilities_for(model)
        thinking = request.reasoning.enabled and capabilities.reasoning
        # Thinking blocks go back only while thinking is on, and only to the provider
        # whose signatures they carry.
        replay = self.profile.name if thinking else None
        system, messages = system_and_turns(request.messages, replay)
        answer_room = request.max_tokens or DEFAULT_MAX_TOKENS
        body: dict[str, Any] = {"model": model, "messages": messages}
        if system:
            body["system"] = system
        if thinking:
            budget, max_tokens = self._thinking_budget(request, model, answer_room)
            body["max_tokens"] = max_tokens
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
        else:
            body["max_tokens"] = answer_room
            if request.temperature is not None:
                # Temperature may not be set while thinking.
                body["temperature"] = request.temperature
        if request.tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in request.tools
            ]
            choice = tool_choice_block(request.tool_choice)
            forced = choice is not None and choice["type"] in ("tool", "any")
            if forced and thinking and not capabilities.forced_tool_with_thinking:
                # The resolver already asks for auto + an instruction here; this keeps a
                # hand-built request from a certain 400.
                choice = {"type": "auto"}
            if choice is not None:
                body["tool_choice"] = choice
        if request.mode is Mode.SCHEMA_ENFORCED and request.response_schema is not None:
            schema = request.response_schema.schema
            body["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
        if self._prompt_cache:
            cache_breakpoint(body)
        if request.stream:
            body["stream"] = True
        headers = {"anthropic-version": API_VERSION, "content-type": "application/json"}
        return WireRequest("POST", "messages", headers, body, stream=request.stream)

    def _thinking_budget(self, request: Request, model: str, answer_room: int) -> tuple[int, int]:
        """(budget_tokens, max_tokens): max_tokens counts thinking too, so the answer keeps
        its room above the budget, within the model's output ceiling."""
        ceilings: Mapping[str, int] = self.profile.quirks.get("max_output_tokens", {})
        ceiling = by_longest_prefix(ceilings, model, None)
        budget = max(MIN_THINKING_BUDGET, request.reasoning.depth.anthropic_budget_tokens())
        if ceiling is not None and budget + answer_room > ceiling:
            budget = max(MIN_THINKING_BUDGET, ceiling - answer_room)
            return budget, max(budget + 1, min(ceiling, budget + answer_room))
        return budget, budget + answer_room

    def auth_headers(self, api_key: str) -> dict[str, str]:
        return {"x-api-key": api_key}

    # -- decoding --------------------------------------------------------------------
    def apply_body(self, body: Mapping[str, Any], builder: ResponseBuilder) -> None:
        """A whole message goes through the stream's own handlers: its content blocks are
        the blocks a stream would open with content_block_start (a stream's deltas only
        fill in what its opening left empty), so the two paths cannot disagree."""
        if body.get("type") == "error":
            raise self._error_from(body, None, {}, orjson.dumps(body))
        if body.get("type") == "message":
            builder.recognise()
        _message(body, builder)
        for index, block in enumerate(body.get("content") or ()):
            _start_block(index, block, builder)
        _stop(body.get("stop_reason"), builder)

    def apply_event(self, event: SSEEvent, builder: ResponseBuilder) -> None:
        kind = event.event
        if kind == "ping":
            return
        data = event_json(event.data, self.profile.name)
        kind = data.get("type", kind)
        if kind in _STREAM_EVENTS:
            builder.recognise()
        if kind == "content_block_delta":
            _delta(data["index"], data["delta"], builder)
        elif kind == "content_block_start":
            _start_block(data["index"], data["content_block"], builder)
        elif kind == "message_start":
            _message(data.get("message") or {}, builder)
        elif kind == "message_delta":
            _usage(data.get("usage"), builder)
            _stop((data.get("delta") or {}).get("stop_reason"), builder)
        elif kind == "message_stop":
            builder.end()
        elif kind == "error":
            raise self._error_from(data, None, {}, event.data.encode())

    def error(self, status: int, headers: Mapping[str, str], body: bytes) -> ProviderError:
        return self._error_from(error_body(body), status, headers, body)

    def _error_from(
        self,
        body: Mapping[str, Any],
        status: int | None,
        headers: Mapping[str, str],
        raw: bytes,
    ) -> ProviderError:
        error = error_object(body)
        kind = str(error.get("type") or "")
        message = str(error.get("message") or f"HTTP {status} from Anthropic")
        cls = _ERROR_TYPES.get(kind) or error_class_for_status(status)
        if cls is InvalidRequest and ("output_config" in message or "output_format" in message):
            cls = ResponseFormatRejected
        return typed_error(
            cls,
            kind,
            message,
            provider=self.profile.name,
            status=status,
            headers=headers,
            raw=raw,
            retry_after=retry_after_seconds(headers),
        )


# Blocks that call a tool Anthropic runs itself: their results come back as blocks whose
# type ends in "_tool_result" (web_search_tool_result, mcp_tool_result, ...).
_SERVER_CALLS = frozenset(("server_tool_use", "mcp_tool_use"))


def _message(message: Mapping[str, Any], builder: ResponseBuilder) -> None:
    """A whole message's or message_start's model and usage."""
    builder.model = message.get("model") or builder.model
    _usage(message.get("usage"), builder)


def _start_block(index: int, block: Mapping[str, Any], builder: ResponseBuilder) -> None:
    """One content block as it opens: whole in a response body; in a stream, text,
    thinking and tool input open empty and arrive as deltas (see `_delta`)."""
    kind = str(block.get("type"))
    builder.blocks[index] = kind
    if kind == "text":
        builder.text(block.get("text") or "")
    elif kind == "thinking":
        builder.reasoning(block.get("thinking") or "", key=index)
        if block.get("signature"):
            builder.reasoning_signature(block["signature"], key=index)
    elif kind == "redacted_thinking":
        # Arrives whole in content_block_start: there are no deltas for it.
        builder.opaque_reasoning(data=block.get("data"), key=index)
    elif kind == "tool_use":
        builder.tool_call(index, id=block.get("id"), name=block.get("name"))
        if block.get("input"):
            builder.tool_call_input(index, block["input"])
    elif kind in _SERVER_CALLS:
        builder.server_tool_call(
            index,
            provider_type=kind,
            id=block.get("id"),
            name=block.get("name"),
            arguments=block.get("input") or None,
        )
    elif kind.endswith("_tool_result") and "tool_use_id" in block:
        result = block.get("content")
        if not builder.server_tool_result(result, id=block["tool_use_id"]):
            builder.server_tool_call(
                index, provider_type=kind, id=block["tool_use_id"], result=result
            )


def _delta(index: int, delta: Mapping[str, Any], builder: ResponseBuilder) -> None:
    """A delta goes where the type of the block it continues says; a delta for a block
    type golem does not read (a future server block) is left alone."""
    kind = delta.get("type")
    block = builder.blocks.get(index)
    if block is None:
        raise InvalidResponse(
            f"a content_block_delta for block {index}, which no content_block_start opened",
            provider=builder.provider,
        )
    if kind == "text_delta":
        builder.text(delta["text"])
    elif kind == "thinking_delta":
        builder.reasoning(delta["thinking"], key=index)
    elif kind == "signature_delta":
        builder.reasoning_signature(delta["signature"], key=index)
    elif kind == "input_json_delta":
        if block == "tool_use":
            builder.tool_call_arguments(index, delta["partial_json"])
        elif block in _SERVER_CALLS:
            builder.server_tool_arguments(index, delta["partial_json"])


def _usage(usage: Mapping[str, Any] | None, builder: ResponseBuilder) -> None:
    """Anthropic's input_tokens excludes cache reads and writes; ours includes them.
    output_tokens includes thinking; ours does not, when the thinking count is reported."""
    if not usage:
        return
    if "input_tokens" in usage:
        cached = usage.get("cache_read_input_tokens") or 0
        written = usage.get("cache_creation_input_tokens") or 0
        builder.usage(
            input_tokens=(usage["input_tokens"] or 0) + cached + written,
            cached_input_tokens=cached,
            cache_write_tokens=written,
        )
    output = usage.get("output_tokens")
    if output is None:
        return
    details = usage.get("output_tokens_details") or {}
    thinking = details.get("thinking_tokens")
    if thinking is None:
        builder.usage(output_tokens=output)
    else:
        builder.usage(output_tokens=max(0, output - thinking), reasoning_tokens=thinking)


def _stop(reason: str | None, builder: ResponseBuilder) -> None:
    if reason is None:
        return
    if reason == "refusal":
        builder.refusal("the model stopped with stop_reason 'refusal'")
    builder.finish(_STOP_REASONS.get(reason, FinishReason.UNKNOWN), reason)
