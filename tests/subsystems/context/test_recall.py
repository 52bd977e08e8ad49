"""The indexed memory behind L2, L4 and L5 answers what a plain scan would."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from golem.subsystems.context import Memory, estimate_regime, words_of
from golem.subsystems.contract import GrimoireEntry
from golem.world import features
from tests.subsystems.context.support import episodes, grimoire, observations
from tests.subsystems.support import market


def test_similar_episodes_match_a_brute_force_scan() -> None:
    lives = episodes(3_000)
    memory = Memory.of(episodes=lives)
    resolved = [e for e in lives if e.outcome is not None]
    for probe in (market(delta_1=-0.02, zscore=-2.0), market(), market(delta_period=0.03)):
        target = features(probe)
        expected = sorted(resolved, key=lambda e: math.dist(features(e.observation), target))
        got = memory.similar(probe, 5)
        distances = [math.dist(features(e.observation), target) for e in got]
        best = [math.dist(features(e.observation), target) for e in expected[:5]]
        assert distances == sorted(distances)
        assert all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(distances, best, strict=True))


def test_pending_episodes_join_the_index_when_resolved() -> None:
    pending = [e for e in episodes(8) if e.outcome is None]
    memory = Memory.of(episodes=pending)
    assert memory.similar(market(), 5) == []
    resolved = replace(pending[0], outcome=episodes(2)[1].outcome)
    memory.put_episode(resolved)
    assert memory.similar(market(), 5) == [resolved]


def test_the_oldest_tenth_is_forgotten_past_capacity() -> None:
    memory = Memory(episodes=100)
    for episode in episodes(400):
        if episode.outcome is not None:
            memory.put_episode(episode)
    assert memory.episode_count <= 100
    assert min(e.id for e in memory.similar(market(), 100)) > 250


def test_knowledge_prefers_the_regime_and_the_questions_words() -> None:
    entries = [
        GrimoireEntry("calm-high", "steady markets reward patience", 0.9, regime="calm"),
        GrimoireEntry("crash-mid", "liquidations cascade after funding flips", 0.6, regime="crash"),
        GrimoireEntry("any-low", "funding flips precede liquidations", 0.4),
        GrimoireEntry("gone", "funding flips", 0.99, archived=True),
    ]
    memory = Memory.of(entries)
    crash = memory.knowledge("crash", words_of("funding flips and liquidations"), 3)
    # Another regime's entry comes only by sharing the question's words: this one does not.
    assert [e.id for e in crash] == ["crash-mid", "any-low"]
    assert [e.id for e in memory.knowledge("calm", frozenset(), 1)] == ["calm-high"]


def test_entries_are_replaced_and_archived_in_place() -> None:
    memory = Memory.of(grimoire(50))
    before = memory.grimoire_size
    memory.put_entry(GrimoireEntry("g3", "rewritten lesson about squeezes", 0.97, regime="crash"))
    assert memory.grimoire_size == before
    top = memory.knowledge("crash", words_of("squeezes"), 1)
    assert top[0].text == "rewritten lesson about squeezes"
    memory.put_entry(replace(top[0], archived=True))
    assert memory.grimoire_size == before - 1
    assert all(e.id != "g3" for e in memory.knowledge("crash", words_of("squeezes"), 50))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.floats(0, 1)), max_size=60))
def test_the_confidence_order_survives_any_sequence_of_updates(
    updates: list[tuple[int, float]],
) -> None:
    memory, latest = Memory(), {}
    for index, confidence in updates:
        entry = GrimoireEntry(f"e{index}", f"entry {index}", confidence, regime="calm")
        memory.put_entry(entry)
        latest[entry.id] = entry
    ranked = memory.knowledge("calm", frozenset(), 100)
    assert {e.id for e in ranked} == set(latest)
    assert [e.confidence for e in ranked] == sorted((e.confidence for e in ranked), reverse=True)


def test_observations_and_feed_come_newest_first() -> None:
    memory = Memory.of(observations=observations(10))
    assert [o.tick for o in memory.observations(3)] == [9, 8, 7]
    assert memory.observations(0) == [] and len(memory.observations(99)) == 10


def test_the_golem_reads_the_regime_from_the_market_alone() -> None:
    assert estimate_regime(market(delta_period=-0.08)) == "crash"
    assert estimate_regime(market(return_volatility=0.01)) == "volatile"
    assert estimate_regime(market(zscore=1.8)) == "trending"
    assert estimate_regime(market()) == "calm"
