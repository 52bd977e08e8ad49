"""The codec contract: pure functions between provider-neutral values and one provider
family's wire format. No IO here; the transport does the IO for every codec."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

import orjson

from golem.inference.codecs._framing import Framer
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import (
    FormatMismatch,
    IncompleteStream,
    InferenceError,
    InvalidResponse,
    ProviderError,
)
from golem.inference.modes import Capabilities
from golem.inference.reasoning import ReasoningCost
from golem.inference.sse import SSEDecoder, SSEEvent
from golem.inference.types import Request, Response

__all__ = [
    "SHAPE_ERRORS",
    "Codec",
    "CodecStream",
    "ProviderProfile",
    "WireRequest",
    "by_longest_prefix",
    "longest_prefix",
    "shape_error",
    "shape_errors",
]

_V = TypeVar("_V")
_D = TypeVar("_D")


def longest_prefix(table: Mapping[str, object], model: str) -> str | None:
    """The key for `model` in a table keyed by model names and name prefixes: its exact
    name, else the longest key it starts with, else None."""
    if model in table:
        return model
    prefixes = [p for p in table if model.startswith(p)]
    return max(prefixes, key=len) if prefixes else None


def by_longest_prefix(table: Mapping[str, _V], model: str, default: _D) -> _V | _D:
    """The entry for `model` (see `longest_prefix`), else `default`."""
    key = longest_prefix(table, model)
    return default if key is None else table[key]


@dataclass(frozen=True, slots=True)
class WireRequest:
    """An HTTP request ready for the transport. Headers never hold secrets: the
    transport adds the key from `Codec.auth_headers` at send time."""

    method: str
    path: str  # relative to the provider's base URL; may carry a query string
    headers: Mapping[str, str]
    body: Mapping[str, Any]
    stream: bool = False

    def content(self) -> bytes:
        return orjson.dumps(self.body)


@dataclass(frozen=True, slots=True)
class ProviderProfile:
    """One provider as data: which codec family speaks to it, where, with which key, and
    what its models can do. Per-model entries override the provider's defaults."""

    name: str
    family: str
    base_url: str = ""
    api_key_env: str | None = None
    capabilities: Capabilities = field(default_factory=Capabilities)
    model_capabilities: Mapping[str, Capabilities] = field(default_factory=dict)
    reasoning_billing: ReasoningCost = field(default_factory=ReasoningCost)
    quirks: Mapping[str, Any] = field(default_factory=dict)

    def capabilities_for(self, model: str) -> Capabilities:
        """The model's entry (exact name, else the longest matching prefix), else the
        provider's default."""
        return by_longest_prefix(self.model_capabilities, model, self.capabilities)


# What a field of an unexpected type (a list where an object was, a string for a number)
# raises inside a codec's plain dict-and-list code.
SHAPE_ERRORS = (AttributeError, TypeError, KeyError, IndexError, ValueError)


@contextmanager
def shape_errors(provider: str, body: bytes | str | None = None) -> Iterator[None]:
    """The one place a malformed body's foreign exception becomes the typed InvalidResponse:
    codecs read the wire format as it is documented, and a decode still returns a Response
    or raises a ProviderError, never anything else."""
    try:
        yield
    except SHAPE_ERRORS as exc:
        raise shape_error(exc, provider, body) from exc


def shape_error(exc: Exception, provider: str, body: bytes | str | None = None) -> InvalidResponse:
    """The typed error of a body whose shape a codec did not expect."""
    return InvalidResponse(
        f"unexpected response shape: {type(exc).__name__}: {exc}", provider=provider, body=body
    )


class Codec(ABC):
    """One provider family's wire format.

    Subclasses implement `encode`, `auth_headers`, `apply_body` (a whole response body)
    and `apply_event` (one SSE event); `decode` and `stream` are built on them so the
    streamed and non-streamed paths share every line of decoding. Both call
    `builder.recognise()` on a marker of their format and `apply_event` calls
    `builder.end()` on the stream's final event: a body with no marker is FormatMismatch
    (another provider's body), a stream without its final event IncompleteStream.
    """

    # How errors name the format, the fields that mark it, and the event that ends a stream.
    format_name: ClassVar[str] = "this provider's wire format"
    format_markers: ClassVar[str] = "the fields its codec reads"
    stream_end: ClassVar[str] = "its final event"

    def __init__(self, profile: ProviderProfile) -> None:
        self.profile = profile

    @abstractmethod
    def encode(self, request: Request, model: str) -> WireRequest:
        """The wire request for `request` (its mode, schema, tools and reasoning config)."""

    @abstractmethod
    def auth_headers(self, api_key: str) -> dict[str, str]:
        """The headers that carry the key (added by the transport, never logged)."""

    @abstractmethod
    def apply_body(self, body: Mapping[str, Any], builder: ResponseBuilder) -> None:
        """Feed a whole (non-streaming) response body into the builder."""

    @abstractmethod
    def apply_event(self, event: SSEEvent, builder: ResponseBuilder) -> None:
        """Feed one SSE event into the builder. Raise ProviderError for an error event."""

    @abstractmethod
    def error(self, status: int, headers: Mapping[str, str], body: bytes) -> ProviderError:
        """The typed error for a non-2xx response."""

    def new_builder(self) -> ResponseBuilder:
        return ResponseBuilder(self.profile.name, billing=self.profile.reasoning_billing)

    def decode(self, status: int, headers: Mapping[str, str], body: bytes) -> Response:
        """A whole non-streaming response: a Response, or raise a typed ProviderError."""
        if status >= 400:
            raise self.error(status, headers, body)
        builder = self.new_builder()
        value = self.load_json(body)
        with shape_errors(self.profile.name, body):
            self.apply_body(value, builder)
        if not builder.recognised:
            keys = ", ".join(repr(k) for k in list(value)[:8]) or "none"
            raise FormatMismatch(
                f"the body is not {self.format_name}: it has no {self.format_markers} "
                f"(its keys: {keys})",
                provider=self.profile.name,
                body=body,
            )
        with shape_errors(self.profile.name, body):
            return builder.build()

    def stream(self) -> CodecStream:
        return CodecStream(self)

    def load_json(self, body: bytes) -> Mapping[str, Any]:
        try:
            value = orjson.loads(body.strip() or b"null")
        except orjson.JSONDecodeError as exc:
            raise InvalidResponse(
                f"response body is not JSON: {exc}", provider=self.profile.name, body=body
            ) from exc
        if not isinstance(value, dict):
            raise InvalidResponse(
                "response body is not a JSON object", provider=self.profile.name, body=body
            )
        return value


class CodecStream:
    """Incremental decoding of one SSE response (or another `framer`'s events):
    `feed(bytes)` as chunks arrive, then `finish()` for the Response.

    `finish()` returns only a complete answer: a stream none of whose events is of the
    codec's format raises FormatMismatch, and one that stops before its final event raises
    IncompleteStream (carrying the partial Response), however cleanly the bytes ended."""

    def __init__(self, codec: Codec, framer: Framer | None = None) -> None:
        self._codec = codec
        self._sse: Framer = framer or SSEDecoder()
        self._builder = codec.new_builder()
        self._events = 0

    @property
    def builder(self) -> ResponseBuilder:
        return self._builder

    def feed(self, chunk: bytes) -> None:
        for event in self._sse.feed(chunk):
            self._apply(event)

    def finish(self) -> Response:
        builder, codec = self._builder, self._codec
        for event in self._sse.finish():  # an event no blank line closed: maybe cut short
            try:
                self._apply(event)
            except InvalidResponse as exc:
                # Half an event after whole ones of this format, before the final one: the
                # cut fell inside it, and the stream is incomplete (below).
                cut = type(exc) is InvalidResponse and builder.recognised and not builder.ended
                if not cut:
                    raise
        if self._events and not builder.recognised:
            raise self._mismatch(f"none of its {self._events} events")
        if not builder.ended:
            seen = f"after {self._events} events" if self._events else "before any event"
            raise IncompleteStream(
                f"the stream ended {seen}, without its final event ({codec.stream_end})",
                provider=codec.profile.name,
                partial=self._partial(),
            )
        with shape_errors(codec.profile.name):
            return builder.build()

    def _apply(self, event: SSEEvent) -> None:
        self._events += 1
        try:
            # A plain try rather than shape_errors(): no context manager built per event.
            try:
                self._codec.apply_event(event, self._builder)
            except SHAPE_ERRORS as exc:
                raise shape_error(exc, self._codec.profile.name, event.data) from exc
        except InvalidResponse as exc:
            # After events that were all foreign, an unreadable one (OpenAI's `[DONE]` read
            # as another format) is one more sign of the wrong format, not a broken stream.
            if type(exc) is InvalidResponse and self._events > 1 and not self._builder.recognised:
                raise self._mismatch(f"none of its first {self._events - 1} events") from exc
            raise

    def _mismatch(self, which: str) -> FormatMismatch:
        codec = self._codec
        return FormatMismatch(
            f"the stream is not {codec.format_name} stream: {which} has {codec.format_markers}",
            provider=codec.profile.name,
        )

    def _partial(self) -> Response | None:
        """What the stream held so far, when it can be built at all."""
        try:
            with shape_errors(self._codec.profile.name):
                return self._builder.build()
        except InferenceError:
            return None
