"""Durations ("90s", "1h30m") and schedules (interval, cron, event words)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.runtime.config import ConfigError, parse_config
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
        ("PT15S", 15),
        ("PT12H", 43200),
        ("PT1H30M", 5400),
        ("P1DT2H", 93600),
        ("P2W", 14 * 86400),
        ("pt0.5s", 0.5),
    ],
)
def test_durations_read_as_people_write_them(text: str, seconds: float) -> None:
    assert parse_duration(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "15",
        "s",
        "10x",
        "1h-5m",
        "-5s",
        "0s",
        "5 minutes",
        "1.s",
        "P",
        "PT",
        "P1Y",
        "P1M",
        "PT0S",
    ],
)
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


@pytest.mark.parametrize("text", ["99999999999d", "36501d", "P99999999999D", "PT876001H"])
def test_past_a_century_is_refused_not_an_overflow(text: str) -> None:
    with pytest.raises(ValueError, match="at most 36500d"):
        parse_duration(text)


def _market(**keys: object) -> dict[str, object]:
    return {"world": {"market": keys}}


@pytest.mark.parametrize(("compact", "iso"), [("12h", "PT12H"), ("15s", "PT15S"), ("2d", "P2D")])
def test_every_duration_key_takes_both_forms(compact: str, iso: str) -> None:
    """The heartbeat, a schedule, the market's tick and shocks: one dialect everywhere."""
    read = []
    for text in (compact, iso):
        config = parse_config(
            {
                "heartbeat": {"interval": text},
                "subsystems": {"dream": {"schedule": text}},
                **_market(
                    tick_interval=text,
                    shocks=[{"at": text, "magnitude": -0.1, "duration": text}],
                    random_shocks={"duration": text},
                ),
            }
        )
        market = config.world.market
        assert market.random_shocks is not None
        read.append(
            (
                config.heartbeat.interval,
                config.subsystems.dream.schedule.every,
                market.tick_interval,
                market.shocks[0].at,
                market.shocks[0].duration,
                market.random_shocks.duration,
            )
        )
    assert read[0] == read[1] == (parse_duration(compact),) * 6


def test_a_bad_market_duration_is_named_by_its_key() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_config(
            _market(shocks=[{"at": "1h", "magnitude": -0.1}, {"at": "soon", "magnitude": 0.1}])
        )
    assert raised.value.keys == ("world.market.shocks[1].at",)
    assert "not a duration: 'soon'" in str(raised.value)


def test_a_number_in_the_market_is_still_seconds() -> None:
    assert parse_config(_market(tick_interval=15)).world.market.tick_interval == timedelta(
        seconds=15
    )
