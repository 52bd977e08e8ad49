"""configure_logging: one JSON object per line in the file, times from the injected
clock, levels, redaction of planted secrets, the console, and a killed writer."""

from __future__ import annotations

import io
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, ClassVar

import orjson
import pytest
import structlog
import trio
from hypothesis import given
from hypothesis import strategies as st

from golem.runtime.logs.read import Malformed, read_events
from golem.runtime.logs.sinks import REDACTED, configure_logging, render_json

SECRET = "sk-planted-secret-0123456789"
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Ticks:
    """A clock that moves one second per reading."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> datetime:
        self.at += timedelta(seconds=1)
        return self.at


@pytest.fixture(autouse=True)
def _restore_structlog() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def lines(path: Path) -> list[dict[str, object]]:
    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    return [orjson.loads(line) for line in raw.split(b"\n")[:-1]]


def test_each_event_is_one_json_line_with_the_clock_s_time(tmp_path: Path) -> None:
    log_file = tmp_path / "logs" / "golem.log"
    log = structlog.get_logger("golem")  # before configuring, as modules do at import
    with configure_logging(now=Ticks(), file=log_file, console="off"):
        log.info("decision", subsystem="heartbeat", decision={"note": "line\nbreak"}, n=1)
        log.warning("provider_error", provider="openai", error="rate_limited")
        log.debug("hidden")
    events = lines(log_file)
    assert [e["event"] for e in events] == ["decision", "provider_error"]
    assert list(events[0])[:3] == ["timestamp", "level", "event"]
    assert events[0]["timestamp"] == (START + timedelta(seconds=1)).isoformat()
    assert events[1]["timestamp"] == (START + timedelta(seconds=2)).isoformat()
    assert events[0]["decision"] == {"note": "line\nbreak"}
    assert events[1]["level"] == "warning"


def test_the_file_is_appended_to(tmp_path: Path) -> None:
    log_file = tmp_path / "golem.log"
    for n in range(2):
        with configure_logging(now=Ticks(), file=log_file, console="off"):
            structlog.get_logger("golem").info("start", n=n)
    assert [e["n"] for e in lines(log_file)] == [0, 1]


@dataclass(frozen=True)
class Note:
    """A record with a log line of its own, as the golem's records have."""

    event: ClassVar[str] = "note"
    fields_: dict[str, Any]

    def fields(self) -> dict[str, Any]:
        return dict(self.fields_)

    def stamp(self) -> None:
        """Stamped when written."""


def test_a_published_record_is_the_line_structlog_writes_for_its_fields(tmp_path: Path) -> None:
    """The golem's records skip structlog: same bytes, the same redaction, the console."""
    fields = {"tick": 3, "time": START, "decision": {"note": SECRET}, "api_key": "x"}
    published, logged = tmp_path / "published.log", tmp_path / "logged.log"
    pretty = io.StringIO()
    with configure_logging(
        now=Ticks(), file=published, console="pretty", console_stream=pretty, secrets=[SECRET]
    ) as sinks:
        sinks.publish(Note(fields))
    with configure_logging(now=Ticks(), file=logged, console="off", secrets=[SECRET]):
        structlog.get_logger("golem").info("note", **fields)
    assert published.read_bytes() == logged.read_bytes()
    (line,) = lines(published)
    assert list(line)[:3] == ["timestamp", "level", "event"]
    assert line["timestamp"] == (START + timedelta(seconds=1)).isoformat()
    assert line["time"] == START.isoformat()  # a datetime is written as isoformat() does
    assert line["api_key"] == REDACTED and line["decision"] == {"note": REDACTED}
    assert pretty.getvalue().startswith("12:00:01 note") and SECRET not in pretty.getvalue()


@given(
    st.datetimes(
        min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
    ),
    st.booleans(),
    st.sampled_from([UTC, timezone(timedelta(hours=-3)), timezone(timedelta(hours=5, minutes=30))]),
)
def test_a_datetime_in_a_line_is_written_as_isoformat_writes_it(
    moment: datetime, whole: bool, zone: timezone
) -> None:
    moment = (moment.replace(microsecond=0) if whole else moment).astimezone(zone)
    assert render_json({"time": moment}) == orjson.dumps({"time": moment.isoformat()}) + b"\n"


def test_records_are_info_lines(tmp_path: Path) -> None:
    log_file = tmp_path / "golem.log"
    with configure_logging(now=Ticks(), file=log_file, console="off", level="warning") as sinks:
        sinks.publish(Note({"tick": 1}))
        structlog.get_logger("golem").warning("loud")
    with configure_logging(now=Ticks(), file=log_file, console="off") as sinks:
        sinks.publish(Note({"tick": 2}))
    assert [(e["event"], e.get("tick")) for e in lines(log_file)] == [("loud", None), ("note", 2)]


def test_the_level_is_configurable(tmp_path: Path) -> None:
    log_file = tmp_path / "golem.log"
    with configure_logging(now=Ticks(), file=log_file, level="WARNING", console="off"):
        log = structlog.get_logger("golem")
        log.info("quiet")
        log.error("loud")
    assert [e["event"] for e in lines(log_file)] == ["loud"]


def test_planted_secrets_are_masked_everywhere(tmp_path: Path) -> None:
    log_file = tmp_path / "golem.log"
    console = io.StringIO()
    with configure_logging(
        now=Ticks(), file=log_file, console="json", console_stream=console, secrets=[SECRET, "x"]
    ):
        structlog.get_logger("golem").error(
            "provider_error",
            error=f"401 for key {SECRET}",
            key=SECRET,
            request={"headers": {"Authorization": "Bearer other", "x-api-key": "other"}},
            attempts=[{"api_key": "plain"}, SECRET],
            openai_api_key="whatever",
            note="x marks the spot",
        )
    assert SECRET.encode() not in log_file.read_bytes()
    assert SECRET not in console.getvalue()
    (event,) = lines(log_file)
    assert event["error"] == f"401 for key {REDACTED}"
    assert event["key"] == REDACTED
    assert event["request"] == {"headers": {"Authorization": REDACTED, "x-api-key": REDACTED}}
    assert event["attempts"] == [{"api_key": REDACTED}, REDACTED]
    assert event["openai_api_key"] == REDACTED
    assert event["note"] == "x marks the spot"  # short secrets only where a value equals one
    assert orjson.loads(console.getvalue()) == event


def test_the_console_is_readable_when_asked_and_json_off_a_terminal(tmp_path: Path) -> None:
    pretty = io.StringIO()
    with configure_logging(now=Ticks(), console="pretty", console_stream=pretty):
        structlog.get_logger("golem").info(
            "decision", subsystem="risk", decision={"verdict": "approve"}, summary="approved"
        )
    text = pretty.getvalue()
    assert "decision" in text and "risk" in text and "approved" in text
    assert "verdict" not in text  # the file has it; the console spares the reader
    plain = io.StringIO()
    with configure_logging(now=Ticks(), console="auto", console_stream=plain):
        structlog.get_logger("golem").info("vitality", vitality=0.5)
    assert orjson.loads(plain.getvalue())["vitality"] == 0.5
    silent = io.StringIO()
    with configure_logging(now=Ticks(), console="off", console_stream=silent):
        structlog.get_logger("golem").info("vitality", vitality=0.5)
    assert silent.getvalue() == ""


def test_an_exception_is_one_line_with_its_traceback(tmp_path: Path) -> None:
    log_file = tmp_path / "golem.log"
    with configure_logging(now=Ticks(), file=log_file, console="off", secrets=[SECRET]):
        try:
            raise RuntimeError(f"boom {SECRET}")
        except RuntimeError:
            structlog.get_logger("golem").exception("job_failed", job="curator")
    (event,) = lines(log_file)
    assert "RuntimeError: boom [redacted]" in str(event["exception"])


async def test_trio_tasks_log_their_bound_context(tmp_path: Path) -> None:
    log_file = tmp_path / "golem.log"
    with configure_logging(now=Ticks(), file=log_file, console="off"):

        async def job(name: str) -> None:
            structlog.contextvars.bind_contextvars(job=name)
            await trio.sleep(0)
            structlog.get_logger("golem").info("ran")

        async with trio.open_nursery() as nursery:
            nursery.start_soon(job, "curator")
            nursery.start_soon(job, "dream")
    assert sorted(str(e["job"]) for e in lines(log_file)) == ["curator", "dream"]


def test_a_killed_writer_leaves_at_most_a_torn_last_line(tmp_path: Path) -> None:
    log_file = tmp_path / "golem.log"
    script = textwrap.dedent(
        f"""
        import sys
        from datetime import UTC, datetime
        from pathlib import Path
        import structlog
        from golem.runtime.logs.sinks import configure_logging
        configure_logging(now=lambda: datetime(2026, 1, 1, tzinfo=UTC),
                          file=Path({str(log_file)!r}), console="off")
        log = structlog.get_logger("golem")
        print("ready", flush=True)
        n = 0
        while True:
            log.info("decision", n=n, decision={{"text": "x" * 4000}})
            n += 1
        """
    )
    with subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE) as writer:
        assert writer.stdout is not None
        assert writer.stdout.readline() == b"ready\n"
        while writer.poll() is None and (
            not log_file.exists() or log_file.stat().st_size < 200_000
        ):
            time.sleep(0.005)
        assert writer.returncode is None, "the writer died by itself"
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    problems: list[Malformed] = []
    numbers = [e["n"] for e in read_events(log_file, problems.append)]
    assert numbers == list(range(len(numbers)))
    assert len(numbers) > 10
    assert all(p.torn for p in problems) and len(problems) <= 1
