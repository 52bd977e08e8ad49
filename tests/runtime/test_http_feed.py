"""The status endpoint's decision feed: a bounded ring, filters, masking as the log masks,
and listeners that can neither block nor fail the golem that publishes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import orjson
import pytest
import trio

from golem.inference import Usage
from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime.decide import DecisionRecord
from golem.runtime.http import LISTENER_BUFFER, DecisionFeed

START = datetime(2026, 3, 1, tzinfo=UTC)


def record(
    tick: int, subsystem: SubsystemName = SubsystemName.HEARTBEAT, **kw: object
) -> DecisionRecord:
    return DecisionRecord(
        "g",
        START + timedelta(seconds=15 * tick),
        0.9,
        Phase.THRIVING,
        subsystem,
        tick,
        ModelTier.T1,
        ModelTier.T1,
        "model",
        **kw,  # type: ignore[arg-type]
    )


def test_the_ring_keeps_the_newest_and_filters() -> None:
    feed = DecisionFeed(keep=5)
    for tick in range(8):
        subsystem = SubsystemName.RISK if tick % 2 else SubsystemName.HEARTBEAT
        feed.publish(record(tick, subsystem, usage=Usage(reasoning_tokens=tick)))
    assert [e.decision_id for e in feed.recent()] == [
        "risk@3.0",
        "heartbeat@4.0",
        "risk@5.0",
        "heartbeat@6.0",
        "risk@7.0",
    ]
    assert [e.decision_id for e in feed.recent(subsystem="heartbeat")] == [
        "heartbeat@4.0",
        "heartbeat@6.0",
    ]
    assert [e.reasoning_tokens for e in feed.recent(since=START + timedelta(seconds=90))] == [6, 7]
    assert [e.decision_id for e in feed.recent(decision_id="risk@5.0")] == ["risk@5.0"]
    assert len(feed.recent(limit=2)) == 2
    assert set(feed.last()) == {"heartbeat", "risk"}
    assert orjson.loads(feed.last()["risk"].line)["tick"] == 7


def test_what_it_serves_is_masked_as_the_log_is() -> None:
    feed = DecisionFeed(secrets=["sk-live-0123456789"])
    feed.publish(record(1, error="provider said: bad key sk-live-0123456789"))
    (entry,) = feed.recent()
    assert b"sk-live" not in entry.line
    assert b"[redacted]" in entry.line


async def test_a_listener_that_falls_behind_is_dropped_and_the_golem_goes_on() -> None:
    feed = DecisionFeed()
    with feed.listen() as stalled:
        for tick in range(LISTENER_BUFFER + 10):  # nobody reads: never blocks, never raises
            feed.publish(record(tick))
        assert feed.listeners == 0
        kept = [entry async for entry in stalled]  # what it had, then the end of its stream
        assert len(kept) == LISTENER_BUFFER


async def test_a_listener_that_left_costs_nothing() -> None:
    feed = DecisionFeed()
    with feed.listen() as channel:
        await channel.aclose()  # the client went away mid-stream
        feed.publish(record(1))
        assert feed.listeners == 0
    with pytest.raises(trio.ClosedResourceError):
        channel.receive_nowait()
