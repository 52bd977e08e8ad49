"""HTTPProvider through httpx.MockTransport under trio's autojump clock: success paths,
retries with backoff and Retry-After, and every fault ending in a typed outcome."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

import httpx
import pytest
import structlog
import trio
from trio.testing import MockClock

from golem.inference import (
    AuthError,
    ConnectionFailed,
    FinishReason,
    IncompleteStream,
    InvalidRequest,
    InvalidResponse,
    Message,
    NoStructuredOutput,
    Overloaded,
    ProviderError,
    RateLimited,
    Request,
    ServerError,
    Timeout,
    Usage,
    run_structured,
)
from golem.inference.transport import TransportConfig, retry_after_seconds
from tests.inference.decisions import Pulse
from tests.inference.transport_support import (
    KEY,
    NOW,
    PROFILE,
    ChunkedBody,
    EchoCodec,
    Script,
    answer,
    make_provider,
    sse,
)

REQUEST = Request(messages=(Message.user("how are things?"),))
STREAM = REQUEST.evolve(stream=True)
NO_RETRY = TransportConfig(max_retries=0)


async def test_answer_is_decoded_and_stamped(autojump_clock: MockClock) -> None:
    script = Script([answer('{"ok": true}')])
    provider = make_provider(script)
    with trio.fail_after(5):
        response = await provider.complete(REQUEST)
    assert response.content == '{"ok": true}'
    assert response.finish_reason is FinishReason.STOP
    assert (response.provider, response.model) == ("echo", "echo-1")
    assert response.cost_usd == pytest.approx((10 * 1.0 + 5 * 2.0) / 1e6)
    assert response.usage == Usage(input_tokens=10, output_tokens=5)
    assert response.latency_s == 0.0  # no virtual time passed
    sent = script.requests[0]
    assert str(sent.url) == "https://api.echo.test/v1/answer"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.method == "POST"


async def test_stream_is_fed_to_the_codec(autojump_clock: MockClock) -> None:
    body = sse('{"ok"', ": true}")
    chunks = [body[i : i + 7] for i in range(0, len(body), 7)]
    script = Script([httpx.Response(200, stream=ChunkedBody(chunks, pause=0.25))])
    with trio.fail_after(60):
        response = await make_provider(script).complete(STREAM)
    assert response.content == '{"ok": true}'
    assert response.finish_reason is FinishReason.STOP
    assert response.latency_s == pytest.approx(0.25 * len(chunks))


async def test_429_retry_after_seconds_is_waited_exactly(
    autojump_clock: MockClock,
) -> None:
    script = Script([httpx.Response(429, headers={"retry-after": "7"}), answer()])
    with trio.fail_after(60):
        response = await make_provider(script).complete(REQUEST)
    assert response.content == '{"ok": true}'
    assert script.times[1] - script.times[0] == pytest.approx(7.0)
    assert response.latency_s == pytest.approx(7.0)


async def test_429_retry_after_http_date_is_waited_exactly(
    autojump_clock: MockClock,
) -> None:
    when = format_datetime(NOW + timedelta(seconds=12), usegmt=True)
    script = Script([httpx.Response(429, headers={"retry-after": when}), answer()])
    with trio.fail_after(60):
        await make_provider(script).complete(REQUEST)
    assert script.times[1] - script.times[0] == pytest.approx(12.0)


async def test_retry_after_beyond_the_cap_gives_up_at_once(
    autojump_clock: MockClock,
) -> None:
    script = Script([httpx.Response(429, headers={"retry-after": "3600"}), answer()])
    with trio.fail_after(5), pytest.raises(RateLimited) as caught:
        await make_provider(script).complete(REQUEST)
    assert caught.value.retry_after == 3600.0
    assert len(script.requests) == 1
    assert trio.current_time() == 0.0


@pytest.mark.parametrize(
    ("status", "error"),
    [(500, ServerError), (502, ServerError), (503, ServerError), (529, Overloaded)],
)
async def test_server_failures_are_retried_then_typed(
    autojump_clock: MockClock,
    status: int,
    error: type[ProviderError],
) -> None:
    script = Script([httpx.Response(status, text="upstream unhappy")])
    with trio.fail_after(60), pytest.raises(error) as caught:
        await make_provider(script).complete(REQUEST)
    assert len(script.requests) == 4  # the first attempt and three retries
    waits = [b - a for a, b in zip(script.times, script.times[1:], strict=False)]
    # Full jitter: each wait is somewhere in [0, min(8, 1 * 2**retry)).
    assert all(0 <= wait < ceiling for wait, ceiling in zip(waits, [1, 2, 4], strict=True))
    assert sum(waits) > 0
    assert caught.value.status == status
    assert caught.value.body_excerpt == "upstream unhappy"


async def test_a_transient_failure_then_success(autojump_clock: MockClock) -> None:
    script = Script([httpx.Response(503), httpx.Response(502), answer()])
    with trio.fail_after(60):
        response = await make_provider(script).complete(REQUEST)
    assert response.content == '{"ok": true}'
    assert len(script.requests) == 3


async def test_jitter_is_reproducible_with_a_seeded_random(
    autojump_clock: MockClock,
) -> None:
    runs = []
    for _ in range(2):
        script = Script([httpx.Response(500)])
        with pytest.raises(ServerError):
            await make_provider(script).complete(REQUEST)
        runs.append([b - a for a, b in zip(script.times, script.times[1:], strict=False)])
    assert runs[0] == pytest.approx(runs[1])


@pytest.mark.parametrize(
    ("raised", "error"),
    [
        (httpx.ReadTimeout("read timed out"), Timeout),
        (httpx.ConnectTimeout("connect timed out"), Timeout),
        (httpx.PoolTimeout("no connection free"), Timeout),
        (httpx.ConnectError("connection refused"), ConnectionFailed),
        (httpx.RemoteProtocolError("server disconnected"), ConnectionFailed),
        (httpx.UnsupportedProtocol("ftp is not http"), InvalidRequest),
    ],
)
async def test_httpx_failures_become_typed_errors(
    autojump_clock: MockClock,
    raised: Exception,
    error: type[ProviderError],
) -> None:
    script = Script([raised])
    with trio.fail_after(60), pytest.raises(error) as caught:
        await make_provider(script).complete(REQUEST)
    assert caught.value.__cause__ is raised
    assert len(script.requests) == (4 if error.transient else 1)


async def test_a_hung_server_hits_the_total_timeout(autojump_clock: MockClock) -> None:
    async def hang(request: httpx.Request) -> httpx.Response:
        await trio.sleep_forever()
        raise AssertionError("unreachable")

    script = Script([hang])
    config = TransportConfig(max_retries=0, total_timeout_s=30)
    with trio.fail_after(60), pytest.raises(Timeout, match="within 30 s"):
        await make_provider(script, config).complete(REQUEST)
    assert trio.current_time() == pytest.approx(30.0)


async def test_a_stream_that_never_ends_hits_the_stream_limit(
    autojump_clock: MockClock,
) -> None:
    endless = ChunkedBody([b": keep-alive\n\n"] * 10_000, pause=1.0)
    script = Script([httpx.Response(200, stream=endless)])
    config = TransportConfig(max_retries=0, max_stream_s=45)
    with trio.fail_after(120), pytest.raises(Timeout, match="within 45 s"):
        await make_provider(script, config).complete(STREAM)
    assert trio.current_time() == pytest.approx(45.0)


async def test_connection_reset_mid_stream(autojump_clock: MockClock) -> None:
    cut = ChunkedBody([sse('{"ok"', done=False)], error=httpx.ReadError("connection reset"))
    script = Script([httpx.Response(200, stream=cut)])
    with trio.fail_after(60), pytest.raises(ConnectionFailed, match="connection reset"):
        await make_provider(script, NO_RETRY).complete(STREAM)
    assert cut.sent == 1


async def test_a_cut_stream_is_retried_from_scratch(autojump_clock: MockClock) -> None:
    cut = ChunkedBody([sse('{"ok"', done=False)], error=httpx.ReadError("connection reset"))
    whole = ChunkedBody([sse('{"ok"', ": true}")])
    script = Script([httpx.Response(200, stream=cut), httpx.Response(200, stream=whole)])
    with trio.fail_after(60):
        response = await make_provider(script).complete(STREAM)
    assert response.content == '{"ok": true}'  # nothing of the cut attempt leaks in


async def test_truncated_sse_is_retried_like_a_cut_connection(
    autojump_clock: MockClock,
) -> None:
    cut = httpx.Response(200, content=sse('{"ok": ', done=False))  # ends cleanly, too soon
    whole = httpx.Response(200, content=sse('{"ok": ', "true}"))
    script = Script([cut, whole])
    with trio.fail_after(5):
        response = await make_provider(script).complete(STREAM)
    assert response.content == '{"ok": true}'
    assert len(script.requests) == 2


async def test_truncated_sse_with_no_retry_left_is_incomplete_stream(
    autojump_clock: MockClock,
) -> None:
    script = Script([httpx.Response(200, content=sse('{"ok": ', done=False))])
    with trio.fail_after(5), pytest.raises(IncompleteStream, match="without its final") as raised:
        await make_provider(script, NO_RETRY).complete(STREAM)
    assert raised.value.transient
    assert raised.value.partial is not None
    assert raised.value.partial.content == '{"ok": '
    assert raised.value.partial.finish_reason is FinishReason.UNKNOWN


async def test_a_declared_oversize_body_is_refused_unread(
    autojump_clock: MockClock,
) -> None:
    big = ChunkedBody([b"x" * 1024] * 64)
    script = Script([httpx.Response(200, stream=big, headers={"content-length": "65536"})])
    config = TransportConfig(max_response_bytes=4096)
    with trio.fail_after(5), pytest.raises(InvalidResponse, match="too large"):
        await make_provider(script, config).complete(REQUEST)
    assert big.sent == 0
    assert len(script.requests) == 1


@pytest.mark.parametrize("request_", [REQUEST, STREAM], ids=["body", "stream"])
async def test_reading_stops_past_the_size_limit(
    autojump_clock: MockClock, request_: Request
) -> None:
    big = ChunkedBody([b"data: " + b"x" * 1018 + b"\n"] * 64, pause=0.01)
    script = Script([httpx.Response(200, stream=big)])
    config = TransportConfig(max_response_bytes=4096)
    with trio.fail_after(5), pytest.raises(InvalidResponse, match="too large"):
        await make_provider(script, config).complete(request_)
    assert big.sent == 4  # the chunk that crossed the limit, and no further


async def test_an_error_event_mid_stream_stops_the_read(autojump_clock: MockClock) -> None:
    chunks = [sse("{", done=False), b'data: {"error": "overloaded"}\n\n', *[sse("x")] * 20]
    body = ChunkedBody(chunks, pause=0.01)
    script = Script([httpx.Response(200, stream=body)])
    with trio.fail_after(5), pytest.raises(Overloaded, match="overloaded"):
        await make_provider(script, NO_RETRY).complete(STREAM)
    assert body.sent == 2


async def test_a_200_with_a_non_json_body(autojump_clock: MockClock) -> None:
    script = Script([httpx.Response(200, text="<html>gateway says hi</html>")])
    with trio.fail_after(5), pytest.raises(InvalidResponse, match="not JSON") as caught:
        await make_provider(script).complete(REQUEST)
    assert "gateway says hi" in caught.value.body_excerpt
    assert len(script.requests) == 1  # not transient: not retried


async def test_a_200_with_the_wrong_json_shape(autojump_clock: MockClock) -> None:
    script = Script([httpx.Response(200, json={"choices": []})])
    with trio.fail_after(5), pytest.raises(InvalidResponse, match="unexpected response shape"):
        await make_provider(script).complete(REQUEST)


async def test_empty_content_is_a_response_with_no_content(
    autojump_clock: MockClock,
) -> None:
    script = Script([answer(None)])
    with trio.fail_after(5):
        response = await make_provider(script).complete(REQUEST)
    assert response.content is None


async def test_empty_content_through_run_structured(autojump_clock: MockClock) -> None:
    script = Script([answer("")])
    provider = make_provider(script)
    with trio.fail_after(5), pytest.raises(NoStructuredOutput) as caught:
        await run_structured(provider, REQUEST, Pulse)
    assert caught.value.attempts == 3
    assert len(script.requests) == 3


@pytest.mark.parametrize(
    ("status", "error"), [(400, InvalidRequest), (401, AuthError), (404, InvalidRequest)]
)
async def test_client_errors_are_not_retried(
    autojump_clock: MockClock,
    status: int,
    error: type[ProviderError],
) -> None:
    script = Script([httpx.Response(status, json={"error": {"message": "no"}})])
    with trio.fail_after(5), pytest.raises(error):
        await make_provider(script).complete(REQUEST)
    assert len(script.requests) == 1


async def test_errors_keep_status_body_and_headers_minus_secrets(
    autojump_clock: MockClock,
) -> None:
    headers = {"x-request-id": "req_1", "set-cookie": "session=abc", "x-api-key": "echoed"}
    script = Script([httpx.Response(400, text="bad field 'x'", headers=headers)])
    with pytest.raises(InvalidRequest) as caught:
        await make_provider(script).complete(REQUEST)
    error = caught.value
    assert (error.provider, error.status, error.body_excerpt) == ("echo", 400, "bad field 'x'")
    assert error.headers["x-request-id"] == "req_1"
    assert "set-cookie" not in error.headers
    assert "x-api-key" not in error.headers


async def test_a_huge_error_body_is_read_only_for_its_excerpt(autojump_clock: MockClock) -> None:
    page = ChunkedBody([b"<html>" + b"x" * 1000] * 100, pause=0.01)
    script = Script([httpx.Response(502, stream=page)])
    with trio.fail_after(5), pytest.raises(ServerError) as caught:
        await make_provider(script, NO_RETRY).complete(REQUEST)
    assert caught.value.body_excerpt.startswith("<html>xxx")
    assert len(caught.value.body_excerpt) == 2000
    assert page.sent == 8


async def test_a_missing_key_names_the_variable(autojump_clock: MockClock) -> None:
    script = Script([answer()])
    provider = make_provider(script, environ={"ECHO_API_KEY": "  "})
    with pytest.raises(AuthError, match="ECHO_API_KEY"):
        await provider.complete(REQUEST)
    assert script.requests == []


async def test_the_key_appears_only_in_the_outgoing_request(
    autojump_clock: MockClock,
) -> None:
    rejected = httpx.Response(401, json={"error": {"message": f"bad key {KEY[:6]}..."}})
    script = Script([httpx.Response(503), rejected])
    provider = make_provider(script)
    with structlog.testing.capture_logs() as logs, pytest.raises(AuthError) as caught:
        await provider.complete(REQUEST)
    assert logs and logs[0]["event"] == "provider call failed; retrying"
    seen = [repr(logs), repr(provider), str(provider.__dict__)]
    error: BaseException | None = caught.value
    while error is not None:
        seen += [str(error), repr(error), repr(vars(error))]
        error = error.__cause__ or error.__context__
    assert not [text for text in seen if KEY in text]
    assert KEY not in repr(EchoCodec(PROFILE).encode(REQUEST, "echo-1"))
    assert all(request.headers["authorization"] == f"Bearer {KEY}" for request in script.requests)


async def test_an_injected_transport_is_left_open(autojump_clock: MockClock) -> None:
    closed: list[bool] = []

    class Recording(httpx.MockTransport):
        async def aclose(self) -> None:
            closed.append(True)

    script = Script([answer()])
    async with make_provider(script, transport=Recording(script)) as provider:
        await provider.complete(REQUEST)
    assert closed == []


async def test_an_owned_transport_is_opened_on_first_use_and_closed(
    autojump_clock: MockClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    pools: list[Pool] = []

    class Pool(httpx.MockTransport):
        def __init__(self, proxy: str | None = None) -> None:
            super().__init__(Script([answer()]))
            self.proxy, self.closed = proxy, False
            pools.append(self)

        async def aclose(self) -> None:
            self.closed = True

    monkeypatch.setattr(httpx, "AsyncHTTPTransport", Pool)
    config = TransportConfig(proxy="http://proxy.test:3128")
    async with make_provider(Script([]), config, transport=None) as provider:
        assert pools == []
        await provider.complete(REQUEST)
        await provider.complete(REQUEST)
    assert [(pool.proxy, pool.closed) for pool in pools] == [("http://proxy.test:3128", True)]


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"Retry-After": "2.5"}, 2.5),
        ({"retry-after": "0"}, 0.0),
        ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
        ({"retry-after": "Thu, 01 Jan 2026 00:01:00 GMT"}, 60.0),
        ({"retry-after": "Wed, 31 Dec 2025 23:59:00 GMT"}, 0.0),  # in the past
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_forms(headers: dict[str, str], seconds: float | None) -> None:
    assert retry_after_seconds(headers, NOW) == seconds
