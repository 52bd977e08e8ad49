"""The config's market source (`[world]`): simulated, a CSV or candle file replayed, or a
live exchange through ccxt; and where a candle file named by the config is found."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from golem.runtime.config import ConfigError, Problem
from golem.runtime.config.sections import GolemConfig
from golem.world import (
    CandleReplay,
    Candles,
    CSVReplay,
    LiveMarket,
    MarketSource,
    SimulatedMarket,
    exchange_client,
    market_data_dirs,
    read_candles,
    resolve_candles,
    set_market,
)

__all__ = ["find_candles", "make_market"]


def make_market(
    config: GolemConfig,
    *,
    start: datetime | None = None,
    end: datetime | None = None,
    environ: Mapping[str, str] | None = None,
    candles: Candles | None = None,
) -> MarketSource:
    """The config's market. A CSV or candle file is read whole (a bad row is a
    WorldDataError naming its file, line and column) and, given the life's `start` (and
    `end`, when known), checked to serve it: data starting after the life or ending before
    it is refused. `candles`: already read (a simulation reads them once for its lives);
    `environ`: where $GOLEM_MARKET_DATA is looked up."""
    world = config.world
    if world.source == "csv" and world.csv is not None:
        replay = CSVReplay(world.csv)
        if start is not None:
            replay.check_serves(start, end)
        return replay
    if world.source == "candles":
        data = candles or read_candles(find_candles(config, environ or {}, start, end))
        walk = CandleReplay(data, config.heartbeat.interval)
        if start is not None:
            walk.check_serves(start, end)
        return walk
    if world.source == "exchange":
        try:
            client = exchange_client(world.exchange, api_url=world.api_url, timeout=world.timeout)
            if world.api_url is not None:
                set_market(client, world.symbol)
        except ValueError as exc:
            path = config.path or Path("config")
            raise ConfigError(path, [Problem("world.exchange", str(exc))]) from None
        return LiveMarket(
            client,
            world.symbol,
            world.timeframe,
            interval=config.heartbeat.interval,
            stale_after=world.stale_after,
        )
    return SimulatedMarket(config.world_seed, world.market)


def find_candles(
    config: GolemConfig,
    environ: Mapping[str, str],
    start: datetime | None = None,
    end: datetime | None = None,
) -> Path:
    """Where `[world] candles` is (see WorldSection); a ConfigError naming the key and the
    `golem data fetch` command that makes the file when it is nowhere."""
    world = config.world
    assert world.candles is not None, "source = 'candles' names its file (the config checks)"
    search = market_data_dirs(environ)
    found = resolve_candles(world.candles, search)
    if found is not None:
        return found
    since = "" if start is None else f" --since {start.strftime('%Y-%m-%dT%H:%M:%SZ')}"
    until = "" if end is None else f" --until {end.strftime('%Y-%m-%dT%H:%M:%SZ')}"
    places = ", ".join(str(p) for p in search)
    message = (
        f"no such file: {world.candles} (looked in the working directory, {places}); make it "
        f"with: golem data fetch {world.exchange} {world.symbol} {world.timeframe}"
        f"{since}{until} --out {world.candles}"
    )
    raise ConfigError(config.path or Path("config"), [Problem("world.candles", message)])
