"""Real candles (open, high, low, close, volume), read whole from CSV or Parquet and checked:
times strictly increasing at a whole multiple of the candle interval (missing candles are
gaps, reported, never filled), every price positive, low <= min(open, close) and high >=
max(open, close). A bad row is a WorldDataError naming the file, line (or Parquet row) and
column. `CandleReplay` walks a heartbeat through them in virtual time.

What a tick sees inside a candle: a candle of interval D opening at t is the price path
open at t, the extreme nearer the open at t + D/4, the other extreme at t + D/2, the close at
t + 3D/4 (held until the next candle opens). A tick at time T sees the last of these points
at or before T; within a missing candle (a gap), the close of the last candle before it. A
heartbeat of D/4 or faster sees every point; the low and high of each candle are met exactly.
"""

from __future__ import annotations

import bisect
import csv
import io
import math
import os
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec

from golem.world.errors import (
    BadCell,
    DataProblem,
    WorldDataError,
    aware_time,
    check_covers,
    finite_number,
)
from golem.world.observation import Observation, saved_state

__all__ = [
    "CANDLE_COLUMNS",
    "CandleReplay",
    "Candles",
    "Gap",
    "market_data_dirs",
    "read_candles",
    "resolve_candles",
    "write_candles",
]

CANDLE_COLUMNS = ("timestamp", "open", "high", "low", "close", "volume")
REPLAY_STATE_VERSION = 1
# The checkout's shared market data (../shared/data/markets beside the repository), where
# the real-event scenarios' files are looked up after the working directory.
_CHECKOUT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "markets"
DATA_DIR_VARIABLE = "GOLEM_MARKET_DATA"


@dataclass(frozen=True, slots=True)
class Gap:
    """Candles missing between two that are there: `after` is the open time of the last
    candle before the gap, `missing` how many intervals are absent."""

    after: datetime
    missing: int


@dataclass(frozen=True, slots=True)
class Candles:
    """A validated run of candles: open times (seconds since the epoch, UTC) and prices."""

    path: Path
    interval: timedelta
    times: array[float]
    open: array[float]
    high: array[float]
    low: array[float]
    close: array[float]
    volume: array[float]

    def __len__(self) -> int:
        return len(self.times)

    def time(self, index: int) -> datetime:
        return datetime.fromtimestamp(self.times[index], UTC)

    @property
    def start(self) -> datetime:
        return self.time(0)

    @property
    def end(self) -> datetime:
        """When the last candle closes: the data covers the market until then."""
        return self.time(len(self) - 1) + self.interval

    def gaps(self) -> list[Gap]:
        step = self.interval.total_seconds()
        return [
            Gap(self.time(k), round((b - a) / step) - 1)
            for k, (a, b) in enumerate(pairwise(self.times))
            if b - a > step
        ]


def market_data_dirs(environ: Mapping[str, str]) -> list[Path]:
    """Where a relative candle file is looked for after the working directory: the
    directories of $GOLEM_MARKET_DATA (separated as PATH is), then the checkout's
    ../shared/data/markets."""
    named = environ.get(DATA_DIR_VARIABLE, "")
    return [Path(part) for part in named.split(os.pathsep) if part] + [_CHECKOUT_DATA]


def resolve_candles(path: Path, search: Sequence[Path]) -> Path | None:
    """`path` itself when it exists, else the first of `search`/`path` that does (only for
    a relative path); None when none does."""
    if path.is_file() or path.is_absolute():
        return path if path.is_file() else None
    for directory in search:
        if (directory / path).is_file():
            return directory / path
    return None


def write_candles(
    path: Path, rows: Sequence[tuple[int, float, float, float, float, float]]
) -> None:
    """Write candles (open time in ms, O, H, L, C, volume) as `read_candles` reads them:
    Parquet for a .parquet path (timestamp as UTC milliseconds), CSV otherwise. Written
    beside and moved into place, so a reader never sees half a file."""
    partial = path.with_name(path.name + ".writing")
    if path.suffix.lower() == ".parquet":
        import pyarrow as pa  # noqa: PLC0415  (only Parquet needs it)
        import pyarrow.parquet as pq  # noqa: PLC0415

        columns: dict[str, Any] = {
            "timestamp": pa.array([r[0] for r in rows], pa.timestamp("ms", tz="UTC"))
        }
        for k, name in enumerate(CANDLE_COLUMNS[1:], start=1):
            columns[name] = pa.array([r[k] for r in rows], pa.float64())
        pq.write_table(pa.table(columns), partial)
    else:
        lines = [",".join(CANDLE_COLUMNS)]
        for stamp, *values in rows:
            when = datetime.fromtimestamp(stamp / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            lines.append(",".join([when, *(repr(v) for v in values)]))
        partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
    partial.replace(path)


def read_candles(path: str | Path) -> Candles:
    """The candles of a CSV (header timestamp,open,high,low,close,volume; timestamps ISO-8601
    with an offset) or Parquet file (the same columns; timestamp as a UTC timestamp or
    milliseconds since the epoch), checked as the module says. The interval is the
    smallest spacing between two candles."""
    path = Path(path)
    parquet = path.suffix.lower() == ".parquet"
    try:
        rows = _parquet_rows(path) if parquet else _csv_rows(path)
    except OSError as exc:
        raise WorldDataError([DataProblem(path, 0, None, f"cannot read: {exc}")]) from exc
    return _checked(path, rows)


# A row as read: where it is (line or row number), its time (seconds) and five numbers.
_Row = tuple[int, float, float, float, float, float, float]


def _csv_rows(path: Path) -> list[_Row]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise WorldDataError([DataProblem(path, line, None, f"not UTF-8: {exc.reason}")]) from exc
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = [name.strip() for name in next(reader)]
    except (StopIteration, csv.Error):
        raise WorldDataError(
            [DataProblem(path, 1, None, "expected a header: " + ",".join(CANDLE_COLUMNS))]
        ) from None
    if tuple(header) != CANDLE_COLUMNS:
        message = f"header {','.join(header)!r}, expected {','.join(CANDLE_COLUMNS)!r}"
        raise WorldDataError([DataProblem(path, 1, None, message)])
    rows: list[_Row] = []
    while True:
        line = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise WorldDataError([DataProblem(path, line, None, f"unreadable row: {exc}")]) from exc
        if not cells:
            continue
        if len(cells) != len(CANDLE_COLUMNS):
            message = f"expected {len(CANDLE_COLUMNS)} fields, found {len(cells)}"
            raise WorldDataError([DataProblem(path, line, None, message)])
        values: list[float] = []
        for column, cell in zip(CANDLE_COLUMNS, cells, strict=True):
            try:
                values.append(
                    aware_time(cell).timestamp() if column == "timestamp" else finite_number(cell)
                )
            except BadCell as exc:
                raise WorldDataError([DataProblem(path, line, column, str(exc))]) from None
        rows.append((line, *values))  # type: ignore[arg-type]
    return rows


def _parquet_rows(path: Path) -> list[_Row]:
    import pyarrow as pa  # noqa: PLC0415  (only a Parquet file needs it)
    import pyarrow.parquet as pq  # noqa: PLC0415

    try:
        table = pq.read_table(path)
    except (pa.ArrowException, ValueError) as exc:
        raise WorldDataError([DataProblem(path, 0, None, f"not a Parquet file: {exc}")]) from exc
    missing = [name for name in CANDLE_COLUMNS if name not in table.column_names]
    if missing:
        message = f"missing column(s) {', '.join(missing)} (expected {', '.join(CANDLE_COLUMNS)})"
        raise WorldDataError([DataProblem(path, 0, None, message)])
    stamps = table.column("timestamp")
    if pa.types.is_timestamp(stamps.type):
        stamps = stamps.cast(pa.timestamp("ms", tz="UTC")).cast(pa.int64())
    elif not pa.types.is_integer(stamps.type):
        message = f"timestamp is {stamps.type}, not a timestamp or epoch milliseconds"
        raise WorldDataError([DataProblem(path, 0, "timestamp", message)])
    columns: list[list[Any]] = [stamps.to_pylist()]
    for name in CANDLE_COLUMNS[1:]:
        values = table.column(name)
        if not (pa.types.is_floating(values.type) or pa.types.is_integer(values.type)):
            message = f"{name} is {values.type}, not a number"
            raise WorldDataError([DataProblem(path, 0, name, message)])
        columns.append(values.to_pylist())
    rows: list[_Row] = []
    for index, (stamp, *numbers) in enumerate(zip(*columns, strict=True)):
        for name, value in zip(CANDLE_COLUMNS, (stamp, *numbers), strict=True):
            if value is None or (isinstance(value, float) and not math.isfinite(value)):
                message = f"row {index}: not a finite number: {value!r}"
                raise WorldDataError([DataProblem(path, 0, name, message)])
        rows.append((index + 1, stamp / 1000.0, *map(float, numbers)))
    return rows


def _checked(path: Path, rows: list[_Row]) -> Candles:
    def bad(line: int, column: str | None, message: str) -> WorldDataError:
        return WorldDataError([DataProblem(path, line, column, message)])

    if len(rows) < 2:
        raise bad(0, None, f"{len(rows)} candle(s): a replay needs at least two")
    for a, b in pairwise(rows):
        if b[1] <= a[1]:
            raise bad(b[0], "timestamp", f"not after the previous candle's (line {a[0]})")
    step = min(b[1] - a[1] for a, b in pairwise(rows))
    for a, b in pairwise(rows):
        ratio = (b[1] - a[1]) / step
        if abs(ratio - round(ratio)) > 1e-6:
            message = f"{b[1] - a[1]:g} s after the previous candle, not a multiple of {step:g} s"
            raise bad(b[0], "timestamp", message)
    for line, _, o, h, low, c, v in rows:
        if min(o, h, low, c) <= 0:
            raise bad(line, None, "a price is not positive")
        if v < 0:
            raise bad(line, "volume", f"negative volume {v:g}")
        if low > min(o, c) or h < max(o, c):
            message = f"low {low:g} / high {h:g} do not bound open {o:g} and close {c:g}"
            raise bad(line, None, message)
    column = [array("d", (row[k] for row in rows)) for k in range(1, 7)]
    return Candles(path, timedelta(seconds=step), *column)


class _Saved(msgspec.Struct, forbid_unknown_fields=True):
    version: int
    tick: int
    last: datetime | None
    step: float


class CandleReplay:
    """A heartbeat's walk through `candles` (see the module's docstring for what a tick
    sees): each later time asked is the next tick; the same time again shows the same
    observation; an earlier one is a ValueError. `ahead(n)` is the real path the next n
    ticks will see at the spacing of the last step (`step` before there is one): the truth
    a simulation's minds and judgement read. Resumable: `state()` / `restore()`."""

    def __init__(self, candles: Candles, step: timedelta) -> None:
        if step <= timedelta(0):
            raise ValueError("the step must be positive")
        self._candles = candles
        self._step = step.total_seconds()
        self._tick = -1
        self._last: Observation | None = None

    @property
    def candles(self) -> Candles:
        return self._candles

    @property
    def path(self) -> Path:
        return self._candles.path

    @property
    def start(self) -> datetime:
        return self._candles.start

    @property
    def end(self) -> datetime:
        return self._candles.end

    def check_serves(self, start: datetime, end: datetime | None = None) -> None:
        """Raise a WorldDataError unless these candles can serve a life from `start`."""
        check_covers(self.path, self.start, self.end, start, end)

    def price(self, time: datetime) -> float:
        """The price a tick at `time` sees."""
        c = self._candles
        at = time.timestamp()
        index = bisect.bisect_right(c.times, at) - 1
        if index < 0:
            raise ValueError(f"{time.isoformat()} is before the candles start ({self.start})")
        quarter = int(4 * (at - c.times[index]) / c.interval.total_seconds())
        if quarter == 0:
            return c.open[index]
        if quarter >= 3:
            return c.close[index]
        o, h, low = c.open[index], c.high[index], c.low[index]
        high_first = h - o <= o - low
        return h if high_first == (quarter == 1) else low

    def observe(self, time: datetime) -> Observation:
        last = self._last
        if last is not None:
            if time == last.time:
                return last
            if time < last.time:
                raise ValueError(f"time must move forward: {time.isoformat()} is before the last")
            self._step = (time - last.time).total_seconds()
        self._tick += 1
        self._last = seen = self._at(self._tick, time)
        return seen

    def _at(self, tick: int, time: datetime) -> Observation:
        c = self._candles
        index = max(0, bisect.bisect_right(c.times, time.timestamp()) - 1)
        # The quote volume of a quarter of the candle: a point's share of its trading.
        volume = c.volume[index] * c.close[index] / 4.0
        return Observation(tick=tick, time=time, price=self.price(time), volume=volume)

    def ahead(self, steps: int) -> list[Observation]:
        last = self._last
        if last is None:
            raise ValueError("a replay looks ahead only from an observation")
        if steps < 0:
            raise ValueError("steps must not be negative")
        step = timedelta(seconds=self._step)
        return [self._at(last.tick + k, last.time + k * step) for k in range(1, steps + 1)]

    def state(self) -> dict[str, Any]:
        saved = _Saved(
            REPLAY_STATE_VERSION,
            self._tick,
            None if self._last is None else self._last.time,
            self._step,
        )
        state: dict[str, Any] = msgspec.to_builtins(saved)
        return state

    def restore(self, state: Any) -> None:
        saved = saved_state(state, _Saved, REPLAY_STATE_VERSION, "replay state")
        if saved.last is not None and saved.last.tzinfo is None:
            raise ValueError("not a replay state: its time has no timezone")
        if saved.step <= 0:
            raise ValueError("not a replay state: its step is not positive")
        self._tick, self._step = saved.tick, saved.step
        self._last = None if saved.last is None else self._at(saved.tick, saved.last)
