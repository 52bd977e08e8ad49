"""Durations as people write them ("15s", "2m", "1h30m", "500ms", "1d"): the parser, its
inverse and the pydantic type every layer's config reads them with. Here, at the bottom
of the imports (as `seed.py`), so that mortality's config can use it as the runtime's does.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Annotated

from pydantic import PlainSerializer, PlainValidator

__all__ = ["Duration", "DurationOrOff", "format_duration", "parse_duration"]

_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")


def parse_duration(text: str) -> timedelta:
    """A positive duration: one or more number-unit parts (ms, s, m, h, d), e.g. "90s",
    "10m", "1h30m", "0.5s". Raises ValueError saying what is wrong."""
    compact = text.strip().replace(" ", "")
    if not compact:
        raise ValueError("empty duration; write e.g. '90s', '10m', '2h'")
    seconds, end = 0.0, 0
    for match in _PART.finditer(compact):
        if match.start() != end:
            break
        seconds += float(match.group(1)) * _UNITS[match.group(2)]
        end = match.end()
    if end != len(compact):
        raise ValueError(f"not a duration: {text!r}; write e.g. '90s', '10m', '2h', '1h30m'")
    if seconds <= 0:
        raise ValueError(f"a duration must be positive, got {text!r}")
    return timedelta(seconds=seconds)


def format_duration(value: timedelta) -> str:
    """The shortest form parse_duration reads back: "15s", "2m", "1h30m"."""
    millis = round(value.total_seconds() * 1000)
    parts = []
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)):
        count, millis = divmod(millis, size)
        if count:
            parts.append(f"{count}{unit}")
    if millis or not parts:
        parts.append(f"{millis}ms")
    return "".join(parts)


def _duration(value: object) -> timedelta:
    if isinstance(value, timedelta):
        return value
    if not isinstance(value, str):
        raise ValueError("write a duration as a string, e.g. '15s', '2m'")
    return parse_duration(value)


Duration = Annotated[timedelta, PlainValidator(_duration), PlainSerializer(format_duration)]


_OFF = "off"


def _duration_or_off(value: object) -> timedelta | None:
    if value is None or isinstance(value, timedelta):
        return value
    if value == _OFF:
        return None
    if not isinstance(value, str):
        raise ValueError("write a duration as a string, e.g. '1d', '12h', or 'off'")
    try:
        return parse_duration(value)
    except ValueError as exc:
        raise ValueError(f"{exc}, or 'off'") from None


# A positive duration ("1d", "12h"), or "off": none.
DurationOrOff = Annotated[
    timedelta | None,
    PlainValidator(_duration_or_off),
    PlainSerializer(lambda v: _OFF if v is None else format_duration(v)),
]
