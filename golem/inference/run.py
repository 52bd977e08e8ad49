"""run_structured: one typed decision from a provider, in any of the four modes, with a
bounded loop of re-asks that never mutates the caller's request."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Protocol, TypeVar, runtime_checkable

import orjson

from golem.inference.errors import (
    MissingResponseFormat,
    NoStructuredOutput,
    ProviderError,
    ResponseFormatRejected,
    StructuredOutputInvalid,
    UnparseableOutput,
)
from golem.inference.modes import (
    Capabilities,
    Resolution,
    StructuredOutputConfig,
    resolve_structured_output,
)
from golem.inference.parse import Parsed, parse_response, parse_value
from golem.inference.progress import (
    Thinking,
    ThinkingDone,
    ThinkingSink,
    ThinkingStarted,
    ThinkingTokens,
)
from golem.inference.schema import ResponseSchema
from golem.inference.structured import StructuredOutput, shown_before
from golem.inference.types import (
    AttemptUsage,
    Message,
    Mode,
    Request,
    Response,
    Tool,
    ToolCall,
    Usage,
    with_instruction,
)

__all__ = [
    "BillSink",
    "CountsTokens",
    "Provider",
    "complete",
    "respond_tool",
    "respond_tool_name",
    "run_structured",
]

T = TypeVar("T", bound=StructuredOutput)

_DEFAULT_CONFIG = StructuredOutputConfig()

BillSink = Callable[[Usage, float, str, str], None]
"""Told each attempt's bill as the provider answers it: (usage, cost_usd, provider, model)."""


class Provider(Protocol):
    """Anything that answers one Request: an HTTP provider, the local model, a script."""

    @property
    def name(self) -> str: ...

    @property
    def capabilities(self) -> Capabilities: ...

    async def complete(self, request: Request) -> Response: ...


@runtime_checkable
class CountsTokens(Protocol):
    """A provider that can count a text's tokens as its model does, offline (the embedded
    model); the context layers fit prompts by it."""

    def count_tokens(self, text: str) -> int: ...


def respond_tool_name(schema: ResponseSchema) -> str:
    return f"respond_{schema.name}"


def respond_tool(schema: ResponseSchema) -> Tool:
    """The single tool whose input is the decision (the ToolUseWorkaround)."""
    return Tool(
        name=respond_tool_name(schema),
        description=schema.description or f"Give your answer as a {schema.name}.",
        parameters=schema.schema,
        strict=schema.strict_ok,
    )


async def complete(
    provider: Provider,
    request: Request,
    decision: type[StructuredOutput] | None = None,
    config: StructuredOutputConfig | None = None,
    *,
    max_attempts: int | None = None,
) -> Response:
    """One call: a typed decision when `decision` is given (see run_structured), else the
    provider's plain answer with nothing structured asked for and `parsed` None."""
    if decision is not None:
        return await run_structured(provider, request, decision, config, max_attempts=max_attempts)
    plain = request.evolve(response_schema=None, mode=Mode.NONE)
    return (await provider.complete(plain)).evolve(parsed=None, mode=Mode.NONE)


async def run_structured(
    provider: Provider,
    request: Request,
    decision: type[T],
    config: StructuredOutputConfig | None = None,
    *,
    max_attempts: int | None = None,
    billed: BillSink | None = None,
) -> Response:
    """Ask `provider` for a `decision`; re-ask with the errors until it is valid.

    `max_attempts` caps the attempts below the config's (the allocator passes how many
    the remaining budget can pay for). Usage and cost are summed over every attempt, each
    priced by the provider that answered it. Raises StructuredOutputInvalid (or
    NoStructuredOutput) when attempts run out; a ProviderError raised on a re-ask carries
    the usage and cost of the attempts answered before it, so they can still be charged.

    A request's `progress` sink hears ThinkingStarted before the first attempt, the
    reasoning tokens so far (counted over every attempt) from a provider that streams
    them, and ThinkingDone once the call is answered or has failed.

    `billed`, when given, is told each attempt's bill as soon as it is known (before the
    sum above is returned or raised): a caller that may be killed mid-call keeps them.
    """
    progress = request.progress
    if progress is None:
        return await _structured(provider, request, decision, config, max_attempts, billed)
    progress(ThinkingStarted())
    tokens = 0
    try:
        response = await _structured(provider, request, decision, config, max_attempts, billed)
        tokens = response.usage.reasoning_tokens
        return response
    except (ProviderError, StructuredOutputInvalid) as exc:
        tokens = 0 if exc.usage is None else exc.usage.reasoning_tokens
        raise
    finally:
        progress(ThinkingDone(tokens))


async def _structured(  # noqa: PLR0917 (run_structured's, passed on)
    provider: Provider,
    request: Request,
    decision: type[T],
    config: StructuredOutputConfig | None,
    max_attempts: int | None,
    billed: BillSink | None = None,
) -> Response:
    if decision is None or not issubclass(decision, StructuredOutput):
        raise MissingResponseFormat("run_structured needs a StructuredOutput decision type")
    config = config or _DEFAULT_CONFIG
    schema = decision.response_schema()
    resolution = _resolve(schema, provider.capabilities, config, request.reasoning.enabled)
    mode, force_tool = resolution.mode, resolution.force_tool
    downgrades = list(resolution.downgrades)
    allowed = config.max_attempts
    if max_attempts is not None:
        allowed = max(1, min(allowed, max_attempts))

    messages = request.messages
    examples = provider.capabilities.worked_examples
    usage, cost, attempt = Usage(), 0.0, 0
    failed: tuple[AttemptUsage, ...] = ()  # attempts billed though they failed, so far
    while True:
        attempt += 1
        wire = _prepare(request, messages, decision, mode, force_tool, examples=examples)
        if request.progress is not None and usage.reasoning_tokens:
            wire = wire.evolve(progress=_after(request.progress, usage.reasoning_tokens))
        try:
            answer = await provider.complete(wire)
        except ProviderError as exc:
            if billed is not None and exc.usage is not None:
                billed(exc.usage, exc.cost_usd, exc.provider, "")
            if not isinstance(exc, ResponseFormatRejected) or mode is not Mode.SCHEMA_ENFORCED:
                _spent(exc, usage, cost, attempt - 1, failed)
                raise
            # Asked again in another mode: what the rejected call was billed for stays.
            usage, cost = usage + (exc.usage or Usage()), cost + exc.cost_usd
            failed = (*failed, *exc.failed_attempts)
            mode = Mode.PROMPT_GUIDED
            downgrades.append("provider rejected response_format: prompt guidance instead")
            attempt -= 1
            continue
        if billed is not None:
            billed(answer.usage, answer.cost_usd, answer.provider, answer.model)
        usage, cost = usage + answer.usage, cost + answer.cost_usd
        failed = (*failed, *answer.failed_attempts)

        summary = {
            "usage": usage,
            "cost_usd": cost,
            "mode": mode,
            "attempts": attempt,
            "downgrades": (*downgrades, *answer.downgrades),
            "failed_attempts": failed,
        }
        if _called_user_tool(answer, request, schema):
            return answer.evolve(parsed=None, repairs=(), **summary)
        raw, result, errors = _attempt(answer, decision, mode, config)
        if result is not None and not errors:
            return answer.evolve(parsed=result.value, repairs=result.repairs, **summary)
        if attempt >= allowed:
            error_type = NoStructuredOutput if raw is None else StructuredOutputInvalid
            raise error_type(
                f"no valid {schema.name} after {attempt} attempt(s): " + "; ".join(errors),
                schema=schema.schema,
                raw=raw,
                errors=errors,
                last_value=result.value if result is not None else None,
                attempts=attempt,
                usage=usage,
                cost_usd=cost,
                failed_attempts=failed,
            )
        messages = (*messages, *_reask(answer, raw, errors, schema, mode))


def _after(progress: ThinkingSink, prior: int) -> ThinkingSink:
    """`progress` for a re-ask: its running counts start at the earlier attempts' `prior`."""

    def shifted(event: Thinking) -> None:
        if isinstance(event, ThinkingTokens):
            event = ThinkingTokens(prior + event.tokens, event.counted)
        progress(event)

    return shifted


def _spent(
    exc: ProviderError,
    usage: Usage,
    cost: float,
    answered: int,
    failed: tuple[AttemptUsage, ...],
) -> None:
    """Let `exc` carry what the attempts answered before it used and cost, beside what its
    own call was billed for (its attempts cut mid-answer): the caller pays for them all."""
    exc.usage = usage + (exc.usage or Usage())
    exc.cost_usd = cost + exc.cost_usd
    exc.attempts = answered
    exc.failed_attempts = (*failed, *exc.failed_attempts)


@lru_cache(maxsize=512)
def _resolve(
    schema: ResponseSchema,
    capabilities: Capabilities,
    config: StructuredOutputConfig,
    thinking: bool,
) -> Resolution:
    # The same few (schema, provider, config) triples recur on every call of a life.
    return resolve_structured_output(schema, capabilities, config, thinking=thinking)


def _attempt(
    answer: Response,
    decision: type[T],
    mode: Mode,
    config: StructuredOutputConfig,
) -> tuple[str | None, Parsed[T] | None, list[str]]:
    """(the raw candidate, the parsed decision if any, the errors)."""
    schema = decision.response_schema()
    call = _respond_call(answer, schema)
    try:
        if call is not None:
            raw = orjson.dumps(dict(call.arguments)).decode()
            result = Parsed(parse_value(decision, call.arguments, raw), ())
        elif answer.content is None or not answer.content.strip():
            return None, None, ["the answer held no content and no tool call"]
        elif mode is Mode.NONE:
            raw = answer.content
            result = Parsed(decision.from_text(raw), ("from_text",))
        else:
            raw = answer.content
            result = parse_response(decision, raw, schema_enforced=mode is Mode.SCHEMA_ENFORCED)
    except StructuredOutputInvalid as exc:
        return exc.raw, None, exc.errors
    except (UnparseableOutput, ValueError) as exc:  # from_text found no decision
        return answer.content, None, [str(exc)]
    issues = result.value.validate_content() if config.validation else []
    return raw, result, [str(issue) for issue in issues]


def _prepare(
    request: Request,
    messages: tuple[Message, ...],
    decision: type[StructuredOutput],
    mode: Mode,
    force_tool: bool,
    *,
    examples: bool = False,
) -> Request:
    schema = decision.response_schema()
    if examples and decision.worked_examples and mode in (Mode.SCHEMA_ENFORCED, Mode.PROMPT_GUIDED):
        messages = shown_before(decision.worked_examples, messages)
    if mode is Mode.SCHEMA_ENFORCED:
        return request.evolve(messages=messages, response_schema=schema, mode=mode)
    if mode is Mode.TOOL_USE:
        tool = respond_tool(schema)
        tools = (*(t for t in request.tools if t.name != tool.name), tool)
        if not force_tool:
            messages = with_instruction(
                messages, f"Answer by calling the tool `{tool.name}` exactly once."
            )
        return request.evolve(
            messages=messages,
            response_schema=schema,
            mode=mode,
            force_tool=force_tool,
            tools=tools,
            tool_choice=tool.name if force_tool else "auto",
        )
    if mode is Mode.PROMPT_GUIDED:
        return request.evolve(
            messages=with_instruction(messages, decision.prompt_guidance()),
            response_schema=schema,
            mode=mode,
        )
    return request.evolve(messages=messages, response_schema=None, mode=Mode.NONE)


def _respond_call(answer: Response, schema: ResponseSchema) -> ToolCall | None:
    name = respond_tool_name(schema)
    return next((c for c in answer.tool_calls if c.name == name), None)


def _called_user_tool(answer: Response, request: Request, schema: ResponseSchema) -> bool:
    """The model chose one of the caller's own tools: its calls are the answer."""
    own = {t.name for t in request.tools} - {respond_tool_name(schema)}
    return any(call.name in own for call in answer.tool_calls)


def _reask(
    answer: Response,
    raw: str | None,
    errors: list[str],
    schema: ResponseSchema,
    mode: Mode,
) -> tuple[Message, ...]:
    listing = "\n".join(f"- {e}" for e in errors)
    correction = (
        f"Your previous answer was not a valid `{schema.name}`:\n{listing}\n"
        "Answer again, correcting every error listed."
    )
    # The assistant turn goes back with its reasoning: providers that sign it (Anthropic
    # thinking, Gemini thought signatures) require it unchanged, with the text it signed.
    reasoning = answer.reasoning if answer.reasoning.steps else None
    call = _respond_call(answer, schema)
    if call is not None:
        return (
            Message.assistant(answer.content, (call,), reasoning),
            Message.tool(call.id, correction),
        )
    if mode in (Mode.PROMPT_GUIDED, Mode.SCHEMA_ENFORCED):
        correction += " Reply with the corrected JSON object only."
    text = (answer.content if reasoning is not None else None) or raw or answer.content or ""
    return (Message.assistant(text, (), reasoning), Message.user(correction))
