"""The synthetic answer in the wire format of the provider it emulates (OpenAI Chat
Completions and its compatible vendors, OpenAI Responses, Anthropic Messages, Gemini
generateContent), and each family's error bodies for 429 and 5xx, as JSON bytes."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from golem.inference.codecs.base import ProviderProfile

__all__ = ["Answer", "error_body", "wire_body"]


@dataclass(frozen=True, slots=True)
class Answer:
    """What the synthetic model says, before it is dressed in a wire format."""

    model: str
    content: str | None
    tool: tuple[str, str, Mapping[str, Any]] | None  # (call id, name, arguments)
    reasoning: str | None  # the thinking text, when the provider would show it
    input_tokens: int
    cached_tokens: int
    output_tokens: int
    reasoning_tokens: int
    call_id: str


def _signature(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=24).hexdigest()


def _chat(profile: ProviderProfile, a: Answer) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": a.content}
    fields = profile.quirks.get("reasoning_fields") or ()
    if a.reasoning is not None and profile.family == "openai-compatible":
        if fields:
            message[fields[0]] = a.reasoning
        elif profile.quirks.get("think_tags"):
            message["content"] = f"<think>\n{a.reasoning}\n</think>\n\n{a.content or ''}"
    if a.tool is not None:
        call_id, name, arguments = a.tool
        message["tool_calls"] = [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": orjson.dumps(arguments).decode()},
            }
        ]
    return {
        "id": f"chatcmpl-{a.call_id}",
        "object": "chat.completion",
        "created": 0,
        "model": a.model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if a.tool else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": a.input_tokens,
            "completion_tokens": a.output_tokens + a.reasoning_tokens,
            "total_tokens": a.input_tokens + a.output_tokens + a.reasoning_tokens,
            "prompt_tokens_details": {"cached_tokens": a.cached_tokens},
            "completion_tokens_details": {"reasoning_tokens": a.reasoning_tokens},
        },
    }


def _responses(profile: ProviderProfile, a: Answer) -> dict[str, Any]:
    output: list[dict[str, Any]] = []
    if a.reasoning_tokens:
        summary = [] if a.reasoning is None else [{"type": "summary_text", "text": a.reasoning}]
        output.append({"type": "reasoning", "id": f"rs_{a.call_id}", "summary": summary})
    if a.tool is not None:
        call_id, name, arguments = a.tool
        output.append(
            {
                "type": "function_call",
                "call_id": call_id,
                "name": name,
                "arguments": orjson.dumps(arguments).decode(),
            }
        )
    else:
        text = {"type": "output_text", "text": a.content or "", "annotations": []}
        output.append({"type": "message", "role": "assistant", "content": [text]})
    return {
        "id": f"resp_{a.call_id}",
        "object": "response",
        "status": "completed",
        "model": a.model,
        "output": output,
        "usage": {
            "input_tokens": a.input_tokens,
            "input_tokens_details": {"cached_tokens": a.cached_tokens},
            "output_tokens": a.output_tokens + a.reasoning_tokens,
            "output_tokens_details": {"reasoning_tokens": a.reasoning_tokens},
        },
    }


def _anthropic(profile: ProviderProfile, a: Answer) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if a.reasoning is not None:
        thinking = {"type": "thinking", "thinking": a.reasoning}
        content.append({**thinking, "signature": _signature(a.reasoning)})
    if a.tool is not None:
        call_id, name, arguments = a.tool
        content.append({"type": "tool_use", "id": call_id, "name": name, "input": arguments})
    else:
        content.append({"type": "text", "text": a.content or ""})
    usage: dict[str, Any] = {
        "input_tokens": a.input_tokens - a.cached_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": a.cached_tokens,
        "output_tokens": a.output_tokens + a.reasoning_tokens,
    }
    if a.reasoning_tokens:
        usage["output_tokens_details"] = {"thinking_tokens": a.reasoning_tokens}
    return {
        "id": f"msg_{a.call_id}",
        "type": "message",
        "role": "assistant",
        "model": a.model,
        "content": content,
        "stop_reason": "tool_use" if a.tool else "end_turn",
        "stop_sequence": None,
        "usage": usage,
    }


def _gemini(profile: ProviderProfile, a: Answer) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    if a.reasoning is not None:
        parts.append({"text": a.reasoning, "thought": True})
    if a.tool is not None:
        _, name, arguments = a.tool
        parts.append({"functionCall": {"name": name, "args": arguments}})
    else:
        parts.append({"text": a.content or ""})
    usage = {
        "promptTokenCount": a.input_tokens,
        "candidatesTokenCount": a.output_tokens,
        "totalTokenCount": a.input_tokens + a.output_tokens + a.reasoning_tokens,
    }
    if a.cached_tokens:
        usage["cachedContentTokenCount"] = a.cached_tokens
    if a.reasoning_tokens:
        usage["thoughtsTokenCount"] = a.reasoning_tokens
    return {
        "candidates": [
            {"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": usage,
        "modelVersion": a.model,
        "responseId": a.call_id,
    }


_BODIES: Mapping[str, Callable[[ProviderProfile, Answer], dict[str, Any]]] = {
    "openai-chat": _chat,
    "openai-compatible": _chat,
    "openai-responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
}
FAMILIES = frozenset(_BODIES)


def wire_body(profile: ProviderProfile, answer: Answer) -> bytes:
    return orjson.dumps(_BODIES[profile.family](profile, answer))


def error_body(family: str, status: int, retry_after: float) -> tuple[bytes, dict[str, str]]:
    """(body, headers) of a 429 (status 429) or a server error (5xx) as `family` sends it."""
    limited = status == 429
    headers = {"retry-after": f"{retry_after:g}"} if limited else {}
    if family == "anthropic":
        kind, message = (
            ("rate_limit_error", "Number of requests has exceeded your rate limit.")
            if limited
            else ("api_error", "Internal server error")
        )
        body: dict[str, Any] = {"type": "error", "error": {"type": kind, "message": message}}
    elif family == "gemini":
        error: dict[str, Any] = {"code": status}
        if limited:
            error |= {
                "message": "Resource has been exhausted (e.g. check quota).",
                "status": "RESOURCE_EXHAUSTED",
                "details": [
                    {
                        "@type": "type.googleapis.com/google.rpc.RetryInfo",
                        "retryDelay": f"{retry_after:g}s",
                    }
                ],
            }
        else:
            error |= {"message": "The model is overloaded.", "status": "UNAVAILABLE"}
        body = {"error": error}
    else:
        kind, message, code = (
            ("requests", "Rate limit reached for requests.", "rate_limit_exceeded")
            if limited
            else ("server_error", "The server had an error while processing your request.", None)
        )
        body = {"error": {"message": message, "type": kind, "param": None, "code": code}}
    return orjson.dumps(body), headers
