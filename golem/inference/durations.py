"""Durations as people write them, in either of two forms: compact ("15s", "2m", "1h30m",
"500ms", "1d") or ISO 8601 ("PT15S", "PT12H", "P1DT2H"). The parser, its inverse and the
pydantic type every layer's config reads them with (the world's market reads its own through
the same parser: `golem.runtime.config.durations`). Here, at the bottom of the imports (as
`seed.py`), so that mortality's config can use it as the runtime's does.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Annotated

from pydantic import PlainSerializer, PlainValidator

__all__ = ["LONGEST", "Duration", "DurationOrOff", "format_duration", "parse_duration"]

# The longest duration any key or option takes: a century. Longer is a typo (and past
# timedelta's and datetime's range, where it raised OverflowError instead of saying so).
LONGEST = timedelta(days=36_500)

_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)")
_NUMBER = r"(\d+(?:\.\d+)?)"
# ISO 8601 durations without years or months (whose length depends on the calendar).
_ISO = re.compile(
    rf"P(?:{_NUMBER}W)?(?:{_NUMBER}D)?(?:T(?:{_NUMBER}H)?(?:{_NUMBER}M)?(?:{_NUMBER}S)?)?",
    re.IGNORECASE,
)
_ISO_UNITS = (7 * 86400.0, 86400.0, 3600.0, 60.0, 1.0)
_EXAMPLES = "write e.g. '90s', '10m', '1h30m', '2d' or ISO 8601 'PT90S', 'PT12H', 'P2D'"


def parse_duration(text: str) -> timedelta:
    """A positive duration of at most `LONGEST`, compact ("90s", "10m", "1h30m", "0.5s":
    one or more number-unit parts, units ms, s, m, h, d) or ISO 8601 ("PT90S", "PT1H30M",
    "P1DT12H", "P2W"). Raises ValueError saying what is wrong."""
    compact = text.strip().replace(" ", "")
    if not compact:
        raise ValueError(f"empty duration; {_EXAMPLES}")
    seconds = _iso_seconds(compact) if compact[0] in "Pp" else _compact_seconds(compact)
    if seconds is None:
        raise ValueError(f"not a duration: {text!r}; {_EXAMPLES}")
    if seconds <= 0:
        raise ValueError(f"a duration must be positive, got {text!r}")
    if seconds > LONGEST.total_seconds():
        longest = format_duration(LONGEST)
        raise ValueError(f"a duration must be at most {longest} (a century), got {text!r}")
    return timedelta(seconds=seconds)


def _compact_seconds(text: str) -> float | None:
    seconds, end = 0.0, 0
    for match in _PART.finditer(text):
        if match.start() != end:
            break
        seconds += float(match.group(1)) * _UNITS[match.group(2)]
        end = match.end()
    return seconds if end == len(text) else None


def _iso_seconds(text: str) -> float | None:
    match = _ISO.fullmatch(text)
    if match is None or not any(match.groups()) or text.upper().endswith("T"):
        return None
    return sum(
        float(n) * unit for n, unit in zip(match.groups(), _ISO_UNITS, strict=True) if n is not None
    )


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
        raise ValueError("write a duration as a string, e.g. '15s', '2m' or 'PT15S'")
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
