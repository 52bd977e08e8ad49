"""The last decisions of a golem's log, read back from its end (runtime/logs/tail.py) for a
restarted golem's dashboard (StatusEndpoint's feed): the newest, oldest first, across
block boundaries; a torn line left out silently, a malformed one reported where it is;
a decision-like string inside another event is not a decision."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from structlog.testing import capture_logs

from golem.runtime.http.endpoint import recall_decisions
from golem.runtime.http.feed import DecisionFeed
from golem.runtime.logs import tail
from golem.runtime.logs.tail import last_events


def _decision(n: int) -> bytes:
    event = {
        "timestamp": f"2026-03-01T00:{n // 60:02d}:{n % 60:02d}+00:00",
        "level": "info",
        "event": "decision",
        "golem": "g1",
        "time": f"2026-03-01T00:{n // 60:02d}:{n % 60:02d}+00:00",
        "tick": n,
        "subsystem": "heartbeat",
        "id": f"heartbeat@{n}",
        "summary": "x" * (n % 50),  # lines of many lengths: they straddle the blocks
    }
    return orjson.dumps(event) + b"\n"


def _vitality(n: int) -> bytes:
    return orjson.dumps({"event": "vitality", "tick": n, "note": '"event":"decision"'}) + b"\n"


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tail, "BLOCK", 97)  # many blocks, lines cut anywhere


def test_the_last_decisions_come_oldest_first_across_blocks(tmp_path: Path) -> None:
    log = tmp_path / "golem.log"
    log.write_bytes(b"".join(_decision(n) + _vitality(n) for n in range(300)))
    said: list[tuple[int, str]] = []
    found = last_events(log, "decision", 40, lambda at, why: said.append((at, why)))
    assert [event["tick"] for event in found] == list(range(260, 300))
    assert said == []
    everything = last_events(log, "decision", 1000, lambda at, why: said.append((at, why)))
    assert [event["tick"] for event in everything] == list(range(300))


def test_a_torn_line_is_left_out_and_a_malformed_one_is_told_where(tmp_path: Path) -> None:
    log = tmp_path / "golem.log"
    head = _decision(0) + _decision(1)
    bad = b'{"event":"decision", "tick": 2, oops}\n'  # neither torn nor JSON
    cut = _decision(3)[:40] + b"\n"  # a killed writer's line, the next begun anew
    log.write_bytes(head + bad + cut + _decision(4) + _decision(5)[:30])  # torn last line
    said: list[tuple[int, str]] = []
    found = last_events(log, "decision", 10, lambda at, why: said.append((at, why)))
    assert [event["tick"] for event in found] == [0, 1, 4]
    assert said == [(len(head), "not valid JSON")]


def test_a_restarted_golem_s_feed_holds_its_logged_decisions(tmp_path: Path) -> None:
    log = tmp_path / "golem.log"
    log.write_bytes(b"".join(_decision(n) for n in range(5)) + b'{"event":"decision"}\n')
    feed = DecisionFeed()
    with capture_logs() as logs:
        recall_decisions(feed, log)
        recall_decisions(DecisionFeed(), tmp_path / "absent.log")  # a first start: nothing
    assert [entry.decision_id for entry in feed.recent()] == [f"heartbeat@{n}" for n in range(5)]
    assert orjson.loads(feed.recent()[-1].line)["tick"] == 4
    assert feed.last()["heartbeat"].decision_id == "heartbeat@4"
    [warned] = [e for e in logs if e["event"] == "decision_not_recalled"]
    assert (warned["file"], warned["reason"]) == (str(log), "a decision without its time")
