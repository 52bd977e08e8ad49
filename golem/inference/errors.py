"""golem's exception tree. Whether an error is worth retrying is a property of its type.

    GolemError
    └── InferenceError
        ├── InvalidSchema              a ResponseSchema that cannot be used
        ├── MissingResponseFormat      run_structured called without a schema
        ├── UnparseableOutput          extract_json found no JSON value to recover
        ├── StructuredOutputInvalid    re-asks exhausted; carries schema, raw output, errors
        │   └── NoStructuredOutput     the final attempt held no candidate at all
        └── ProviderError              a provider call failed; keeps status, body, headers,
            │                          and what it was billed for: its attempts cut
            │                          mid-answer (failed_attempts) and the structured
            │                          loop's earlier attempts (usage, cost_usd)
            ├── RateLimited            transient; retry_after in seconds when known
            ├── Overloaded             transient (HTTP 529, overloaded_error)
            ├── ServerError            transient (HTTP 5xx)
            ├── Timeout                transient (connect / read / total)
            ├── ConnectionFailed       transient (refused, reset, closed mid-stream)
            │   └── IncompleteStream   a stream ended before its final event; carries the
            │                          partial Response
            ├── AuthError              bad or missing key (401 / 403)
            ├── InvalidRequest         the provider rejected what we sent (400 / 404 / 422)
            │   └── ResponseFormatRejected   ...specifically the structured-output format
            ├── InvalidResponse        a body we cannot decode (non-JSON, truncated, too large)
            │   └── FormatMismatch     valid JSON, but not this provider's wire format (a
            │                          body of another provider: the wrong --provider)
            └── Refusal                the model declined to answer

Only `transient` errors are retried by the transport; StructuredOutputInvalid is never
transient: the structured loop has already spent its re-asks. A provider bills an attempt
for what it processed and sent even when the attempt fails (a stream cut mid-answer, a
timeout): every ProviderError the transport raises carries those attempts
(`failed_attempts`, each an AttemptUsage) and their sum (`usage`, `cost_usd`), so that
whoever pays for the call charges them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from golem.inference.types import AttemptUsage, Response, Usage

__all__ = [
    "AuthError",
    "ConnectionFailed",
    "FormatMismatch",
    "GolemError",
    "IncompleteStream",
    "InferenceError",
    "InvalidRequest",
    "InvalidResponse",
    "InvalidSchema",
    "MissingResponseFormat",
    "NoStructuredOutput",
    "Overloaded",
    "ProviderError",
    "RateLimited",
    "Refusal",
    "ResponseFormatRejected",
    "ServerError",
    "StructuredOutputInvalid",
    "Timeout",
    "UnparseableOutput",
    "is_transient",
]

BODY_EXCERPT_CHARS = 2000


class GolemError(Exception):
    """Root of every error golem raises on purpose."""

    transient: ClassVar[bool] = False
    code: ClassVar[str] = "golem_error"


class InferenceError(GolemError):
    code = "inference_error"


class InvalidSchema(InferenceError):
    code = "invalid_schema"

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(f"{message} (at {path or '/'})")
        self.path = path


class MissingResponseFormat(InferenceError):
    code = "missing_response_format"


class UnparseableOutput(InferenceError):
    """No JSON value could be recovered from a model's text."""

    code = "unparseable_output"

    def __init__(self, message: str, *, text: str) -> None:
        super().__init__(message)
        self.text = text


class StructuredOutputInvalid(InferenceError):
    """The model's output never became a valid decision within the allowed attempts."""

    code = "structured_output_invalid"

    def __init__(
        self,
        message: str,
        *,
        schema: Mapping[str, Any],
        raw: str | None,
        errors: list[str],
        last_value: Any = None,
        attempts: int = 0,
        usage: Usage | None = None,
        cost_usd: float = 0.0,
        failed_attempts: tuple[AttemptUsage, ...] = (),
    ) -> None:
        super().__init__(message)
        self.schema = schema
        self.raw = raw
        self.errors = errors
        self.last_value = last_value
        self.attempts = attempts
        self.usage = usage  # summed over every attempt, so the caller can charge them
        self.cost_usd = cost_usd
        self.failed_attempts = failed_attempts  # among them: cut mid-answer, then retried


class NoStructuredOutput(StructuredOutputInvalid):
    code = "no_structured_output"


class ProviderError(InferenceError):
    """A provider call failed. Keeps what a person needs to see why."""

    code = "provider_error"

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        status: int | None = None,
        body: str | bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.provider = provider
        self.status = status
        if isinstance(body, bytes):
            body = body.decode("utf-8", "replace")
        self.body_excerpt = (body or "")[:BODY_EXCERPT_CHARS]
        self.headers = dict(headers or {})
        # What the call was billed for before failing: the transport's attempts cut
        # mid-answer (`failed_attempts`, summed into usage and cost), and run_structured
        # adds the structured loop's earlier attempts (answered, then re-asked), so the
        # caller pays for them all.
        self.usage: Usage | None = None
        self.cost_usd = 0.0
        self.attempts = 0
        self.failed_attempts: tuple[AttemptUsage, ...] = ()

    def __str__(self) -> str:
        where = f"{self.provider}: " if self.provider else ""
        status = f" (HTTP {self.status})" if self.status is not None else ""
        return f"{where}{self.args[0]}{status}"


class RateLimited(ProviderError):
    transient = True
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: float | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.retry_after = retry_after


class Overloaded(ProviderError):
    transient = True
    code = "overloaded"


class ServerError(ProviderError):
    transient = True
    code = "server_error"


class Timeout(ProviderError):
    transient = True
    code = "timeout"


class ConnectionFailed(ProviderError):
    transient = True
    code = "connection_failed"


class IncompleteStream(ConnectionFailed):
    """A stream that ended cleanly but before its final event (OpenAI's finish_reason or
    `[DONE]`, Anthropic's message_stop, Gemini's finishReason, Responses'
    response.completed): the connection was cut somewhere on the way. Transient like any
    cut connection. `partial` is the Response as far as the stream got (None when even
    that cannot be built), for a person to look at, never to be used as the answer."""

    code = "incomplete_stream"

    def __init__(self, message: str, *, partial: Response | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.partial = partial


class AuthError(ProviderError):
    code = "auth_error"


class InvalidRequest(ProviderError):
    code = "invalid_request"


class ResponseFormatRejected(InvalidRequest):
    code = "response_format_rejected"


class InvalidResponse(ProviderError):
    code = "invalid_response"


class FormatMismatch(InvalidResponse):
    """A body (or stream) that is JSON but carries none of the markers of the codec's wire
    format, such as an Anthropic message decoded as an OpenAI chat completion."""

    code = "format_mismatch"


class Refusal(ProviderError):
    code = "refusal"

    def __init__(self, message: str, *, refusal: str = "", **kw: Any) -> None:
        super().__init__(message, **kw)
        self.refusal = refusal


def is_transient(exc: BaseException) -> bool:
    """The default retry classification: only transient provider failures are retried."""
    return isinstance(exc, GolemError) and exc.transient
