"""Episodes and the EpisodeLog: JSON round trip, recent, similarity, outcomes, pairs."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from golem.world import (
    DecisionSummary,
    Episode,
    EpisodeLog,
    EpisodeOutcome,
    MarketSummary,
    Regime,
)

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def summary(tick: int, delta: float = 0.0, z: float = 0.0, hf: float | None = 1.8) -> MarketSummary:
    return MarketSummary(
        tick=tick,
        time=T0 + timedelta(seconds=15 * tick),
        price=3000.0,
        delta_1=delta,
        delta_period=delta * 4,
        zscore=z,
        volume_ratio=1.0,
        return_volatility=0.0005,
        health_factor=hf,
        regime=Regime.CALM,
    )


def test_episode_round_trips_through_json() -> None:
    episode = Episode(
        3,
        summary(10, 0.01, 1.5),
        DecisionSummary("hedge", tier="t2", confidence=0.8, predicted_delta=-0.02, size_usd=500),
        EpisodeOutcome(horizon_ticks=20, actual_delta=-0.03, pnl_usd=12.5),
    )
    data = json.loads(json.dumps(episode.to_dict()))
    assert Episode.from_dict(data) == episode
    assert episode.prediction_error == pytest.approx(-0.01)
    bare = Episode(4, replace(summary(11), delta_1=None, regime=None), DecisionSummary("hold"))
    assert Episode.from_dict(json.loads(json.dumps(bare.to_dict()))) == bare
    assert bare.prediction_error is None
    with pytest.raises(ValueError, match="not an episode"):
        Episode.from_dict({"id": 1})


def test_record_resolve_recent_and_due() -> None:
    log = EpisodeLog(capacity=3)
    for tick in range(5):
        log.record(summary(tick), DecisionSummary("observe", horizon_ticks=2))
    assert len(log) == 3
    assert [e.id for e in log.recent(2)] == [4, 3]
    assert log.get(0) is None
    assert [e.id for e in log.due(4)] == [2]
    resolved = log.resolve(2, EpisodeOutcome(2, 0.01, 0.0))
    assert log.get(2) == resolved
    with pytest.raises(ValueError, match="already"):
        log.resolve(2, EpisodeOutcome(2, 0.01, 0.0))
    with pytest.raises(KeyError):
        log.resolve(0, EpisodeOutcome(2, 0.0, 0.0))
    with pytest.raises(ValueError, match="not after"):
        log.append(Episode(1, summary(1), DecisionSummary("hold")))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["record", "resolve", "due"]),
            st.integers(min_value=0, max_value=60),
            st.integers(min_value=1, max_value=20),
        ),
        max_size=80,
    )
)
def test_due_agrees_with_a_scan_of_the_pending(steps: list[tuple[str, int, int]]) -> None:
    """`due` skips its scan before the earliest horizon it knows of; records, resolutions
    and evictions in any order never make it miss an episode."""
    log = EpisodeLog(capacity=6)
    for op, tick, horizon in steps:
        if op == "record":
            log.record(summary(tick), DecisionSummary("observe", horizon_ticks=horizon))
        elif op == "resolve":
            pending = [e for e in log if e.outcome is None]
            if pending:
                log.resolve(pending[tick % len(pending)].id, EpisodeOutcome(horizon, 0.0, 0.0))
        expected = [
            e
            for e in log
            if e.outcome is None and e.observation.tick + e.decision.horizon_ticks <= tick
        ]
        assert log.due(tick) == expected


def test_most_similar_finds_the_nearest_market() -> None:
    log = EpisodeLog()
    calm = log.record(summary(1, 0.0, 0.0), DecisionSummary("observe"))
    dump = log.record(summary(2, -0.03, -2.5, hf=1.1), DecisionSummary("exit"))
    pump = log.record(summary(3, 0.03, 2.5), DecisionSummary("rebalance"))
    assert log.most_similar(summary(9, -0.025, -2.0, hf=1.15), k=1) == [dump]
    assert log.most_similar(summary(9, 0.001, 0.1), k=2)[0] == calm
    assert log.most_similar(summary(9, 0.02, 2.0), k=5)[0] == pump
    assert log.most_similar(summary(9), k=5, resolved_only=True) == []
    log.resolve(pump.id, EpisodeOutcome(20, 0.01, 3.0))
    assert [e.id for e in log.most_similar(summary(9), k=5, resolved_only=True)] == [pump.id]


def test_prediction_pairs_for_the_epistemic_clock() -> None:
    log = EpisodeLog()
    for tick in range(6):
        episode = log.record(summary(tick), DecisionSummary("observe", predicted_delta=tick / 100))
        if tick % 2 == 0:
            log.resolve(episode.id, EpisodeOutcome(20, tick / 50, 0.0))
    # Returns (predicted, actual) over the horizon, not price levels.
    expected = [(t / 100, t / 50) for t in (2, 4)]
    assert log.prediction_pairs(2) == expected  # the newest two resolved, oldest first
    # Tick 0 predicted no change (no forecast, the naive one itself): not scored.
    assert log.prediction_pairs() == expected


def _walked_pairs(log: EpisodeLog, n: int) -> list[tuple[float, float]]:
    """The pairs as a walk over the whole log gives them: the newest n resolved episodes
    that forecast a move, oldest first."""
    scored = [
        (e.decision.predicted_delta, e.outcome.actual_delta)
        for e in log
        if e.outcome is not None and e.decision.predicted_delta != 0.0
    ]
    return scored[-n:] if n > 0 else []


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.booleans(), st.integers(0, 30), st.floats(-0.05, 0.05)),
        min_size=1,
        max_size=40,
    ),
    st.integers(2, 12),
    st.integers(0, 15),
)
def test_prediction_pairs_kept_as_episodes_resolve_equal_a_walk_over_the_log(
    steps: list[tuple[bool, int, float]], capacity: int, n: int
) -> None:
    # Resolutions in any order (a later episode first), evictions past the capacity, and
    # restored episodes that arrive already resolved.
    log = EpisodeLog(capacity=capacity)
    for tick, (restored, pick, delta) in enumerate(steps):
        if restored:
            outcome = EpisodeOutcome(20, delta, 0.0)
            base = Episode(
                len(log) and max(e.id for e in log) + 1,
                summary(tick, delta),
                DecisionSummary("hedge", predicted_delta=-delta),
            )
            log.append(replace(base, outcome=outcome))
        else:
            log.record(summary(tick, delta), DecisionSummary("observe", predicted_delta=delta / 2))
        pending = [e for e in log if e.outcome is None]
        if pending and pick % 3:
            chosen = pending[pick % len(pending)]
            log.resolve(chosen.id, EpisodeOutcome(20, delta * 2, 0.0))
        assert log.prediction_pairs(n) == _walked_pairs(log, n)
