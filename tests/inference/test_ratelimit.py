"""The client-side rate limiter (issue 34, item 9): a golem waits before a 429, on trio's
clock (MockClock here), from config (requests and tokens per minute) and from what the
provider's headers say remains; each config key shows which way it acts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import orjson
import pytest
import trio
import trio.testing

from golem.inference.ratelimit import RateLimit, RateLimiter, reset_seconds
from golem.inference.transport import HTTPProvider, TransportConfig
from golem.inference.types import Message, Request

NOW = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
BODY = orjson.dumps(
    {
        "model": "gpt-4o",
        "choices": [{"message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 2},
    }
)


def _run(body: object) -> object:
    clock = trio.testing.MockClock(autojump_threshold=0)
    return trio.run(body, clock=clock)  # type: ignore[arg-type]


def _provider(
    headers: list[dict[str, str]], config: TransportConfig, sent: list[float]
) -> HTTPProvider:
    """An OpenAI provider whose MockTransport answers 200 with the next headers, noting
    when (on trio's clock) each request arrived."""
    answers = iter(headers)

    def handle(request: httpx.Request) -> httpx.Response:
        sent.append(trio.current_time())
        return httpx.Response(200, headers=next(answers, {}), content=BODY)

    return HTTPProvider.named(
        "openai",
        "gpt-4o",
        config=config,
        transport=httpx.MockTransport(handle),
        environ={"OPENAI_API_KEY": "k"},
        now=lambda: NOW,
    )


def _calls(provider: HTTPProvider, n: int) -> None:
    async def main() -> None:
        for _ in range(n):
            await provider.complete(Request(messages=(Message.user("hi"),)))

    _run(main)


def test_openai_headers_say_none_remain_so_the_next_request_waits_for_the_reset() -> None:
    sent: list[float] = []
    exhausted = {"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s"}
    _calls(_provider([exhausted], TransportConfig(), sent), 2)
    assert sent[1] - sent[0] == pytest.approx(360.0)  # waited out the reset, no 429 met


def test_anthropic_headers_are_read_too() -> None:
    limiter = RateLimiter("anthropic", "m", clock=lambda: 100.0)
    reset = (NOW + timedelta(seconds=42)).isoformat().replace("+00:00", "Z")
    headers = httpx.Headers(
        {"anthropic-ratelimit-tokens-remaining": "500", "anthropic-ratelimit-tokens-reset": reset}
    )
    limiter.observe(headers, lambda: NOW)
    assert limiter.delay(400) == (0.0, "")
    assert limiter.delay(600) == (pytest.approx(42.0), "provider's remaining tokens")


def test_learn_rate_limits_off_ignores_the_headers() -> None:
    sent: list[float] = []
    exhausted = {"x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s"}
    _calls(_provider([exhausted], TransportConfig(learn_rate_limits=False), sent), 2)
    assert sent[1] - sent[0] == pytest.approx(0.0)


@pytest.mark.parametrize(("rpm", "waited"), [(None, 0.0), (2, 60.0)])
def test_requests_per_minute_from_config(rpm: int | None, waited: float) -> None:
    sent: list[float] = []
    config = TransportConfig(rate_limits={"openai": RateLimit(requests_per_minute=rpm)})
    _calls(_provider([], config, sent), 3)
    assert sent[1] - sent[0] == pytest.approx(0.0)
    assert sent[2] - sent[0] == pytest.approx(waited)  # the third waits for the first's minute


@pytest.mark.parametrize(("tpm", "waited"), [(10_000, 0.0), (30, 60.0)])
def test_tokens_per_minute_from_config(tpm: int, waited: float) -> None:
    sent: list[float] = []
    config = TransportConfig(rate_limits={"openai:gpt-4o": RateLimit(tokens_per_minute=tpm)})
    _calls(_provider([], config, sent), 2)  # each counts over 15 tokens (its bytes / 4)
    assert sent[1] - sent[0] == pytest.approx(waited)


def test_a_models_entry_wins_over_its_providers() -> None:
    config = TransportConfig(
        rate_limits={"openai": RateLimit(requests_per_minute=1), "openai:gpt-4o": RateLimit()}
    )
    assert config.rate_limit("openai", "gpt-4o") == RateLimit()
    assert config.rate_limit("openai", "gpt-5") == RateLimit(requests_per_minute=1)


def test_retry_after_handling_stays() -> None:
    sent: list[float] = []
    answers = iter([httpx.Response(429, headers={"retry-after": "7"}, content=b"{}")])

    def handle(request: httpx.Request) -> httpx.Response:
        sent.append(trio.current_time())
        return next(answers, httpx.Response(200, content=BODY))

    provider = HTTPProvider.named(
        "openai",
        "gpt-4o",
        transport=httpx.MockTransport(handle),
        environ={"OPENAI_API_KEY": "k"},
        now=lambda: NOW,
    )
    _calls(provider, 1)
    assert sent[1] - sent[0] == pytest.approx(7.0)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("1s", 1.0), ("6m0s", 360.0), ("20ms", 0.02), ("1h2m", 3720.0), ("soon", None)],
)
def test_reset_durations(value: str, seconds: float | None) -> None:
    assert reset_seconds(value, lambda: NOW) == (
        None if seconds is None else pytest.approx(seconds)
    )
