"""The log file as a golem opens it: a torn last line (a killed writer's) ends where it
was cut, so the next event is a line of its own; a reader skips the fragment with one
warning; a golem that names itself holds the file and refuses another golem's."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import structlog

from golem.runtime.logs.logfile import LogFileTaken
from golem.runtime.logs.read import Malformed, read_events
from golem.runtime.logs.sinks import configure_logging

NOW = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _restore_structlog() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def _log(path: Path, owner: str | None = None, **fields: object) -> None:
    with configure_logging(now=lambda: NOW, file=path, console="off", owner=owner):
        structlog.get_logger("golem").info("decision", **fields)


def test_a_restart_after_a_torn_line_starts_on_a_new_line(tmp_path: Path) -> None:
    log = tmp_path / "golem.log"
    _log(log, n=0)
    with log.open("ab") as file:
        file.write(b'{"timestamp":"2026-03-01T00:00:00+00:00","level":"info","event":"decis')
    _log(log, n=1)
    problems: list[Malformed] = []
    events = list(read_events(log, problems.append))
    assert [e["n"] for e in events] == [0, 1], "the event after the fragment was swallowed"
    assert problems == [Malformed(2, "torn line (a killed writer?)", torn=True)]


def test_a_log_ending_in_a_whole_line_gets_no_blank_line(tmp_path: Path) -> None:
    log = tmp_path / "golem.log"
    _log(log, n=0)
    _log(log, n=1)
    assert b"\n\n" not in log.read_bytes()


def test_a_golem_s_log_is_private_to_its_owner(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "golem.log"
    log.parent.mkdir()
    log.write_text("")
    log.chmod(0o644)
    _log(log, owner="g-a", golem="g-a")
    assert log.stat().st_mode & 0o777 == 0o600


def test_a_log_written_by_another_golem_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    log = tmp_path / "golem.log"
    _log(log, owner="g-a", golem="g-a", tick=0)
    before = log.read_bytes()
    with pytest.raises(LogFileTaken, match=f"log file {log}: written by golem 'g-a', not 'g-b'"):
        _log(log, owner="g-b", golem="g-b")
    assert log.read_bytes() == before
    _log(log, owner="g-a", golem="g-a", tick=1)  # its own golem goes on writing it
    assert [e["tick"] for e in read_events(log, pytest.fail)] == [0, 1]


def test_a_log_another_golem_holds_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "golem.log"
    with (
        configure_logging(now=lambda: NOW, file=log, console="off", owner="g-a"),
        pytest.raises(LogFileTaken, match=f"log file {log}: in use by another golem"),
    ):
        configure_logging(now=lambda: NOW, file=log, console="off", owner="g-b")
    _log(log, owner="g-b", golem="g-b")  # released when its holder closed it
