"""The OpenAI Responses codec (POST /responses): input items (_responses_input.py's),
text.format json_schema, function tools and reasoning {effort, summary}; output items and
the Responses SSE event stream. Pure: no IO."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from golem.inference.codecs import _openai_errors
from golem.inference.codecs._cache import prefix_key
from golem.inference.codecs._errors import event_json
from golem.inference.codecs._responses_input import instructions_and_input, tool_choice_value
from golem.inference.codecs.base import Codec, ProviderProfile, WireRequest, by_longest_prefix
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.codecs.openai_chat import nearest_effort, visible_output
from golem.inference.errors import ProviderError
from golem.inference.modes import Capabilities
from golem.inference.pricing import Price
from golem.inference.reasoning import ReasoningCost, Visibility
from golem.inference.sse import SSEEvent
from golem.inference.types import FinishReason, Mode, Request

__all__ = ["FAMILY", "PRICES", "PROFILE", "OpenAIResponsesCodec"]

FAMILY = "openai-responses"

_REASONING = Capabilities(
    response_schema=True,
    tool_use=True,
    forced_tool=True,
    forced_tool_with_thinking=True,
    strict_required=True,  # json_schema is only enforced with strict: true
    reasoning=True,
)

PROFILE = ProviderProfile(
    name="openai-responses",
    family=FAMILY,
    base_url="https://api.openai.com/v1",
    api_key_env="OPENAI_API_KEY",
    capabilities=_REASONING,
    model_capabilities={
        "gpt-4": Capabilities(response_schema=True, tool_use=True, strict_required=True),
    },
    # Reasoning tokens are reported apart from output (output_tokens_details) and priced
    # at the output price.
    reasoning_billing=ReasoningCost(billed_as_output=False),
    quirks={
        # The efforts each model accepts; a depth maps to the nearest (ties: less thinking).
        "reasoning_efforts": {
            "gpt-5": ["minimal", "low", "medium", "high"],
            "gpt-5.1": ["none", "low", "medium", "high"],
            "gpt-5.2": ["none", "low", "medium", "high", "xhigh"],
        },
        # Send `prompt_cache_key` (a hash of the stable prefix), as the chat codec's quirk.
        "prompt_cache_key": True,
    },
)

# USD per million tokens.
PRICES: Mapping[str, Price] = {
    "gpt-5": Price(1.25, 10.0, cached_input=0.125, reasoning=10.0),
    "gpt-5.1": Price(1.25, 10.0, cached_input=0.125, reasoning=10.0),
    "gpt-5-mini": Price(0.25, 2.0, cached_input=0.025, reasoning=2.0),
    "gpt-5-nano": Price(0.05, 0.40, cached_input=0.005, reasoning=0.40),
}

_INCOMPLETE = {
    "max_output_tokens": FinishReason.LENGTH,
    "content_filter": FinishReason.CONTENT_FILTER,
}


class OpenAIResponsesCodec(Codec):
    """OpenAI Responses, streamed or not."""

    format_name = "an OpenAI Responses response"
    format_markers = "'output' or a 'response.*' type"
    stream_end = "response.completed or response.incomplete"

    def __init__(self, profile: ProviderProfile) -> None:
        super().__init__(profile)
        # As the chat codec's `reasoning_in_completion`: does output_tokens include them.
        self._reasoning_in_output = bool(profile.quirks.get("reasoning_in_completion", True))
        self._prompt_cache_key = bool(profile.quirks.get("prompt_cache_key", False))

    def encode(self, request: Request, model: str) -> WireRequest:
        capabilities = self.profile.capabilities_for(model)
        # Reasoning items go back only while reasoning is on, and only to the provider
        # whose encrypted_content they carry.
        thinking = capabilities.reasoning and request.reasoning.enabled
        instructions, items = instructions_and_input(
            request.messages, self.profile.name if thinking else None
        )
        body: dict[str, Any] = {"model": model, "input": items}
        if instructions:
            body["instructions"] = instructions
        if request.max_tokens is not None:
            body["max_output_tokens"] = request.max_tokens
        reasoning = capabilities.reasoning
        if reasoning:
            config: dict[str, Any] = {
                "effort": self._effort(request.reasoning.depth.openai_effort(), model)
            }
            if request.reasoning.visible and request.reasoning.enabled:
                config["summary"] = "auto"
            body["reasoning"] = config
        elif request.temperature is not None:
            # Reasoning models reject temperature.
            body["temperature"] = request.temperature
        if request.mode is Mode.SCHEMA_ENFORCED and request.response_schema is not None:
            schema = request.response_schema
            body["text"] = {
                "format": {
                    "type": "json_schema",
                    "name": schema.name,
                    "schema": schema.schema,
                    "strict": schema.strict_ok,
                }
            }
        if request.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters,
                    "strict": t.strict,
                }
                for t in request.tools
            ]
            if request.tool_choice is not None:
                body["tool_choice"] = tool_choice_value(request.tool_choice)
        if self._prompt_cache_key:
            body["prompt_cache_key"] = prefix_key(model, request)
        if request.stream:
            body["stream"] = True
        headers = {"content-type": "application/json"}
        return WireRequest("POST", "responses", headers, body, stream=request.stream)

    def _effort(self, wanted: str, model: str) -> str:
        """`wanted`, or the accepted effort nearest to it (ties go to less thinking)."""
        table: Mapping[str, list[str]] = self.profile.quirks.get("reasoning_efforts", {})
        return nearest_effort(wanted, by_longest_prefix(table, model, ()))

    def auth_headers(self, api_key: str) -> dict[str, str]:
        return {"authorization": f"Bearer {api_key}"}

    # -- decoding --------------------------------------------------------------------
    def apply_body(self, body: Mapping[str, Any], builder: ResponseBuilder) -> None:
        if body.get("error") and not body.get("output"):
            raise self._error_object(body["error"])
        if body.get("object") == "response" or "output" in body:
            builder.recognise()
        for index, item in enumerate(body.get("output") or ()):
            _item(index, item, builder, "whole")
        self._final(body, builder)

    def apply_event(self, event: SSEEvent, builder: ResponseBuilder) -> None:
        if event.data == "[DONE]":
            # OpenRouter's /responses closes with Chat Completions' sentinel after
            # response.completed; it ends nothing that event did not end already.
            return
        data = event_json(event.data, self.profile.name)
        kind = data.get("type") or event.event
        if isinstance(kind, str) and kind.startswith("response."):
            builder.recognise()
        if kind == "response.output_text.delta":
            builder.text(data["delta"])
        elif kind == "response.reasoning_summary_text.delta":
            key = (data["output_index"], "summary", data["summary_index"])
            builder.reasoning(data["delta"], visibility=Visibility.SUMMARIZED, key=key)
        elif kind == "response.reasoning_text.delta":
            key = (data["output_index"], "content", data["content_index"])
            builder.reasoning(data["delta"], key=key)
        elif kind == "response.function_call_arguments.delta":
            builder.tool_call_arguments(data["output_index"], data["delta"])
        elif kind == "response.function_call_arguments.done" and "arguments" in data:
            # The whole arguments (some compatible servers send no delta before them).
            builder.tool_call_arguments_done(data["output_index"], data["arguments"])
        elif kind == "response.reasoning_summary_part.added":
            key = (data["output_index"], "summary", data["summary_index"])
            builder.reasoning("", visibility=Visibility.SUMMARIZED, key=key)
        elif kind == "response.refusal.delta":
            builder.refusal(data["delta"])
        elif kind in ("response.output_item.added", "response.output_item.done"):
            _item(data["output_index"], data["item"], builder, kind.rsplit(".", 1)[1])
        elif kind in ("response.completed", "response.incomplete"):
            self._final(data.get("response") or {}, builder)
            builder.end()
        elif kind == "response.created":
            self._final(data.get("response") or {}, builder)
        elif kind == "response.failed":
            response = data.get("response") or {}
            raise self._error_object(response.get("error") or {})
        elif kind == "error":
            raise self._error_object(data.get("error") or data)

    def _final(self, response: Mapping[str, Any], builder: ResponseBuilder) -> None:
        """Model, usage and status of a whole response (or of response.completed)."""
        builder.model = response.get("model") or builder.model
        usage = response.get("usage")
        if usage:
            reasoning = (usage.get("output_tokens_details") or {}).get("reasoning_tokens") or 0
            cached = (usage.get("input_tokens_details") or {}).get("cached_tokens") or 0
            prompt = usage.get("input_tokens") or 0
            builder.usage(
                input_tokens=prompt,
                cached_input_tokens=cached,
                # output_tokens includes the reasoning tokens (OpenAI); ours does not.
                output_tokens=visible_output(
                    prompt,
                    usage.get("output_tokens") or 0,
                    reasoning,
                    usage.get("total_tokens"),
                    self._reasoning_in_output,
                ),
                reasoning_tokens=reasoning,
            )
        status = response.get("status")
        if status == "completed":
            calls = builder.tool_call_count
            builder.finish(FinishReason.TOOL_CALLS if calls else FinishReason.STOP, status)
        elif status == "incomplete":
            reason = str((response.get("incomplete_details") or {}).get("reason"))
            builder.finish(_INCOMPLETE.get(reason, FinishReason.LENGTH), reason)
        elif status == "failed":
            raise self._error_object(response.get("error") or {})

    def error(self, status: int, headers: Mapping[str, str], body: bytes) -> ProviderError:
        return _openai_errors.error_for(self.profile.name, status, headers, body)

    def _error_object(self, error: Any) -> ProviderError:
        """An error that came inside a 200 body or a stream event."""
        status = _openai_errors.status_of(error if isinstance(error, dict) else {})
        raw = orjson.dumps({"error": error})
        return _openai_errors.error_for(self.profile.name, status, {}, raw)


def _item(index: int, item: Mapping[str, Any], builder: ResponseBuilder, phase: str) -> None:
    """One output item: "whole" (a body), or as a stream opens ("added") or closes
    ("done") it. A stream's text comes in deltas, so its items only begin calls and name
    the reasoning item its steps came from (its id and encrypted_content, on "done")."""
    kind = item.get("type")
    if kind == "function_call":
        if phase != "done" or not builder.has_tool_call(index):
            builder.tool_call(index, id=item.get("call_id"), name=item.get("name"))
        arguments = item.get("arguments")
        if phase == "whole":
            builder.tool_call_arguments(index, arguments or "")
        elif phase == "done" and isinstance(arguments, str):
            # The closed call's arguments are whole (the only ones, when no delta came).
            builder.tool_call_arguments_done(index, arguments)
    elif kind == "reasoning":
        summary = item.get("summary") or ()
        content = item.get("content") or ()
        if phase == "whole":
            for i, part in enumerate(summary):
                key = (index, "summary", i)
                builder.reasoning(part.get("text") or "", visibility=Visibility.SUMMARIZED, key=key)
            for i, part in enumerate(content):
                builder.reasoning(part.get("text") or "", key=(index, "content", i))
        if phase != "added":
            keys: list[object] = [(index, "summary", i) for i in range(len(summary))]
            keys += [(index, "content", i) for i in range(len(content))]
            # The finished item names its steps: its id, and its encrypted_content (a
            # stream's output_item.added may carry that incomplete).
            if not keys:
                keys = [(index, "opaque")]
                builder.opaque_reasoning(key=keys[0])
            data = item.get("encrypted_content")
            builder.reasoning_item(keys, item_id=item.get("id"), data=data)
    elif kind in _SERVER_ITEMS:
        _server_item(index, str(kind), item, builder)
    elif isinstance(kind, str) and kind.endswith("_call"):
        # A tool the provider ran that golem does not know (xAI's x_search_call, ...):
        # surfaced under its wire type, with what it was asked and returned if it can be
        # told, never dropped and never a call for the caller to execute.
        _unknown_server_item(index, kind, item, builder)
    elif kind == "tool_search_output":
        builder.server_tool_result(item.get("tools"), id=item.get("call_id"))
    elif kind == "message" and phase == "whole":
        for part in item.get("content") or ():
            if part.get("type") == "output_text":
                builder.text(part.get("text") or "")
            elif part.get("type") == "refusal":
                builder.refusal(part.get("refusal") or "")


# Items for tools OpenAI runs itself: (the field holding what it was asked, the field
# holding what it returned). A stream's output_item.done carries the finished item.
_SERVER_ITEMS: Mapping[str, tuple[str, str | None]] = {
    "web_search_call": ("action", None),
    "file_search_call": ("queries", "results"),
    "code_interpreter_call": ("code", "outputs"),
    "image_generation_call": ("revised_prompt", "result"),
    "mcp_call": ("arguments", "output"),
    "mcp_list_tools": ("server_label", "tools"),
    "tool_search_call": ("arguments", None),
}


def _server_item(index: int, kind: str, item: Mapping[str, Any], builder: ResponseBuilder) -> None:
    asked, answered = _SERVER_ITEMS[kind]
    name = item.get("name") if kind == "mcp_call" else kind
    builder.server_tool_call(
        index,
        provider_type=kind,
        id=item.get("id"),
        name=name,
        arguments=_server_arguments(item, asked),
        result=item.get(answered) if answered else None,
    )


def _unknown_server_item(
    index: int, kind: str, item: Mapping[str, Any], builder: ResponseBuilder
) -> None:
    asked = next((f for f in ("arguments", "action", "input", "query") if f in item), "")
    answered = next((f for f in ("output", "results", "result") if f in item), None)
    builder.server_tool_call(
        index,
        provider_type=kind,
        id=item.get("id"),
        name=item.get("name") if isinstance(item.get("name"), str) else kind,
        arguments=_server_arguments(item, asked) if asked else None,
        result=item.get(answered) if answered else None,
    )


def _server_arguments(item: Mapping[str, Any], field: str) -> dict[str, Any] | None:
    """What a server tool was asked, as an object: a JSON object given as text is decoded,
    anything else is kept under its field's name."""
    value = item.get(field)
    if isinstance(value, str):
        try:
            decoded = orjson.loads(value)
        except orjson.JSONDecodeError:
            decoded = None
        if isinstance(decoded, dict):
            return decoded
    if isinstance(value, dict):
        return value
    return None if value is None else {field: value}
