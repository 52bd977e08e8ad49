"""What the transport reads of one HTTP exchange with a provider, and what it raises: a body
read within `max_response_bytes` (chunk by chunk, kept as it arrives), an error body's
excerpt, and the one place (`translated_errors`, `status_error`) that turns httpx failures
and non-2xx statuses into typed errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

import httpx

from golem.inference._http import Enough, consume, retry_after_seconds, safe_headers
from golem.inference.codecs.base import SHAPE_ERRORS, Codec, shape_error
from golem.inference.errors import (
    BODY_EXCERPT_CHARS,
    ConnectionFailed,
    GolemError,
    InvalidRequest,
    InvalidResponse,
    ProviderError,
    RateLimited,
    Timeout,
)

__all__ = ["excerpt", "read_body", "read_bounded", "status_error", "translated_errors"]


async def read_body(
    response: httpx.Response, parts: list[bytes], limit: int, provider: str
) -> bytes:
    """A whole non-streamed body, at most `limit` bytes of it; its chunks are kept in
    `parts` as they arrive (what a cut leaves is billed)."""
    declared = response.headers.get("content-length", "")
    encoded = response.headers.get("content-encoding", "identity") != "identity"
    if declared.isdigit() and not encoded and int(declared) <= limit:
        # HTTP framing stops the read at the declared length: no need to count (nor to
        # cancel the read: appending never raises, so the body is read to its end).
        async for chunk in response.aiter_bytes():
            parts.append(chunk)
    else:
        await read_bounded(response, parts.append, limit, provider)
    return parts[0] if len(parts) == 1 else b"".join(parts)


async def read_bounded(
    response: httpx.Response, sink: Callable[[bytes], object], limit: int, provider: str
) -> None:
    """Pass the body to `sink` chunk by chunk; past `limit` bytes, stop reading and raise
    InvalidResponse."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(response, f"declares {declared} bytes", limit, provider)
    received = 0

    def bounded(chunk: bytes) -> None:
        nonlocal received
        received += len(chunk)
        if received > limit:
            raise _too_large(response, f"passed {received} bytes", limit, provider)
        sink(chunk)

    await consume(response, bounded)


async def excerpt(response: httpx.Response) -> bytes:
    """The start of an error body: it is only read for the error it names."""
    parts: list[bytes] = []
    room = BODY_EXCERPT_CHARS * 4  # enough UTF-8 bytes for the excerpt

    def collect(chunk: bytes) -> None:
        nonlocal room
        parts.append(chunk)
        room -= len(chunk)
        if room <= 0:
            raise Enough

    await consume(response, collect)
    return b"".join(parts)


def _too_large(response: httpx.Response, detail: str, limit: int, provider: str) -> InvalidResponse:
    return InvalidResponse(
        f"response body too large: {detail}, limit {limit}",
        provider=provider,
        status=response.status_code,
        headers=safe_headers(response.headers),
    )


@contextmanager
def translated_errors(provider: str) -> Iterator[None]:
    """The one place foreign failures become golem's typed errors."""
    try:
        yield
    except GolemError:
        raise
    except (httpx.UnsupportedProtocol, httpx.LocalProtocolError) as exc:
        # Our side: a base URL or request httpx will not send. Retrying cannot help.
        raise InvalidRequest(f"{type(exc).__name__}: {exc}", provider=provider) from exc
    except httpx.TimeoutException as exc:
        raise Timeout(f"{type(exc).__name__}: {exc}", provider=provider) from exc
    except httpx.TransportError as exc:
        # Refused, reset, closed mid-body, a malformed HTTP exchange.
        raise ConnectionFailed(f"{type(exc).__name__}: {exc}", provider=provider) from exc
    except httpx.HTTPError as exc:  # a body that cannot be decompressed, for instance
        raise InvalidResponse(f"{type(exc).__name__}: {exc}", provider=provider) from exc
    except SHAPE_ERRORS as exc:
        # Raised by a codec reading a 2xx body whose JSON lacks the shape it expects.
        raise shape_error(exc, provider) from exc


def status_error(
    codec: Codec,
    status: int,
    headers: httpx.Headers,
    body: bytes,
    *,
    provider: str,
    now: Callable[[], datetime],
) -> ProviderError:
    """The typed error for a non-2xx answer: the codec reads its family's error body and
    picks the type; here it gets whatever the codec left out (provider, status, excerpt,
    headers, a Retry-After given as a date)."""
    safe = safe_headers(headers)
    error = codec.error(status, safe, body)
    error.provider = error.provider or provider
    error.status = status if error.status is None else error.status
    error.headers = error.headers or safe
    if not error.body_excerpt and body:
        error.body_excerpt = body.decode("utf-8", "replace")[:BODY_EXCERPT_CHARS]
    if isinstance(error, RateLimited) and error.retry_after is None:
        error.retry_after = retry_after_seconds(safe, now())
    return error
