"""Responses and provider errors as plain JSON-able dicts, for `golem wire decode` and for
the daemon's decision log lines."""

from __future__ import annotations

from typing import Any

from golem.inference.errors import ProviderError, RateLimited, Refusal
from golem.inference.reasoning import ReasoningChain
from golem.inference.types import Response, Usage

__all__ = ["error_to_dict", "reasoning_to_dict", "response_to_dict", "usage_to_dict"]


def response_to_dict(response: Response) -> dict[str, Any]:
    return {
        "provider": response.provider,
        "model": response.model,
        "content": response.content,
        "parsed": _jsonable(response.parsed),
        "tool_calls": [
            {"id": call.id, "name": call.name, "arguments": dict(call.arguments)}
            for call in response.tool_calls
        ],
        "server_tool_calls": [
            {
                "id": call.id,
                "name": call.name,
                "arguments": dict(call.arguments),
                "result": call.result,
                "provider_type": call.provider_type,
            }
            for call in response.server_tool_calls
        ],
        "finish_reason": response.finish_reason.value,
        "finish_reason_raw": response.finish_reason_raw,
        "usage": usage_to_dict(response.usage),
        "reasoning": reasoning_to_dict(response.reasoning),
        "mode": response.mode.value,
        "attempts": response.attempts,
        "repairs": list(response.repairs),
        "downgrades": list(response.downgrades),
        "cost_usd": response.cost_usd,
        "latency_s": response.latency_s,
    }


def usage_to_dict(usage: Usage) -> dict[str, int]:
    return {
        "input_tokens": usage.input_tokens,
        "cached_input_tokens": usage.cached_input_tokens,
        "output_tokens": usage.output_tokens,
        "reasoning_tokens": usage.reasoning_tokens,
        "cache_write_tokens": usage.cache_write_tokens,
        "total_tokens": usage.total_tokens,
    }


def reasoning_to_dict(chain: ReasoningChain) -> dict[str, Any]:
    return {
        "visibility": chain.visibility.value,
        "content": chain.content,
        "reasoning_tokens": chain.reasoning_tokens,
        "interleaved": chain.interleaved,
        "steps": [
            {
                "text": step.text,
                "visibility": step.visibility.value,
                "signature": step.signature,
                "redacted_data": step.redacted_data,
                "part": step.part,
                "item_id": step.item_id,
                "detail": None if step.detail is None else dict(step.detail),
                "field": step.field,
            }
            for step in chain.steps
        ],
        "cost": {
            "billed_as_output": chain.cost.billed_as_output,
            "discount_factor": chain.cost.discount_factor,
            "usd": chain.cost.usd,
        },
    }


def error_to_dict(error: ProviderError) -> dict[str, Any]:
    """The error's type, code, status and message, and what a person needs to see why."""
    out: dict[str, Any] = {
        "error": type(error).__name__,
        "code": error.code,
        "transient": error.transient,
        "provider": error.provider,
        "status": error.status,
        "message": error.args[0] if error.args else str(error),
    }
    if isinstance(error, RateLimited):
        out["retry_after"] = error.retry_after
    if isinstance(error, Refusal):
        out["refusal"] = error.refusal
    out["body_excerpt"] = error.body_excerpt
    return out


def _jsonable(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(mode="json") if callable(dump) else value
