"""A judge's call is timed like the first call: its record holds the latency measured
(its provider's, else the time until it answered or failed), and its span lasts that long,
after the first call's; a judge's call that went out and failed billing nothing is told
from one that was never funded (the first has a span, an error; the second none). Under a
real clock a tick's decisions follow one another on the trace: each record says when its
run began, after the tick's time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import trio
import trio.testing
from msgspec.structs import replace as evolve

from golem.inference import FinishReason, Response, ServerError
from golem.inference.pricing import Price
from golem.inference.scripted import ScriptedProvider
from golem.inference.types import Request
from golem.runtime.clock import VirtualClock
from golem.runtime.decide import Decisions, decide
from golem.runtime.life import assemble
from golem.runtime.record import DecisionRecord
from golem.runtime.spans import trace_of
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record
from tests.runtime.test_http import config
from tests.runtime.test_verify import (
    REJECTION,
    VERIFYING,
    approval,
    proposing,
    provider,
    verified_by,
)
from tests.subsystems.support import NOW, PRICE, budgeting


@dataclass
class Slow(ScriptedProvider):
    """A scripted provider that takes `seconds` (on trio's clock) to answer or fail, and
    does not time itself, as a local model or a test double may not."""

    seconds: float = 0.0

    async def complete(self, request: Request) -> Response:
        await trio.sleep(self.seconds)
        return await super().complete(request)


def _timed(content: str, seconds: float) -> Response:
    return Response(content=content, finish_reason=FinishReason.STOP, latency_s=seconds)


async def test_a_judge_s_call_lasts_its_latency_after_the_first_s() -> None:
    first = provider("first", _timed(approval(150.0), 1.5))
    second = provider("second", _timed(REJECTION, 0.75))
    record = await decide(VERIFYING, proposing(200.0), verified_by(first, second))
    assert record.verification is not None
    assert (record.verification.sent, record.verification.latency_s) == (True, 0.75)
    planned = trace_of(record)
    asked, judged = planned.calls
    assert (asked.start, asked.end) == (record.time, record.time + timedelta(seconds=1.5))
    assert (judged.start, judged.end) == (asked.end, asked.end + timedelta(seconds=0.75))
    assert judged.attributes["golem.call"] == "verify" and judged.error is None
    assert planned.decision.end == judged.end  # the decision ends with its last call


async def test_a_judge_that_does_not_time_itself_is_timed_by_the_golem(
    autojump_clock: trio.testing.MockClock,
) -> None:
    first = provider("first", approval(150.0))
    second = Slow([REJECTION], name="second", model="second-1", price=PRICE, seconds=12.0)
    record = await decide(VERIFYING, proposing(200.0), verified_by(first, second))
    assert record.verification is not None and record.verification.agreed is False
    assert record.verification.latency_s == 12.0
    _, judged = trace_of(record).calls
    assert judged.end - judged.start == timedelta(seconds=12)


async def test_a_failed_judge_call_that_billed_nothing_is_told_from_an_unfunded_one(
    autojump_clock: trio.testing.MockClock,
) -> None:
    first = provider("first", approval(150.0))
    down = [ServerError("down", provider="second", status=503)] * 3
    failing = Slow(down, name="second", model="second-1", price=PRICE, seconds=30.0)
    failed = await decide(VERIFYING, proposing(200.0), verified_by(first, failing))
    judged = failed.verification
    assert judged is not None and judged.cost_usd == 0 and judged.usage.total_tokens == 0
    assert judged.sent and judged.agreed is None and judged.latency_s == 30.0  # one attempt
    _, call = trace_of(failed).calls  # sent: a span, an error, however little it billed
    assert call.error is not None and call.error.startswith("server_error")
    assert call.attributes["error.type"] == "server_error"
    assert call.attributes["golem.cost_usd"] == 0
    assert call.end - call.start == timedelta(seconds=judged.latency_s)

    first = provider("first", approval(150.0))
    dear = Price(input=1e5, output=1e5)  # USD per million tokens: far beyond risk's line
    unfunded = await decide(
        VERIFYING, proposing(200.0), verified_by(first, provider("second"), price=dear)
    )
    assert unfunded.verification is not None and not unfunded.verification.sent
    assert unfunded.verification.skipped is not None
    assert unfunded.verification.skipped.startswith("not funded")
    assert [c.attributes["golem.call"] for c in trace_of(unfunded).calls] == ["first"]


class MovingClock:
    """A real clock's stand-in: its time moves when a provider says a call took time."""

    def __init__(self, now: datetime) -> None:
        self.at = now

    def now(self) -> datetime:
        return self.at


def _taking(clock: MovingClock, content: str, seconds: float) -> Callable[[Request], Response]:
    def answer(_: Request) -> Response:
        clock.at += timedelta(seconds=seconds)
        return _timed(content, seconds)

    return answer


async def test_a_tick_s_decisions_follow_one_another_on_a_real_clock() -> None:
    """Two runs on one tick's context (as risk's follows the heartbeat's): the second
    began when the first's call had ended, and its span starts there, not at the tick's
    time; on a clock that did not move (a simulation's) the record is as before."""
    clock = MovingClock(NOW)
    first = provider(
        "first", _taking(clock, approval(150.0), 2.0), _taking(clock, approval(100.0), 3.0)
    )
    published: list[DecisionRecord] = []
    decisions = Decisions(budgeting(first), None, published.append, clock.now)
    ctx = proposing(200.0)
    one = await decisions.run(VERIFYING, ctx)
    two = await decisions.run(VERIFYING, evolve(ctx, run=1))
    assert published == [one, two]
    assert one.time == two.time == NOW  # the tick's time, as logged
    assert (one.began, two.began) == (None, NOW + timedelta(seconds=2))
    spans = [trace_of(record).decision for record in (one, two)]
    assert (spans[0].start, spans[0].end) == (NOW, NOW + timedelta(seconds=2))
    assert (spans[1].start, spans[1].end) == (spans[0].end, NOW + timedelta(seconds=5))
    assert trace_of(two).calls[0].start == spans[1].start

    still = provider("first", approval(150.0))
    fixed = Decisions(budgeting(still), None, published.append, lambda: NOW)  # a sim's
    assert (await fixed.run(VERIFYING, ctx)).began is None


class DriftingClock(VirtualClock):
    """A virtual clock that, like a real one, has moved on each time it is read."""

    def now(self) -> datetime:
        return self.advance(timedelta(milliseconds=1))


async def test_a_golem_says_when_each_of_its_runs_began(tmp_path: Path) -> None:
    published: list[DecisionRecord] = []

    def keep(record: Record) -> None:
        if isinstance(record, DecisionRecord):
            published.append(record)

    cfg = config(tmp_path)
    with StateStore.open(cfg.golem.state_dir) as store:
        clock = DriftingClock(NOW)
        life, pool = assemble(cfg, clock=clock, store=store, environ={}, subscribers=[keep])
        assert pool is not None
        try:
            await life.run(duration=timedelta(minutes=5))
        finally:
            await pool.aclose()
    assert len(published) >= 10
    for record in published:
        assert record.began is not None and record.began > record.time
        assert trace_of(record).decision.start == record.began
