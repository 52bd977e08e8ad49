"""Regime adaptation on fitness series made by hand: a fall and a recovery N ticks after the
shock's start gives N; a fitness that never comes back is counted unrecovered; a shock
that costs no fitness recovers in 0 ticks; shocks after the life or before any reading
are not counted."""

from __future__ import annotations

import pytest

from golem.simulation.adaptation import REACH_TICKS, Shock, recovery_ticks, regime_adaptation

TICK = 15 / 86_400  # a 15 s heartbeat, in days
SHOCK = Shock(start_day=1.0, end_day=1.0 + 40 * TICK)


def series(*points: tuple[int, float]) -> tuple[list[float], list[float]]:
    """Readings at (ticks after the shock's start, fitness); one before the shock at 0.5."""
    days = [0.5] + [SHOCK.start_day + ticks * TICK for ticks, _ in points]
    return days, [0.5] + [value for _, value in points]


def test_a_fall_and_a_recovery_n_ticks_after_the_start_gives_n() -> None:
    # Unchanged at the start (episodes are scored later), then a fall, then back at 0.5.
    days, fitness = series((0, 0.5), (10, 0.5), (25, 0.3), (60, 0.45), (130, 0.5), (200, 0.7))
    assert recovery_ticks(days, fitness, SHOCK, TICK) == pytest.approx(130)
    # A rise above the level before the fall is not a recovery: the fall comes first.
    days, fitness = series((5, 0.6), (30, 0.4), (90, 0.55))
    assert recovery_ticks(days, fitness, SHOCK, TICK) == pytest.approx(90)


def test_fitness_that_never_comes_back_is_unrecovered() -> None:
    days, fitness = series((20, 0.3), (400, 0.49))
    assert recovery_ticks(days, fitness, SHOCK, TICK) is None
    figures = regime_adaptation(days, fitness, [SHOCK], lifespan_days=3.0, tick_days=TICK)
    assert figures == {
        "adaptation_ticks_median": None,
        "shocks_recovered": 0,
        "shocks_unrecovered": 1,
        "adaptation_ticks": [None],
    }


def test_a_shock_that_costs_no_fitness_recovers_in_zero_ticks() -> None:
    reach = 40 + REACH_TICKS  # the shock's length and its reach after it
    days, fitness = series((10, 0.5), (reach + 1, 0.5), (reach + 50, 0.2))
    assert recovery_ticks(days, fitness, SHOCK, TICK) == 0.0  # a later fall is not its doing
    # No fall seen and the life ended within the reach: censored, not 0.
    days, fitness = series((10, 0.5))
    assert recovery_ticks(days, fitness, SHOCK, TICK) is None


def test_only_shocks_within_the_life_with_a_reading_before_them_count() -> None:
    days, fitness = series((20, 0.3), (50, 0.6))
    early = Shock(start_day=0.0, end_day=0.01)  # no reading before it
    late = Shock(start_day=5.0, end_day=5.01)  # after the life's end
    second = Shock(start_day=2.0, end_day=2.0 + TICK)
    days += [2.0 - TICK, 2.0 + 30 * TICK, 2.0 + 70 * TICK]
    fitness += [0.6, 0.1, 0.65]
    figures = regime_adaptation(
        days, fitness, [late, second, early, SHOCK], lifespan_days=3.0, tick_days=TICK
    )
    assert figures["adaptation_ticks"] == [pytest.approx(50), pytest.approx(70)]
    assert figures["adaptation_ticks_median"] == pytest.approx(60)
    assert (figures["shocks_recovered"], figures["shocks_unrecovered"]) == (2, 0)
    none = regime_adaptation(days, fitness, [], lifespan_days=3.0, tick_days=TICK)
    assert none["adaptation_ticks_median"] is None and none["shocks_recovered"] == 0
