"""The Gemini generateContent codec: requests with responseJsonSchema, function calling and
thinkingConfig (their contents are _gemini_contents.py's); responses and
`streamGenerateContent?alt=sse` streams with thought parts, thought signatures and
usageMetadata; Google's error bodies. Pure: no IO."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import orjson

from golem.inference.codecs._errors import (
    error_body,
    error_class_for_status,
    error_object,
    event_json,
    retry_after_seconds,
    typed_error,
)
from golem.inference.codecs._framing import SSEOrJSONArrayFramer
from golem.inference.codecs._gemini_contents import function_calling, system_and_contents
from golem.inference.codecs._gemini_partial import GeminiBuilder, PartialCalls
from golem.inference.codecs.base import (
    Codec,
    CodecStream,
    ProviderProfile,
    WireRequest,
    by_longest_prefix,
)
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import (
    AuthError,
    InvalidRequest,
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

__all__ = ["FAMILY", "PRICES", "PROFILE", "GeminiCodec"]

FAMILY = "gemini"

PROFILE = ProviderProfile(
    name="gemini",
    family=FAMILY,
    base_url="https://generativelanguage.googleapis.com/v1beta",
    api_key_env="GEMINI_API_KEY",
    capabilities=Capabilities(
        response_schema=True,
        tool_use=True,
        forced_tool=True,
        forced_tool_with_thinking=True,
        reasoning=True,
    ),
    # Thoughts are reported apart from the answer (thoughtsTokenCount) and priced there.
    reasoning_billing=ReasoningCost(billed_as_output=False),
    quirks={
        # Gemini 3 takes thinkingLevel instead of a token budget.
        "thinking_level_models": ("gemini-3",),
        # Models that cannot stop thinking: their smallest budget (longest prefix wins).
        "min_thinking_budget": {"gemini-2.5-pro": 128},
    },
)

# USD per million tokens (prompts up to 200k tokens); thoughts at the output price.
PRICES: Mapping[str, Price] = {
    "gemini-2.5-pro": Price(1.25, 10.0, cached_input=0.125, reasoning=10.0),
    "gemini-2.5-flash": Price(0.30, 2.50, cached_input=0.03, reasoning=2.50),
    "gemini-2.5-flash-lite": Price(0.10, 0.40, cached_input=0.01, reasoning=0.40),
}

_FINISH_REASONS = {
    "STOP": FinishReason.STOP,
    "MAX_TOKENS": FinishReason.LENGTH,
    "SAFETY": FinishReason.CONTENT_FILTER,
    "RECITATION": FinishReason.CONTENT_FILTER,
    "BLOCKLIST": FinishReason.CONTENT_FILTER,
    "PROHIBITED_CONTENT": FinishReason.CONTENT_FILTER,
    "SPII": FinishReason.CONTENT_FILTER,
    "IMAGE_SAFETY": FinishReason.CONTENT_FILTER,
    "MALFORMED_FUNCTION_CALL": FinishReason.ERROR,
    "UNEXPECTED_TOOL_CALL": FinishReason.ERROR,
    "MODEL_ARMOR": FinishReason.CONTENT_FILTER,
}
# Vertex AI's Candidate.FinishReason numbers (v1), sent as such with `enum-encoding=int`.
_FINISH_NUMBERS = (
    "FINISH_REASON_UNSPECIFIED",
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "OTHER",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "MALFORMED_FUNCTION_CALL",
    "MODEL_ARMOR",
)
_ERROR_STATUSES: Mapping[str, type[ProviderError]] = {
    "RESOURCE_EXHAUSTED": RateLimited,
    "INVALID_ARGUMENT": InvalidRequest,
    "FAILED_PRECONDITION": InvalidRequest,
    "NOT_FOUND": InvalidRequest,
    "PERMISSION_DENIED": AuthError,
    "UNAUTHENTICATED": AuthError,
    "INTERNAL": ServerError,
    "UNAVAILABLE": ServerError,
    "DEADLINE_EXCEEDED": ServerError,
}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


class GeminiCodec(Codec):
    """Gemini API (`models/{model}:generateContent`), streamed or not."""

    format_name = "a Gemini generateContent response"
    format_markers = "'candidates', 'usageMetadata' or 'promptFeedback'"
    stream_end = "a candidate's finishReason"

    def encode(self, request: Request, model: str) -> WireRequest:
        capabilities = self.profile.capabilities_for(model)
        system, contents = system_and_contents(request.messages, self.profile.name)
        body: dict[str, Any] = {"contents": contents}
        if system:
            body["systemInstruction"] = {"parts": [{"text": system}]}
        config: dict[str, Any] = {}
        if request.max_tokens is not None:
            config["maxOutputTokens"] = request.max_tokens
        if request.temperature is not None:
            config["temperature"] = request.temperature
        if request.mode is Mode.SCHEMA_ENFORCED and request.response_schema is not None:
            config["responseMimeType"] = "application/json"
            config["responseJsonSchema"] = request.response_schema.schema
        if capabilities.reasoning:
            config["thinkingConfig"] = self._thinking(request, model)
        if config:
            body["generationConfig"] = config
        if request.tools:
            body["tools"] = [
                {
                    "functionDeclarations": [
                        {
                            "name": t.name,
                            "description": t.description,
                            "parametersJsonSchema": t.parameters,
                        }
                        for t in request.tools
                    ]
                }
            ]
            if request.tool_choice is not None:
                body["toolConfig"] = {
                    "functionCallingConfig": function_calling(request.tool_choice)
                }
        action = "streamGenerateContent?alt=sse" if request.stream else "generateContent"
        headers = {"content-type": "application/json"}
        return WireRequest("POST", f"models/{model}:{action}", headers, body, stream=request.stream)

    def _thinking(self, request: Request, model: str) -> dict[str, Any]:
        depth = request.reasoning.depth
        thinking: dict[str, Any] = {}
        if model.startswith(tuple(self.profile.quirks.get("thinking_level_models", ()))):
            thinking["thinkingLevel"] = depth.gemini_thinking_level()
        else:
            floors: Mapping[str, int] = self.profile.quirks.get("min_thinking_budget", {})
            floor = by_longest_prefix(floors, model, 0)
            thinking["thinkingBudget"] = max(floor, depth.gemini_thinking_budget())
        if request.reasoning.visible and request.reasoning.enabled:
            thinking["includeThoughts"] = True
        return thinking

    def auth_headers(self, api_key: str) -> dict[str, str]:
        # In a header, never in the URL's ?key=, so it cannot end up in a logged URL.
        return {"x-goog-api-key": api_key}

    # -- decoding --------------------------------------------------------------------
    def apply_body(self, body: Mapping[str, Any], builder: ResponseBuilder) -> None:
        """A whole response and one stream chunk have the same shape."""
        if isinstance(body.get("error"), dict):
            raise self._error_from(body, None, {}, orjson.dumps(body))
        if "candidates" in body or "usageMetadata" in body or "promptFeedback" in body:
            builder.recognise()
        builder.model = body.get("modelVersion") or builder.model
        feedback = body.get("promptFeedback") or {}
        if feedback.get("blockReason"):
            builder.refusal(f"the prompt was blocked: {feedback['blockReason']}")
            builder.finish(FinishReason.CONTENT_FILTER)
            builder.end()
        for candidate in body.get("candidates") or ():
            if candidate.get("index", 0) == 0:
                _candidate(candidate, builder)
        usage = body.get("usageMetadata")
        if usage:
            # Each chunk repeats the running totals, so later values replace earlier ones.
            # Tool-use prompt tokens (code execution, search results fed back to the
            # model) are input too, billed as such, and not part of promptTokenCount.
            builder.usage(
                input_tokens=usage.get("promptTokenCount", 0)
                + usage.get("toolUsePromptTokenCount", 0),
                cached_input_tokens=usage.get("cachedContentTokenCount", 0),
                # thoughtsTokenCount is not part of candidatesTokenCount.
                output_tokens=usage.get("candidatesTokenCount", 0),
                reasoning_tokens=usage.get("thoughtsTokenCount", 0),
            )

    def apply_event(self, event: SSEEvent, builder: ResponseBuilder) -> None:
        self.apply_body(event_json(event.data, self.profile.name), builder)

    def new_builder(self) -> ResponseBuilder:
        return GeminiBuilder(self.profile.name, billing=self.profile.reasoning_billing)

    def stream(self) -> CodecStream:
        """`alt=sse` (what golem asks for), or the JSON array of responses that
        streamGenerateContent sends without it: one event per element."""
        return CodecStream(self, SSEOrJSONArrayFramer())

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
        code = error.get("code")
        status = status if status is not None else (code if isinstance(code, int) else None)
        kind = str(error.get("status") or "")
        message = str(error.get("message") or f"HTTP {status} from Gemini")
        cls = _ERROR_STATUSES.get(kind) or error_class_for_status(status)
        squeezed = message.lower().replace("_", "")
        if cls is InvalidRequest and (
            "responseschema" in squeezed or "responsejsonschema" in squeezed
        ):
            cls = ResponseFormatRejected
        return typed_error(
            cls,
            kind,
            message,
            provider=self.profile.name,
            status=status,
            headers=headers,
            raw=raw,
            retry_after=_retry_delay(error.get("details")) or retry_after_seconds(headers),
        )


def _candidate(candidate: Mapping[str, Any], builder: ResponseBuilder) -> None:
    partial = builder.partial if isinstance(builder, GeminiBuilder) else PartialCalls()
    for part in (candidate.get("content") or {}).get("parts") or ():
        signature = part.get("thoughtSignature")
        if part.get("thought"):
            # Streams cut one thought into several parts: keyless reasoning joins them
            # until an answer part or a call comes between.
            builder.reasoning(part.get("text") or "")
            if signature:
                builder.sign_reasoning(signature)
            continue
        if signature:
            # It signs the reasoning before this part, so it is kept with that reasoning,
            # noting the part it came with: it goes back to Gemini on that part.
            carrier = "tool" if "functionCall" in part else "text" if "text" in part else None
            builder.sign_reasoning(signature, part=carrier)
        if "functionCall" in part:
            call = part["functionCall"]
            if partial.apply(call, builder):
                continue
            key = builder.tool_call_count  # Gemini's calls carry no index
            builder.tool_call(key, id=call.get("id"), name=call.get("name"))
            builder.tool_call_input(key, call.get("args") or {})
        elif "text" in part:
            builder.text(part["text"])
        else:
            _server_part(part, builder)
    raw = candidate.get("finishReason")
    if raw:
        partial.close(builder)
        reason = _FINISH_NUMBERS[raw] if type(raw) is int and raw < len(_FINISH_NUMBERS) else raw
        finish = _FINISH_REASONS.get(reason, FinishReason.UNKNOWN)
        if finish is FinishReason.STOP and builder.tool_call_count:
            finish = FinishReason.TOOL_CALLS  # Gemini says STOP after function calls too
        builder.finish(finish, raw)
        builder.end()  # the finishing chunk carries the final usageMetadata too


def _server_part(part: Mapping[str, Any], builder: ResponseBuilder) -> None:
    """A tool Gemini ran itself: code execution (executableCode, then its
    codeExecutionResult) or a built-in tool such as Google Search (toolCall, then its
    toolResponse). A result joins its call (by id, else the latest call without one)."""
    key = ("server", builder.server_tool_call_count)  # Gemini's parts carry no index
    if "executableCode" in part:
        code = part["executableCode"] or {}
        builder.server_tool_call(
            key,
            provider_type="executableCode",
            id=code.get("id"),
            name="code_execution",
            arguments={k: v for k, v in code.items() if k != "id"},
        )
        return
    if "toolCall" in part:
        call = part["toolCall"] or {}
        builder.server_tool_call(
            key,
            provider_type="toolCall",
            id=call.get("id"),
            name=call.get("toolType"),
            arguments=call.get("args") or None,
        )
        return
    for kind, name in (("codeExecutionResult", "code_execution"), ("toolResponse", None)):
        if kind in part:
            result = part[kind] or {}
            value = result.get("response", {k: v for k, v in result.items() if k != "id"})
            if not builder.server_tool_result(value, id=result.get("id")):
                builder.server_tool_call(
                    key,
                    provider_type=kind,
                    id=result.get("id"),
                    name=name or result.get("toolType"),
                    result=value,
                )
            return


def _retry_delay(details: Any) -> float | None:
    """google.rpc.RetryInfo's retryDelay, a protobuf Duration such as "27s"."""
    for detail in details or ():
        if isinstance(detail, dict) and str(detail.get("@type", "")).endswith("RetryInfo"):
            match = _DURATION.match(str(detail.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None
