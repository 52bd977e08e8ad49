"""SimulatedMarket: determinism, regime rates, scheduled shocks and the health factor."""

import itertools
import math
import statistics
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from golem.world import (
    DEFAULT_REGIMES,
    LendingParams,
    MarketParams,
    Observation,
    RandomShocks,
    Regime,
    RegimeParams,
    ScheduledShock,
    SimulatedMarket,
)

T0 = datetime(2025, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)


def path(seed: int | str, n: int, params: MarketParams | None = None) -> list[Observation]:
    return list(SimulatedMarket(seed, params).run(T0, n))


def test_same_seed_same_path_different_seed_different_path() -> None:
    a, b = path(7, 3000), path(7, 3000)
    assert a == b
    c = path(8, 3000)
    assert [o.price for o in a] != [o.price for o in c]
    assert path("golem-1", 50) == path("golem-1", 50)


def test_path_is_pinned_across_machines() -> None:
    """random.Random(seed) is the only source of randomness, so these numbers hold on any
    machine (the tolerance allows a last-bit difference in a platform's exp or log)."""
    obs = path(42, 20_001)
    assert obs[0].price == 3000.0
    assert obs[1].price == pytest.approx(2999.9744575409477, rel=1e-12)
    assert obs[1000].price == pytest.approx(2970.1423249631785, rel=1e-10)
    assert obs[20_000].price == pytest.approx(2899.467173619794, rel=1e-9)
    assert obs[20_000].volume == pytest.approx(94132.9174799802, rel=1e-9)
    assert obs[20_000].regime is Regime.TRENDING


def test_observe_matches_run_and_ticks_and_times() -> None:
    ran = path(3, 100)
    market = SimulatedMarket(3)
    observed = [market.observe(T0 + timedelta(seconds=15 * k)) for k in range(100)]
    assert observed == ran
    assert [o.tick for o in ran] == list(range(100))
    assert ran[-1].time == T0 + timedelta(seconds=15 * 99)
    assert all(o.time.tzinfo is not None for o in ran)


def test_run_continues_an_observed_market() -> None:
    market = SimulatedMarket(5)
    first = market.observe(T0)
    rest = list(market.run(T0 + timedelta(seconds=15), 9))
    assert [first, *rest] == path(5, 10)


def test_steps_of_many_lengths_give_the_same_path_every_time() -> None:
    """A real clock's steps all differ a little: more step lengths than the market keeps
    constants for, and the same seed still walks the same path."""
    times = [T0]
    for k in range(1, 200):
        times.append(times[-1] + timedelta(seconds=15 + (k * 7919) % 101 / 100))

    def walk() -> list[Observation]:
        market = SimulatedMarket(5)
        return [market.observe(t) for t in times]

    first, again = walk(), walk()
    assert first == again
    assert all(math.isfinite(o.price) and o.price > 0 for o in first)


def test_time_must_move_forward_and_be_aware() -> None:
    market = SimulatedMarket(1)
    with pytest.raises(ValueError, match="timezone"):
        market.observe(datetime(2025, 1, 1))
    market.observe(T0)
    market.observe(T0 + timedelta(seconds=15))
    with pytest.raises(ValueError, match="forward"):
        market.observe(T0)


def test_asked_again_at_its_time_the_market_shows_the_same() -> None:
    """A lineage's heir is born at the instant its predecessor last looked: the same
    observation, and the walk goes on from it as if it had been asked once."""
    once, twice = SimulatedMarket(1), SimulatedMarket(1)
    for market in (once, twice):
        market.observe(T0)
    assert twice.observe(T0) == once.observe(T0)
    step = T0 + timedelta(seconds=15)
    seen = twice.observe(step)
    assert twice.observe(step) is seen
    assert seen == once.observe(step)
    assert twice.observe(step + timedelta(seconds=15)) == once.observe(step + timedelta(seconds=15))


def test_irregular_intervals_scale_the_noise() -> None:
    """dt comes from the times asked: a 30 s step moves about √2 as much as a 15 s step."""
    calm = _calm_only()
    params = MarketParams(regimes=calm, lending=None)
    n = 20_000
    fifteen = path(11, n, params)
    thirty = list(SimulatedMarket(11, params).run(T0, 1))
    market = SimulatedMarket(11, params)
    market.observe(T0)
    thirty = [market.observe(T0 + timedelta(seconds=30 * k)) for k in range(1, n)]

    def sd(obs: list[Observation]) -> float:
        return statistics.pstdev(math.log(b.price / a.price) for a, b in itertools.pairwise(obs))

    expected_15 = 0.35 * math.sqrt(15 / (365 * 86_400))
    assert sd(fifteen) == pytest.approx(expected_15, rel=0.03)
    assert sd(thirty) == pytest.approx(expected_15 * math.sqrt(2), rel=0.03)
    assert fifteen[1].health_factor is None


def _calm_only() -> dict[Regime, RegimeParams]:
    regimes = dict(DEFAULT_REGIMES)
    regimes[Regime.CALM] = DEFAULT_REGIMES[Regime.CALM].model_copy(
        update={"mean_duration": timedelta(days=10_000)}
    )
    return regimes


def test_regimes_switch_at_the_configured_rates() -> None:
    second = timedelta(seconds=1)
    regimes = {
        Regime.CALM: RegimeParams(
            drift=0.0,
            volatility=0.3,
            mean_duration=40 * second,
            transitions={Regime.TRENDING: 0.75, Regime.VOLATILE: 0.25},
        ),
        Regime.TRENDING: RegimeParams(
            drift=1.0, volatility=0.4, mean_duration=60 * second, transitions={Regime.CALM: 1.0}
        ),
        Regime.VOLATILE: RegimeParams(
            drift=0.0, volatility=1.0, mean_duration=30 * second, transitions={Regime.CALM: 1.0}
        ),
    }
    params = MarketParams(regimes=regimes, tick_interval=second, lending=None)
    labels = [o.regime for o in path(2024, 200_000, params)]
    runs: list[tuple[Regime | None, int]] = []
    for label in labels:
        if runs and runs[-1][0] == label:
            runs[-1] = (label, runs[-1][1] + 1)
        else:
            runs.append((label, 1))
    complete = runs[1:-1]  # the first and last runs are cut by the sample's ends
    for regime, params_ in regimes.items():
        lengths = [n for r, n in complete if r == regime]
        assert len(lengths) > 400
        assert statistics.fmean(lengths) == pytest.approx(
            params_.mean_duration.total_seconds(), rel=0.1
        )
    after_calm = Counter(b[0] for a, b in itertools.pairwise(complete) if a[0] is Regime.CALM)
    share = after_calm[Regime.TRENDING] / sum(after_calm.values())
    assert share == pytest.approx(0.75, abs=0.05)


def test_scheduled_crash_falls_by_its_magnitude_and_the_health_factor_follows() -> None:
    crash = ScheduledShock(at=9 * DAY, magnitude=-0.5, duration=timedelta(hours=2))
    lending = LendingParams(collateral_usd=10_000, debt_usd=4_583.33, liquidation_threshold=0.825)
    params = MarketParams(regimes=_calm_only(), shocks=(crash,), lending=lending)
    for seed in range(5):
        market = SimulatedMarket(seed, params)
        first = market.observe(T0)
        assert first.health_factor == pytest.approx(1.8, rel=1e-4)
        before = market.observe(T0 + 9 * DAY)
        assert before.regime is Regime.CALM
        assert before.health_factor is not None and before.health_factor > 1.5
        during = [market.observe(T0 + 9 * DAY + timedelta(seconds=15 * k)) for k in range(1, 481)]
        after = during[-1]
        assert after.price / before.price == pytest.approx(0.5, abs=0.05)
        assert all(o.regime is Regime.CRASH for o in during)
        factors = [o.health_factor or 0.0 for o in during]
        assert factors[-1] < 1.2
        hf_per_price = (first.health_factor or 0.0) / first.price
        assert factors[-1] == pytest.approx(hf_per_price * after.price)
        crossed = next(i for i, hf in enumerate(factors) if hf < 1.5)
        assert during[crossed].price < before.price
        assert factors[crossed - 1] >= 1.5
        next_tick = market.observe(after.time + timedelta(seconds=15))
        assert next_tick.regime is Regime.CALM  # the shock is over
        assert statistics.fmean(o.volume for o in during) > 3 * params.base_volume


def test_random_shocks_arrive_at_their_rate() -> None:
    shocks = RandomShocks(rate_per_day=2.0, mean_magnitude=-0.05, duration=timedelta(minutes=30))
    params = MarketParams(regimes=_calm_only(), random_shocks=shocks, lending=None)
    market = SimulatedMarket(99, params)
    market.observe(T0)
    labels = [market.observe(T0 + timedelta(minutes=k)).regime for k in range(1, 60 * 24 * 30)]
    starts = sum(1 for a, b in itertools.pairwise(labels) if a is Regime.CALM and b is Regime.CRASH)
    assert 40 <= starts <= 80  # 60 expected over 30 days


def test_volume_rises_with_absolute_returns() -> None:
    obs = path(5, 20_000, MarketParams(regimes=_calm_only(), lending=None))
    moves = [abs(math.log(b.price / a.price)) for a, b in itertools.pairwise(obs)]
    volumes = [o.volume for o in obs[1:]]
    assert statistics.correlation(moves, volumes) > 0.3
    assert statistics.fmean(volumes) == pytest.approx(50_000 * 0.8, rel=0.05)


def test_params_are_validated() -> None:
    with pytest.raises(ValidationError, match="not defined"):
        MarketParams(regimes={Regime.CALM: DEFAULT_REGIMES[Regime.CALM]})
    with pytest.raises(ValidationError):
        ScheduledShock(at=DAY, magnitude=-1.5)
    with pytest.raises(ValidationError, match="positive"):
        MarketParams(tick_interval=timedelta(0))
    with pytest.raises(ValidationError, match="zero"):
        RegimeParams(drift=0, volatility=0.1, mean_duration=DAY, transitions={Regime.CALM: 0.0})
    with pytest.raises(ValidationError):
        MarketParams(initial_price=-1.0)
    with pytest.raises(ValidationError):
        MarketParams.model_validate({"base_volume": 1.0, "unknown": 2})
