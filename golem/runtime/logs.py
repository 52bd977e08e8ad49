"""Logging as data: structlog configured to write each event as one JSON line to the log
file (appended, one write per line, so a killed process leaves at most a torn last line)
and a readable or JSON rendering to the console. Times come from the injected clock.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, Literal, TextIO

import orjson
import structlog
from structlog.typing import EventDict, FilteringBoundLogger, Processor, WrappedLogger

from golem.runtime.clock import isoformat
from golem.runtime.console import ConsoleLine

__all__ = [
    "LEVELS",
    "BoundOnce",
    "LogSinks",
    "Redaction",
    "configure_logging",
    "render_json",
]

LEVELS = {"debug": 10, "info": 20, "warning": 30, "error": 40}
REDACTED = "[redacted]"
_SECRET_KEY = re.compile(r"api[_-]?key|authorization|password|secret", re.IGNORECASE)
_MIN_SUBSTRING_SECRET = 8  # shorter secrets are masked only where a value equals them
_BUFFER = 1 << 20  # a buffered log file's buffer: a simulated month writes about 140 MB


Console = Literal["auto", "pretty", "json", "off"]


class Redaction:
    """Masks every value equal to a secret, every occurrence of a secret inside a string,
    and the value of every key named like an API key or authorization, however nested.
    `suspect(line)` says whether a rendered line might need it: most lines hold nothing to
    mask, and one look at the line proves it (a false alarm costs time, never a leak)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self._values = frozenset(s for s in secrets if s)
        self._long = tuple(
            sorted((s for s in self._values if len(s) >= _MIN_SUBSTRING_SECRET), key=len)
        )[::-1]
        # A secret inside a rendered line: JSON-escaped, and a short one (masked only
        # where a value equals it) quoted as a whole string.
        escaped = {s: orjson.dumps(s) for s in self._values}
        self._marks = tuple(
            sorted(
                {escaped[s][1:-1] if s in self._long else escaped[s] for s in self._values}
                | {s.encode() for s in self._long}
            )
        )

    def suspect(self, line: bytes) -> bool:
        """Whether the rendered line `line` (UTF-8) might hold something to mask."""
        # find(), not `in`: bytes' `in` first tries its operand as an integer, and raising
        # and clearing that TypeError costs more than the search (every line, four times).
        find = line.find
        for mark in self._marks:
            if find(mark) >= 0:
                return True
        low = line.lower()  # plain substring tests first: the regex is slow on long lines
        find = low.find
        if (
            find(b"key") < 0
            and find(b"authorization") < 0
            and find(b"password") < 0
            and find(b"secret") < 0
        ):
            return False
        return _SECRET_KEY.search(low.decode("utf-8", "replace")) is not None

    def clean(self, value: Any) -> Any:
        if isinstance(value, str):
            if value in self._values:
                return REDACTED
            for secret in self._long:
                if secret in value:
                    value = value.replace(secret, REDACTED)
            return value
        if isinstance(value, Mapping):
            return {k: REDACTED if _secret_key(k) else self.clean(v) for k, v in value.items()}
        if isinstance(value, list | tuple | set | frozenset):
            return [self.clean(v) for v in value]
        return value


def _secret_key(key: object) -> bool:
    return isinstance(key, str) and _SECRET_KEY.search(key) is not None


def render_json(event: Mapping[str, Any]) -> bytes:
    """One event as one JSON line, newline included; anything orjson cannot encode is
    written as its str(), and keys that are not strings as JSON keys (a slower option,
    taken only for the rare event that needs it)."""
    try:
        return orjson.dumps(event, default=str, option=orjson.OPT_APPEND_NEWLINE)
    except orjson.JSONEncodeError:
        return orjson.dumps(
            event, default=str, option=orjson.OPT_APPEND_NEWLINE | orjson.OPT_NON_STR_KEYS
        )


class LogSinks:
    """Where events end: the log file, as one JSON line each (by default a single
    unbuffered append, so nothing waits in a buffer), the console, and `taps` (callables
    that see each finished event, such as the simulator's tallies). A line that might hold
    a secret is redacted before it goes anywhere. structlog's logger: every level's method
    takes the finished event dict (no copy into keywords and back). Close it when done."""

    def __init__(
        self,
        file: Path | None,
        console: TextIO | None,
        console_format: Literal["pretty", "json"],
        *,
        redaction: Redaction | None = None,
        buffered: bool = False,
        taps: Iterable[Callable[[Mapping[str, Any]], None]] = (),
    ) -> None:
        self.path = file
        self._file: BinaryIO | None = None
        if file is not None:
            file.parent.mkdir(parents=True, exist_ok=True)
            # Closed by close(); buffered only for a writer nobody tails (the simulator).
            self._file = open(file, "ab", buffering=_BUFFER if buffered else 0)  # noqa: SIM115
        self._console = console
        self._pretty = ConsoleLine() if console is not None and console_format == "pretty" else None
        self._redaction = redaction
        self._taps = tuple(taps)

    def write(self, event: dict[str, Any]) -> None:
        """Write one finished event (timestamp, level and event first): one JSON line."""
        line = render_json(event)
        if self._redaction is not None and self._redaction.suspect(line):
            event = self._redaction.clean(event)
            line = render_json(event)
        if self._file is not None:
            written = self._file.write(line) or 0
            while written < len(line):  # an unbuffered file may take part of a line
                written += self._file.write(line[written:]) or 0
        for tap in self._taps:
            tap(event)
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


class BoundOnce:
    """`structlog.get_logger(*args)` bound once per configuration. structlog's lazy proxy
    binds afresh on every call (two new loggers and a context copy: a third of a decision
    line's cost); `BoundOnce(...).logger` binds again only when structlog is configured
    anew. A processor list changed in place (structlog's `capture_logs`) is seen at once:
    the bound logger holds that same list."""

    __slots__ = ("_args", "_bound", "_context", "_factory", "_processors", "_wrapper")

    def __init__(self, *args: Any) -> None:
        self._args = args
        self._factory: Any = None
        self._processors: Any = None
        self._wrapper: Any = None
        self._context: Any = None
        self._bound: Any = None

    @property
    def logger(self) -> Any:
        config = structlog.get_config()
        factory, processors = config["logger_factory"], config["processors"]
        wrapper, context = config["wrapper_class"], config["context_class"]
        if (
            self._bound is None
            or factory is not self._factory
            or processors is not self._processors
            or wrapper is not self._wrapper
            or context is not self._context
        ):
            self._bound = structlog.get_logger(*self._args).bind()
            self._factory, self._processors = factory, processors
            self._wrapper, self._context = wrapper, context
        return self._bound

    def info(self, event: str, fields: dict[str, Any]) -> None:
        """`self.logger.info(event, **fields)`, `fields` taken over (the caller made it for
        this line). While structlog runs the chain `configure_logging` set up, unchanged
        and with no context variable bound, the finished line goes straight to its sinks:
        the same line, without the chain's three copies of `fields` (a decision per tick
        in a simulated life)."""
        own = _OWN[0]
        config = structlog.get_config()
        if (
            own is not None
            and config["processors"] is own.processors
            and config["wrapper_class"] is own.wrapper
            and config["logger_factory"] is own.factory
            and own.processors == own.configured  # capture_logs swaps them in place
            and not _BOUND_CONTEXTVARS
            and "exc_info" not in fields
        ):
            fields["event"] = event
            own.sinks.write(_finished(own.now, "info", fields))
            return
        self.logger.info(event, **fields)


@dataclass(frozen=True, slots=True)
class _Own:
    """What `configure_logging` gave structlog, for `BoundOnce.info`'s direct path."""

    processors: list[Processor]
    configured: list[Processor]  # a copy: what `processors` held when configured
    wrapper: type[FilteringBoundLogger]
    factory: Callable[..., Any]
    sinks: LogSinks
    now: Callable[[], datetime]


_OWN: list[_Own | None] = [None]


def configure_logging(
    *,
    now: Callable[[], datetime],
    file: Path | None = None,
    level: str = "info",
    console: Console = "auto",
    console_stream: TextIO | None = None,
    secrets: Iterable[str] = (),
    buffered: bool = False,
    taps: Iterable[Callable[[Mapping[str, Any]], None]] = (),
) -> LogSinks:
    """Configure structlog for the process: events at `level` and above go, redacted of
    `secrets`, to `file` as JSON lines and to `console_stream` (default stderr): pretty
    on a TTY when `console` is "auto", JSON otherwise, nothing when "off"; and to each of
    `taps`. `buffered` buffers the file (for a writer nobody tails). Returns the sinks,
    to close at exit. Under trio, use the sync methods (`log.info`)."""
    stream = console_stream if console_stream is not None else sys.stderr
    if console == "auto":
        console = "pretty" if stream.isatty() else "json"
    sinks = LogSinks(
        file,
        None if console == "off" else stream,
        "pretty" if console == "pretty" else "json",
        redaction=Redaction(secrets),
        buffered=buffered,
        taps=taps,
    )
    processors: list[Processor] = [_merge_contextvars, _finisher(now)]
    wrapper = _wrapper_class(LEVELS[level.lower()])

    def factory(*_args: Any) -> LogSinks:
        return sinks

    structlog.configure(
        processors=processors,
        wrapper_class=wrapper,
        logger_factory=factory,
        cache_logger_on_first_use=False,
    )
    direct = LEVELS[level.lower()] <= LEVELS["info"]
    _OWN[0] = _Own(processors, list(processors), wrapper, factory, sinks, now) if direct else None
    return sinks


@functools.cache
def _wrapper_class(min_level: int) -> type[FilteringBoundLogger]:
    """structlog's filtering logger for `min_level`, its enabled level methods replaced by
    ones that run the same chain without its three copies of the event's keywords (two
    events a tick in a simulated life: the copies cost more than the rest of structlog)."""
    base = structlog.make_filtering_bound_logger(min_level)
    names = [name for name, level in _METHOD_LEVELS.items() if level >= min_level]
    return type(f"Fast{base.__name__}", (base,), {name: _method(name) for name in names})


_METHOD_LEVELS = LEVELS | {"warn": 30, "critical": 50, "fatal": 50}


def _method(name: str) -> Callable[..., Any]:
    method = "warning" if name == "warn" else "critical" if name == "fatal" else name

    def log(self: Any, event: str | None = None, *args: Any, **kw: Any) -> Any:
        # As BoundLoggerBase._proxy_to_logger and _process_event, on `kw` itself: a call's
        # keywords are a dict of its own.
        if args:
            event = event % (args[0] if len(args) == 1 and isinstance(args[0], dict) else args)  # type: ignore[operator]
        context = self._context
        event_dict: Any = {**context, **kw} if context else kw
        if event is not None:
            event_dict["event"] = event
        logger = self._logger
        try:
            for processor in self._processors:
                event_dict = processor(logger, method, event_dict)
            if isinstance(event_dict, tuple):
                return getattr(logger, method)(*event_dict[0], **event_dict[1])
            if isinstance(event_dict, str | bytes | bytearray):
                return getattr(logger, method)(event_dict)
            if isinstance(event_dict, dict):
                return getattr(logger, method)(**event_dict)
        except structlog.DropEvent:
            return None
        raise ValueError("the last processor returned neither a dict, a tuple nor a string")

    log.__name__ = name
    return log


# structlog's context variables, by name: empty until something binds one.
_BOUND_CONTEXTVARS: Mapping[str, object] = getattr(structlog.contextvars, "_CONTEXT_VARS", {"?": 0})


def _merge_contextvars(logger: WrappedLogger, method: str, event: EventDict) -> EventDict:
    """structlog's `merge_contextvars`, skipped while nothing was ever bound: it copies the
    whole context (trio's variables too) on every line. (Should structlog stop keeping its
    variables in `_CONTEXT_VARS`, the placeholder makes every line merge.)"""
    if not _BOUND_CONTEXTVARS:
        return event
    return structlog.contextvars.merge_contextvars(logger, method, event)


_LEVEL_OF_METHOD = {"warn": "warning", "exception": "error"}  # as structlog's add_log_level


def _finisher(now: Callable[[], datetime]) -> Processor:
    """Last in the chain, and the only processor besides the context merge: the level, the
    timestamp (from `now`, the injected clock, unless already set) and a formatted
    traceback, in one new dict with timestamp, level and event first, handed to the
    sinks as it is (a tuple of args, so structlog does not spread it into keywords)."""
    level_of = _LEVEL_OF_METHOD.get

    def finish(
        logger: WrappedLogger, method: str, event: EventDict
    ) -> tuple[tuple[dict[str, Any]], dict[str, Any]]:
        if "exc_info" in event:
            event = structlog.processors.format_exc_info(logger, method, event)
        return (_finished(now, level_of(method, method), event),), {}

    return finish


def _finished(now: Callable[[], datetime], level: str, event: Mapping[str, Any]) -> dict[str, Any]:
    """The finished event: timestamp (from `now` unless set), level and event first."""
    stamp = event.get("timestamp")
    if not stamp:
        stamp = isoformat(now())
    head = {"timestamp": stamp, "level": level}
    if "event" in event:
        head["event"] = event["event"]
    head.update(event)
    head["level"] = level
    return head
