"""`golem data fetch EXCHANGE SYMBOL TIMEFRAME --since --until --out FILE`: real candles
through ccxt (paged, rate-limited, a progress bar, resumed after an interruption,
validated) into Parquet or CSV; `golem data show FILE`: what a candle file holds (range,
gaps, the lowest and highest price and when)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from golem.cli.arguments import positive_count
from golem.cli.failure import UsageError
from golem.world import (
    Candles,
    ExchangeError,
    exchange_client,
    read_candles,
    set_market,
    write_candles,
)
from golem.world.history import Download, fetch_history, part_path

__all__ = ["register"]

_SUFFIXES = (".parquet", ".csv")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "data",
        help="fetch real candles from an exchange, or summarise a candle file",
        description='Real market data for `[world] source = "candles"`.',
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    fetch = actions.add_parser(
        "fetch",
        help="download candles through ccxt into Parquet or CSV",
        description=(
            "Download the candles of SYMBOL on EXCHANGE (a ccxt exchange id) that open from "
            "--since to before --until, page by page (ccxt's rate limit between pages; a "
            "failed page is asked again, twice), with a progress bar on a terminal. Each page "
            "is kept in OUT.part as it comes: after an interruption the same command resumes "
            "there. The candles are checked (times increasing, duplicates, gaps reported, "
            "OHLC consistent) and written to OUT: Parquet for .parquet, CSV for .csv. Times "
            "are ISO-8601 in UTC (2022-05-04 or 2022-05-04T00:00:00Z)."
        ),
    )
    fetch.add_argument("exchange", help="a ccxt exchange id, e.g. binance")
    fetch.add_argument("symbol", help="BASE/QUOTE, e.g. ETH/USDT")
    fetch.add_argument("timeframe", help="the candle interval, e.g. 5m, 1h, 1d")
    fetch.add_argument("--since", required=True, type=_time, help="the first candle's open time")
    fetch.add_argument("--until", required=True, type=_time, help="candles open before this")
    fetch.add_argument("--out", required=True, type=Path, help="FILE.parquet or FILE.csv")
    fetch.add_argument(
        "--limit", type=positive_count, help="candles a page (default: the exchange's)"
    )
    fetch.add_argument(
        "--api-url",
        help="ask this server instead of the exchange's (a replay server or a mirror; the "
        "market is then set by hand, so nothing else is asked)",
    )
    fetch.set_defaults(handler=run_fetch)
    show = actions.add_parser(
        "show",
        help="summarise a candle file",
        description="What a candle file (CSV or Parquet) holds: its range, interval, gaps, "
        "the lowest and highest prices and when, first open and last close.",
    )
    show.add_argument("file", type=Path, help="a candle file, CSV or Parquet")
    show.set_defaults(handler=run_show)


def _time(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO-8601 time: {text!r}") from None
    if value.tzinfo is None:
        if "T" in text or " " in text:
            raise argparse.ArgumentTypeError(f"give the time in UTC (add Z): {text!r}")
        value = value.replace(tzinfo=UTC)  # a date: its midnight, UTC
    return value


def run_fetch(args: argparse.Namespace) -> int:
    out: Path = args.out
    if out.suffix.lower() not in _SUFFIXES:
        raise UsageError(f"--out {out}: name a .parquet or .csv file")
    if args.since >= args.until:
        raise UsageError(f"--since {args.since.isoformat()} is not before --until")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: {out.parent} is not a directory")
    try:
        client = exchange_client(args.exchange, api_url=args.api_url, timeout=timedelta(seconds=30))
    except ValueError as exc:
        raise UsageError(f"{exc}; see https://docs.ccxt.com for the ids") from None
    try:
        step = client.parse_timeframe(args.timeframe)
    except Exception:
        step = 0
    known = client.timeframes or {}
    if step <= 0 or (known and args.timeframe not in known):
        names = ", ".join(known) if known else "e.g. 1m, 5m, 1h, 1d"
        raise UsageError(f"timeframe {args.timeframe!r}: {args.exchange} has {names}")
    if args.api_url is not None:
        try:
            set_market(client, args.symbol)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    download = Download(
        args.exchange,
        args.symbol,
        args.timeframe,
        int(args.since.timestamp() * 1000),
        int(args.until.timestamp() * 1000),
    )
    expected = int((download.until_ms - download.since_ms) // (step * 1000))
    with _progress() as progress:
        task = progress.add_task(f"{args.exchange} {args.symbol} {args.timeframe}", total=expected)
        try:
            fetched = fetch_history(
                client,
                download,
                out,
                limit=args.limit,
                on_page=lambda count: progress.advance(task, count),
            )
        except ExchangeError as exc:
            kept = max(0, len(part_path(out).read_bytes().splitlines()) - 1)
            print(
                f"golem data fetch: {exc}; {kept} candles kept in {part_path(out)}: "
                "the same command resumes from there",
                file=sys.stderr,
            )
            return 1
    if not fetched.rows:
        part_path(out).unlink(missing_ok=True)
        print(
            f"golem data fetch: {args.exchange} has no {args.symbol} candles then", file=sys.stderr
        )
        return 1
    write_candles(out, fetched.rows)
    part_path(out).unlink(missing_ok=True)
    first, last = (_iso(fetched.rows[k][0]) for k in (0, -1))
    resumed = f", {fetched.resumed} resumed" if fetched.resumed else ""
    lines = [
        f"{len(fetched.rows)} candles from {first} to {last} "
        f"({fetched.pages} pages{resumed}, {fetched.duplicates} duplicates dropped)",
        _gaps([(_iso(after), n) for after, n in fetched.gaps]),
        f"wrote {out}",
    ]
    for line in lines:
        print(line)
    return 0


def run_show(args: argparse.Namespace) -> int:
    for line in describe(read_candles(args.file)):
        print(line)
    return 0


def describe(candles: Candles) -> list[str]:
    """The lines `golem data show` prints."""
    lows, highs = candles.low, candles.high
    low_at = min(range(len(candles)), key=lows.__getitem__)
    high_at = max(range(len(candles)), key=highs.__getitem__)
    first, last = candles.open[0], candles.close[-1]
    interval = int(candles.interval.total_seconds())
    return [
        f"{candles.path}: {len(candles)} candles of {interval} s",
        f"from {candles.start.isoformat()} to {candles.end.isoformat()} (the last one's close)",
        _gaps([(g.after.isoformat(), g.missing) for g in candles.gaps()]),
        f"low {lows[low_at]:g} at {candles.time(low_at).isoformat()}",
        f"high {highs[high_at]:g} at {candles.time(high_at).isoformat()}",
        f"open {first:g} -> close {last:g} ({100 * (last / first - 1):+.2f}%)",
    ]


def _gaps(gaps: list[tuple[str, int]]) -> str:
    if not gaps:
        return "no gaps"
    missing = sum(n for _, n in gaps)
    shown = ", ".join(f"{n} after {after}" for after, n in gaps[:5])
    more = f", and {len(gaps) - 5} more" if len(gaps) > 5 else ""
    return f"{len(gaps)} gaps, {missing} candles missing: {shown}{more}"


def _iso(stamp_ms: int) -> str:
    return datetime.fromtimestamp(stamp_ms / 1000, UTC).isoformat()


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=not sys.stderr.isatty(),
        transient=True,
    )
