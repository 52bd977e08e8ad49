"""The records part of a fast-forward (golem.runtime.quiet_records): a quiet stretch's
heartbeat decisions published once as a `QuietStretch` leave every subscriber as the
decisions published one by one do. A life is lived step by step, its records kept; each
run of quiet heartbeats in it (the rules' at T0 with no event: probes that fired below
the gate θ, none a regime flip or a critical health factor) is then made again by the
part (begin, admits and step a tick, end) from what the golem had at those ticks, and
both versions are told to fresh subscribers: the simulator's tally, judgement, outcomes
and strategies; the log's sink (one line a stretch, from which the log's readers and
`golem inspect` expand the same decisions' lines); and a subscriber that does not hear
stretches (handed the records). A tick whose PE reaches its θ, and a fast-forwarded
life against the stepped one: test_quiet_gate.py."""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Iterator
from contextlib import redirect_stdout
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from golem.cli import main
from golem.mortality import ModelTier, Phase, SubsystemName, Vitals
from golem.runtime import DecisionRecord, Record, RecordStream, VirtualClock, VitalityRecord
from golem.runtime.config.load import parse_config
from golem.runtime.logs import Malformed, configure_logging, read_events
from golem.runtime.logs.tail import last_events
from golem.runtime.quiet import Stretch
from golem.runtime.quiet_records import QuietRecords
from golem.runtime.quiet_stretch import QuietStretch
from golem.runtime.store.state import StateStore
from golem.simulation.diversity import Strategies
from golem.simulation.judgement import Judgement, Rightness
from golem.simulation.outcomes import Outcomes
from golem.simulation.tally import Tally
from golem.subsystems.contract import Situation
from golem.subsystems.heartbeat import Heartbeat
from golem.subsystems.heartbeat.probes import (
    Gate,
    ProbePolicy,
    Reading,
    readings,
)
from tests.policy import HEARTBEAT
from tests.runtime.records import quiet_stretch_line
from tests.runtime.test_life import START, config, life

Run = list[DecisionRecord]  # consecutive quiet heartbeat decisions


def lived(
    root: Path, seed: int, hours: float, theta: float
) -> tuple[list[Record], Rightness, Heartbeat, ProbePolicy]:
    """A life of `hours` lived step by step: every record it published, what its
    decisions are judged by, its heartbeat subsystem and its compiled probes."""
    data = config(root).model_dump(mode="json")
    data["golem"]["seed"] = seed
    data["heartbeat"]["theta_base"] = theta  # the gate: how many ticks are quiet
    cfg = parse_config(data)
    published: list[Record] = []
    with StateStore.open(cfg.golem.state_dir) as store:
        made = life(cfg, VirtualClock(START), store, [published.append])
        trio.run(partial(made.run, duration=timedelta(hours=hours)))
        golem = made.golem
        return published, Rightness.of(golem), Heartbeat(golem.heartbeat.config), golem.probes


def quiet(record: Record) -> bool:
    """A heartbeat the rules decided on a quiet tick: T0 (PE below θ), no regime flip and
    no critical health factor among the probes that fired, no steer, observe, no event."""
    if not isinstance(record, DecisionRecord) or record.subsystem is not SubsystemName.HEARTBEAT:
        return False
    ctx, outcome = record.situation, record.outcome
    return (
        record.source == "deterministic"
        and record.tier is ModelTier.T0
        and ctx is not None
        and ctx.probes is not None
        and not ctx.probes.regime_flip
        and not ctx.probes.health_critical
        and ctx.steer is None
        and outcome is not None
        and outcome.summary in ("none: observe", "low: observe")
        and not outcome.events
        and not outcome.trades
    )


def split(records: list[Record]) -> Iterator[Record | Run]:
    """The records, each maximal run of quiet heartbeats (one a tick, nothing but
    vitality between them) as a list, the vitality records within it after it."""
    run: Run = []
    held: list[Record] = []
    for record in records:
        if quiet(record):
            assert isinstance(record, DecisionRecord)
            if run and record.tick != run[-1].tick + 1:
                yield run
                yield from held
                run, held = [], []
            run.append(record)
        elif isinstance(record, VitalityRecord) and run:
            held.append(record)
        else:
            if run:
                yield run
                yield from held
                run, held = [], []
            yield record
    if run:
        yield run
        yield from held


def fired(ctx: Situation, previous: Situation | None, policy: ProbePolicy) -> tuple[Reading, ...]:
    """The probes that fired at `ctx`'s tick (the senses part's `Stretch.fired`), as its
    probes were computed: on the tick before's market, the credits and the burn rate."""
    found = readings(
        ctx.market,
        None if previous is None else previous.market,
        credits_usd=ctx.credits_usd,
        burn_rate_usd=ctx.burn_rate_usd,
        policy=policy,
    )
    assert ctx.probes is not None and tuple(r.flag for r in found) == ctx.probes.flags
    return found


def remade(
    run: Run,
    confidence: float | None,
    heartbeat: Heartbeat,
    policy: ProbePolicy,
    previous: Situation | None,
) -> tuple[QuietStretch, float | None]:
    """`run` made again by the part from what the golem had at its ticks (`previous`:
    the situation of the heartbeat before): begin, admits and a step a tick (the
    vitality then as the vitals part leaves it), end."""
    ctxs = [r.situation for r in run]
    assert all(ctx is not None for ctx in ctxs)
    first = ctxs[0]
    assert first is not None
    now: list[Vitals] = []
    published: list[QuietStretch] = []
    kept: list[float] = []
    part = QuietRecords(
        golem_id=first.golem_id,
        heartbeat=heartbeat,
        gate=policy.gate,
        critical=policy.health_critical,
        publish=published.append,
        vitals=lambda: now[-1],
        arousal=first.mood.arousal,
        confidence=confidence,
        keep_confidence=kept.append,
        cash=first.portfolio.cash_usd,
        positions=first.portfolio.positions,
    )
    stretch = Stretch(
        first_tick=first.tick,
        times=[ctx.now for ctx in ctxs if ctx is not None],
        summaries=[ctx.market for ctx in ctxs if ctx is not None],
        equities=np.array([ctx.portfolio.equity_usd for ctx in ctxs if ctx is not None]),
    )
    for ctx in ctxs:
        assert ctx is not None
        stretch.fired.append(fired(ctx, previous, policy))
        previous = ctx
    assert all(map(part.allows, stretch.fired))  # the senses part lets them through
    n = part.begin(stretch)
    assert n == len(run)
    for i, ctx in enumerate(ctxs):
        assert ctx is not None
        now.append(Vitals(ctx.vitality, ctx.phase, 1.0, 0.5, 0.0))
        assert part.admits(i)
        assert part.step(i) == ()
    part.end(n)
    assert len(published) == 1 and kept == [part.confidence]
    return published[0], part.confidence


class Subscribers:
    """Fresh simulation subscribers, a log sink writing to `log`, and one that hears no
    stretch (it keeps the records it is handed)."""

    def __init__(self, log: Path, rightness: Rightness, clock: Callable[[], datetime]) -> None:
        self.tally, self.outcomes = Tally(START), Outcomes(START)
        self.judgement, self.strategies = Judgement(rightness), Strategies()
        self.sinks = configure_logging(now=clock, file=log, console="off")
        self.handed: list[Record] = []
        self.stream = RecordStream(
            [
                self.sinks.publish,
                self.tally,
                self.outcomes,
                self.judgement,
                self.strategies,
                self.handed.append,
            ]
        )

    def state(self) -> dict[str, Any]:
        return {
            "tally": self.tally,
            "outcomes": self.outcomes,
            "judgement": (self.judgement.summary(), self.judgement.tallies),
            "strategies": self.strategies,
        }


def check(seed: int, hours: float, theta: float = 0.3) -> tuple[int, int]:
    """Both versions of a life of `hours` against each other; how many quiet decisions
    were told in bulk, and how many of them on probes that fired (severity low)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        records, rightness, heartbeat, policy = lived(root, seed, hours, theta)
        clock = [START]
        one = Subscribers(root / "one.log", rightness, lambda: clock[0])
        bulk = Subscribers(root / "bulk.log", rightness, lambda: clock[0])
        confidence: float | None = None
        previous: Situation | None = None  # the last heartbeat's
        told, stretches = 0, []
        for item in split(records):
            if isinstance(item, list):
                stretch, after = remade(item, confidence, heartbeat, policy, previous)
                previous = item[-1].situation
                for record in item:
                    clock[0] = record.time
                    one.stream.publish(record)
                clock[0] = item[-1].time  # the driver's clock after the stretch
                bulk.stream.publish(stretch)
                stretches.append(stretch)
                # The part makes what the rules made, value for value.
                assert [r.decision for r in item] == list(stretch.decisions)
                assert [
                    r.situation.probes.theta for r in item if r.situation and r.situation.probes
                ] == list(stretch.theta)
                confidence, told = after, told + len(item)
                continue
            clock[0] = item.time
            one.stream.publish(item)
            bulk.stream.publish(item)
            if isinstance(item, DecisionRecord) and heard(item):
                confidence = float(getattr(item.decision, "confidence", 0.5))
                previous = item.situation
        assert bulk.state() == one.state()
        # A subscriber that hears no stretch is handed the records, as step by step
        # (all but the situation, which only the simulator's judges read, and they do).
        assert bulk.handed == [
            replace(r, situation=None) if isinstance(r, DecisionRecord) and quiet(r) else r
            for r in one.handed
        ]
        one.sinks.close()
        bulk.sinks.close()
        # The log: a stretch is one line naming it ...
        one_lines = (root / "one.log").read_bytes().splitlines()
        bulk_lines = (root / "bulk.log").read_bytes().splitlines()
        assert len(bulk_lines) == len(one_lines) - told + len(stretches)
        named = [orjson.loads(line) for line in bulk_lines if b'"quiet_stretch"' in line]
        assert [named_of(line) for line in named] == [stretch_of(s) for s in stretches]
        # ... from which the log's readers expand its decisions' lines, as step by step
        # (the vitality lines within a stretch follow its decisions').
        one_events = list(read_events(root / "one.log", refuse))
        bulk_events = list(read_events(root / "bulk.log", refuse))
        assert sorted(map(orjson.dumps, bulk_events)) == sorted(map(orjson.dumps, one_events))
        assert decisions(bulk_events) == decisions(one_events)
        assert (
            decisions(last_events(root / "bulk.log", "decision", 50, skip))
            == (decisions(one_events)[-50:])
        )
        # `golem inspect` reads them alike: each decision, and the summary.
        for view in (["--json", "--event", "decision"], ["--summary", "--json"]):
            assert inspected(root / "bulk.log", view) == inspected(root / "one.log", view)
        low = sum(bool(f) for stretch in stretches for f in stretch.flags)
        assert low == sum(
            str(d.severity) == "low" for stretch in stretches for d in stretch.decisions
        )
        return told, low


def named_of(line: dict[str, Any]) -> tuple[Any, ...]:
    keys = ("first_tick", "last_tick", "first_time", "last_time", "count", "summary")
    return (*(line[key] for key in keys), line["theta_min"], line["theta_max"])


def stretch_of(stretch: QuietStretch) -> tuple[Any, ...]:
    times, theta = stretch.times, stretch.theta
    severities = dict.fromkeys(str(d.severity) for d in stretch.decisions)
    return (
        stretch.first_tick,
        stretch.first_tick + len(stretch) - 1,
        times[0].isoformat(),
        times[-1].isoformat(),
        len(stretch),
        "; ".join(f"{severity}: observe" for severity in severities),
        round(min(theta), 4),
        round(max(theta), 4),
    )


def decisions(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [event for event in events if event["event"] == "decision"]


def refuse(malformed: Malformed) -> None:
    raise AssertionError(malformed)


def skip(offset: int, reason: str) -> None:
    raise AssertionError((offset, reason))


def heard(record: DecisionRecord) -> bool:
    """Whether `record`'s confidence is the golem's for the next gate (a heartbeat's)."""
    return record.subsystem is SubsystemName.HEARTBEAT and record.decision is not None


def inspected(log: Path, view: list[str]) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["inspect", str(log), *view]) == 0
    return out.getvalue()


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), theta=st.sampled_from([0.1, 0.3, 0.6]))
def test_a_stretch_told_in_bulk_leaves_every_subscriber_as_one_by_one(
    seed: int, theta: float
) -> None:
    told, low = check(seed, hours=1.0, theta=theta)
    assert told >= 20  # stretches were told
    assert low >= 1  # some of their ticks on probes that fired below the gate


async def test_the_part_of_a_living_golem_decides_on_its_vitality_and_keeps_its_confidence(
    tmp_path: Path,
) -> None:
    """`golem.decisions.quiet(golem)`: each tick's gate from the golem's vitality as it is then,
    its decisions on the golem's own stream, the rules' confidence the golem's after."""
    published: list[Record] = []
    with StateStore.open(config(tmp_path).golem.state_dir) as store:
        made = life(config(tmp_path), VirtualClock(START), store, [published.append])
        await made.run(duration=timedelta(minutes=5))
        golem = made.golem
        golem.confidence = 0.9  # a model's, say: the first quiet gate opens wider
        market = golem.window.summary()
        times = [START + timedelta(hours=1, seconds=15 * i) for i in range(3)]
        equity = golem.portfolio.equity()
        part = golem.decisions.quiet(golem)  # as the fast-forward makes it
        stretch = Stretch(golem.tick_no, times, [market] * 3, np.empty(0), np.full(3, equity))
        stretch.fired = [()] * 3  # no probe fired
        published.clear()
        assert part.begin(stretch) == 3
        thetas, gate = [], golem.probes.gate
        for i in range(2):
            vitals = golem.chart.vitals
            confidence = 0.9 if i == 0 else 0.5
            thetas.append(gate.theta(confidence, vitals.vitality, golem.mood.arousal))
            assert part.admits(i)
            assert part.step(i) == ()
        kept = [part.record(i) for i in range(2)]  # an episode's, as step by step
        part.end(2)  # the stretch ended after two ticks: the third is not told
        assert golem.confidence == 0.5
    decisions = [r for r in published if isinstance(r, DecisionRecord)]
    assert [r.tick for r in decisions] == [golem.tick_no, golem.tick_no + 1]
    assert [r.time for r in decisions] == times[:2]
    assert decisions == kept
    assert thetas[0] > thetas[1]  # the confidence behind the first gate was the model's
    assert [r.outcome.details["theta"] for r in decisions if r.outcome] == [
        round(theta, 4) for theta in thetas
    ]


def test_no_tick_is_lived_in_bulk_with_a_steer_waiting_or_a_gate_that_can_close() -> None:
    """An owner's steer makes the tick a model's review; a gate whose floor is 0 may
    close below PE 0 (the tick would not be T0): the part lives no tick of either."""
    gate = Gate(0.3, 0.5, 0.5, 0.3, 0.05, 0.8, 0.5)
    times = [START + timedelta(seconds=15 * i) for i in range(4)]

    def part(gate: Gate, steered: bool) -> QuietRecords:
        return QuietRecords(
            golem_id="g",
            heartbeat=Heartbeat(HEARTBEAT),
            gate=gate,
            critical=Reading("health_factor<1.2", 0.75),
            publish=lambda stretch: None,
            vitals=lambda: Vitals(1.0, Phase.THRIVING, 1.0, 0.5, 0.0),
            arousal=0.0,
            confidence=None,
            keep_confidence=lambda confidence: None,
            cash=100.0,
            positions={},
            steered=steered,
        )

    assert part(gate, steered=False).begin(Stretch(0, times)) == 4
    assert part(gate, steered=True).begin(Stretch(0, times)) == 0
    closing = Gate(0.3, 0.5, 0.5, 0.3, 0.0, 0.8, 0.5)
    assert part(closing, steered=False).begin(Stretch(0, times)) == 0


def test_a_quiet_stretch_line_that_cannot_be_expanded_is_skipped_with_its_line_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad input: a `quiet_stretch` line whose columns do not hold `count` decisions is
    reported in one line (where and why) and skipped; the rest of the log is read."""
    log = tmp_path / "golem.log"
    good = {"timestamp": "2026-03-01T00:00:00+00:00", "level": "info", "event": "vitality"}
    short = quiet_stretch_line("2026-03-01T00:00:30+00:00", count=2)
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in (good, short)))
    assert main(["inspect", str(log), "--json"]) == 0
    out, err = capsys.readouterr()
    assert [orjson.loads(line)["event"] for line in out.splitlines()] == ["vitality"]
    assert f"{log}:2: skipped: a quiet_stretch that cannot be expanded" in err
    assert "columns differ in length from its count" in err
