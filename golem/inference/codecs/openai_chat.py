"""The OpenAI Chat Completions wire format: request body, response body and chunk stream,
and the OpenAI error object. The OpenAI-compatible family (openai_compat) builds on it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, ClassVar

import orjson

from golem.inference.codecs._cache import prefix_key
from golem.inference.codecs._errors import event_json
from golem.inference.codecs._openai_errors import error_for, status_of
from golem.inference.codecs.base import Codec, ProviderProfile, WireRequest, by_longest_prefix
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import ProviderError
from golem.inference.modes import Capabilities
from golem.inference.schema import ResponseSchema
from golem.inference.sse import SSEEvent
from golem.inference.types import FinishReason, Message, Mode, Request, Role, Tool

__all__ = ["FAMILY", "OpenAIChatCodec", "finish_reason", "nearest_effort"]

FAMILY = "openai-chat"

_FINISH = {
    "stop": FinishReason.STOP,
    "length": FinishReason.LENGTH,
    "tool_calls": FinishReason.TOOL_CALLS,
    "function_call": FinishReason.TOOL_CALLS,
    "content_filter": FinishReason.CONTENT_FILTER,
    "error": FinishReason.ERROR,
    # Compatible servers' own words. Hugging Face TGI documents `eos_token` and
    # `stop_sequence`; `eos` (end of sequence: the model's own stop) is sent as is by others.
    "eos": FinishReason.STOP,
    "eos_token": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
}
_CHOICES = ("auto", "none", "required")
# Reasoning efforts from the least to the most thinking; a model's accepted list is data.
_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")
_JSON_HEADERS = {"content-type": "application/json"}
_STREAM_HEADERS = {"content-type": "application/json", "accept": "text/event-stream"}


def nearest_effort(wanted: str, accepted: Sequence[str]) -> str:
    """`wanted`, or the effort in `accepted` nearest to it (ties go to less thinking); an
    empty `accepted` accepts anything."""
    if not accepted or wanted in accepted:
        return wanted
    rank = _EFFORTS.index(wanted) if wanted in _EFFORTS else 0
    return min(accepted, key=lambda e: (abs(_EFFORTS.index(e) - rank), _EFFORTS.index(e)))


def finish_reason(value: object) -> FinishReason | None:
    """The neutral finish reason for an OpenAI `finish_reason` (None: not finished yet)."""
    if not isinstance(value, str):
        return None
    return _FINISH.get(value, FinishReason.UNKNOWN)


class OpenAIChatCodec(Codec):
    """Chat Completions (`POST /chat/completions`), streamed or not.

    Profile quirks read here (all optional): `max_tokens_field` (default
    `max_completion_tokens`), `temperature_with_reasoning` (false: drop temperature for
    reasoning models, which reject it), `reasoning_efforts` (model prefix -> the efforts
    it accepts; a depth maps to the nearest one), `stream_usage` (default true: ask for
    usage in the last chunk), `extra_body` (fields added to every request body),
    `reasoning_in_completion` (default true, as OpenAI documents: `completion_tokens`
    includes the reasoning tokens; false for a vendor whose count excludes them, such as
    xAI; a usage's `total_tokens` decides over it when it settles the question),
    `prompt_cache_key` (default false: send OpenAI's `prompt_cache_key`, a hash of the
    request's stable prefix, so calls that share it reach the same prompt cache).
    """

    path: ClassVar[str] = "/chat/completions"
    format_name = "an OpenAI chat completion"
    format_markers = "'choices'"
    stream_end = "`data: [DONE]`, or a finish_reason and the usage"
    default_max_tokens_field: ClassVar[str] = "max_completion_tokens"

    def __init__(self, profile: ProviderProfile) -> None:
        super().__init__(profile)
        quirks = profile.quirks
        self._max_tokens_field = str(quirks.get("max_tokens_field", self.default_max_tokens_field))
        self._temperature_with_reasoning = bool(quirks.get("temperature_with_reasoning", True))
        self._efforts: Mapping[str, list[str]] = quirks.get("reasoning_efforts", {})
        self._stream_usage = bool(quirks.get("stream_usage", True))
        self._extra_body: Mapping[str, Any] = quirks.get("extra_body", {})
        self._reasoning_in_completion = bool(quirks.get("reasoning_in_completion", True))
        self._prompt_cache_key = bool(quirks.get("prompt_cache_key", False))
        self._capabilities: dict[str, Capabilities] = {}  # the profile is immutable

    def capabilities_for(self, model: str) -> Capabilities:
        caps = self._capabilities.get(model)
        if caps is None:
            caps = self._capabilities[model] = self.profile.capabilities_for(model)
        return caps

    # -- encoding --------------------------------------------------------------------
    def encode(self, request: Request, model: str) -> WireRequest:
        caps = self.capabilities_for(model)
        body: dict[str, Any] = {"model": model, "messages": self.messages(request, caps)}
        if request.mode is Mode.SCHEMA_ENFORCED and request.response_schema is not None:
            body["response_format"] = response_format(request.response_schema)
        if request.tools:
            body["tools"] = [_tool(t) for t in request.tools]
            if request.tool_choice is not None:
                body["tool_choice"] = tool_choice(request.tool_choice)
        if request.max_tokens is not None:
            body[self._max_tokens_field] = request.max_tokens
        if request.temperature is not None and (
            self._temperature_with_reasoning or not caps.reasoning
        ):
            body["temperature"] = request.temperature
        if caps.reasoning:
            body.update(self.reasoning_params(request, model, caps))
        if self._prompt_cache_key:
            body["prompt_cache_key"] = prefix_key(model, request)
        if self._extra_body:
            body.update(self._extra_body)
        if request.stream:
            body["stream"] = True
            if self._stream_usage:
                body["stream_options"] = {"include_usage": True}
        headers = _STREAM_HEADERS if request.stream else _JSON_HEADERS
        return WireRequest("POST", self.path, headers, body, stream=request.stream)

    def messages(self, request: Request, caps: Capabilities) -> list[dict[str, Any]]:
        """The request's messages as the body's `messages`, one for one. No reasoning goes
        back: OpenAI's Chat Completions returns none to send."""
        return [_message(m) for m in request.messages]

    def reasoning_params(self, request: Request, model: str, caps: Capabilities) -> dict[str, Any]:
        """The body fields that set the reasoning depth, for a model that reasons."""
        return {"reasoning_effort": self.effort(request.reasoning.depth.openai_effort(), model)}

    def effort(self, wanted: str, model: str) -> str:
        """`wanted`, or the accepted effort nearest to it (ties go to less thinking)."""
        return nearest_effort(wanted, by_longest_prefix(self._efforts, model, ()))

    def auth_headers(self, api_key: str) -> dict[str, str]:
        return {"authorization": f"Bearer {api_key}"}

    # -- decoding --------------------------------------------------------------------
    def apply_body(self, body: Mapping[str, Any], builder: ResponseBuilder) -> None:
        self._raise_error_object(body)
        self._apply_chunk(body, builder, "message")

    def apply_event(self, event: SSEEvent, builder: ResponseBuilder) -> None:
        data = event.data
        if data == "[DONE]":
            builder.end()
            return
        if not data.strip():
            return
        chunk = event_json(data, self.profile.name)
        self._raise_error_object(chunk)
        self._apply_chunk(chunk, builder, "delta")
        # A server that omits [DONE] has ended once the finish reason and the usage (when
        # asked for, it comes in or after the finishing chunk) are both in.
        if builder.finished and (builder.has_usage or not self._stream_usage):
            builder.end()

    def _apply_chunk(self, chunk: Mapping[str, Any], builder: ResponseBuilder, part: str) -> None:
        model = chunk.get("model")
        if isinstance(model, str) and model:
            builder.model = model
        choices = chunk.get("choices")
        if isinstance(choices, list):
            builder.recognise()
        if choices:
            choice = choices[0]  # we never ask for n > 1
            delta = choice.get(part)
            if delta and part == "message" and delta.get("tool_calls"):
                # In a whole message each call is whole and its position identifies it (some
                # servers send `"index": null` on every one); a stream's deltas carry it.
                calls = [{**c, "index": i} for i, c in enumerate(delta["tool_calls"])]
                delta = {**delta, "tool_calls": calls}
            if delta:
                self.apply_delta(delta, builder)
            raw = choice.get("finish_reason")
            reason = finish_reason(raw)
            if reason is not None:
                builder.finish(reason, raw)
        # Groq's streams report usage only in `x_groq.usage` (its bodies, at the top level).
        usage = chunk.get("usage") or (chunk.get("x_groq") or {}).get("usage")
        if usage:
            apply_usage(usage, builder, reasoning_in_completion=self._reasoning_in_completion)

    def apply_delta(self, delta: Mapping[str, Any], builder: ResponseBuilder) -> None:
        """One message (whole body) or one delta (stream): the same fields either way.
        `content` may be text, a list of typed parts, or (a structured answer from some
        compatible servers) the JSON value itself, kept as its JSON text."""
        content = delta.get("content")
        if isinstance(content, str):
            builder.text(content)
        elif isinstance(content, list) and all(_is_part(p) for p in content):
            _apply_content_parts(content, builder)
        elif isinstance(content, dict) and content.get("type") in ("text", "refusal", "thinking"):
            _apply_content_parts([content], builder)
        elif isinstance(content, dict | list):
            builder.text(orjson.dumps(content).decode())
        refusal = delta.get("refusal")
        if refusal:
            builder.refusal(refusal)
        calls = delta.get("tool_calls")
        if calls:
            _apply_tool_calls(calls, builder)

    # -- errors ----------------------------------------------------------------------
    def error(self, status: int, headers: Mapping[str, str], body: bytes) -> ProviderError:
        return error_for(self.profile.name, status, headers, body)

    def _raise_error_object(self, body: Mapping[str, Any]) -> None:
        """A 200 whose body (or stream event) is an error object, as OpenRouter sends, alone
        or beside a `choices` array (an upstream failure mid-stream): either way the answer
        is not complete."""
        error = body.get("error")
        if isinstance(error, dict):
            raw = orjson.dumps(body)
            raise error_for(self.profile.name, status_of(error), {}, raw)


def apply_usage(
    usage: Mapping[str, Any], builder: ResponseBuilder, *, reasoning_in_completion: bool = True
) -> None:
    """OpenAI usage: completion_tokens includes reasoning_tokens (OpenAI's documentation),
    our output_tokens does not; a vendor whose completion_tokens excludes them (xAI) says so
    with `reasoning_in_completion = false`, and `total_tokens` decides when given (see
    `visible_output`). Cached input is `prompt_tokens_details.cached_tokens`, or DeepSeek's
    `prompt_cache_hit_tokens`, or Together's top-level `cached_tokens`."""
    get = usage.get
    completion = get("completion_tokens")
    details = get("completion_tokens_details")
    reasoning = (details.get("reasoning_tokens") or 0) if details else 0
    prompt_details = get("prompt_tokens_details")
    cached = prompt_details.get("cached_tokens") if prompt_details else None
    if cached is None:
        cached = get("prompt_cache_hit_tokens", get("cached_tokens"))
    prompt = get("prompt_tokens")
    builder.usage(
        input_tokens=prompt,
        cached_input_tokens=cached,
        output_tokens=visible_output(
            prompt, completion, reasoning, get("total_tokens"), reasoning_in_completion
        ),
        reasoning_tokens=reasoning,
    )


def visible_output(
    prompt: int | None,
    output: int | None,
    reasoning: int,
    total: int | None,
    reasoning_in_output: bool,
) -> int | None:
    """The visible part of a reported output count, never clamped: `total` says whether the
    count includes the reasoning tokens (input + output = total) or not (input + output +
    reasoning = total); without a total that settles it, the vendor's documentation does
    (`reasoning_in_output`). A count smaller than the reasoning it would include cannot
    include it, and is taken as visible output (the reading that bills every token)."""
    if output is None or not reasoning:
        return output
    if isinstance(total, int) and isinstance(prompt, int):
        if prompt + output == total:
            reasoning_in_output = True
        elif prompt + output + reasoning == total:
            reasoning_in_output = False
    if reasoning_in_output and output >= reasoning:
        return int(output - reasoning)
    return output


def _is_part(part: object) -> bool:
    """A typed content part (or a plain string, as some servers send), not answer data."""
    return isinstance(part, str) or (isinstance(part, dict) and isinstance(part.get("type"), str))


def _apply_content_parts(parts: list[Any], builder: ResponseBuilder) -> None:
    """Content as a list of typed parts, as Mistral sends it: `text`, `refusal`, and
    `thinking` (itself a list of text parts, or a string) in arrival order."""
    for part in parts:
        if isinstance(part, str):
            builder.text(part)
            continue
        kind = part.get("type")
        if kind == "text":
            builder.text(part.get("text") or "")
        elif kind == "refusal":
            builder.refusal(part.get("refusal") or "")
        elif kind == "thinking":
            thinking = part.get("thinking")
            texts = [thinking] if isinstance(thinking, str) else thinking or ()
            for text in texts:
                builder.reasoning(text if isinstance(text, str) else text.get("text") or "")


def _apply_tool_calls(calls: list[Mapping[str, Any]], builder: ResponseBuilder) -> None:
    for position, call in enumerate(calls):
        key = call.get("index", position)
        function = call.get("function") or {}
        builder.tool_call(key, id=call.get("id"), name=function.get("name"))
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            if arguments:
                builder.tool_call_arguments(key, arguments)
        elif isinstance(arguments, dict):  # some servers send the object itself
            builder.tool_call_input(key, arguments)


@lru_cache(maxsize=512)
def response_format(schema: ResponseSchema) -> dict[str, Any]:
    """`response_format` for SchemaEnforced: the schema verbatim, strict when it passes
    the preflight. Cached per schema: the preflight walks the whole schema."""
    json_schema: dict[str, Any] = {
        "name": schema.name,
        "schema": schema.schema,
        "strict": schema.strict_ok,
    }
    if schema.description:
        json_schema["description"] = schema.description
    return {"type": "json_schema", "json_schema": json_schema}


def tool_choice(choice: str) -> str | dict[str, Any]:
    if choice in _CHOICES:
        return choice
    return {"type": "function", "function": {"name": choice}}


def _tool(tool: Tool) -> dict[str, Any]:
    function: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
    }
    if tool.strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def _message(message: Message) -> dict[str, Any]:
    # Role is a StrEnum: orjson writes it as its value.
    if message.role is Role.TOOL:
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if message.tool_calls:
        return {
            "role": message.role,
            "content": message.content,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {
                        "name": call.name,
                        "arguments": orjson.dumps(dict(call.arguments)).decode(),
                    },
                }
                for call in message.tool_calls
            ],
        }
    return {"role": message.role, "content": message.content}
