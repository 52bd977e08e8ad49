"""A tiny codec and scripted httpx handlers for the transport tests: enough wire format to
exercise the transport without depending on any real provider family."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
import orjson
import trio

from golem.inference import Capabilities, FinishReason, Overloaded, ProviderError, Request
from golem.inference.codecs._errors import error_class_for_status
from golem.inference.codecs.base import Codec, ProviderProfile, WireRequest
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.providers import Registry
from golem.inference.sse import SSEEvent
from golem.inference.transport import HTTPProvider, TransportConfig

KEY = "sk-test-SECRET123"
PRICE = {"input": 1.0, "output": 2.0}  # USD per million tokens
ENV = {"ECHO_API_KEY": KEY}
NOW = datetime(2026, 1, 1, tzinfo=UTC)
PROFILE = ProviderProfile(
    name="echo",
    family="echo",
    base_url="https://api.echo.test/v1/",
    api_key_env="ECHO_API_KEY",
    capabilities=Capabilities(response_schema=True),
)
REGISTRY = Registry({"echo": {"family": "echo", "models": {"echo-1": {"price": PRICE}}}})
FAST = TransportConfig(max_retries=3, backoff_base_s=1.0, backoff_max_s=8.0)


class EchoCodec(Codec):
    """Body `{"text": ..., "in": n, "out": n}`; stream events `{"text": ...}` then
    `{"done": true}`, or `{"error": ...}` for an overloaded provider mid-stream.

    `error` types by status alone and keeps nothing else: the transport fills it in."""

    def encode(self, request: Request, model: str) -> WireRequest:
        return WireRequest(
            "POST",
            "/answer",
            {"content-type": "application/json"},
            {"model": model, "prompt": [m.content for m in request.messages]},
            stream=request.stream,
        )

    def auth_headers(self, api_key: str) -> dict[str, str]:
        return {"authorization": f"Bearer {api_key}"}

    def apply_body(self, body: Mapping[str, Any], builder: ResponseBuilder) -> None:
        builder.recognise()
        if body["text"] is not None:
            builder.text(body["text"])
        builder.usage(input_tokens=body.get("in", 0), output_tokens=body.get("out", 0))
        builder.finish(FinishReason.STOP)

    def apply_event(self, event: SSEEvent, builder: ResponseBuilder) -> None:
        data = orjson.loads(event.data)
        if "error" in data:
            raise Overloaded(data["error"], provider=self.profile.name)
        builder.recognise()
        if "text" in data:
            builder.text(data["text"])
        if data.get("done"):
            builder.finish(FinishReason.STOP)
            builder.end()

    def error(self, status: int, headers: Mapping[str, str], body: bytes) -> ProviderError:
        return error_class_for_status(status)(f"HTTP {status}")


def answer(text: str | None = '{"ok": true}', **headers: str) -> httpx.Response:
    return httpx.Response(200, json={"text": text, "in": 10, "out": 5}, headers=headers)


def sse(*texts: str, done: bool = True) -> bytes:
    events = [orjson.dumps({"text": t}) for t in texts]
    if done:
        events.append(b'{"done": true}')
    return b"".join(b"data: " + e + b"\n\n" for e in events)


Step = httpx.Response | BaseException | Callable[[httpx.Request], Awaitable[httpx.Response]]


@dataclass
class Script:
    """An httpx handler answering each request with the next step; it records the
    requests and the trio time each arrived."""

    steps: list[Step]
    requests: list[httpx.Request] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.times.append(trio.current_time())
        step = self.steps[min(len(self.requests), len(self.steps)) - 1]
        if isinstance(step, BaseException):
            raise step
        if isinstance(step, httpx.Response):
            return step
        return await step(request)


class ChunkedBody(httpx.AsyncByteStream):
    """A streamed body: its chunks, with an optional pause before each, then an optional
    error (a connection cut) instead of a clean end."""

    def __init__(
        self, chunks: list[bytes], *, pause: float = 0.0, error: Exception | None = None
    ) -> None:
        self.chunks = chunks
        self.pause = pause
        self.error = error
        self.sent = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            if self.pause:
                await trio.sleep(self.pause)
            self.sent += 1
            yield chunk
        if self.error is not None:
            raise self.error


def make_provider(
    handler: Script, config: TransportConfig = FAST, **overrides: Any
) -> HTTPProvider:
    options: dict[str, Any] = {
        "config": config,
        "transport": httpx.MockTransport(handler),
        "environ": ENV,
        "now": lambda: NOW,
        "jitter": random.Random(7).random,
        "registry": REGISTRY,
        **overrides,
    }
    return HTTPProvider(PROFILE, "echo-1", EchoCodec(PROFILE), **options)
