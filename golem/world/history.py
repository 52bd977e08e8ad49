"""Candle history from an exchange through ccxt: paged (each page asked from the candle
after the last one received, ccxt's throttle between pages, retryable failures asked
again), kept page by page in a `.part` file beside the output so that an interrupted
download resumes where it stopped, and validated: strictly increasing times, duplicates
(identical ones dropped and counted, conflicting ones refused), gaps reported, OHLC
consistent (low <= open, close <= high, prices positive, volume not negative).
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from golem.world.errors import BadExchangeResponse, DataProblem, ExchangeError, WorldDataError
from golem.world.exchange import asked

if TYPE_CHECKING:
    import ccxt

__all__ = ["Download", "Fetched", "fetch_history", "part_path", "validated"]

Row = tuple[int, float, float, float, float, float]  # open time (ms), O, H, L, C, volume


@dataclass(frozen=True, slots=True)
class Download:
    exchange: str
    symbol: str
    timeframe: str
    since_ms: int
    until_ms: int  # exclusive: the candles that open before it

    def key(self) -> dict[str, Any]:
        return {
            "exchange": self.exchange,
            "symbol": self.symbol,
            "timeframe": self.timeframe,
            "since_ms": self.since_ms,
            "until_ms": self.until_ms,
        }


@dataclass(slots=True)
class Fetched:
    rows: list[Row]
    pages: int = 0
    resumed: int = 0  # candles read back from the .part file
    duplicates: int = 0
    gaps: list[tuple[int, int]] = field(default_factory=list)  # (after ms, candles missing)


def part_path(out: Path) -> Path:
    return out.with_name(out.name + ".part")


def fetch_history(
    client: ccxt.Exchange,
    download: Download,
    out: Path,
    *,
    limit: int | None = None,
    on_page: Callable[[int], None] = lambda count: None,
    retries: int = 2,
    sleep: Callable[[float], None] = _time.sleep,
) -> Fetched:
    """Every candle of `download`, resumed from `out`'s `.part` file when one of the same
    download is there (a WorldDataError when it belongs to another). Raises the last
    ExchangeError when a page cannot be had (the pages before it stay in the part file)."""
    step_ms = int(client.parse_timeframe(download.timeframe) * 1000)
    part = part_path(out)
    rows = _resumed(part, download)
    fetched = Fetched(rows, resumed=len(rows))
    cursor = rows[-1][0] + step_ms if rows else download.since_ms
    wait_s = max(float(client.rateLimit), 1.0) / 1000.0
    what = f"fetch_ohlcv({download.symbol}, {download.timeframe})"
    with part.open("ab") as sink:
        if not rows:
            sink.write(orjson.dumps(download.key()) + b"\n")
        while cursor < download.until_ms:
            since = cursor
            page = asked(
                download.exchange,
                what,
                partial(client.fetch_ohlcv, download.symbol, download.timeframe, since, limit),
                retries=retries,
                wait_s=wait_s,
                sleep=sleep,
                failures=[],
            )
            fetched.pages += 1
            fresh = [_row(raw, download, what) for raw in page]
            fresh = [row for row in fresh if since <= row[0] < download.until_ms]
            if not fresh:
                break
            for row in fresh:
                sink.write(orjson.dumps(row) + b"\n")
            sink.flush()
            rows.extend(fresh)
            on_page(len(fresh))
            cursor = fresh[-1][0] + step_ms
    validated(fetched, step_ms, out)
    return fetched


def _row(raw: Any, download: Download, what: str) -> Row:
    try:
        stamp = int(raw[0])
        values = [float(v) for v in raw[1:6]]
    except (TypeError, ValueError, IndexError) as exc:
        raise BadExchangeResponse(download.exchange, what, f"not a candle: {raw!r}") from exc
    if len(values) != 5 or not all(math.isfinite(v) for v in values):
        raise BadExchangeResponse(download.exchange, what, f"not a candle: {raw!r}")
    return (stamp, *values)  # type: ignore[return-value]


def _resumed(part: Path, download: Download) -> list[Row]:
    if not part.exists():
        return []
    lines = part.read_bytes().splitlines()
    try:
        key = orjson.loads(lines[0]) if lines else None
    except orjson.JSONDecodeError:
        key = None
    if key != download.key():
        message = "holds another download (or none): remove it, or ask for the same candles"
        raise WorldDataError([DataProblem(part, 1, None, message)])
    rows: list[Row] = []
    for line in lines[1:]:
        try:
            stamp, o, h, low, c, v = orjson.loads(line)
        except (orjson.JSONDecodeError, ValueError, TypeError):
            break  # a page torn by the interruption: asked again
        rows.append((int(stamp), float(o), float(h), float(low), float(c), float(v)))
    if len(rows) < len(lines) - 1:  # rewrite without the torn tail
        part.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in [key, *rows]))
    return rows


def validated(fetched: Fetched, step_ms: int, out: Path) -> None:
    """Check `fetched.rows` in place: identical duplicates dropped (counted), gaps noted;
    a time going backwards, a conflicting duplicate or an inconsistent candle is a
    WorldDataError naming the candle's time."""

    def bad(stamp: int, message: str) -> WorldDataError:
        when = datetime.fromtimestamp(stamp / 1000, UTC).isoformat()
        return WorldDataError([DataProblem(out, 0, None, f"candle {when}: {message}")])

    kept: list[Row] = []
    for row in fetched.rows:
        if kept and row[0] == kept[-1][0]:
            if row != kept[-1]:
                raise bad(row[0], "given twice with different values")
            fetched.duplicates += 1
            continue
        if kept and row[0] < kept[-1][0]:
            raise bad(row[0], "earlier than the candle before it")
        if kept and row[0] - kept[-1][0] > step_ms:
            fetched.gaps.append((kept[-1][0], (row[0] - kept[-1][0]) // step_ms - 1))
        _, o, h, low, c, v = row
        if min(o, h, low, c) <= 0:
            raise bad(row[0], "a price is not positive")
        if low > min(o, c) or h < max(o, c) or v < 0:
            raise bad(row[0], f"inconsistent: open {o} high {h} low {low} close {c} volume {v}")
        kept.append(row)
    fetched.rows[:] = kept


def note_failure(error: ExchangeError, kept: int, part: Path) -> str:
    """The line a failed download ends with."""
    return f"{error}; {kept} candles kept in {part}: the same command resumes from there"
