"""MarketWindow: the O(1) sliding statistics agree with a naive recomputation."""

import itertools
import math
import statistics
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from golem.world import MarketSummary, MarketWindow, Observation, PriceBand, Regime

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def obs(tick: int, price: float, volume: float = 1.0, hf: float | None = None) -> Observation:
    return Observation(tick, T0 + timedelta(seconds=15 * tick), price, volume, hf)


prices = st.floats(min_value=1.0, max_value=1e5, allow_nan=False, allow_infinity=False)
# Volumes in cents: real volumes never span the 300 decades floats allow.
volumes = st.integers(min_value=0, max_value=10**9).map(lambda cents: cents / 100)


@settings(max_examples=60, deadline=None)
# Found by this test: a volume sum left a residue of 1e-18 where the volumes were all 0,
# and a huge return leaving the sum of squares took the small ones' precision with it.
@example(
    rows=[(1.0, 0.03), (1.0, 0.01), (1.0, 0.0), (1.0, 0.0), (1.0, 0.0)], period=2, resync_every=3
)
@example(
    rows=[(1.0, 0.0), (78054.0, 0.0), (40362.0, 0.0), (49560.0, 0.0)], period=2, resync_every=3
)
@given(
    rows=st.lists(st.tuples(prices, volumes), min_size=1, max_size=120),
    period=st.integers(min_value=2, max_value=12),
    resync_every=st.integers(min_value=1, max_value=40),
)
def test_window_stats_equal_naive_recomputation(
    rows: list[tuple[float, float]], period: int, resync_every: int
) -> None:
    window = MarketWindow(capacity=period + 8, period=period, resync_every=resync_every)
    seen_p: list[float] = []
    seen_v: list[float] = []
    for i, (price, volume) in enumerate(rows):
        window.push(obs(i, price, volume))
        seen_p.append(price)
        seen_v.append(volume)
        last = seen_p[-period:]
        if len(seen_p) < period:
            assert window.sma() is None
            assert window.std() is None
            assert window.zscore() is None
        else:
            mean = math.fsum(last) / period
            variance = math.fsum((p - mean) ** 2 for p in last) / period
            sma, std = window.sma(), window.std()
            assert sma is not None and std is not None
            assert sma == pytest.approx(mean, rel=1e-9)
            assert std**2 == pytest.approx(variance, rel=1e-7, abs=1e-9 * mean * mean)
        for n in (1, 3, period):
            expected = seen_p[-1] / seen_p[-1 - n] - 1 if n < min(len(seen_p), period + 8) else None
            assert window.price_delta(n) == (
                None if expected is None else pytest.approx(expected, rel=1e-12, abs=1e-15)
            )
        before = seen_v[-period - 1 : -1]
        ratio = window.volume_ratio()
        if len(seen_v) <= period or math.fsum(before) <= 0:
            assert ratio is None
        else:
            mean_before = math.fsum(before) / period
            assert ratio == pytest.approx(seen_v[-1] / mean_before, rel=1e-6, abs=1e-9)
        returns = [b / a - 1 for a, b in itertools.pairwise(seen_p)][-period:]
        vol = window.return_volatility()
        if len(returns) < period:
            assert vol is None
        else:
            naive = math.sqrt(math.fsum(r * r for r in returns) / period)
            assert vol == pytest.approx(naive, rel=1e-6, abs=1e-9)
    assert len(window) == min(len(rows), period + 8)


def test_window_stays_exact_over_many_ticks() -> None:
    """Rounding in the sliding sums does not build up over a long life."""
    window = MarketWindow(period=20)
    price = 3000.0
    for i in range(50_000):
        price *= 1.0 + 0.001 * math.sin(i * 0.37)
        window.push(obs(i, price, 1.0 + (i % 7)))
    last = [o.price for o in window.observations][-20:]
    assert window.sma() == pytest.approx(statistics.fmean(last), rel=1e-12)
    assert window.std() == pytest.approx(statistics.pstdev(last), rel=1e-6)


def test_band_and_zscore() -> None:
    window = MarketWindow(capacity=30, period=4)
    for i, price in enumerate([100.0, 100.0, 100.0, 100.0]):
        window.push(obs(i, price))
    assert window.zscore() == 0.0
    assert window.band() is PriceBand.WITHIN
    window.push(obs(4, 110.0))  # 100, 100, 100, 110: mean 102.5, σ ≈ 4.33
    assert window.zscore() == pytest.approx(7.5 / math.sqrt(18.75))
    assert window.band() is PriceBand.ABOVE
    assert window.band(k=2.0) is PriceBand.WITHIN
    window.push(obs(5, 80.0))
    assert window.band() is PriceBand.BELOW


def test_summary_and_edges() -> None:
    window = MarketWindow(capacity=25, period=20)
    with pytest.raises(ValueError, match="empty"):
        window.summary()
    assert window.latest is None
    window.push(obs(0, 100.0, hf=1.7))
    summary = window.summary()
    assert summary.price == 100.0
    assert summary.health_factor == 1.7
    assert summary.delta_1 is None
    assert summary.zscore is None
    window.push(obs(1, 101.0))
    assert window.summary().delta_1 == pytest.approx(0.01)
    with pytest.raises(ValueError, match="positive"):
        window.price_delta(0)
    with pytest.raises(ValueError):
        MarketWindow(capacity=10, period=20)
    with pytest.raises(ValueError):
        MarketWindow(period=1)
    assert window.capacity == 25
    assert window.period == 20


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.tuples(prices, volumes), min_size=1, max_size=40),
    period=st.integers(min_value=2, max_value=8),
)
def test_summary_equals_the_window_statistics(rows: list[tuple[float, float]], period: int) -> None:
    """`summary` builds its record by hand; it must say exactly what the methods say."""
    window = MarketWindow(capacity=period + 3, period=period)
    for i, (price, volume) in enumerate(rows):
        window.push(Observation(i, T0, price, volume, 1.5, None, Regime.CALM))
        expected = MarketSummary(
            tick=i,
            time=T0,
            price=price,
            delta_1=window.price_delta(1),
            delta_period=window.price_delta(period),
            zscore=window.zscore(),
            volume_ratio=window.volume_ratio(),
            return_volatility=window.return_volatility(),
            health_factor=1.5,
            regime=Regime.CALM,
        )
        assert window.summary() == expected


def _state(window: MarketWindow) -> list[object]:
    return [
        list(value) if hasattr(value, "maxlen") else value
        for name in MarketWindow.__slots__
        for value in [getattr(window, name)]
    ]


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.tuples(prices, volumes), min_size=1, max_size=40),
    taken=st.integers(min_value=0, max_value=40),
    resync_every=st.integers(min_value=1, max_value=7),
)
def test_pushes_taken_back_leave_the_window_as_it_was(
    rows: list[tuple[float, float]], taken: int, resync_every: int
) -> None:
    """The fast-forward's lookahead: pushes taken back newest first (across resyncs and
    full windows) leave every deque and running sum exactly as before them."""
    window = MarketWindow(capacity=5, period=3, resync_every=resync_every)
    taken = min(taken, len(rows))
    kept = len(rows) - taken
    states, undo = [], []
    for tick, (price, volume) in enumerate(rows):
        states.append(_state(window))
        undo.append(window.pushed(obs(tick, price, volume)))
    for back in range(len(rows) - 1, kept - 1, -1):
        window.unpush(undo[back])
        assert _state(window) == states[back]
    if kept:  # and the window pushes on as one that never looked ahead
        window.push(obs(kept, 2.0, 1.0))
        fresh = MarketWindow(capacity=5, period=3, resync_every=resync_every)
        for tick, (price, volume) in enumerate(rows[:kept]):
            fresh.push(obs(tick, price, volume))
        fresh.push(obs(kept, 2.0, 1.0))
        assert _state(window) == _state(fresh)
