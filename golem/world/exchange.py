"""A live market through ccxt: the last price (the ticker) and the recent candles (OHLCV) of
one symbol on one exchange, asked on the golem's clock, paper-traded at those prices.

ccxt's sync client, asked in a worker thread (the runtime calls `poll` through
`trio.to_thread.run_sync`): its async client runs on asyncio (aiohttp), and golem runs
under trio only. ccxt's own throttle (`enableRateLimit`) spaces the requests; a retryable
failure (ExchangeUnavailable, ExchangeTimeout, RateLimited) is asked again after the
exchange's rate limit, doubled each time. One place (`_translated`) turns ccxt's
exceptions into golem's (errors.py).

Staleness: a price is fresh when its exchange timestamp is later than the last one's. With
no fresh price for `stale_after` heartbeat intervals (or none yet), `observe` raises
MarketStale: the tick observes nothing, so nothing is traded on a stale price.

`api_url` rewrites the scheme and host of every `urls['api']` entry (a local replay
server, a mirror); the market is then set by hand (`set_markets`), so `load_markets()` asks
that server for nothing else.
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

import msgspec

from golem.world.errors import (
    BadExchangeResponse,
    ExchangeError,
    ExchangeTimeout,
    ExchangeUnavailable,
    MarketStale,
    RateLimited,
)
from golem.world.observation import Observation, saved_state

if TYPE_CHECKING:
    import ccxt

__all__ = ["LiveMarket", "Poll", "Quote", "exchange_client"]

LIVE_STATE_VERSION = 1
_T = TypeVar("_T")
# How an exchange spells a market's id, for a market set by hand (ccxt's own markets,
# loaded from the exchange, are used otherwise).
_MARKET_IDS = {"binance": "{base}{quote}", "coinbaseexchange": "{base}-{quote}"}


def exchange_client(exchange: str, *, api_url: str | None, timeout: timedelta) -> ccxt.Exchange:
    """ccxt's sync client of `exchange`, rate-limited, with `timeout` per request and, given
    `api_url`, every API address pointed at it. ValueError for an exchange ccxt lacks.
    (ccxt is imported here, not with golem: it takes most of a second.)"""
    import ccxt  # noqa: PLC0415

    if exchange not in ccxt.exchanges:
        raise ValueError(f"unknown exchange {exchange!r} (ccxt knows {len(ccxt.exchanges)})")
    client: ccxt.Exchange = getattr(ccxt, exchange)(
        {"enableRateLimit": True, "timeout": int(timeout.total_seconds() * 1000)}
    )
    if api_url is not None:
        client.urls["api"] = _pointed(client.urls["api"], api_url.rstrip("/"))
    return client


def _pointed(urls: Any, base: str) -> Any:
    if isinstance(urls, dict):
        return {key: _pointed(value, base) for key, value in urls.items()}
    if isinstance(urls, str):
        return base + urlsplit(urls).path
    return urls


def set_market(client: ccxt.Exchange, symbol: str) -> None:
    """Set `symbol` (BASE/QUOTE) as the client's only market, spot and active."""
    base, _, quote = symbol.partition("/")
    if not base or not quote:
        raise ValueError(f"symbol {symbol!r} is not BASE/QUOTE")
    spelling = _MARKET_IDS.get(client.id, "{base}{quote}")
    client.set_markets(
        [
            {
                "id": spelling.format(base=base, quote=quote),
                "symbol": symbol,
                "base": base,
                "quote": quote,
                "baseId": base,
                "quoteId": quote,
                "type": "spot",
                "spot": True,
                "active": True,
                "precision": {},
                "limits": {},
            }
        ]
    )


def _translated(exc: ccxt.BaseError, exchange: str, asked: str) -> ExchangeError:
    """ccxt's exception as golem's, by what a caller does about it."""
    import ccxt  # noqa: PLC0415  (imported already: a client exists)

    message = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
    if isinstance(exc, ccxt.RequestTimeout):
        return ExchangeTimeout(exchange, asked, f"timed out ({message})")
    if isinstance(exc, ccxt.DDoSProtection):  # RateLimitExceeded is one
        return RateLimited(exchange, asked, f"rate limited ({message})")
    if isinstance(exc, ccxt.NetworkError):
        return ExchangeUnavailable(exchange, asked, f"unavailable ({message})")
    return BadExchangeResponse(exchange, asked, f"unusable answer ({message})")


def asked(
    exchange: str,
    what: str,
    call: Callable[[], _T],
    *,
    retries: int,
    wait_s: float,
    sleep: Callable[[float], None],
    failures: list[ExchangeError],
) -> _T:
    """`call()`, asked again up to `retries` times while it fails in a retryable way,
    `wait_s` then twice that between tries; each failure is appended to `failures`; the
    last one is raised."""
    import ccxt  # noqa: PLC0415  (imported already: a client exists)

    attempt = 0
    while True:
        try:
            return call()
        except ccxt.BaseError as exc:
            error = _translated(exc, exchange, what)
        except (TypeError, ValueError, KeyError, IndexError) as exc:  # ccxt parsing a bad body
            error = BadExchangeResponse(exchange, what, f"malformed answer ({exc})")
        failures.append(error)
        if not error.retried or attempt >= retries:
            raise error
        sleep(wait_s * 2**attempt)
        attempt += 1


@dataclass(frozen=True, slots=True)
class Quote:
    """What one poll learned: the last price and when the exchange made it, and the quote
    volume of the latest candle."""

    time: datetime | None
    price: float
    volume: float


@dataclass(frozen=True, slots=True)
class Poll:
    """One poll: the quote (None when the exchange gave none), whether its price is fresh,
    and every failure met on the way (retried ones included)."""

    quote: Quote | None
    fresh: bool
    failures: tuple[ExchangeError, ...]


class _Saved(msgspec.Struct, forbid_unknown_fields=True):
    version: int
    tick: int


class LiveMarket:
    """`symbol` on `exchange` as a market source; `poll(now)` asks it (blocking: run it in a
    worker thread), `observe(time)` gives the last fresh price or raises MarketStale."""

    def __init__(
        self,
        client: ccxt.Exchange,
        symbol: str,
        timeframe: str,
        *,
        interval: timedelta,
        stale_after: int,
        retries: int = 2,
        sleep: Callable[[float], None] = _time.sleep,
    ) -> None:
        self._client, self._symbol, self._timeframe = client, symbol, timeframe
        self._interval, self._stale_after = interval, stale_after
        self._retries, self._sleep = retries, sleep
        self._quote: Quote | None = None
        self._fresh_at: datetime | None = None  # the golem's time of the last fresh price
        self._tick = -1
        self._last: Observation | None = None

    @property
    def client(self) -> ccxt.Exchange:
        return self._client

    @property
    def exchange(self) -> str:
        return str(self._client.id)

    @property
    def symbol(self) -> str:
        return self._symbol

    def poll(self, now: datetime) -> Poll:
        """Ask for the ticker and the latest candles; a price whose exchange time is later
        than the last one's is fresh as of `now`."""
        failures: list[ExchangeError] = []
        try:
            quote = self.fetch(failures)
        except ExchangeError:
            return Poll(None, False, tuple(failures))
        return Poll(quote, self.receive(now, quote), tuple(failures))

    def receive(self, now: datetime, quote: Quote) -> bool:
        """Take `quote` as learned at `now`; whether it is fresh (kept) or not."""
        last = self._quote
        fresh = last is None or quote.time is None or last.time is None or quote.time > last.time
        if fresh:
            self._quote, self._fresh_at = quote, now
        return fresh

    def fetch(self, failures: list[ExchangeError]) -> Quote:
        """The exchange's quote now (blocking), retried as the module says; each failure
        met is appended to `failures`, the last one raised."""
        client, symbol, name = self._client, self._symbol, self.exchange
        wait_s = max(float(client.rateLimit), 1.0) / 1000.0
        ticker = asked(
            name,
            f"fetch_ticker({symbol})",
            lambda: client.fetch_ticker(symbol),
            retries=self._retries,
            wait_s=wait_s,
            sleep=self._sleep,
            failures=failures,
        )
        candles = asked(
            name,
            f"fetch_ohlcv({symbol}, {self._timeframe})",
            lambda: client.fetch_ohlcv(symbol, self._timeframe, limit=3),
            retries=self._retries,
            wait_s=wait_s,
            sleep=self._sleep,
            failures=failures,
        )
        price = ticker.get("last")
        if not isinstance(price, int | float) or not math.isfinite(price) or price <= 0:
            error = BadExchangeResponse(
                name, f"fetch_ticker({symbol})", f"no last price: {price!r}"
            )
            failures.append(error)
            raise error
        stamp = ticker.get("timestamp")
        when = None if not isinstance(stamp, int) else datetime.fromtimestamp(stamp / 1000, UTC)
        volume = 0.0
        if candles:
            latest = candles[-1]
            volume = float(latest[5] or 0.0) * float(latest[4] or price)
        return Quote(when, float(price), volume)

    def observe(self, time: datetime) -> Observation:
        """The last fresh price at `time`; MarketStale when there is none within
        `stale_after` heartbeat intervals. The same time again shows the same observation."""
        last = self._last
        if last is not None and last.time == time:
            return last
        quote, fresh_at = self._quote, self._fresh_at
        if (
            quote is None
            or fresh_at is None
            or time - fresh_at >= self._interval * self._stale_after
        ):
            raise MarketStale(fresh_at, self._stale_after)
        self._tick += 1
        self._last = seen = Observation(self._tick, time, quote.price, quote.volume)
        return seen

    def state(self) -> dict[str, Any]:
        saved: dict[str, Any] = msgspec.to_builtins(_Saved(LIVE_STATE_VERSION, self._tick))
        return saved

    def restore(self, state: Any) -> None:
        """Count ticks on from a saved state (prices are never restored: a restarted golem
        asks the exchange again, and is stale until it answers)."""
        saved = saved_state(state, _Saved, LIVE_STATE_VERSION, "live market state")
        self._tick = saved.tick
