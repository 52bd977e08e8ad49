"""Replay of recorded market data from CSV: every row is validated, and a bad one stops
the replay with a WorldDataError naming the file, line and column (or, on request, all
of them at once). No row is skipped silently; only blank lines carry no data.
"""

from __future__ import annotations

import bisect
import csv
import io
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from golem.world.errors import (
    BadCell,
    DataProblem,
    WorldDataError,
    aware_time,
    check_covers,
    finite_number,
)
from golem.world.observation import Observation, Regime

__all__ = ["COLUMNS", "EXAMPLE_CSV", "REQUIRED_COLUMNS", "CSVReplay", "read_observations"]

REQUIRED_COLUMNS = ("time", "price", "volume")
COLUMNS = (*REQUIRED_COLUMNS, "health_factor", "funding_rate", "regime")
EXAMPLE_CSV = Path(__file__).parent / "data" / "example_market.csv"


def _number(text: str, *, minimum: float | None = None, strict: bool = False) -> float:
    value = finite_number(text)
    if minimum is not None and (value <= minimum if strict else value < minimum):
        relation = "greater than" if strict else "at least"
        raise BadCell(f"must be {relation} {minimum:g}, got {text!r}")
    return value


def _regime(text: str) -> Regime:
    try:
        return Regime(text.strip().lower())
    except ValueError:
        known = ", ".join(r.value for r in Regime)
        raise BadCell(f"unknown regime {text!r} (known: {known})") from None


_PARSERS: dict[str, Callable[[str], object]] = {
    "time": aware_time,
    "price": lambda t: _number(t, minimum=0.0, strict=True),
    "volume": lambda t: _number(t, minimum=0.0),
    "health_factor": lambda t: _number(t, minimum=0.0, strict=True),
    "funding_rate": _number,
    "regime": _regime,
}


def read_observations(path: str | Path, *, all_errors: bool = False) -> list[Observation]:
    """Every row of a market CSV as an Observation (tick = row number from 0).

    Columns: time (ISO-8601 with an offset, strictly increasing), price (> 0), volume
    (>= 0); optional health_factor (> 0), funding_rate and regime, whose cells may be
    empty. Unknown columns are an error rather than data dropped on the floor. With
    `all_errors`, reading goes on past bad rows and the error lists every problem.
    """
    path = Path(path)
    problems: list[DataProblem] = []

    def report(line: int, column: str | None, message: str) -> None:
        problems.append(DataProblem(path, line, column, message))
        if not all_errors:
            raise WorldDataError(problems)

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise WorldDataError([DataProblem(path, 0, None, f"cannot read: {exc}")]) from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise WorldDataError([DataProblem(path, line, None, f"not UTF-8: {exc.reason}")]) from exc
    observations = _read_rows(io.StringIO(text, newline=""), report)
    if problems:
        raise WorldDataError(problems)
    return observations


def _read_rows(handle: TextIO, report: Callable[[int, str | None, str], None]) -> list[Observation]:
    reader = csv.reader(handle, strict=True)
    try:
        header = [name.strip() for name in next(reader)]
    except StopIteration:
        report(1, None, "empty file: expected a header naming " + ", ".join(REQUIRED_COLUMNS))
        return []
    except csv.Error as exc:
        report(1, None, f"unreadable header: {exc}")
        return []
    if not _header_ok(header, report):
        return []

    observations: list[Observation] = []
    data_rows = 0
    previous: tuple[datetime, int] | None = None  # the last good time and its line
    while True:
        line = reader.line_num + 1  # where the next row starts, even if a quoted cell spans lines
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            report(line, None, f"unreadable row: {exc}")
            break
        if not row:
            continue
        data_rows += 1
        if len(row) != len(header):
            report(line, None, f"expected {len(header)} fields, found {len(row)}")
            continue
        values: dict[str, Any] = {}
        for column, cell in zip(header, row, strict=True):
            if column not in REQUIRED_COLUMNS and not cell.strip():
                values[column] = None
                continue
            try:
                values[column] = _PARSERS[column](cell)
            except BadCell as exc:
                report(line, column, str(exc))
        if len(values) != len(header):
            continue
        time: datetime = values["time"]
        if previous is not None and time <= previous[0]:
            report(
                line,
                "time",
                f"time {time.isoformat()} is not after the previous row's "
                f"{previous[0].isoformat()} (line {previous[1]})",
            )
            continue
        previous = (time, line)
        observations.append(Observation(tick=len(observations), **values))
    if data_rows == 0:
        report(reader.line_num + 1, None, "no data rows after the header")
    return observations


def _header_ok(header: list[str], report: Callable[[int, str | None, str], None]) -> bool:
    ok = True
    seen: set[str] = set()
    for position, name in enumerate(header, start=1):
        if name not in COLUMNS:
            known = ", ".join(COLUMNS)
            report(1, name or str(position), f"unknown column {name!r} (known: {known})")
            ok = False
        elif name in seen:
            report(1, name, f"column {name!r} appears twice")
            ok = False
        seen.add(name)
    for name in REQUIRED_COLUMNS:
        if name not in seen:
            report(1, name, f"missing required column {name!r}")
            ok = False
    return ok


class CSVReplay:
    """A recorded market as a source: iterate over its observations, or ask for the
    market as of a time (the last row at or before it)."""

    def __init__(self, path: str | Path, *, all_errors: bool = False) -> None:
        self._path = Path(path)
        self._observations = tuple(read_observations(self._path, all_errors=all_errors))
        self._times = [obs.time for obs in self._observations]

    @property
    def path(self) -> Path:
        return self._path

    @property
    def observations(self) -> tuple[Observation, ...]:
        return self._observations

    def __len__(self) -> int:
        return len(self._observations)

    def __iter__(self) -> Iterator[Observation]:
        return iter(self._observations)

    @property
    def start(self) -> datetime:
        return self._times[0]

    @property
    def end(self) -> datetime:
        return self._times[-1]

    def check_serves(self, start: datetime, end: datetime | None = None) -> None:
        """Raise a WorldDataError unless this data can serve a life from `start`."""
        check_covers(self._path, self.start, self.end, start, end)

    def observe(self, time: datetime) -> Observation:
        """The row in force at `time`; the last row stays in force after the end (a
        daemon ends the life there, see `check_serves`)."""
        index = bisect.bisect_right(self._times, time) - 1
        if index < 0:
            raise ValueError(f"{time.isoformat()} is before the replay starts ({self.start})")
        return self._observations[index]
