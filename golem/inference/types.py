"""Provider-neutral request and response types.

Every codec turns a Request into its wire format and its wire format back into a Response;
nothing above the codecs sees a provider's JSON. All values are frozen: a re-ask builds a
new Request and never mutates the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from golem.inference.reasoning import ReasoningChain, ReasoningConfig

if TYPE_CHECKING:
    from golem.inference.progress import ThinkingSink
    from golem.inference.schema import ResponseSchema

__all__ = [
    "DEFAULT_ATTEMPTS",
    "NO_USAGE",
    "AttemptUsage",
    "FinishReason",
    "Message",
    "Mode",
    "Request",
    "Response",
    "Role",
    "ServerToolCall",
    "Tool",
    "ToolCall",
    "Usage",
    "with_instruction",
]

# A structured call's attempts by default, the first plus the re-asks: the one place the
# count is stated ([inference.structured_outputs] max_retries, the allocator's policy).
DEFAULT_ATTEMPTS = 3

_T = TypeVar("_T")
_set = object.__setattr__


def _evolve(obj: _T, names: tuple[str, ...], changes: dict[str, Any]) -> _T:
    """A copy of a frozen slots dataclass with `changes`. dataclasses.replace re-runs
    __init__ and its checks: on the per-call path it cost more than the decode itself."""
    unknown = changes.keys() - set(names)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field(s) {', '.join(sorted(unknown))}")
    new = object.__new__(type(obj))
    for name in names:
        _set(new, name, changes[name] if name in changes else getattr(obj, name))
    return new


class Role(StrEnum):
    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


class Mode(StrEnum):
    """How a structured answer is obtained from a provider."""

    SCHEMA_ENFORCED = "schema_enforced"  # the provider constrains output to the schema
    TOOL_USE = "tool_use_workaround"  # one respond_<name> tool whose input is the schema
    PROMPT_GUIDED = "prompt_guided"  # instructions in the prompt, tolerant extraction
    NONE = "none"  # no structure asked for; from_text alone


class FinishReason(StrEnum):
    STOP = "stop"
    LENGTH = "length"
    TOOL_CALLS = "tool_calls"
    CONTENT_FILTER = "content_filter"
    REFUSAL = "refusal"
    ERROR = "error"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ServerToolCall:
    """A tool the provider ran itself (web search, code execution, an MCP server, ...).

    A record of what happened during the answer, never a call for the caller to execute:
    those are `Response.tool_calls`. `provider_type` is the wire's name for the step
    (`server_tool_use`, `mcp_tool_use`, `web_search_call`, `executableCode`, ...);
    `result` is what it returned, when the provider reported that too."""

    id: str
    name: str
    arguments: Mapping[str, Any]
    provider_type: str
    result: Any = None


@dataclass(frozen=True, slots=True)
class Tool:
    name: str
    description: str
    parameters: Mapping[str, Any]  # a JSON Schema of type object
    strict: bool = False


@dataclass(frozen=True, slots=True)
class Message:
    """One turn of a conversation. An assistant turn sent back to its provider carries the
    `reasoning` that came with it, so codecs whose provider requires it (Anthropic's
    signed thinking blocks, Gemini's thought signatures, OpenAI's encrypted reasoning
    items) can return it unchanged; the others leave it out."""

    role: Role
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    reasoning: ReasoningChain | None = None

    @classmethod
    def system(cls, content: str) -> Message:
        return cls(Role.SYSTEM, content)

    @classmethod
    def user(cls, content: str) -> Message:
        return cls(Role.USER, content)

    @classmethod
    def assistant(
        cls,
        content: str | None,
        tool_calls: tuple[ToolCall, ...] = (),
        reasoning: ReasoningChain | None = None,
    ) -> Message:
        return cls(Role.ASSISTANT, content, tool_calls, reasoning=reasoning)

    @classmethod
    def tool(cls, tool_call_id: str, content: str) -> Message:
        return cls(Role.TOOL, content, tool_call_id=tool_call_id)


def with_instruction(messages: tuple[Message, ...], text: str) -> tuple[Message, ...]:
    """`messages` with `text` appended to the system message (one is added when there is
    none); the caller's tuple is left as it is."""
    if messages and messages[0].role is Role.SYSTEM:
        first = messages[0].content or ""
        return (Message.system(f"{first}\n\n{text}".strip()), *messages[1:])
    return (Message.system(text), *messages)


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    cached_input_tokens: int = 0  # part of input_tokens served from the provider's cache
    output_tokens: int = 0  # visible output; reasoning_tokens are counted separately
    reasoning_tokens: int = 0
    cache_write_tokens: int = 0  # part of input_tokens written to the cache (Anthropic)

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.cached_input_tokens + other.cached_input_tokens,
            self.output_tokens + other.output_tokens,
            self.reasoning_tokens + other.reasoning_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.reasoning_tokens


NO_USAGE = Usage()  # frozen: what a call that used nothing (or none at all) shares


@dataclass(frozen=True, slots=True)
class AttemptUsage:
    """What an attempt that failed after the provider began answering (a stream cut or
    timed out mid-answer) is billed for: the provider bills what it processed and sent,
    answer or not. `reported` is the usage its stream reported before it stopped (Anthropic
    reports the input in `message_start`); `estimated` what it sent beyond that, estimated
    by golem.inference.tokens: the output streamed but not yet counted, and the input when
    the stream began without reporting it. `cost_usd` prices both at the model's price,
    `estimated_usd` being the estimated part of it."""

    provider: str
    model: str
    error: str  # the code of the error that ended the attempt
    reported: Usage = NO_USAGE
    estimated: Usage = NO_USAGE
    cost_usd: float = 0.0
    estimated_usd: float = 0.0

    @property
    def usage(self) -> Usage:
        return self.reported + self.estimated

    def fields(self) -> dict[str, Any]:
        """The attempt as a log line shows it."""
        return {
            "provider": self.provider,
            "model": self.model,
            "error": self.error,
            "reported": _token_fields(self.reported),
            "estimated": _token_fields(self.estimated),
            "cost_usd": self.cost_usd,
            "estimated_usd": self.estimated_usd,
        }


def _token_fields(usage: Usage) -> dict[str, int]:
    return {
        "input": usage.input_tokens,
        "output": usage.output_tokens,
        "reasoning": usage.reasoning_tokens,
    }


@dataclass(frozen=True, slots=True)
class Request:
    """One call to a provider, as the structured loop and the codecs see it.

    `mode` is the structured-output mode already resolved for this provider; `force_tool`
    says whether the respond tool may be forced (false while thinking on Anthropic).

    `facts` is what the caller knows about this call, for a provider that simulates a
    model (the synthetic provider hands it to the mind of the decision asked for). It is
    opaque here and never serialised: no codec sends it, it is left out of the repr and
    of equality, and `evolve` (so every re-ask) keeps it.

    `progress`, when given, is told how the call's thinking goes (golem.inference.progress):
    never sent either, and kept out of the repr and of equality like `facts`.

    `choices` names the values some fields of this call's answer may take, by JSON pointer
    into the answer (`*` for every item of an array), e.g. `{"/prune_ids/*": ("g1", "g2")}`
    for ids the prompt lists; an empty tuple allows no value (the array stays empty). The
    schema stays the contract: a decoder that constrains may narrow its grammar by them (the
    local provider does), a remote one ignores them. Never sent; kept out of equality.

    `seed` repeats an earlier call's sampling: the `Response.seed` a provider reported
    for that call, given back. A provider that samples by seed (the synthetic and local
    ones) then samples as it did for that call, and does not count the request as a new
    call of its sequence; one that reports no seed never gets one (no codec sends it).
    """

    messages: tuple[Message, ...]
    model: str | None = None
    response_schema: ResponseSchema | None = None
    mode: Mode = Mode.NONE
    force_tool: bool = True
    tools: tuple[Tool, ...] = ()
    tool_choice: str | None = None  # "auto" | "none" | "required" | a tool's name
    max_tokens: int | None = None
    temperature: float | None = None
    reasoning: ReasoningConfig = field(default_factory=ReasoningConfig)
    stream: bool = False
    facts: object | None = field(default=None, repr=False, compare=False)
    progress: ThinkingSink | None = field(default=None, repr=False, compare=False)
    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict, repr=False, compare=False)
    seed: int | None = None

    def evolve(self, **changes: Any) -> Request:
        return _evolve(self, _REQUEST_FIELDS, changes)


@dataclass(frozen=True, slots=True)
class Response:
    """What a call produced. `content` is the provider's text verbatim; `parsed` the
    validated decision (or None); usage and cost are summed over every attempt, the
    `failed_attempts` (cut mid-answer, then retried) among them."""

    content: str | None = None
    parsed: Any = None
    tool_calls: tuple[ToolCall, ...] = ()  # for the caller to execute
    server_tool_calls: tuple[ServerToolCall, ...] = ()  # already executed by the provider
    finish_reason: FinishReason = FinishReason.UNKNOWN
    # The provider's own value for it, as text ("end_turn", "eos", "1"): None when it gave
    # none (or the Response was not decoded from a wire).
    finish_reason_raw: str | None = None
    usage: Usage = field(default_factory=Usage)
    reasoning: ReasoningChain = field(default_factory=ReasoningChain)
    provider: str = ""
    model: str = ""
    mode: Mode = Mode.NONE
    attempts: int = 1
    repairs: tuple[str, ...] = ()
    downgrades: tuple[str, ...] = ()  # mode or provider fallbacks taken, in order
    cost_usd: float = 0.0
    latency_s: float = 0.0
    # The seed the answer was sampled with, where the provider samples by one (synthetic,
    # local): a Request carrying it back repeats that sampling. None: no such seed.
    seed: int | None = None
    # Attempts that failed after the provider began answering: billed, so counted in
    # `usage` and `cost_usd` above, partly by estimate (AttemptUsage.estimated_usd).
    failed_attempts: tuple[AttemptUsage, ...] = ()

    def evolve(self, **changes: Any) -> Response:
        return _evolve(self, _RESPONSE_FIELDS, changes)


_REQUEST_FIELDS = tuple(f.name for f in fields(Request))
_RESPONSE_FIELDS = tuple(f.name for f in fields(Response))
