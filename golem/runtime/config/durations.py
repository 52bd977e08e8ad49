"""Durations as people write them ("15s", "2m", "1h30m", "500ms"), shared by the config's
intervals and `golem run --for`, and schedules: an interval, a cron expression, or one of
the event-driven words ("tick", "events", "demand").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, timedelta
from enum import StrEnum

from apscheduler.triggers.cron import CronTrigger

__all__ = ["Schedule", "ScheduleKind", "format_duration", "parse_duration", "parse_schedule"]

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


class ScheduleKind(StrEnum):
    INTERVAL = "interval"  # every `every`
    CRON = "cron"  # a five-field crontab expression, in UTC


@dataclass(frozen=True, slots=True)
class Schedule:
    """When a subsystem runs. `every` is set for an interval, `cron` for a crontab."""

    kind: ScheduleKind
    text: str
    every: timedelta | None = None
    cron: str | None = None

    def cron_trigger(self) -> CronTrigger:
        """APScheduler's trigger for a cron schedule, as a pure calculator (UTC)."""
        if self.cron is None:
            raise ValueError(f"schedule {self.text!r} is not a cron expression")
        return CronTrigger.from_crontab(self.cron, timezone=UTC)


def parse_schedule(text: str) -> Schedule:
    """An interval ("90s", "10m") or a cron expression ("*/5 * * * *": it has spaces).
    Raises ValueError saying what is wrong."""
    stripped = text.strip()
    if " " in stripped:
        try:
            CronTrigger.from_crontab(stripped, timezone=UTC)
        except ValueError as exc:
            raise ValueError(f"not a cron expression: {stripped!r} ({exc})") from None
        return Schedule(ScheduleKind.CRON, stripped, cron=stripped)
    try:
        every = parse_duration(stripped)
    except ValueError:
        raise ValueError(
            f"not a schedule: {stripped!r}; write an interval ('90s', '10m') or a cron "
            "expression ('*/5 * * * *', UTC)"
        ) from None
    return Schedule(ScheduleKind.INTERVAL, stripped, every=every)
