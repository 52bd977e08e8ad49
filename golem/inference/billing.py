"""The bill of an attempt that failed after the provider began answering.

A provider bills what it processed and sent, whether or not the answer arrived whole: a
stream cut mid-answer (ConnectionFailed, IncompleteStream) or stopped by a timeout is
billed for its input and for every token streamed before the cut. `attempt_bill` makes
the AttemptUsage the transport hands back (with the error, or with the answer of a later
attempt): what the stream reported, plus an estimate (golem.inference.tokens) of what it
streamed beyond that, and of the input when the stream began without reporting it (an
OpenAI-style stream reports usage only in its last chunk). A whole body cut on its way is
read as far as it came (`body_read`), its usage at the end most often missing: then the
input and the output that arrived are estimated, the least the provider billed. An attempt
of which nothing of the answer arrived is billed nothing here: there is nothing to say
what the provider did.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import suppress

import json_repair
import orjson

from golem.inference.codecs.base import Codec
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import GolemError
from golem.inference.pricing import Price
from golem.inference.tokens import estimate_tokens
from golem.inference.types import NO_USAGE, AttemptUsage, Request, Usage

__all__ = ["attempt_bill", "body_read", "prompt_tokens", "summed"]


def attempt_bill(
    builder: ResponseBuilder,
    request: Request,
    *,
    provider: str,
    model: str,
    error: str,
    price: Price | None,
) -> AttemptUsage | None:
    """What the attempt whose stream `builder` decoded is billed for; None when the
    stream never began (nothing of the provider's format arrived)."""
    if not builder.recognised:
        return None
    reported, output, reasoning = builder.delivered()
    streamed_output = estimate_tokens(output) if output else 0
    streamed_reasoning = estimate_tokens(reasoning) if reasoning else 0
    # Output streamed beyond what the stream counted so far (Anthropic's message_start
    # counts one output token; the final count comes in message_delta, at the end).
    # Compared in total: a provider may count thinking inside its output tokens.
    counted = reported.output_tokens + reported.reasoning_tokens
    unreported = max(0, streamed_output + streamed_reasoning - counted)
    thinking = min(unreported, max(0, streamed_reasoning - reported.reasoning_tokens))
    estimated = Usage(
        input_tokens=0 if reported.input_tokens else prompt_tokens(request),
        output_tokens=unreported - thinking,
        reasoning_tokens=thinking,
    )
    if reported == NO_USAGE and estimated == NO_USAGE:
        return None
    return AttemptUsage(
        provider,
        model,
        error,
        reported,
        estimated,
        cost_usd=0.0 if price is None else price.cost(reported + estimated),
        estimated_usd=0.0 if price is None else price.cost(estimated),
    )


def body_read(codec: Codec, body: bytes) -> ResponseBuilder:
    """What a whole (non-streamed) 2xx body cut short, or refused, held as far as it can
    be read. The provider bills such an answer in full, however much of it arrived: what
    arrived is the least of it (json-repair closes what the cut left open)."""
    builder = codec.new_builder()
    builder.recognise()  # a 2xx body began: the provider answered
    with suppress(GolemError, KeyError, IndexError, TypeError, ValueError):
        value = json_repair.loads(body.decode("utf-8", "replace"), skip_json_loads=True)
        if isinstance(value, dict):
            codec.apply_body(value, builder)
    return builder


def prompt_tokens(request: Request) -> int:
    """An estimate of the input tokens `request` sends: its messages' text and tool
    calls, the tools offered and the response schema."""
    parts: list[str] = []
    for message in request.messages:
        parts.append(message.content or "")
        parts.extend(orjson.dumps(dict(c.arguments)).decode() for c in message.tool_calls)
    for tool in request.tools:
        parts.append(tool.description)
        parts.append(orjson.dumps(dict(tool.parameters)).decode())
    if request.response_schema is not None:
        parts.append(orjson.dumps(dict(request.response_schema.schema)).decode())
    return sum(estimate_tokens(part) for part in parts if part)


def summed(attempts: Iterable[AttemptUsage]) -> tuple[Usage, float]:
    """The usage and cost of `attempts` together."""
    usage, cost = NO_USAGE, 0.0
    for attempt in attempts:
        usage, cost = usage + attempt.usage, cost + attempt.cost_usd
    return usage, cost
