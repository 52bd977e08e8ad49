"""Logging as data: structlog configured to write each event as one JSON line to the log
file (appended, one write per line, so a killed process leaves at most a torn last line)
and a readable or JSON rendering to the console. Times come from the injected clock.
The golem's own records (decisions, vitality) reach the same sinks without structlog:
`LogSinks.publish` subscribes to the golem's record stream.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, Literal, Protocol

import orjson
import structlog
from structlog.typing import EventDict, Processor, WrappedLogger

from golem.inference.secrets import REDACTED, Redaction
from golem.runtime.logs.console import ConsoleLine
from golem.runtime.logs.held import hold_line
from golem.runtime.logs.logfile import open_log

__all__ = [
    "LEVELS",
    "REDACTED",
    "ConsoleStream",
    "LogRecord",
    "LogSinks",
    "Redaction",
    "configure_logging",
    "render_json",
]

LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40}


Console = Literal["auto", "pretty", "json", "off"]


def render_json(event: Mapping[str, Any]) -> bytes:
    """One event as one JSON line, newline included: a datetime as its isoformat() would
    write it, anything else orjson cannot encode as its str(), and keys that are not
    strings as JSON keys (a slower option, taken only for the rare event that needs it)."""
    try:
        return orjson.dumps(event, default=str, option=orjson.OPT_APPEND_NEWLINE)
    except orjson.JSONEncodeError:
        return orjson.dumps(
            event, default=str, option=orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS
        )


class ConsoleStream(Protocol):
    """Where console lines go: stderr, or a writer that shares the terminal with a live
    display (the thinking line of `golem run`)."""

    def write(self, text: str, /) -> object: ...

    def flush(self) -> object: ...

    def isatty(self) -> bool: ...


class LogRecord(Protocol):
    """A record with a log line of its own: its event's name, its fields and the time its
    line is stamped with when that is not the writer's now (a record told after its time:
    a fast-forwarded stretch's, stamped with its tick's)."""

    event: ClassVar[str]

    def fields(self) -> dict[str, Any]: ...

    def stamp(self) -> datetime | None: ...


class LogSinks:
    """Where events end: the log file, as one JSON line each (by default a single
    unbuffered append, so nothing waits in a buffer), and the console. A line that might
    hold a secret is redacted before it goes anywhere. structlog's logger (every level's
    method takes the finished event dict) and, with `publish`, a subscriber of the golem's
    records, logged at info. Close it when done."""

    def __init__(
        self,
        file: Path | None,
        console: ConsoleStream | None,
        console_format: Literal["pretty", "json"],
        *,
        now: Callable[[], datetime],
        level: str = "info",
        redaction: Redaction | None = None,
        buffered: bool = False,
        owner: str | None = None,
    ) -> None:
        self.path = file
        self._file: BinaryIO | None = None
        if file is not None:
            self._file = open_log(file, owner=owner, buffered=buffered)
        self._console = console
        self._pretty = ConsoleLine() if console is not None and console_format == "pretty" else None
        self._redaction = redaction
        self._now = now
        # Records are info: written when info is, and there is somewhere to write them.
        self._records = LEVELS[level.lower()] <= LEVELS["info"] and (
            file is not None or console is not None
        )

    def publish(self, record: LogRecord) -> None:
        """A record's line: timestamp (its stamp, or now), level info, its event and its
        fields."""
        if self._records:
            line: dict[str, Any] = {"timestamp": record.stamp() or self._now(), "level": "info"}
            line["event"] = record.event
            line.update(record.fields())
            self.write(line)

    def hear_quiet(self, stretch: LogRecord) -> None:
        """A fast-forward's quiet stretch: its one line (event `quiet_stretch`), which the
        log's readers expand into its decisions' lines (logs/quiet.py)."""
        self.publish(stretch)

    def write(self, event: dict[str, Any]) -> None:
        """Write one finished event (timestamp, level and event first): one JSON line
        (when the hold lets it, inside `held_lines`: logs/held.py)."""
        if not hold_line(self._write, event):
            self._write(event)

    def _write(self, event: dict[str, Any]) -> None:
        line = render_json(event)
        if self._redaction is not None and self._redaction.suspect(line):
            event = self._redaction.clean(event)
            line = render_json(event)
        if self._file is not None:
            written = self._file.write(line) or 0
            while written < len(line):  # an unbuffered file may take part of a line
                written += self._file.write(line[written:]) or 0
        if self._console is not None:
            if self._pretty is not None:
                self._console.write(self._pretty(event) + "\n")
            else:
                self._console.write(line.decode("utf-8"))
            self._console.flush()

    msg = debug = info = warning = warn = error = critical = exception = fatal = write

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> LogSinks:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def configure_logging(
    *,
    now: Callable[[], datetime],
    file: Path | None = None,
    level: str = "info",
    console: Console = "auto",
    console_stream: ConsoleStream | None = None,
    secrets: Iterable[str] = (),
    buffered: bool = False,
    owner: str | None = None,
) -> LogSinks:
    """Configure structlog for the process: events at `level` and above go, redacted of
    `secrets`, to `file` as JSON lines and to `console_stream` (default stderr): pretty
    on a TTY when `console` is "auto", JSON otherwise, nothing when "off". `buffered`
    buffers the file (for a writer nobody tails). `owner` (a golem's id) takes the file
    for that golem alone (see `open_log`). Returns the sinks: subscribe
    `sinks.publish` to a golem's records, and close the sinks at exit. Under trio, use
    the sync methods (`log.info`)."""
    stream = console_stream if console_stream is not None else sys.stderr
    if console == "auto":
        console = "pretty" if stream.isatty() else "json"
    sinks = LogSinks(
        file,
        None if console == "off" else stream,
        "pretty" if console == "pretty" else "json",
        now=now,
        level=level,
        redaction=Redaction(secrets),
        buffered=buffered,
        owner=owner,
    )

    def factory(*_args: Any) -> LogSinks:
        return sinks

    structlog.configure(
        processors=[structlog.contextvars.merge_contextvars, _finisher(now)],
        wrapper_class=structlog.make_filtering_bound_logger(LEVELS[level.lower()]),
        logger_factory=factory,
        cache_logger_on_first_use=False,
    )
    return sinks


_LEVEL_OF_METHOD = {"warn": "warning", "exception": "error"}  # as structlog's add_log_level


def _finisher(now: Callable[[], datetime]) -> Processor:
    """Last in the chain: the level, the timestamp (from `now`, the injected clock, unless
    already set) and a formatted traceback, in one new dict with timestamp, level and
    event first, handed to the sinks as it is (a tuple of args, so structlog does not
    spread it into keywords)."""
    level_of = _LEVEL_OF_METHOD.get

    def finish(
        logger: WrappedLogger, method: str, event: EventDict
    ) -> tuple[tuple[dict[str, Any]], dict[str, Any]]:
        if "exc_info" in event:
            event = structlog.processors.format_exc_info(logger, method, event)
        level = level_of(method, method)
        head = {"timestamp": event.get("timestamp") or now(), "level": level}
        if "event" in event:
            head["event"] = event["event"]
        head.update(event)
        head["level"] = level
        return (head,), {}

    return finish
