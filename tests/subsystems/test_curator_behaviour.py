"""Curator behaviour: promotions, prunes, nudges, decay, archiving after three low cycles,
the rule-based evaluation, and the subsystem through decide() in every mode."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from golem.inference import Mode
from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier
from golem.runtime.decide import decide
from golem.subsystems.contract import GrimoireEntry, Outcome
from golem.subsystems.curator import Curator, CuratorConfig, CuratorEvaluation
from golem.world import DecisionSummary, Episode, Regime
from golem.world import EpisodeOutcome as Result

from .support import MODES, budgeting, context, market, mode_provider

CURATOR = Curator(CuratorConfig())


def entry(entry_id: str, confidence: float, **changes: object) -> GrimoireEntry:
    return replace(GrimoireEntry(entry_id, f"knowledge {entry_id}", confidence), **changes)  # type: ignore[arg-type]


def episode(episode_id: int, pnl: float, regime: Regime = Regime.CALM) -> Episode:
    return Episode(
        episode_id,
        market(tick=episode_id, regime=regime),
        DecisionSummary(action="hold"),
        Result(horizon_ticks=20, actual_delta=0.01, pnl_usd=pnl),
    )


def evaluation(**fields: object) -> CuratorEvaluation:
    counts = {"entries_evaluated": 0, "entries_retained": 0, "entries_pruned": 0}
    return CuratorEvaluation.model_validate(counts | fields)


def apply(grimoire: tuple[GrimoireEntry, ...], outcome: Outcome) -> tuple[GrimoireEntry, ...]:
    """What the runtime does with an Outcome's grimoire changes."""
    upserts = {e.id: e for e in outcome.grimoire_upserts}
    changed = tuple(upserts.pop(e.id, e) for e in grimoire) + tuple(upserts.values())
    return tuple(
        replace(e, archived=True) if e.id in outcome.grimoire_archive else e for e in changed
    )


def by_id(outcome: Outcome) -> dict[str, GrimoireEntry]:
    return {e.id: e for e in outcome.grimoire_upserts}


def test_an_entry_is_archived_after_three_low_cycles_not_two() -> None:
    grimoire: tuple[GrimoireEntry, ...] = (entry("weak", 0.05), entry("strong", 0.9))
    for cycle in (1, 2, 3):
        outcome = CURATOR.act(
            context(grimoire=grimoire), evaluation(entries_evaluated=2, entries_retained=2)
        )
        grimoire = apply(grimoire, outcome)
        weak = next(e for e in grimoire if e.id == "weak")
        assert weak.low_cycles == cycle
        assert weak.archived is (cycle == 3)
        assert ("weak" in outcome.grimoire_archive) is (cycle == 3)
    assert outcome.details["archived"] == ["weak"]
    assert not next(e for e in grimoire if e.id == "strong").archived


def test_climbing_back_above_the_floor_resets_the_count() -> None:
    grimoire = (entry("g1", 0.09, low_cycles=2), entry("g2", 0.5))
    support = [{"source_id": "g2", "target_id": "g1", "relationship": "supports", "strength": 1.0}]
    outcome = CURATOR.act(context(grimoire=grimoire), evaluation(cross_references=support))
    assert by_id(outcome)["g1"] == entry("g1", 0.19, low_cycles=0)
    assert outcome.grimoire_archive == ()


def test_promotions_climb_one_tier_to_their_confidence() -> None:
    grimoire = (
        entry("g1", 0.7),
        entry("g2", 0.7, tier="belief"),
        entry("g3", 0.7),
        entry("g4", 0.7, tier="principle"),
    )
    promotions = [
        {"entry_id": "g1", "from_confidence": 0.7, "to_confidence": 0.9},  # staged → belief
        {"entry_id": "g2", "from_confidence": 0.7, "to_confidence": 0.7},  # belief → principle
        {"entry_id": "g3", "from_confidence": 0.5, "to_confidence": 0.6},  # never down
        {"entry_id": "g4", "from_confidence": 0.7, "to_confidence": 0.8},  # at the top
        {"entry_id": "ghost", "from_confidence": 0.5, "to_confidence": 0.6},
    ]
    outcome = CURATOR.act(context(grimoire=grimoire), evaluation(promotions=promotions))
    changed = by_id(outcome)
    assert (changed["g1"].tier, changed["g1"].confidence) == ("belief", 0.9)
    assert (changed["g2"].tier, changed["g2"].confidence) == ("principle", 0.7)
    assert (changed["g3"].tier, changed["g3"].confidence) == ("belief", 0.7)
    assert changed["g4"].tier == "principle"
    assert outcome.details["promoted"] == ["g1", "g2", "g3"]
    assert outcome.details["unknown_ids"] == ["ghost"]


def test_prunes_archive_their_entries() -> None:
    grimoire = (entry("g1", 0.6), entry("g2", 0.6))
    decision = evaluation(
        entries_evaluated=2, entries_retained=1, entries_pruned=1, prune_ids=["g2"]
    )
    outcome = CURATOR.act(context(grimoire=grimoire), decision)
    assert outcome.grimoire_archive == ("g2",)
    assert by_id(outcome)["g2"].archived
    assert outcome.details["pruned"] == ["g2"]


def test_supports_raise_the_target_and_contradictions_lower_the_weaker() -> None:
    grimoire = (entry("a", 0.5), entry("b", 0.5), entry("c", 0.8))
    refs = [
        {"source_id": "a", "target_id": "b", "relationship": "supports", "strength": 0.5},
        {"source_id": "a", "target_id": "c", "relationship": "contradicts", "strength": 1.0},
        {"source_id": "b", "target_id": "c", "relationship": "extends", "strength": 1.0},
    ]
    outcome = CURATOR.act(context(grimoire=grimoire), evaluation(cross_references=refs))
    changed = by_id(outcome)
    assert changed["b"].confidence == pytest.approx(0.55)  # supported: no decay either
    assert changed["a"].confidence == pytest.approx(0.5 - 0.1 - 0.02)  # weaker, unconfirmed
    assert changed["c"].confidence == pytest.approx(0.8 - 0.02)  # decays only


def test_unconfirmed_knowledge_decays_but_confirmed_knowledge_does_not() -> None:
    grimoire = (entry("calm", 0.5, regime="calm"), entry("crash", 0.5, regime="crash"))
    ctx = context(grimoire=grimoire, episodes=(episode(1, 5.0, Regime.CALM),))
    outcome = CURATOR.act(ctx, evaluation())
    assert list(by_id(outcome)) == ["crash"]
    assert by_id(outcome)["crash"].confidence == pytest.approx(0.48)


def test_rules_prune_duplicates_and_promote_on_episode_evidence() -> None:
    grimoire = (
        entry("g1", 0.7, text="Hedge early in crashes.", regime="crash"),
        entry("g2", 0.4, text="hedge early in crashes"),
        entry("g3", 0.65, regime="calm"),
        entry("g4", 0.9, regime="volatile"),
    )
    episodes = (
        *(episode(i, 3.0, Regime.CRASH) for i in range(5)),
        *(episode(10 + i, 3.0, Regime.CALM) for i in range(4)),  # one short of five
        *(episode(20 + i, 1.0 if i < 5 else -1.0, Regime.VOLATILE) for i in range(8)),
    )
    ctx = context(grimoire=grimoire, episodes=episodes)
    decision = CURATOR.deterministic(ctx)
    assert isinstance(decision, CuratorEvaluation)
    assert decision.validate_content() == []
    assert decision.prune_ids == ["g2"]
    promoted = [(p.entry_id, p.from_confidence, p.to_confidence) for p in decision.promotions]
    assert promoted == [("g1", 0.7, 0.7)]  # g4: 5 vs 3
    counts = (decision.entries_evaluated, decision.entries_retained, decision.entries_pruned)
    assert counts == (4, 3, 1)
    assert decision.grimoire_health == pytest.approx((0.7 + 0.65 + 0.9) / 3, abs=1e-4)


async def test_an_empty_grimoire_is_skipped_with_a_reason() -> None:
    record = await decide(CURATOR, context(), budgeting(ScriptedProvider([])))
    assert record.source == "skipped"
    assert record.skip_reason == "nothing to curate: the grimoire has no active entry"


async def test_at_t0_the_rules_curate() -> None:
    curator = Curator(CuratorConfig(tier=ModelTier.T0))
    grimoire = (entry("g1", 0.5, text="same"), entry("g2", 0.6, text="Same!"))
    record = await decide(curator, context(grimoire=grimoire), budgeting(ScriptedProvider([])))
    assert record.source == "deterministic"
    assert record.outcome is not None and record.outcome.grimoire_archive == ("g1",)


PAYLOAD = {
    "entries_evaluated": 3,
    "entries_retained": 2,
    "entries_pruned": 1,
    "cross_references": [],
    "promotions": [
        {"entry_id": "g1", "from_confidence": 0.7, "to_confidence": 0.8, "reason": "held up"}
    ],
    "grimoire_health": 0.6,
    "prune_ids": ["g3"],
}
FREE_TEXT = "Evaluated 3 entries, pruned 1.\nPrune: g3\nPromote g1 to 0.8: it held up."


@pytest.mark.parametrize("mode", MODES, ids=str)
async def test_curator_through_decide_in_every_mode(mode: Mode) -> None:
    provider, config = mode_provider(mode, CuratorEvaluation, PAYLOAD, FREE_TEXT)
    grimoire = (entry("g1", 0.7), entry("g2", 0.5), entry("g3", 0.3))
    record = await decide(CURATOR, context(grimoire=grimoire), budgeting(provider, config=config))
    assert record.source == "model"
    assert record.response is not None and record.response.mode is mode
    assert record.outcome is not None
    assert record.outcome.details["promoted"] == ["g1"]
    assert record.outcome.grimoire_archive == ("g3",)
    assert "[g1]" in (provider.requests[0].messages[-1].content or "")


def test_with_one_entry_the_grammar_offers_no_cross_reference() -> None:
    """A cross-reference joins two entries: with one listed it could only be the entry's
    to itself, which the decision refuses; a real run's first three curations (one
    entry, from the first dream) were all that, and fell back to the rules."""
    from golem.inference.local.specialise import specialise

    schema = CuratorEvaluation.response_schema().schema

    def crossed(grimoire: tuple[GrimoireEntry, ...]) -> dict[str, object]:
        choices = CURATOR.brief(context(grimoire=grimoire)).choices
        narrowed = specialise(schema, choices).schema
        return narrowed["properties"]["cross_references"]  # type: ignore[no-any-return]

    assert crossed((entry("g1", 0.5),)).get("maxItems") == 0
    assert crossed((entry("g1", 0.5), entry("g2", 0.6))).get("maxItems") != 0
