"""The live market through ccxt, against a local server replaying recorded exchange
responses: ccxt parses them as its own static tests recorded; a fresh price is observed,
errors are typed (retried when worth it), and a feed that stops goes stale."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from golem.world import (
    BadExchangeResponse,
    ExchangeTimeout,
    ExchangeUnavailable,
    LiveMarket,
    MarketStale,
    RateLimited,
    exchange_client,
    set_market,
)
from tests.world.exchange_server import (
    DOWN,
    KLINES,
    KLINES_PATH,
    MALFORMED,
    RATE_LIMITED,
    STATIC,
    TICKER_PATH,
    Reply,
    binance,
    recorded,
    serving,
    tickers,
)

NOW = datetime(2026, 3, 1, tzinfo=UTC)
BEAT = timedelta(seconds=15)


def market(
    url: str,
    *,
    exchange: str = "binance",
    symbol: str = "BTC/USDT",
    timeout_s: float = 2.0,
    retries: int = 2,
    waits: list[float] | None = None,
) -> LiveMarket:
    """A live market asking the replay server at `url`; its waits between retries are
    recorded in `waits` rather than slept."""
    client = exchange_client(exchange, api_url=url, timeout=timedelta(seconds=timeout_s))
    set_market(client, symbol)
    sleep = (waits if waits is not None else []).append
    return LiveMarket(
        client, symbol, "1h", interval=BEAT, stale_after=3, retries=retries, sleep=sleep
    )


def test_ccxt_parses_the_recorded_bodies_as_its_static_tests_recorded() -> None:
    static = json.loads((STATIC / "binance.json").read_text()) if STATIC.is_dir() else None
    ticker = recorded("binance/api_v3_ticker_24hr__symbol=BTCUSDT.json")
    assert static is not None
    with serving(binance([Reply.of(ticker)])) as server:
        client = exchange_client("binance", api_url=server.url, timeout=timedelta(seconds=2))
        set_market(client, "BTC/USDT")
        parsed = client.fetch_ticker("BTC/USDT")
        candles = client.fetch_ohlcv("BTC/USDT", "1h", 1706628191000, 3)
    wanted = static["methods"]["fetchTicker"][0]["parsedResponse"]
    for key in ("last", "timestamp", "high", "low", "bid", "ask", "baseVolume", "vwap"):
        assert parsed[key] == wanted[key], key
    assert candles == static["methods"]["fetchOHLCV"][0]["parsedResponse"]
    assert server.asked[0] == f"{TICKER_PATH}?symbol=BTCUSDT"  # nothing else was asked


def test_a_fresh_price_is_observed_with_the_latest_candles_volume() -> None:
    with serving(binance(tickers(2))) as server:
        live = market(server.url)
        poll = live.poll(NOW)
    assert poll.fresh and not poll.failures
    last_candle = recorded(KLINES)[-1]
    seen = live.observe(NOW)
    assert seen.price == float(recorded(KLINES)[0][4])
    assert seen.volume == pytest.approx(float(last_candle[5]) * float(last_candle[4]))
    assert poll.quote is not None and poll.quote.time == datetime(
        2024, 3, 13, 11, 10, 45, 391000, tzinfo=UTC
    )
    assert live.observe(NOW) is seen  # the same time: the same observation


def test_a_rate_limit_is_retried_after_the_exchanges_rate_limit() -> None:
    waits: list[float] = []
    with serving(binance([RATE_LIMITED, *tickers(1)])) as server:
        live = market(server.url, waits=waits)
        poll = live.poll(NOW)
    assert poll.fresh
    assert [type(f) for f in poll.failures] == [RateLimited]
    assert waits == [0.05]  # binance's rateLimit: 50 ms
    assert server.count(TICKER_PATH) == 2


def test_an_exchange_that_stays_down_gives_no_price_and_goes_stale() -> None:
    waits: list[float] = []
    with serving(binance([*tickers(1), DOWN])) as server:
        live = market(server.url, waits=waits)
        assert live.poll(NOW).fresh
        failed = live.poll(NOW + BEAT)
    assert failed.quote is None and not failed.fresh
    assert [type(f) for f in failed.failures] == [ExchangeUnavailable] * 3  # asked, 2 retries
    assert waits == [0.05, 0.1]  # doubled
    assert live.observe(NOW + 2 * BEAT).price > 0  # not yet stale
    with pytest.raises(MarketStale, match="no fresh price since 2026-03-01T00:00:00"):
        live.observe(NOW + 3 * BEAT)


def test_a_slow_exchange_is_a_timeout() -> None:
    slow = Reply(body=b"{}", delay_s=1.0)
    with serving(binance([slow])) as server:
        live = market(server.url, timeout_s=0.2, retries=0)
        poll = live.poll(NOW)
    assert [type(f) for f in poll.failures] == [ExchangeTimeout]


def test_a_malformed_body_is_typed_and_not_retried() -> None:
    with serving(binance([MALFORMED])) as server:
        live = market(server.url)
        poll = live.poll(NOW)
    assert [type(f) for f in poll.failures] == [BadExchangeResponse]
    assert "binance fetch_ticker(BTC/USDT)" in str(poll.failures[0])
    with pytest.raises(MarketStale, match="no price yet"):
        live.observe(NOW)


def test_a_feed_that_stops_goes_stale_after_stale_after_intervals() -> None:
    with serving(binance(tickers(2))) as server:  # the second body, again and again
        live = market(server.url)
        polls = [live.poll(NOW + k * BEAT) for k in range(6)]
    assert [p.fresh for p in polls] == [True, True, False, False, False, False]
    assert live.observe(NOW + 3 * BEAT).price > 0  # fresh at 1 beat, stale from 4
    with pytest.raises(MarketStale):
        live.observe(NOW + 4 * BEAT)


def test_a_restored_live_market_counts_its_ticks_on() -> None:
    with serving(binance(tickers(3))) as server:
        one = market(server.url)
        for k in range(3):
            one.poll(NOW + k * BEAT)
            one.observe(NOW + k * BEAT)
        two = market(server.url)
        two.restore(one.state())
        with pytest.raises(MarketStale):  # prices are asked again, never restored
            two.observe(NOW + 3 * BEAT)
        two.poll(NOW + 4 * BEAT)
    assert two.observe(NOW + 4 * BEAT).tick == 3


def test_coinbase_exchange_is_asked_at_its_own_paths() -> None:
    ticker = recorded("coinbase_exchange/products_BTC-USDT_ticker.json")
    candles = recorded("coinbase_exchange/products_BTC-USDT_candles__granularity=3600.json")
    script = {
        "/products/BTC-USDT/ticker": [Reply.of(ticker)],
        "/products/BTC-USDT/candles": [Reply.of(candles)],
    }
    with serving(script) as server:
        live = market(server.url, exchange="coinbaseexchange")
        poll = live.poll(NOW)
    assert poll.fresh, poll.failures
    assert live.observe(NOW).price == float(ticker["price"])


def test_an_unknown_exchange_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown exchange 'nope'"):
        exchange_client("nope", api_url=None, timeout=BEAT)


def test_klines_path_is_asked_with_the_symbol() -> None:
    with serving(binance(tickers(1))) as server:
        market(server.url).poll(NOW)
    assert any(a.startswith(f"{KLINES_PATH}?") and "symbol=BTCUSDT" in a for a in server.asked)
