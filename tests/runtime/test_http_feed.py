"""The status endpoint's decision feed (a bounded ring, filters, masking as the log masks,
listeners that can neither block nor fail the golem that publishes) and /events over it,
as an ASGI response on trio's mock clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import orjson
import pytest
import trio
from starlette.types import Message, Scope

from golem.inference import Usage
from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime.http import LISTENER_BUFFER, DecisionEvents, DecisionFeed
from golem.runtime.record import DecisionRecord

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


async def test_events_sends_the_wanted_decisions_keeps_alive_and_lets_go(
    autojump_clock: trio.testing.MockClock,
) -> None:
    feed = DecisionFeed()
    sent: list[Message] = []
    left = trio.Event()
    scope: Scope = {"type": "http"}

    async def receive() -> Message:
        await left.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    events = DecisionEvents(feed, "risk", keep_alive=15.0)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(events, scope, receive, send)
        await trio.sleep(1)
        assert feed.listeners == 1
        feed.publish(record(1, SubsystemName.HEARTBEAT))  # not wanted: no byte, no reset
        await trio.sleep(10)
        feed.publish(record(2, SubsystemName.RISK))  # t=11: the quiet runs from here
        await trio.sleep(14)
        assert len(sent) == 3  # no keep-alive yet at t=25
        await trio.sleep(2)
        left.set()  # the client leaves at t=27
    assert feed.listeners == 0
    start, *bodies = sent
    assert start["type"] == "http.response.start"
    headers = dict(start["headers"])
    assert headers[b"content-type"].startswith(b"text/event-stream")
    assert b"content-length" not in headers
    chunks = [body["body"] for body in bodies]
    assert chunks[0] == b": golem decisions\n\n"
    assert chunks[1].startswith(b"event: decision\ndata: {")
    assert orjson.loads(chunks[1].split(b"data: ")[1])["subsystem"] == "risk"
    assert chunks[2:] == [b": keep-alive\n\n"]  # at t=26
