"""The vitals chart's part of a quiet stretch ([speed], issue 40): begin, step per tick and
end leave the chart, the store's vitality rows and senescence, the published readings and
the log lines exactly as `VitalsChart.update(tick, 0.0, …)` tick by tick, including a
phase change, senescence's stages, Terminal's grace and the stochastic clock inside the
stretch (each ending it after that tick, as the driver does)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import structlog
from hypothesis import given, settings
from hypothesis import strategies as st

from golem.mortality import MortalityParams, MortalityPolicy
from golem.mortality.vitality import DeathCause
from golem.runtime.quiet import Stretch
from golem.runtime.store.state import StateStore
from golem.runtime.stream import VitalityRecord
from golem.runtime.vitals import VitalsChart
from golem.subsystems.contract import Event

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


def path_of(seed: int, n: int, start: float, drift: float) -> Path_:
    rng = random.Random(seed)
    fitness, level = [], start
    for _ in range(n):
        level = min(1.0, max(0.0, level + drift + rng.gauss(0.0, 0.01)))
        fitness.append(level)
    samples = [min(40, k // 3) for k in range(n)]
    equity = [100.0 + rng.gauss(0.0, 1.0) for _ in range(n)]
    return Path_(fitness, samples, equity)


def by_update(g: Life, p: Path_, *, first: int, start: int, n: int, reserve: float) -> list[Any]:
    """The reference: `update` once a tick, stopping after a tick with events or a cause."""
    made: list[Any] = []
    for i in range(n):
        g.at[0] = BORN + (start + i) * BEAT
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
        if events or g.chart.vitals.cause is not None:
            break
    return made


def by_part(g: Life, p: Path_, *, first: int, start: int, n: int, reserve: float) -> list[Any]:
    """The part: begin, step until events or a cause, end."""
    cur = [0]
    part = g.chart.quiet(
        fitness=lambda: p.fitness[start + cur[0]],
        regime_samples=lambda: p.samples[start + cur[0]],
        reserve_usd=reserve,
    )
    times = [BORN + (start + i) * BEAT for i in range(n)]
    equities = np.array(p.equity[start : start + n])
    made: list[Any] = []
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
        "published": list(g.published),
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
    """Two charts warmed alike by `update`, then one by `update`, the other by its part,
    over the same `n` quiet ticks; asserts they end alike and returns what each made."""
    a = life(tmp_path / "a", policy, commit_every=commit_every)
    b = life(tmp_path / "b", policy, commit_every=commit_every)
    by_update(a, p, first=0, start=0, n=warm, reserve=reserve)
    by_update(b, p, first=0, start=0, n=warm, reserve=reserve)
    with structlog.testing.capture_logs() as reference_lines:
        reference = by_update(a, p, first=warm, start=warm, n=n, reserve=reserve)
    with structlog.testing.capture_logs() as part_lines:
        part = by_part(b, p, first=warm, start=warm, n=n, reserve=reserve)
    assert part == reference
    assert state(b) == state(a)
    assert part_lines == reference_lines
    a.store.close()
    b.store.close()
    return reference, reference_lines


def policy_of(**knobs: Any) -> MortalityPolicy:
    return MortalityParams.model_validate({"seed": 3, **knobs}).compile(seed=3)


def test_a_stretch_without_news_but_the_readings_matches_update(tmp_path: Path) -> None:
    p = path_of(1, 400, 0.7, 0.0)
    made, _ = twin_runs(tmp_path, policy_of(stochastic_death=False), p, warm=3, n=300)
    assert len(made) == 300  # nothing ended it: ~7 readings published on the way


def test_a_phase_change_inside_the_stretch_ends_it_after_that_tick(tmp_path: Path) -> None:
    # Fitness falling ~0.004 a tick: vitality leaves Thriving within the stretch.
    p = path_of(2, 400, 0.8, -0.004)
    made, lines = twin_runs(tmp_path, policy_of(stochastic_death=False), p, warm=5, n=300)
    last, events, cause = made[-1]
    assert 0 < last < 299 and cause is None
    assert [e.kind for e in events] == ["phase_decline"]
    assert [line["event"] for line in lines] == ["phase_change"]


def test_senescence_and_terminal_inside_the_stretch(tmp_path: Path) -> None:
    # Fitness near zero, money almost gone: senescence starts (logged, saved once), the
    # golem falls through the phases to Terminal and dies of its grace.
    policy = policy_of(
        stochastic_death=False,
        lineage_credits_usd=20.0,
        senescence_grace="2m",
        terminal_grace="5m",
    )
    p = path_of(3, 600, 0.3, -0.01)
    a_made: list[Any] = []
    warm = 2
    while warm < 500:
        made, _ = twin_runs(tmp_path / str(warm), policy, p, warm=warm, n=600 - warm)
        a_made += made
        if made[-1][2] is not None:
            break
        warm += made[-1][0] + 1
    causes = [cause for _, _, cause in a_made if cause is not None]
    kinds = [e.kind for _, events, _ in a_made for e in events]
    assert "death_approach" in kinds
    assert causes and causes[-1] in (DeathCause.TERMINAL, DeathCause.EPISTEMIC)


def test_the_stochastic_clock_draws_the_same_death(tmp_path: Path) -> None:
    # ~1% a tick: the hazard fires inside a long stretch, on the same tick either way.
    policy = policy_of(hazard={"makeham": 0.02, "cap": 0.05})
    p = path_of(4, 1200, 0.7, 0.0)
    made, _ = twin_runs(tmp_path, policy, p, warm=1, n=1000)
    assert made[-1][2] is DeathCause.STOCHASTIC


def test_held_writes_and_an_immortal_golem(tmp_path: Path) -> None:
    # A batch holding the writes (commit_every > 1), the reserve counted, and the control
    # group: held at 1.0 and Thriving while its clocks are measured.
    p = path_of(5, 200, 0.5, -0.002)
    twin_runs(tmp_path / "batch", policy_of(), p, warm=4, n=150, reserve=0.5, commit_every=50)
    made, _ = twin_runs(tmp_path / "immortal", policy_of(policy="immortal"), p, warm=4, n=150)
    assert len(made) == 150


@settings(max_examples=25, deadline=None)
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
    _, events, cause = made[-1]
    assert len(made) == 200 or events or cause is not None  # only an end ends it
