"""Lookahead: a market's observations at times to come, without consuming it. Against a
copy of the market that observes only the times kept (the step-by-step life)."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golem.world import Lookahead, MarketParams, Observation, SimulatedMarket

T0 = datetime(2026, 3, 1, tzinfo=UTC)
TICK = timedelta(seconds=15)


def markets(seed: int) -> tuple[SimulatedMarket, SimulatedMarket]:
    params = MarketParams(random_shocks={"rate_per_day": 200.0, "duration": 60})
    return SimulatedMarket(seed, params), SimulatedMarket(seed, params)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 1000),
    rounds=st.lists(
        st.tuples(
            st.integers(0, 40),  # ticks seen
            st.integers(0, 40),  # of which kept (16 or more, all: the shadow is adopted)
            st.sampled_from([None, 0, 7, 15, 30]),  # a tick lived after, that many s later
            st.integers(0, 20),  # then that many ticks lived step by step
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_a_simulated_market_looked_ahead_is_the_market_that_lives(
    seed: int, rounds: list[tuple[int, int, int | None, int]]
) -> None:
    """Each round: a stretch of times looked at, some kept, then (or not) a tick lived
    at the next time or a few seconds off it, and a few more ticks lived step by step
    (the shadow falls behind: it walks on, or is copied again). What the lookahead shows
    is what the market then shows, and the market is the one that observed only the
    kept and lived times."""
    market, lived = markets(seed)
    ahead = Lookahead.of(market)
    assert ahead is not None
    now = T0
    for m in (market, lived):
        m.observe(now)
    for seen, asked, after, stepped in rounds:
        kept = min(asked, seen)
        times = [now + (k + 1) * TICK for k in range(40)]
        ahead.start(times)
        shown = [ahead.next() for _ in range(seen)]
        ahead.keep(kept)
        expected: list[Observation] = [lived.observe(time) for time in times[:kept]]
        assert shown[:kept] == expected
        assert market.state() == lived.state()
        assert market.ahead(3) == lived.ahead(3)  # at the spacing of its last step
        if kept:  # the last kept time asked again shows it again
            assert market.observe(times[kept - 1]) == lived.observe(times[kept - 1])
        now = times[kept - 1] if kept else now
        if after is not None:
            now = (times[kept] if kept < len(times) else now + TICK) + timedelta(seconds=after)
            assert market.observe(now) == lived.observe(now)
        for _ in range(stepped):
            now += TICK
            assert market.observe(now) == lived.observe(now)
    assert market.ahead(20) == lived.ahead(20)


def test_a_shadow_a_few_ticks_behind_walks_on_rather_than_be_copied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ticks lived step by step after a stretch leave the shadow behind the market: a few
    grid steps behind, it walks them (no new copy) and shows what the market then shows;
    far behind, it is copied again."""
    market, lived = markets(7)
    copies: list[SimulatedMarket] = []
    twin = SimulatedMarket._twin

    def copied(self: SimulatedMarket) -> SimulatedMarket:
        copies.append(twin(self))
        return copies[-1]

    monkeypatch.setattr(SimulatedMarket, "_twin", copied)
    ahead = Lookahead.of(market)
    assert ahead is not None
    now = T0
    for m in (market, lived):
        m.observe(now)
    for stepped, copies_after in ((0, 1), (5, 1), (16, 1), (17, 2), (3, 2)):
        for _ in range(stepped):
            now += TICK
            assert market.observe(now) == lived.observe(now)
        times = [now + (k + 1) * TICK for k in range(10)]
        ahead.start(times)
        assert len(copies) == copies_after
        shown = [ahead.next() for _ in range(10)]
        ahead.keep(10)
        assert shown == [lived.observe(time) for time in times]
        assert market.state() == lived.state()
        now = times[-1]


def test_a_live_source_cannot_be_looked_ahead() -> None:
    class Asked:
        def observe(self, time: datetime) -> Observation:
            return Observation(0, time, 1.0, 1.0)

    assert Lookahead.of(Asked()) is None
