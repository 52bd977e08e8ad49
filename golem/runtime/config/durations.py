"""Durations as people write them ("15s", "2m", "1h30m", "500ms"; parsed in
`golem.inference.durations`, below every layer), shared by the config's intervals and
`golem run --for`, and schedules: an interval, a cron expression, or one of
the event-driven words ("tick", "events", "demand").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, timedelta
from enum import StrEnum

from apscheduler.triggers.cron import CronTrigger

from golem.inference.durations import format_duration, parse_duration

__all__ = ["Schedule", "ScheduleKind", "format_duration", "parse_duration", "parse_schedule"]


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
