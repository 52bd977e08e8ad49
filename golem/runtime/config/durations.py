"""Durations as people write them ("15s", "2m", "1h30m", "500ms", or ISO 8601 "PT15S";
parsed in `golem.inference.durations`, below every layer), shared by the config's
intervals, the world's market and `golem run --for`, and schedules: an interval or a cron
expression.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, timedelta
from enum import StrEnum
from types import UnionType
from typing import Any, Union, get_args, get_origin

from apscheduler.triggers.cron import CronTrigger
from pydantic import BaseModel

from golem.inference.durations import format_duration, parse_duration
from golem.mortality import KeyedValueError

__all__ = [
    "Schedule",
    "ScheduleKind",
    "format_duration",
    "parse_duration",
    "parse_schedule",
    "reading_durations",
]


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


def reading_durations(model: type[BaseModel]) -> Callable[[object], object]:
    """A before-validator for a table of `model`, a model of golem.world (which imports
    nothing of golem, so its timedelta fields know only pydantic's forms): every string
    given for a timedelta field, at any depth, is read by `parse_duration`, so "12h" and
    "PT12H" mean the same there as everywhere. A bad one is named by its key path."""

    def read(value: object) -> object:
        return _durations_in(model, value, "")

    return read


def _durations_in(kind: Any, value: object, at: str) -> object:
    kind = _optional_of(kind)
    if kind is timedelta and isinstance(value, str):
        try:
            return parse_duration(value)
        except ValueError as exc:
            raise KeyedValueError(str(exc), [at]) from None
    if isinstance(kind, type) and issubclass(kind, BaseModel) and isinstance(value, dict):
        fields = kind.model_fields
        return {
            key: _durations_in(fields[key].annotation, item, _key(at, key))
            if key in fields
            else item
            for key, item in value.items()
        }
    origin, args = get_origin(kind), get_args(kind)
    if origin in (tuple, list) and args and isinstance(value, list | tuple):
        return [_durations_in(args[0], item, f"{at}[{i}]") for i, item in enumerate(value)]
    if origin is dict and len(args) == 2 and isinstance(value, dict):
        return {key: _durations_in(args[1], item, _key(at, key)) for key, item in value.items()}
    return value


def _optional_of(kind: Any) -> Any:
    """X from X | None."""
    if get_origin(kind) in (Union, UnionType):
        args = [a for a in get_args(kind) if a is not type(None)]
        return args[0] if len(args) == 1 else kind
    return kind


def _key(at: str, key: object) -> str:
    return f"{at}.{key}" if at else str(key)
