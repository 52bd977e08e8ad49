"""The codec contract: pure functions between provider-neutral values and one provider
family's wire format. No IO here; the transport does the IO for every codec."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import InvalidResponse, ProviderError
from golem.inference.modes import Capabilities
from golem.inference.reasoning import ReasoningCost
from golem.inference.sse import SSEDecoder, SSEEvent
from golem.inference.types import Request, Response

__all__ = [
    "Codec",
    "CodecStream",
    "ProviderProfile",
    "WireRequest",
    "by_longest_prefix",
    "longest_prefix",
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


class Codec(ABC):
    """One provider family's wire format.

    Subclasses implement `encode`, `auth_headers`, `apply_body` (a whole response body)
    and `apply_event` (one SSE event); `decode` and `stream` are built on them so the
    streamed and non-streamed paths share every line of decoding.
    """

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
        self.apply_body(self.load_json(body), builder)
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
    """Incremental decoding of one SSE response: `feed(bytes)` as chunks arrive, then
    `finish()` for the Response."""

    def __init__(self, codec: Codec) -> None:
        self._codec = codec
        self._sse = SSEDecoder()
        self._builder = codec.new_builder()

    @property
    def builder(self) -> ResponseBuilder:
        return self._builder

    def feed(self, chunk: bytes) -> None:
        for event in self._sse.feed(chunk):
            self._codec.apply_event(event, self._builder)

    def finish(self) -> Response:
        for event in self._sse.finish():
            self._codec.apply_event(event, self._builder)
        return self._builder.build()
