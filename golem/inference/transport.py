"""The one HTTP transport: sends a codec's WireRequest with httpx under trio, with timeouts,
bounded retries that honour Retry-After, and size and duration limits; what it reads of an
exchange and the typed errors it raises are exchange.py's.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping
from datetime import datetime
from types import TracebackType
from typing import Any

import httpx
import structlog
import trio
from pydantic import BaseModel, ConfigDict, Field

from golem.inference._http import KeySource, retry_after_seconds, safe_headers
from golem.inference.billing import attempt_bill, body_read, summed
from golem.inference.codecs.base import (
    Codec,
    CodecStream,
    ProviderProfile,
)
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import (
    AuthError,
    ProviderError,
    RateLimited,
    Refusal,
    Timeout,
)
from golem.inference.exchange import (
    excerpt,
    read_body,
    read_bounded,
    status_error,
    translated_errors,
)
from golem.inference.modes import Capabilities
from golem.inference.progress import ReasoningMeter, ThinkingSink
from golem.inference.providers import Registry, default_registry
from golem.inference.ratelimit import RateLimit, RateLimiter
from golem.inference.types import AttemptUsage, Request, Response
from golem.inference.wall_clock import utc_now

__all__ = ["HTTPProvider", "TransportConfig", "retry_after_seconds"]

log = structlog.get_logger(__name__)

_DEFAULT_HEADERS = {"user-agent": "golem", "accept-encoding": "gzip, deflate"}


class TransportConfig(BaseModel):
    """The `[inference.transport]` section: timeouts, retries and limits of one provider.

    `total_timeout_s` bounds one non-streamed attempt from sending to the last byte;
    `max_stream_s` does the same for a streamed attempt. Neither counts retry waits.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    connect_timeout_s: float = Field(default=10.0, gt=0)
    read_timeout_s: float = Field(default=60.0, gt=0)  # longest silence between two reads
    total_timeout_s: float = Field(default=120.0, gt=0)
    max_stream_s: float = Field(default=600.0, gt=0)
    max_response_bytes: int = Field(default=8 * 1024 * 1024, gt=0)
    max_retries: int = Field(default=3, ge=0, le=10)  # retries after the first attempt
    backoff_base_s: float = Field(default=0.5, ge=0)  # full jitter: U(0, base * 2**retry)
    backoff_max_s: float = Field(default=20.0, ge=0)
    max_retry_after_s: float = Field(default=60.0, ge=0)  # a longer Retry-After: give up
    proxy: str | None = None  # an HTTP(S) proxy URL for the provider's own connection pool
    # Client-side limits by "provider" or "provider:model" (the model's entry wins), and
    # whether the providers' x-ratelimit-* / anthropic-ratelimit-* headers are obeyed too.
    rate_limits: dict[str, RateLimit] = Field(default_factory=dict)
    learn_rate_limits: bool = True

    def rate_limit(self, provider: str, model: str) -> RateLimit | None:
        limits = self.rate_limits
        return limits.get(f"{provider}:{model}") or limits.get(provider)

    def httpx_timeout(self) -> httpx.Timeout:
        return httpx.Timeout(
            connect=self.connect_timeout_s,
            read=self.read_timeout_s,
            write=self.read_timeout_s,
            pool=self.connect_timeout_s,
        )


class HTTPProvider:
    """A Provider that speaks to one HTTP provider and model through its codec.

    The API key is read from the environment variable the profile names on every call
    (so a rotated key is picked up) and goes only into the outgoing request's headers:
    it is never stored on this object, logged, or put into an error. A missing key is an
    AuthError naming the variable. Transient failures (429, 5xx, 529, timeouts, connection
    errors) are retried up to `max_retries` times with full jitter, or after exactly the
    Retry-After the provider sent; a Retry-After beyond `max_retry_after_s` raises the
    typed error at once. Past `max_response_bytes` the read stops with InvalidResponse.

    Streams: a streamed answer is returned only once complete, so a stream cut mid-way
    (ConnectionFailed) is retried from scratch like any transient failure and never hands
    the caller a partial answer. A stream that ends cleanly but without its final event
    (truncated SSE) is the same cut seen from the other side: the codec raises
    IncompleteStream, a ConnectionFailed, retried the same way (its `partial` Response is
    for a person to read, never used as the answer).

    Bills: the provider bills a cut (or timed-out) stream for what it processed and sent,
    and a whole body cut on its way (or refused) in full. Each such attempt becomes an
    AttemptUsage (golem.inference.billing: what the answer reported, plus an estimate of
    what it sent beyond that, of a cut body what arrived), returned with the answer
    of a later attempt (`Response.failed_attempts`, summed into its usage and cost) or with
    the error that ends the call (`ProviderError.failed_attempts`, `usage`, `cost_usd`).

    Watched calls: a request that carries a `progress` sink and asks for reasoning is
    streamed, so its reasoning can be counted as it arrives (ThinkingTokens events); the
    answer is still read whole before it is returned, as above.

    Requests go straight to an httpx transport, not through an httpx.AsyncClient: an API
    call wants none of a client's cookie jar, redirects or URL merging, and skipping them
    cut httpx's cost per call from about 110 µs to 30 µs (measured on MockTransport).
    Pass `transport` to share a connection pool (or to test through httpx.MockTransport);
    it is then the caller's to close. Otherwise the provider opens an
    httpx.AsyncHTTPTransport on first use and closes it in `aclose()` / `async with`.
    """

    def __init__(
        self,
        profile: ProviderProfile,
        model: str,
        codec: Codec,
        *,
        config: TransportConfig | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        base_url: str | None = None,
        environ: Mapping[str, str] | None = None,
        registry: Registry | None = None,
        now: Callable[[], datetime] = utc_now,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self._profile = profile
        self._model = model
        self._codec = codec
        self._config = config or TransportConfig()
        self._timeouts = self._config.httpx_timeout().as_dict()
        self._transport = transport
        self._owns_transport = transport is None
        self._base_url = (base_url or profile.base_url).rstrip("/")
        self._urls: dict[str, httpx.URL] = {}
        self._key = KeySource(profile.api_key_env, os.environ if environ is None else environ)
        self._registry = registry or default_registry()
        self._now = now
        self._jitter = jitter
        self._capabilities = profile.capabilities_for(model)
        self.limiter = RateLimiter(
            profile.name,
            model,
            self._config.rate_limit(profile.name, model),
            learn=self._config.learn_rate_limits,
        )

    @classmethod
    def named(
        cls, provider: str, model: str, *, registry: Registry | None = None, **options: Any
    ) -> HTTPProvider:
        """The provider `provider` of the registry, with its codec; `options` as above."""
        registry = registry or default_registry()
        profile = registry.profile(provider)
        return cls(profile, model, registry.codec(provider), registry=registry, **options)

    @property
    def name(self) -> str:
        return self._profile.name

    @property
    def model(self) -> str:
        return self._model

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    def __repr__(self) -> str:
        return f"HTTPProvider({self._profile.name!r}, {self._model!r}, {self._base_url!r})"

    async def __aenter__(self) -> HTTPProvider:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_transport and self._transport is not None:
            transport, self._transport = self._transport, None
            await transport.aclose()

    async def complete(self, request: Request) -> Response:
        """One answer for `request`, retried across transient failures; `latency_s`
        covers every attempt and wait."""
        started = trio.current_time()
        model = request.model or self._model
        progress = request.progress if request.reasoning.enabled else None
        if progress is not None and not request.stream:
            request = request.evolve(stream=True)
        wire = self._codec.encode(request, model)
        outgoing = httpx.Request(
            wire.method,
            self._url(wire.path),
            headers={**_DEFAULT_HEADERS, **wire.headers, **self._auth_headers()},
            content=wire.content(),
            extensions={"timeout": self._timeouts},
        )
        transport = self._transport
        if transport is None:
            transport = self._transport = httpx.AsyncHTTPTransport(proxy=self._config.proxy)
        retries = 0
        failed: list[AttemptUsage] = []  # attempts the provider bills though they failed
        # The request's tokens for the limiter: its bytes / 4, and the answer's room.
        tokens = len(outgoing.content) // 4 + (request.max_tokens or 0)
        while True:
            try:
                await self.limiter.acquire(tokens)
                answer = await self._attempt(
                    transport, outgoing, (request, model), wire.stream, progress
                )
                break
            except ProviderError as exc:
                failed.extend(exc.failed_attempts)
                delay = self._retry_delay(exc, retries)
                if delay is None:
                    exc.failed_attempts = tuple(failed)
                    if failed:
                        exc.usage, exc.cost_usd = summed(failed)
                    raise
                retries += 1
                log.warning(
                    "provider call failed; retrying",
                    provider=self.name,
                    model=model,
                    error=exc.code,
                    status=exc.status,
                    retry=retries,
                    delay_s=round(delay, 3),
                )
                await trio.sleep(delay)
        stamped = answer.evolve(
            provider=self.name,
            model=answer.model or model,
            latency_s=trio.current_time() - started,
        )
        answer = self._registry.with_cost(stamped, model)
        if not failed:
            return answer
        usage, cost = summed(failed)
        return answer.evolve(
            usage=answer.usage + usage,
            cost_usd=answer.cost_usd + cost,
            failed_attempts=(*answer.failed_attempts, *failed),
        )

    def _url(self, path: str) -> httpx.URL:
        url = self._urls.get(path)
        if url is None:
            url = self._urls[path] = httpx.URL(f"{self._base_url}/{path.lstrip('/')}")
        return url

    def _auth_headers(self) -> dict[str, str]:
        key = self._key.read()
        if key is None:
            return {}
        if not key:
            raise AuthError(
                f"no API key: the environment variable {self._key.variable} is not set",
                provider=self.name,
            )
        return self._codec.auth_headers(key)

    def _retry_delay(self, exc: ProviderError, retries: int) -> float | None:
        """Seconds to wait before the next attempt, or None to give up with `exc`."""
        config = self._config
        if not exc.transient or retries >= config.max_retries:
            return None
        hint = retry_after_seconds(exc.headers, self._now())
        if hint is None and isinstance(exc, RateLimited):
            hint = exc.retry_after
        if hint is not None:
            return hint if hint <= config.max_retry_after_s else None
        ceiling = min(config.backoff_max_s, config.backoff_base_s * 2.0**retries)
        return ceiling * self._jitter()

    async def _attempt(
        self,
        transport: httpx.AsyncBaseTransport,
        outgoing: httpx.Request,
        asked: tuple[Request, str],
        stream: bool,
        progress: ThinkingSink | None = None,
    ) -> Response:
        """One attempt; a failure after the answer began carries the attempt's bill."""
        limit = self._config.max_stream_s if stream else self._config.total_timeout_s
        decoder = self._codec.stream() if stream else None
        received: list[bytes] = []  # a whole body's bytes as they arrive
        try:
            with trio.move_on_after(limit), translated_errors(self.name):
                return await self._exchange(transport, outgoing, decoder, progress, received)
            raise Timeout(f"no complete answer within {limit:g} s", provider=self.name)
        except ProviderError as exc:
            if decoder is not None:
                self._bill(exc, decoder.builder, *asked)
            elif received and (exc.transient or isinstance(exc, Refusal)):
                self._bill(exc, body_read(self._codec, b"".join(received)), *asked)
            raise

    def _bill(
        self, exc: ProviderError, builder: ResponseBuilder, request: Request, model: str
    ) -> None:
        """Add to `exc` what the provider bills for what `builder` read before it."""
        answered = builder.model if isinstance(builder.model, str) and builder.model else model
        bill = attempt_bill(
            builder,
            request,
            provider=self.name,
            model=answered,
            error=exc.code,
            price=self._registry.price_of(Response(provider=self.name, model=answered), model),
        )
        if bill is not None:
            exc.failed_attempts = (*exc.failed_attempts, bill)

    async def _exchange(
        self,
        transport: httpx.AsyncBaseTransport,
        outgoing: httpx.Request,
        decoder: CodecStream | None,
        progress: ThinkingSink | None,
        received: list[bytes],
    ) -> Response:
        response = await transport.handle_async_request(outgoing)
        self.limiter.observe(response.headers, self._now)
        try:
            status = response.status_code
            if not 200 <= status < 300:
                body = await excerpt(response)
                raise status_error(
                    self._codec, status, response.headers, body, provider=self.name, now=self._now
                )
            if decoder is not None:
                feed = decoder.feed if progress is None else _metered(decoder, progress)
                await read_bounded(response, feed, self._config.max_response_bytes, self.name)
                return decoder.finish()
            body = await read_body(response, received, self._config.max_response_bytes, self.name)
            return self._codec.decode(status, safe_headers(response.headers), body)
        finally:
            await response.aclose()


def _metered(decoder: CodecStream, progress: ThinkingSink) -> Callable[[bytes], None]:
    """`decoder.feed`, telling `progress` how the reasoning grows after each chunk."""
    meter, builder = ReasoningMeter(progress), decoder.builder

    def feed(chunk: bytes) -> None:
        decoder.feed(chunk)
        meter.observe(builder.reasoning_chars, builder.reasoning_tokens)

    return feed
