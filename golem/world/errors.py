"""Errors of the world package: bad market data names the file, line and column; an
exchange's failures are typed by what a caller does about them (retry, or not).

WorldError
├── WorldDataError          (also a ValueError) carrying one or more DataProblems
├── ExchangeError           an exchange gave no usable answer (its id, what was asked)
│   ├── ExchangeUnavailable    network down, 5xx, maintenance: retried
│   │   └── ExchangeTimeout    no answer within [world] timeout: retried
│   ├── RateLimited            429 / 418: retried after ccxt's rate limit
│   └── BadExchangeResponse    a malformed body, an unknown symbol: not retried
└── MarketStale             no fresh price for [world] stale_after heartbeat intervals
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

__all__ = [
    "BadCell",
    "BadExchangeResponse",
    "DataProblem",
    "ExchangeError",
    "ExchangeTimeout",
    "ExchangeUnavailable",
    "MarketStale",
    "RateLimited",
    "WorldDataError",
    "WorldError",
    "aware_time",
    "check_covers",
    "finite_number",
]


class WorldError(Exception):
    """Base of the world package's errors."""


@dataclass(frozen=True, slots=True)
class DataProblem:
    """One thing wrong in a data file. `line` is the 1-based physical line; `column` the
    column's name (or its 1-based position when the header does not name it); line 0
    means the file as a whole."""

    path: Path
    line: int
    column: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        if self.column is not None:
            where += f", column {self.column}"
        return f"{where}: {self.message}"


class WorldDataError(WorldError, ValueError):
    """Market data that cannot be read as it is. Holds every problem found (one when the
    reader stops at the first); the message lists them all."""

    def __init__(self, problems: list[DataProblem] | tuple[DataProblem, ...]) -> None:
        if not problems:
            raise ValueError("a WorldDataError needs at least one problem")
        self.problems = tuple(problems)
        lines = [str(p) for p in self.problems]
        head = lines[0] if len(lines) == 1 else f"{len(lines)} problems:\n  " + "\n  ".join(lines)
        super().__init__(head)

    @property
    def path(self) -> Path:
        return self.problems[0].path

    @property
    def line(self) -> int:
        return self.problems[0].line

    @property
    def column(self) -> str | None:
        return self.problems[0].column


class ExchangeError(WorldError):
    """An exchange gave no usable answer to `asked` (a ccxt method and its symbol)."""

    retried = False  # whether the type is worth asking again

    def __init__(self, exchange: str, asked: str, message: str) -> None:
        self.exchange, self.asked = exchange, asked
        super().__init__(f"{exchange} {asked}: {message}")


class ExchangeUnavailable(ExchangeError):
    retried = True


class ExchangeTimeout(ExchangeUnavailable):
    pass


class RateLimited(ExchangeError):
    retried = True


class BadExchangeResponse(ExchangeError):
    pass


class MarketStale(WorldError):
    """No fresh price since `since` (None: none yet): the tick observes nothing."""

    def __init__(self, since: datetime | None, intervals: int) -> None:
        self.since, self.intervals = since, intervals
        when = "no price yet" if since is None else f"no fresh price since {since.isoformat()}"
        super().__init__(f"the market is stale: {when} ({intervals} heartbeat intervals or more)")


def check_covers(
    path: Path, first: datetime, last: datetime, start: datetime, end: datetime | None = None
) -> None:
    """Raise a WorldDataError naming `path` and both ranges unless data from `first` to
    `last` can serve a life from `start` (to `end`, when known): its first row at or before
    `start`, its last after it. A life that outlasts the data ends where the data ends."""
    if first <= start < last:
        return
    life = f"{start.isoformat()} to {end.isoformat()}" if end else f"{start.isoformat()} on"
    why = "starts after the life" if start < first else "ends before the life starts"
    message = (
        f"the market data runs from {first.isoformat()} to {last.isoformat()}, "
        f"the life from {life}: the data {why}"
    )
    raise WorldDataError([DataProblem(path, 0, None, message)])


class BadCell(ValueError):
    """A cell that does not parse; the message says what is wrong with it (the reader
    names the file, line and column in a DataProblem)."""


def finite_number(text: str) -> float:
    """The cell's number, or BadCell: not a number, or not a finite one."""
    try:
        value = float(text)
    except ValueError:
        raise BadCell(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise BadCell(f"not a finite number: {text!r}")
    return value


def aware_time(text: str) -> datetime:
    """The cell's ISO-8601 time with its offset, or BadCell (a time without one is not
    taken for UTC)."""
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise BadCell(f"not an ISO-8601 time: {text!r}") from None
    if value.utcoffset() is None:
        raise BadCell(f"time has no timezone offset (add Z or +00:00): {text!r}")
    return value
