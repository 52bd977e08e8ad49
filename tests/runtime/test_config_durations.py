"""Durations ("90s", "1h30m") and schedules (interval, cron, event words)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.runtime.config.durations import (
    ScheduleKind,
    format_duration,
    parse_duration,
    parse_schedule,
)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90s", 90),
        ("10m", 600),
        ("2h", 7200),
        ("1h30m", 5400),
        ("1d", 86400),
        ("500ms", 0.5),
        ("0.5s", 0.5),
        (" 2m 30s ", 150),
    ],
)
def test_durations_read_as_people_write_them(text: str, seconds: float) -> None:
    assert parse_duration(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("text", ["", "15", "s", "10x", "1h-5m", "-5s", "0s", "5 minutes", "1.s"])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize("text", ["15s", "2m", "1h30m", "1d2h", "250ms", "1m0.5s"])
def test_format_reads_back(text: str) -> None:
    value = parse_duration(text)
    assert parse_duration(format_duration(value)) == value


def test_schedules() -> None:
    assert parse_schedule("90s").every == timedelta(seconds=90)
    cron = parse_schedule("*/5 * * * *")
    assert cron.kind is ScheduleKind.CRON
    start = datetime(2026, 1, 1, 0, 1, tzinfo=UTC)
    assert cron.cron_trigger().get_next_fire_time(None, start) == datetime(
        2026, 1, 1, 0, 5, tzinfo=UTC
    )
    with pytest.raises(ValueError, match="not a cron"):
        parse_schedule("* * *")
    for text in ("often", "events", "tick", "demand"):  # a schedule is a time, not a cue
        with pytest.raises(ValueError, match="not a schedule"):
            parse_schedule(text)
    with pytest.raises(ValueError, match="not a cron"):
        parse_schedule("90s").cron_trigger()
