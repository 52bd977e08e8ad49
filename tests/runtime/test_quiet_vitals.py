"""The vitals chart's part of a quiet stretch ([speed], issue 40): begin, step per tick and
end leave the chart, the store's vitality rows and senescence, the published readings and
the log lines exactly as `VitalsChart.update(tick, 0.0, …)` tick by tick, including a
phase change, senescence's stages, Terminal's grace and the stochastic clock inside the
stretch (each ending it after that tick, as the driver does)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import structlog
import trio
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from golem.mortality import HazardParams, MortalityParams, MortalityPolicy, Phase, PhaseThresholds
from golem.mortality.hazard import background
from golem.mortality.vitality import (
    DeathCause,
    VitalityParams,
    age_factor,
    age_factors,
    phase_bands,
    phase_of,
)
from golem.runtime import Record, VirtualClock
from golem.runtime.golem import Golem
from golem.runtime.quiet import Stretch
from golem.runtime.quiet_vitals import QuietVitals
from golem.runtime.store.rows import iso_texts
from golem.runtime.store.state import StateStore
from golem.runtime.stream import VitalityRecord
from golem.runtime.vitals import VitalsChart
from golem.subsystems.contract import Event
from tests.runtime import test_life

BORN = datetime(2026, 3, 1, tzinfo=UTC)
BEAT = timedelta(seconds=15)


@dataclass
class Life:
    """One chart on its own store, its clock and what it published."""

    store: StateStore
    chart: VitalsChart
    published: list[VitalityRecord]
    at: list[datetime]


def life(path: Path, policy: MortalityPolicy, *, commit_every: int) -> Life:
    store = StateStore.open(path, commit_every=commit_every)
    store.fund(policy.initial_credits_usd, BORN)
    store.set_meta("born", BORN.isoformat())
    published: list[VitalityRecord] = []
    at = [BORN]
    chart = VitalsChart(
        store,
        policy,
        golem_id="g",
        now=lambda: at[0],
        publish=published.append,
        last=store.last_vitality(),
    )
    return Life(store, chart, published, at)


@dataclass(frozen=True)
class Path_:
    """The inputs of a run of quiet ticks: the prediction engine's fitness and regime
    samples after each tick's resolutions, and the portfolio's equity."""

    fitness: list[float]
    samples: list[int]
    equity: list[float]
    times: list[datetime]


def path_of(seed: int, n: int, start: float, drift: float, *, jitter: bool = False) -> Path_:
    """`jitter`: beats of 15 or 30 s (Conservation's), some a few ms late, as a scheduler
    on a virtual clock may fire them."""
    rng = random.Random(seed)
    fitness, level = [], start
    for _ in range(n):
        level = min(1.0, max(0.0, level + drift + rng.gauss(0.0, 0.01)))
        fitness.append(level)
    samples = [min(40, k // 3) for k in range(n)]
    equity = [100.0 + rng.gauss(0.0, 1.0) for _ in range(n)]
    times, at = [], BORN
    for _ in range(n):
        times.append(at)
        late = timedelta(microseconds=rng.randrange(5000)) if jitter else timedelta(0)
        at += (BEAT * rng.choice((1, 2)) if jitter else BEAT) + late
    return Path_(fitness, samples, equity, times)


def by_update(
    g: Life, p: Path_, *, first: int, start: int, n: int, reserve: float, stops: bool = True
) -> list[Any]:
    """The reference: `update` once a tick (`stops`: stopping after a tick with events or a
    cause, as the driver does)."""
    made: list[Any] = []
    for i in range(n):
        g.at[0] = p.times[start + i]
        with g.store.transaction():
            events = g.chart.update(
                first + i,
                0.0,
                lambda i=i: p.equity[start + i],  # type: ignore[misc]
                fitness=p.fitness[start + i],
                regime_samples=p.samples[start + i],
                reserve_usd=reserve,
            )
        made.append((i, list(events), g.chart.vitals.cause))
        if stops and (events or g.chart.vitals.cause is not None):
            break
    return made


def by_part(g: Life, p: Path_, *, first: int, start: int, n: int, reserve: float) -> list[Any]:
    """The part: begin, step until events or a cause, end."""
    cur = [0]
    part = QuietVitals(
        g.chart,
        fitness=lambda: p.fitness[start + cur[0]],
        regime_samples=lambda: p.samples[start + cur[0]],
        reserve_usd=reserve,
    )
    times = p.times[start : start + n]
    equities = np.array(p.equity[start : start + n])
    made: list[Any] = []
    told = len(g.published)
    with g.store.transaction():
        allowed = part.begin(Stretch(first, times, equities=equities))
        done = 0
        for i in range(min(n, allowed)):
            cur[0] = i
            events: Sequence[Event] = part.step(i)
            done = i + 1
            made.append((i, list(events), g.chart.vitals.cause))
            if events or g.chart.vitals.cause is not None:
                break
        part.end(done)
    g.at[0] = times[done - 1]
    assert all(r.late for r in g.published[told:])  # told when the stretch commits
    return made


def state(g: Life) -> dict[str, Any]:
    g.store.flush()
    chart = g.chart
    return {
        "vitals": chart.vitals,
        "senescence": chart.senescence,
        "terminal_since": chart.terminal_since,
        "logged": chart._logged,
        "last_assessed": chart._last_assessed,
        "born": chart._born,
        "rows": g.store.vitality_history(),
        "meta": g.store.get_meta("senescence"),
        "published": [replace(r, late=False) for r in g.published],  # `late`: by_part's
    }


def twin_runs(
    tmp_path: Path,
    policy: MortalityPolicy,
    p: Path_,
    *,
    warm: int,
    n: int,
    reserve: float = 0.0,
    commit_every: int = 1,
) -> tuple[list[Any], list[Any]]:
    """Two charts warmed alike by `update` over `warm` ticks, then over the next `n` one
    by `update`, the other by its part, stretch after stretch (each ending after a tick
    with events, as the driver's, the next starting there) until the ticks or the life
    run out; asserts after each that they are alike, and returns what the stretches made
    (tick, events, cause) and logged."""
    a = life(tmp_path / "a", policy, commit_every=commit_every)
    b = life(tmp_path / "b", policy, commit_every=commit_every)
    by_update(a, p, first=0, start=0, n=warm, reserve=reserve, stops=False)
    by_update(b, p, first=0, start=0, n=warm, reserve=reserve, stops=False)
    made: list[Any] = []
    logged: list[Any] = []
    at = warm
    while at < warm + n:
        span = warm + n - at
        with structlog.testing.capture_logs() as reference_lines:
            reference = by_update(a, p, first=at, start=at, n=span, reserve=reserve)
        with structlog.testing.capture_logs() as part_lines:
            part = by_part(b, p, first=at, start=at, n=span, reserve=reserve)
        assert part == reference
        assert state(b) == state(a)
        assert part_lines == reference_lines
        made += [(at + i, events, cause) for i, events, cause in reference]
        logged += reference_lines
        at += len(reference)
        if reference[-1][2] is not None:
            break
    a.store.close()
    b.store.close()
    return made, logged


def policy_of(**knobs: Any) -> MortalityPolicy:
    return MortalityParams.model_validate({"seed": 3, **knobs}).compile(seed=3)


def stretches(made: list[Any]) -> int:
    """How many stretches a run lived: each but the last ended on events or a cause."""
    ends = [bool(events) or cause is not None for _, events, cause in made]
    return sum(ends) + (not ends[-1])


def test_a_stretch_without_news_but_the_readings_matches_update(tmp_path: Path) -> None:
    p = path_of(1, 400, 0.7, 0.0)
    made, _ = twin_runs(tmp_path, policy_of(stochastic_death=False), p, warm=3, n=300)
    assert len(made) == 300 and stretches(made) == 1  # ~7 readings published on the way


def test_a_phase_change_inside_the_stretch_ends_it_after_that_tick(tmp_path: Path) -> None:
    # Fitness falling ~0.004 a tick: vitality leaves Thriving within the first stretch,
    # and the next stretch goes on from the tick after.
    p = path_of(2, 400, 0.8, -0.004)
    made, lines = twin_runs(tmp_path, policy_of(stochastic_death=False), p, warm=5, n=300)
    changes = [(tick, events) for tick, events, _ in made if events]
    assert changes and 5 < changes[0][0] < 300
    assert [e.kind for e in changes[0][1]] == ["phase_decline"]
    assert [line["event"] for line in lines][:1] == ["phase_change"]
    assert len(made) == 300  # stretch after stretch, to the end


def test_senescence_inside_the_stretch(tmp_path: Path) -> None:
    # Fitness falling below senescence's threshold while the regime is still learned
    # (Stage 1 restamped every tick, saved once at the stretch's end), back above it for a
    # tick, confirmed (Stage 2) after its grace; money low: the golem falls through the
    # phases into Terminal and dies of confirmed senescence.
    policy = policy_of(stochastic_death=False, lineage_credits_usd=8.0, senescence_grace="2m")
    p = path_of(3, 700, 0.6, -0.003)
    made, lines = twin_runs(tmp_path, policy, p, warm=2, n=690)
    stages = [line["stage"] for line in lines if line["event"] == "senescence"]
    assert stages == ["warning", "normal", "warning", "senescent"]
    kinds = [e.kind for _, events, _ in made for e in events]
    assert kinds[-2:] == ["phase_decline", "death_approach"]
    assert made[-1][2] is DeathCause.EPISTEMIC and stretches(made) == 4


def test_terminal_grace_runs_out_inside_a_stretch(tmp_path: Path) -> None:
    # Fitness near 0 (senescence off): vitality ~0.04, Terminal, and its 5 minutes of
    # grace run out twenty ticks into the stretch after the one that entered it.
    policy = policy_of(
        stochastic_death=False,
        lineage_credits_usd=8.0,
        senescence_threshold=0.0,
        terminal_grace="5m",
    )
    p = path_of(7, 400, 0.2, -0.01)
    made, _ = twin_runs(tmp_path, policy, p, warm=2, n=390)
    entered = next(tick for tick, events, _ in made if Event("death_approach") in events)
    assert made[-1][2] is DeathCause.TERMINAL and made[-1][0] == entered + 20


def test_the_stochastic_clock_draws_the_same_death(tmp_path: Path) -> None:
    # ~1% a tick: the hazard fires inside a long stretch, on the same tick either way.
    policy = policy_of(hazard={"makeham": 0.02, "cap": 0.05})
    p = path_of(4, 1200, 0.7, 0.0)
    made, _ = twin_runs(tmp_path, policy, p, warm=1, n=1000)
    assert made[-1][2] is DeathCause.STOCHASTIC and stretches(made) == 1


def test_held_writes_and_an_immortal_golem(tmp_path: Path) -> None:
    # A batch holding the writes (commit_every > 1), the reserve counted, and the control
    # group: held at 1.0 and Thriving while its clocks are measured.
    p = path_of(5, 200, 0.5, -0.002)
    twin_runs(tmp_path / "batch", policy_of(), p, warm=4, n=150, reserve=0.5, commit_every=50)
    made, _ = twin_runs(tmp_path / "immortal", policy_of(policy="immortal"), p, warm=4, n=150)
    assert len(made) == 150 and stretches(made) == 1


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    start=st.floats(0.0, 1.0),
    drift=st.floats(-0.01, 0.01),
    warm=st.integers(0, 30),
    lineage=st.floats(5.0, 40.0),
    makeham=st.sampled_from([0.0, 1e-6, 1e-3]),
)
def test_any_seed_and_path(
    tmp_path_factory: Any,
    *,
    seed: int,
    start: float,
    drift: float,
    warm: int,
    lineage: float,
    makeham: float,
) -> None:
    policy = policy_of(
        lineage_credits_usd=lineage,
        hazard={"makeham": makeham, "cap": 0.01},
        senescence_grace="3m",
        terminal_grace="10m",
    )
    p = path_of(seed, 260, start, drift)
    made, _ = twin_runs(tmp_path_factory.mktemp("any"), policy, p, warm=warm, n=200)
    assert len(made) == 200 or made[-1][2] is not None  # stretch after stretch, or death


def test_irregular_beats_and_a_first_stretch(tmp_path: Path) -> None:
    # Beats of 15 and 30 s, some late by microseconds; the chart's very first tick (no
    # birth recorded, no last assessment) inside the stretch.
    policy = policy_of(hazard={"makeham": 1e-3})
    p = path_of(6, 300, 0.6, -0.001, jitter=True)
    twin_runs(tmp_path / "jitter", policy, p, warm=3, n=290)
    twin_runs(tmp_path / "first", policy, p, warm=0, n=290)


@settings(max_examples=200, deadline=None)
@given(
    ages=st.lists(st.integers(0, 400 * 86_400 * 10**6), min_size=1, max_size=20),
    horizon_s=st.integers(3600, 400 * 86_400),
    weight=st.floats(0.0, 1.0),
)
def test_age_factors_are_age_factor_value_for_value(
    ages: list[int], horizon_s: int, weight: float
) -> None:
    params = VitalityParams(age_weight=weight, age_horizon=timedelta(seconds=horizon_s))
    expected = [age_factor(timedelta(microseconds=a), params) for a in ages]
    assert age_factors(np.array(ages, dtype=np.int64), params) == expected
    hazard = HazardParams(ageing=weight * 1e-3)
    seconds = (np.array(ages, dtype=np.int64) / 1e6).tolist()
    assert seconds == [timedelta(microseconds=a).total_seconds() for a in ages]
    assert [background(s, hazard) for s in seconds] == [
        background(timedelta(microseconds=a).total_seconds(), hazard) for a in ages
    ]


def lived_golem(root: Path, published: list[Record]) -> tuple[Golem, VirtualClock, StateStore]:
    """A golem after 40 minutes lived step by step (tests/runtime/test_life's)."""
    cfg = test_life.config(root)
    clock = VirtualClock(test_life.START)
    store = StateStore.open(cfg.golem.state_dir)
    made = test_life.life(cfg, clock, store, [published.append])
    trio.run(partial(made.run, duration=timedelta(minutes=40)))
    return made.golem, clock, store


def test_the_charts_part_of_a_golem_reads_its_oracle_and_reserve(tmp_path: Path) -> None:
    # Two golems lived alike; the next 60 heartbeats' vitality by `update` (as
    # `Golem._update_vitals` calls it) on one and by `chart.quiet(golem)` on the other.
    published_a: list[Record] = []
    published_b: list[Record] = []
    a, clock_a, store_a = lived_golem(tmp_path / "a", published_a)
    b, _, store_b = lived_golem(tmp_path / "b", published_b)
    assert a.tick_no == b.tick_no > 100 and a.reserve_usd > 0
    first, beat = a.tick_no, timedelta(seconds=15)
    times = [clock_a.now() + beat * (k + 1) for k in range(60)]
    del published_a[:], published_b[:]
    with store_a.transaction():
        for at in times:
            clock_a.jump_to(at)
            assert a._update_vitals(0.0) == []
            a.tick_no += 1
    part = b.chart.quiet(b)
    equities = np.full(60, b.portfolio.equity())
    with store_b.transaction():
        assert part.begin(Stretch(first, times, equities=equities)) == 60
        for i in range(60):
            assert part.step(i) == ()
        part.end(60)
    assert b.vitals == a.vitals and b.chart.senescence == a.chart.senescence
    assert store_b.vitality_history(first) == store_a.vitality_history(first)
    assert len(store_a.vitality_history(first)) == 60
    assert all(r.late for r in published_b)  # told when the stretch commits
    assert [replace(r, late=False) for r in published_b] == published_a and published_a
    store_a.close()
    store_b.close()


@settings(max_examples=200, deadline=None)
@given(
    times=st.lists(
        st.datetimes(
            min_value=datetime(1900, 1, 1),
            max_value=datetime(2200, 1, 1),
            timezones=st.sampled_from([UTC, timezone(timedelta(hours=5, minutes=30))]),
        ),
        max_size=10,
    )
)
def test_iso_texts_are_the_stored_times_texts(times: list[datetime]) -> None:
    assert iso_texts(times) == [t.astimezone(UTC).isoformat() for t in times]


@settings(max_examples=300, deadline=None)
@given(
    vitality=st.floats(0.0, 1.0),
    previous=st.sampled_from(list(Phase)),
    hysteresis=st.sampled_from([0.0, 0.05, 0.2]),
)
def test_inside_its_band_a_phase_holds(vitality: float, previous: Phase, hysteresis: float) -> None:
    thresholds = PhaseThresholds(hysteresis=hysteresis)
    low, high = phase_bands(thresholds)[previous]
    held = phase_of(vitality, previous, thresholds) is previous
    assert held or not low <= vitality < high  # the part's shortcut is phase_of's answer
    assert (low <= vitality < high) == (phase_of(vitality, None, thresholds) is previous)
