"""Quiet ticks on probes that fired below the gate (golem.runtime.quiet_records, the
driver's `admits`): the records part decides them as the rules do (severity low, their PE
and flags on the record and the log line), a tick whose PE reaches its θ ends the stretch
before it (lived step by step), and a fast-forwarded life decides every heartbeat and
keeps every episode as the life lived one tick at a time. A `quiet_stretch` line written
before such ticks were quiet still reads (PE 0.0, no flag)."""

from __future__ import annotations

import math
from datetime import timedelta
from functools import partial
from pathlib import Path

import numpy as np
import orjson
import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from golem.cli import main
from golem.mortality import ModelTier, Phase, SubsystemName, Vitals
from golem.runtime import DecisionRecord, Record, VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.life import assemble
from golem.runtime.logs.quiet import expanded
from golem.runtime.options import LifeOptions
from golem.runtime.quiet import Stretch
from golem.runtime.quiet_records import QuietRecords
from golem.runtime.quiet_stretch import QuietStretch
from golem.runtime.store.state import StateStore
from golem.subsystems.heartbeat import Heartbeat
from golem.subsystems.heartbeat.probes import (
    Gate,
    GateParams,
    ProbePolicy,
    ProbeThresholds,
    Reading,
    health_flag,
)
from golem.world import Episode, MarketSummary, PriceBand
from tests.policy import HEARTBEAT
from tests.runtime.records import quiet_stretch_line
from tests.runtime.test_life import START, config, routes


def part_on(gate: Gate, published: list[QuietStretch], critical: Reading) -> QuietRecords:
    """A records part of a thriving golem at vitality 1 and calm mood, before any decision."""
    return QuietRecords(
        golem_id="g",
        heartbeat=Heartbeat(HEARTBEAT),
        gate=gate,
        critical=critical,
        publish=published.append,
        vitals=lambda: Vitals(1.0, Phase.THRIVING, 1.0, 0.5, 0.0),
        arousal=0.0,
        confidence=None,
        keep_confidence=lambda confidence: None,
        cash=100.0,
        positions={},
    )


def test_a_tick_whose_probes_reach_the_gate_ends_the_stretch_before_it() -> None:
    """Probes below θ: the rules' decision, severity low, its PE and flags on the record
    and the line; a tick whose PE reaches θ is not admitted (the stretch ends before it,
    the step-by-step tick lives it), nor decided by the part; a flip or a critical health
    factor is not let through at all, nor probes at θ's largest (at vitality 1)."""
    policy = ProbePolicy.of(HEARTBEAT.probes)
    gate = policy.gate  # θ = 0.375 here: base 0.3, confidence 0.5 by default
    assert gate.theta(None, 1.0, 0.0) == pytest.approx(0.375)
    light, minor, major = policy.above, policy.price_minor, policy.price_major
    change = policy.band_moves[PriceBand.WITHIN, PriceBand.ABOVE]
    flip = policy.band_moves[PriceBand.BELOW, PriceBand.ABOVE]
    published: list[QuietStretch] = []
    part = part_on(gate, published, policy.health_critical)
    assert part.allows((light,)) and part.allows((minor, change))
    assert not part.allows((flip,)) and not part.allows((policy.health_critical,))
    # Not let through either: a PE at or above the largest θ of the stretch (vitality 1).
    heavy = (major, policy.volume_spike, change, policy.runway_low)  # PE 0.9
    assert not part.allows(heavy) and not part.allows((major,))  # PE 0.5 >= θ 0.375
    assert part.allows((policy.volume_spike, change))  # PE 0.25
    times = [START + timedelta(seconds=15 * i) for i in range(4)]
    market = MarketSummary(0, START, 100.0, None, None, None, None, None, None)
    stretch = Stretch(0, times, [market] * 4, np.empty(0), np.full(4, 100.0))
    stretch.fired = [(), (minor, change), (major,), ()]  # PE 0, 0.25, 0.5 (>= θ), 0
    assert part.begin(stretch) == 4
    assert part.admits(0) and part.step(0) == ()
    assert part.admits(1) and part.step(1) == ()
    assert not part.admits(2)
    with pytest.raises(ValueError, match="not quiet"):
        part.step(2)
    part.end(2)
    (told,) = published
    assert list(told.errors) == [0.0, 0.25] and list(told.flags) == [(), (minor.flag, change.flag)]
    # The rules' decisions (as the life's test shows, those `deterministic` makes).
    assert [d.rationale for d in told.decisions] == [
        "rules: PE 0.00 against θ 0.38; no probe fired",
        f"rules: PE 0.25 against θ 0.38; {minor.flag}, {change.flag}",
    ]
    assert [str(d.severity) for d in told.decisions] == ["none", "low"]
    record = list(told.records())[1]
    assert record.outcome is not None and record.outcome.summary == "low: observe"
    assert record.outcome.details["flags"] == [minor.flag, change.flag]
    assert record.outcome.details["prediction_error"] == 0.25
    line = told.fields()
    assert line["summary"] == "none: observe; low: observe"
    assert line["ticks"]["prediction_error"] == [0.0, 0.25]
    assert line["ticks"]["flags"] == [[], [minor.flag, change.flag]]


def heartbeats(
    root: Path, seed: int, hours: float, theta: float, forward: bool
) -> tuple[list[DecisionRecord], list[QuietStretch], list[Episode]]:
    """A life's heartbeat decisions (a stretch's as its records), its stretches and the
    episodes it stored."""
    data = config(root).model_dump(mode="json")
    data["golem"]["seed"] = seed
    data["heartbeat"]["theta_base"] = theta
    cfg = parse_config(data)
    published: list[Record | QuietStretch] = []

    class Kept:  # hears stretches whole
        def __call__(self, record: Record) -> None:
            published.append(record)

        def hear_quiet(self, stretch: QuietStretch) -> None:
            published.append(stretch)

    options = LifeOptions(resumable=False, fast_forward=forward)
    with StateStore.open(cfg.golem.state_dir) as store:
        made, _ = assemble(
            cfg,
            clock=VirtualClock(START),
            store=store,
            routes=routes()[0],
            options=options,
            subscribers=[Kept()],
        )
        trio.run(partial(made.run, duration=timedelta(hours=hours)))
        episodes = store.episodes()
    stretches = [r for r in published if isinstance(r, QuietStretch)]
    told: list[DecisionRecord] = []
    for item in published:
        for record in item.records() if isinstance(item, QuietStretch) else (item,):
            if isinstance(record, DecisionRecord) and record.subsystem is SubsystemName.HEARTBEAT:
                told.append(replace(record, situation=None))
    return told, stretches, episodes


def test_a_fast_forwarded_life_lives_each_tick_at_the_gate_step_by_step(
    tmp_path: Path,
) -> None:
    """The driver asks the part before each tick: a life fast-forwarded decides every
    heartbeat as the one lived step by step (value for value, but for the situation a
    stretch does not carry), its stretches hold ticks whose probes fired below θ, and
    some end just before a tick whose probes reach θ (a model's tier, lived alone). The
    episodes of its quiet ticks keep their real decision (severity low on fired probes)."""
    one, _, kept = heartbeats(tmp_path / "step", 7, 1.0, 0.1, forward=False)
    bulk, stretches, episodes = heartbeats(tmp_path / "forward", 7, 1.0, 0.1, forward=True)
    assert bulk == one
    assert episodes == kept
    lived = {s.first_tick + i for s in stretches for i in range(len(s))}
    assert any(
        e.observation.tick in lived and e.decision.rationale.startswith("low:") for e in episodes
    )
    assert any(flags for stretch in stretches for flags in stretch.flags)
    first = {r.tick: r for r in reversed(one)}  # each tick's first run
    after = [first[s.first_tick + len(s)] for s in stretches if s.first_tick + len(s) in first]
    # Ticks the senses let through (no flip, no critical health, PE below the ceiling)
    # but whose PE reached their θ: only the records part's `admits` stops before them.
    critical = health_flag(ProbeThresholds().health_critical)
    assert any(
        r.tier_asked is not ModelTier.T0
        and r.outcome is not None
        and r.outcome.details["prediction_error"] < GateParams().ceiling
        and not any(
            f.startswith("regime_flip") or f == critical for f in r.outcome.details["flags"]
        )
        for r in after
    )


def test_a_quiet_stretch_line_of_ticks_with_no_probe_columns_reads_as_pe_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A line written before quiet ticks could fire probes (no `prediction_error`,
    `flags` or `summaries`) expands to decisions at PE 0.0, no flag, and its summary;
    one whose `summaries` do not match its decisions is skipped, its line named."""
    old = quiet_stretch_line("2026-03-01T00:00:15+00:00", count=1)
    bad = {**old, "summaries": ["none: observe", "low: observe"]}
    log = tmp_path / "golem.log"
    log.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in (old, bad)))
    assert main(["inspect", str(log), "--json"]) == 0
    out, err = capsys.readouterr()
    (line,) = [orjson.loads(text) for text in out.splitlines()]
    assert line["event"] == "decision" and line["summary"] == "none: observe"
    assert line["prediction_error"] == 0.0 and line["flags"] == []
    assert f"{log}:2: skipped: a quiet_stretch that cannot be expanded" in err
    assert "summaries differ in number from its decisions" in err


def test_a_stretch_line_states_its_numbers_unrounded_and_reads_as_the_lines_round_them() -> None:
    """The line keeps each tick's vitality, θ, PE and market numbers as computed; its
    decisions' lines, expanded, state them rounded as `Heartbeat.act` and the record's
    line do (θ and PE to 4 places, the rest to 6), and a line written with them rounded
    (an older writer's) expands to the same lines."""
    policy = ProbePolicy.of(HEARTBEAT.probes)
    published: list[QuietStretch] = []
    part = part_on(policy.gate, published, policy.health_critical)
    part._vitals = lambda: Vitals(0.123456789, Phase.THRIVING, 1.0, 0.5, 0.0)
    times = [START + timedelta(seconds=15 * i) for i in range(2)]
    market = MarketSummary(0, START, 100.0, 1 / 3, 2 / 3, -1 / 7, 3.3333333, None, 1 / 9)
    stretch = Stretch(0, times, [market] * 2, np.empty(0), np.full(2, 100.0))
    stretch.fired = [(), (policy.above,)]
    assert part.begin(stretch) == 2 and part.admits(0) and part.admits(1)
    part.end(2)
    line = orjson.loads(orjson.dumps(published[0].fields()))
    ticks = line["ticks"]
    assert ticks["vitality"] == [0.123456789] * 2 and ticks["market"][0]["zscore"] == -1 / 7
    rounded = {
        **line,
        "ticks": {
            **ticks,
            "vitality": [round(v, 6) for v in ticks["vitality"]],
            "theta": [round(t, 4) for t in ticks["theta"]],
            "prediction_error": [round(e, 4) for e in ticks["prediction_error"]],
            "market": [{k: round(v, 6) for k, v in m.items()} for m in ticks["market"]],
        },
    }
    lines = expanded(line)
    assert lines == expanded(rounded)
    assert [each["vitality"] for each in lines] == [0.123457] * 2
    assert [each["theta"] for each in lines] == [round(t, 4) for t in ticks["theta"]]
    assert lines[1]["prediction_error"] == policy.above.weight
    assert lines[0]["market"] == {
        "price_delta": 0.666667,
        "price_delta_tick": 0.333333,
        "zscore": -0.142857,
        "volume_ratio": 3.333333,
        "health_factor": 0.111111,
    }


_OFF = (-1e-9, -2e-9, -1e-10, 0.0, 1e-10, 1e-9, 2e-9)


def edge(k: int, ulps: int) -> float:
    """A θ a few floats off the edge where its 2 places turn (k.5 hundredths)."""
    theta = (k + 0.5) / 100
    for _ in range(abs(ulps)):
        theta = math.nextafter(theta, math.inf if ulps > 0 else -math.inf)
    return theta


@settings(max_examples=60, deadline=None)
@given(
    ticks=st.lists(
        st.tuples(
            st.floats(0.05, 0.8)
            | st.builds(edge, st.integers(5, 79), st.integers(-3, 3))
            | st.builds(
                lambda k, d: (k + 0.5) / 100 + d, st.integers(5, 79), st.sampled_from(_OFF)
            ),
            st.sampled_from([(0.0, ()), (0.02, ("outside_band:above",)), (0.1, ("x", "y"))]),
        ),
        min_size=1,
        max_size=40,
    ),
)
def test_the_rules_quiet_decision_given_again_is_the_one_a_new_heartbeat_makes(
    ticks: list[tuple[float, tuple[float, tuple[str, ...]]]],
) -> None:
    """`Heartbeat.quiet` gives the last decision it made on the same PE and flags again
    for a θ its rationale states alike: for every θ (the edges where the stated θ turns
    included) and probes fired in any order it is the decision a heartbeat that never
    decided makes, rationale and all."""
    heartbeat = Heartbeat(HEARTBEAT)
    for theta, (error, flags) in sorted(ticks) + ticks:
        assert heartbeat.quiet(theta, error, flags) == Heartbeat(HEARTBEAT).quiet(
            theta, error, flags
        )


@settings(max_examples=200, deadline=None)
@given(
    confidence=st.none() | st.floats(-0.5, 1.5),
    vitality=st.floats(-0.5, 1.5),
    arousal=st.floats(-2.0, 2.0),
    params=st.builds(
        GateParams,
        base=st.floats(0.01, 1.0),
        confidence_weight=st.floats(0.0, 2.0),
        vitality_weight=st.floats(0.0, 1.0),
        arousal_weight=st.floats(0.0, 1.0),
        floor=st.floats(0.0, 0.2),
        ceiling=st.floats(0.3, 1.0),
    ),
)
def test_theta_by_vitality_is_theta_to_the_last_bit(
    confidence: float | None, vitality: float, arousal: float, params: GateParams
) -> None:
    """The records part's θ (`Gate.by_vitality`, the confidence and mood held) is the
    step-by-step tick's `Gate.theta`, bit for bit."""
    gate = Gate.of(params)
    assert gate.by_vitality(confidence, arousal)(vitality) == gate.theta(
        confidence, vitality, arousal
    )
