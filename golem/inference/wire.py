"""Decoding one provider's recorded body or SSE transcript into a Response, through the same
codec the transport uses, with the cost filled in: `decode` and `StreamDecoder`."""

from __future__ import annotations

from collections.abc import Mapping

from golem.inference.codecs.base import CodecStream
from golem.inference.providers import Registry, default_registry
from golem.inference.types import Response

__all__ = ["StreamDecoder", "decode"]


class StreamDecoder:
    """Incremental decoding of one provider's SSE stream: `feed(chunk)` as bytes arrive
    (any chunking), then `finish()` for the Response, or a typed ProviderError."""

    __slots__ = ("_model", "_registry", "_stream")

    def __init__(
        self, provider: str, *, model: str | None = None, registry: Registry | None = None
    ) -> None:
        self._registry = registry or default_registry()
        self._stream: CodecStream = self._registry.codec(provider).stream()
        self._model = model

    def feed(self, chunk: bytes) -> None:
        self._stream.feed(chunk)

    def finish(self) -> Response:
        return _priced(self._registry, self._stream.finish(), self._model)


def decode(
    provider: str,
    body: bytes,
    *,
    stream: bool = False,
    model: str | None = None,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
    registry: Registry | None = None,
) -> Response:
    """Decode one recorded response of `provider` (a name in the registry).

    `stream=True`: the body is an SSE transcript. `model` names the model when the body
    does not (it prices the call). A status of 400 or more, or an error object in the body,
    raises the typed ProviderError the codec maps it to.
    """
    registry = registry or default_registry()
    codec = registry.codec(provider)
    if status >= 400:
        raise codec.error(status, headers or {}, body)
    if stream:
        decoder = StreamDecoder(provider, model=model, registry=registry)
        decoder.feed(body)
        return decoder.finish()
    return _priced(registry, codec.decode(status, headers or {}, body), model)


def _priced(registry: Registry, response: Response, model: str | None) -> Response:
    if not response.model and model:
        response = response.evolve(model=model)
    return registry.with_cost(response, model)
