"""Staged senescence in time: warning below the threshold, senescent after the grace (however
often the golem ticks), recovery from senescence only above threshold + 0.10, no pressure
while a regime is being learned, death only when senescent and vitality < 0.1."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.mortality.senescence import Senescence, SenescenceParams, Stage

T0 = datetime(2026, 1, 1, tzinfo=UTC)
PARAMS = SenescenceParams()
LEARNED = 100


def _walk(
    fitness: float, interval: timedelta, span: timedelta, samples: int = LEARNED
) -> list[tuple[timedelta, Stage]]:
    state, out, t = Senescence(), [], timedelta(0)
    while t <= span:
        state = state.step(T0 + t, fitness, regime_samples=samples, params=PARAMS)
        out.append((t, state.stage))
        t += interval
    return out


def _confirmed_at(walk: list[tuple[timedelta, Stage]]) -> timedelta:
    return next(t for t, stage in walk if stage is Stage.SENESCENT)


@pytest.mark.parametrize(
    "interval", [timedelta(seconds=15), timedelta(seconds=30), timedelta(seconds=40)]
)
def test_the_grace_is_time_whatever_the_heartbeat(interval: timedelta) -> None:
    walk = _walk(0.2, interval, timedelta(hours=7))
    assert walk[0][1] is Stage.WARNING
    confirmed = _confirmed_at(walk)
    assert PARAMS.grace <= confirmed < PARAMS.grace + interval


def test_recovery_from_warning_and_hysteresis_out_of_senescence() -> None:
    p = PARAMS
    warning = Senescence().step(T0, 0.3, regime_samples=LEARNED, params=p)
    assert warning.stage is Stage.WARNING
    assert (
        warning.step(T0 + timedelta(hours=1), 0.36, regime_samples=LEARNED, params=p).stage
        is Stage.NORMAL
    )
    senescent = warning.step(T0 + p.grace, 0.3, regime_samples=LEARNED, params=p)
    assert senescent.stage is Stage.SENESCENT
    assert senescent.step(T0 + p.grace * 2, 0.44, regime_samples=LEARNED, params=p) == senescent
    assert (
        senescent.step(T0 + p.grace * 2, 0.46, regime_samples=LEARNED, params=p).stage
        is Stage.NORMAL
    )


def test_no_pressure_while_the_regime_is_learned() -> None:
    walk = _walk(
        0.1, timedelta(minutes=1), timedelta(hours=12), samples=PARAMS.learning_samples - 1
    )
    assert {stage for _, stage in walk} == {Stage.WARNING}


def test_death_needs_senescence_and_low_vitality() -> None:
    senescent = Senescence(Stage.SENESCENT, T0)
    assert senescent.dies(0.09, PARAMS)
    assert not senescent.dies(0.11, PARAMS)
    assert not Senescence(Stage.WARNING, T0).dies(0.0, PARAMS)
