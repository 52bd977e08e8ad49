"""Time, not ticks (issue 37, item 4): a golem beating every 15 s and one beating every 30 s
(Conservation's doubling) age alike and carry the same chance of surviving the same stretch
of virtual time; the senescence and Terminal graces are durations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from golem.mortality import MortalityParams, Phase, assess

BORN = datetime(2026, 1, 1, tzinfo=UTC)
POLICY = MortalityParams.model_validate(
    {"seed": 9, "hazard": {"makeham": 2e-5}, "vitality": {"age_horizon": "20d"}}
).compile(seed=9)


def life(interval: timedelta, span: timedelta) -> dict[timedelta, tuple[float, float]]:
    """(vitality, survival so far) at each tick's age, the clocks held (same money, same
    fitness), as VitalsChart assesses them."""
    out, survival, age, tick = {}, 1.0, timedelta(0), 0
    while age <= span:
        vitals = assess(
            golem_id="g",
            tick=tick,
            now=BORN + age,
            age=age,
            interval=interval if tick else timedelta(0),
            credits_usd=4.0,
            initial_credits_usd=5.0,
            burn_rate_usd=0.0,
            epistemic=0.6,
            previous=Phase.THRIVING,
            params=POLICY,
        )
        survival *= 1 - vitals.death_probability
        out[age] = (vitals.vitality, survival)
        age, tick = age + interval, tick + 1
    return out


def test_a_golem_ages_and_survives_at_the_same_pace_whatever_its_heartbeat() -> None:
    span = timedelta(days=10)
    fast, slow = life(timedelta(seconds=15), span), life(timedelta(seconds=30), span)
    common = sorted(set(fast) & set(slow))
    assert len(common) == len(slow)
    for age in common[:: len(common) // 50]:
        assert fast[age][0] == slow[age][0]  # the age factor: the same vitality
        assert fast[age][1] == pytest.approx(slow[age][1], rel=2e-3)
    end = fast[common[-1]][1]
    assert 0.01 < end < 0.99  # a stretch over which the hazard matters
    # the vitality of a 10-day-old golem is its age factor of 1 − 0.3·10/20 of a newborn's
    assert fast[common[-1]][0] == pytest.approx(fast[timedelta(0)][0] * 0.85)
