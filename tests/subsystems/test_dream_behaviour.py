"""Dream behaviour: skipped with a reason when its conditions fail, the kind rotation and
seeded scenes, each kind's effect on the grimoire, and each kind through decide() in
every structured-output mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest
from pydantic import ValidationError

from golem.inference import Mode, ServerError, parse_response
from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, Phase
from golem.runtime.decide import decide
from golem.subsystems.contract import Dreaming, Event, GrimoireEntry, Outcome, Situation
from golem.subsystems.dream import (
    Dream,
    DreamConfig,
    DreamKind,
    ReplayAnalysis,
    ThreatAssessment,
)
from golem.subsystems.dream.replay_analysis import MarketRegime, regime_of
from golem.subsystems.dream.scenes import DECISIONS, fragment, scenario
from golem.world import DecisionSummary, Episode, Regime
from golem.world import EpisodeOutcome as Result

from .support import MODES, budgeting, context, market, mode_provider

DREAM = Dream(DreamConfig())
GRIMOIRE = (
    GrimoireEntry("g1", "hold in calm markets", 0.5),
    GrimoireEntry("g2", "moon phases move prices", 0.3),
    GrimoireEntry("g3", "exit before crashes", 0.8, tier="belief"),
)


def episodes(n: int = 12, *, pending: int = 0) -> tuple[Episode, ...]:
    def one(i: int, resolved: bool) -> Episode:
        result = Result(20, 0.01, 2.0 if i % 3 else -1.0) if resolved else None
        return Episode(i, market(tick=i, regime=Regime.CALM), DecisionSummary("hold"), result)

    return (*(one(i, True) for i in range(n)), *(one(n + i, False) for i in range(pending)))


def dreaming(kind: DreamKind | None = None, **changes: Any) -> Situation:
    told = Dreaming(kind=kind) if kind is not None else None
    fields = {"episodes": episodes(), "grimoire": GRIMOIRE, "dreaming": told} | changes
    return context(**fields)


# Conditions


async def test_too_few_resolved_episodes_skip_the_dream() -> None:
    ctx = dreaming(DreamKind.REPLAY, episodes=episodes(9, pending=5))
    record = await decide(DREAM, ctx, budgeting(ScriptedProvider([])))
    assert (record.source, record.skip_reason) == (
        "skipped",
        "too few episodes: 9 resolved of 10 needed",
    )


async def test_a_terminal_golem_does_not_dream() -> None:
    ctx = dreaming(DreamKind.REPLAY, phase=Phase.TERMINAL, vitality=0.05)
    record = await decide(DREAM, ctx, budgeting(ScriptedProvider([]), phase=Phase.TERMINAL))
    assert record.source == "skipped"
    assert record.skip_reason == "terminal phase: no dreams, only the death reflection"


async def test_a_terminal_mortality_state_skips_through_the_allocator() -> None:
    provider = ScriptedProvider([])
    record = await decide(DREAM, dreaming(), budgeting(provider, phase=Phase.TERMINAL))
    assert (record.source, record.skip_reason) == ("skipped", "degraded: terminal")
    assert provider.requests == []


async def test_no_budget_left_skips_the_dream_without_queueing_it() -> None:
    provider = ScriptedProvider([])
    env = budgeting(provider, daily_budget_usd=0.0)
    record = await decide(DREAM, dreaming(DreamKind.THREAT), env)
    assert record.source == "skipped"
    assert record.skip_reason is not None and record.skip_reason.startswith("degraded: cost_cap")
    assert provider.requests == []


def test_no_credits_and_nothing_staged_are_reasons_too() -> None:
    assert DREAM.skip_reason(dreaming(credits_usd=0.0)) == "no credits left to dream on"
    beliefs = (GrimoireEntry("g3", "exit before crashes", 0.8, tier="belief"),)
    ctx = dreaming(DreamKind.INTEGRATION, grimoire=beliefs)
    assert DREAM.skip_reason(ctx) == "nothing to integrate: no staged knowledge"
    assert DREAM.skip_reason(dreaming()) is None


# Kinds and scenes


def test_kinds_rotate_with_the_schedule_unless_named() -> None:
    every = DREAM.config.every_ticks
    kinds = [DREAM.kind(dreaming(tick=i * every)) for i in range(5)]
    assert kinds == ["replay", "hypnagogic", "integration", "threat", "replay"]
    assert DREAM.kind(dreaming(dreaming=Dreaming(cycle=3))) is DreamKind.THREAT
    assert DREAM.kind(dreaming(DreamKind.INTEGRATION, tick=0)) is DreamKind.INTEGRATION
    assert DREAM.decision_type(dreaming(DreamKind.THREAT)) is ThreatAssessment


def test_with_nothing_staged_the_rotation_passes_integration_by() -> None:
    """A skipped dream does not count; with integration in the rotation and nothing
    staged, the golem stopped dreaming for good after a replay that drew no lesson and a
    discarded fragment (a real run's small model did both)."""
    beliefs = (GrimoireEntry("g3", "exit before crashes", 0.8, tier="belief"),)
    kinds = [
        DREAM.kind(dreaming(grimoire=beliefs, dreaming=Dreaming(cycle=cycle))) for cycle in range(4)
    ]
    assert kinds == ["replay", "hypnagogic", "threat", "replay"]
    assert all(
        DREAM.skip_reason(dreaming(grimoire=(), dreaming=Dreaming(cycle=c))) is None
        for c in range(8)
    )


def test_fragments_and_scenarios_follow_the_seed() -> None:
    seeded = [dreaming(dreaming=Dreaming(seed=seed)) for seed in (1, 1, 2)]
    first, again, other = (fragment(ctx) for ctx in seeded)
    assert first == again != other
    assert first.startswith("What if these are one pattern?")
    assert scenario(seeded[0], DREAM.config) in DREAM.config.threat_scenarios
    named = dreaming(dreaming=Dreaming(threat_scenario="a 30% crash with health factor 1.1"))
    assert scenario(named, DREAM.config) == "a 30% crash with health factor 1.1"


# Each kind's effect


def _replay_answer(conditions: object) -> str:
    lesson = {"insight": "Exits in a crash cost more late", "applicable_conditions": conditions}
    return orjson.dumps({"episode_id": "12", "lessons": [lesson], "surprise_score": 0.6}).decode()


def test_a_lesson_s_conditions_are_the_seed_s_text_and_a_list_is_read_joined() -> None:
    # The seed defines Lesson.applicable_conditions as a string; golem once made it a list,
    # which rejected the seed's answer. The schema a model is shown asks for the string.
    schema = ReplayAnalysis.response_schema().schema
    lesson = schema["properties"]["lessons"]["items"]
    assert lesson["properties"]["applicable_conditions"]["type"] == "string"
    assert "description" not in lesson
    seed = parse_response(ReplayAnalysis, _replay_answer("crash, thin liquidity")).value
    listed = parse_response(ReplayAnalysis, _replay_answer(["crash", " thin liquidity", ""])).value
    (from_seed,), (from_list,) = seed.lessons, listed.lessons
    assert from_seed.applicable_conditions == from_list.applicable_conditions
    assert from_seed.applicable_conditions == "crash, thin liquidity"
    assert regime_of(from_seed) is MarketRegime.CRASH
    (staged,) = DREAM.act(dreaming(DreamKind.REPLAY), seed).grimoire_upserts
    assert staged.regime == "crash"
    with pytest.raises(ValidationError, match="applicable_conditions"):
        ReplayAnalysis.model_validate_json(_replay_answer([1, 2]))


def test_replay_stages_new_lessons_and_reinforces_known_ones() -> None:
    decision = ReplayAnalysis.model_validate(
        {
            "episode_id": "12",
            "lessons": [
                {
                    "insight": "Hold in calm markets.",
                    "confidence": 0.9,
                    "applicable_conditions": "calm",
                },
                {"insight": "Volatility clusters", "confidence": 0.9, "applicable_conditions": ""},
            ],
            "surprise_score": 0.3,
            "counterfactuals": [],
            "arousal_delta": 0.1,
        }
    )
    outcome = DREAM.act(dreaming(DreamKind.REPLAY), decision)
    reinforced, staged = outcome.grimoire_upserts
    assert (reinforced.id, reinforced.confidence) == ("g1", 0.55)
    assert (staged.tier, staged.confidence, staged.regime) == ("staged", 0.6, None)
    assert staged.provenance == "dream:replay at tick 7"


def test_without_a_model_replay_reads_the_records() -> None:
    decision = Dream(DreamConfig(tier=ModelTier.T0)).deterministic(dreaming(DreamKind.REPLAY))
    assert isinstance(decision, ReplayAnalysis) and decision.validate_content() == []
    (lesson,) = decision.lessons
    assert lesson.insight == "In calm markets, hold won 8 of 12 times (mean pnl +1.00)"
    assert (lesson.applicable_conditions, lesson.confidence) == ("calm", round(12 / 17, 4))
    assert decision.episodes_reviewed == 12 and decision.episode_id != ""
    assert DREAM.deterministic(dreaming(DreamKind.THREAT)) is None


async def test_a_failed_provider_skips_a_dream_with_no_rules() -> None:
    provider = ScriptedProvider([ServerError("down", status=503, provider="scripted")])
    record = await decide(DREAM, dreaming(DreamKind.HYPNAGOGIC), budgeting(provider))
    assert (record.source, record.skip_reason) == ("skipped", "no deterministic path")


async def test_at_t0_replay_runs_on_rules_and_stages_its_lessons() -> None:
    dream = Dream(DreamConfig(tier=ModelTier.T0))
    record = await decide(dream, dreaming(DreamKind.REPLAY), budgeting(ScriptedProvider([])))
    assert record.source == "deterministic"
    assert record.outcome is not None and len(record.outcome.grimoire_upserts) == 1


# Every kind through decide() in every mode

Check = Callable[[Outcome], bool]
CASES: dict[DreamKind, tuple[dict[str, Any], str, Check]] = {
    DreamKind.REPLAY: (
        {
            "episode_id": "8",
            "lessons": [
                {
                    "insight": "Hedge early in crashes",
                    "confidence": 0.8,
                    "applicable_conditions": "crash, health factor below 1.5",
                }
            ],
            "surprise_score": 0.4,
            "counterfactuals": [],
            "arousal_delta": 0.2,
            "episodes_reviewed": 8,
        },
        "Reviewed 8 episodes.\nLessons:\n- Hedge early in crashes (confidence 0.8)",
        lambda o: (
            [(e.text, e.confidence, e.regime) for e in o.grimoire_upserts]
            == [("Hedge early in crashes", 0.6, "crash")]
        ),
    ),
    DreamKind.HYPNAGOGIC: (
        {
            "novelty": 0.6,
            "relevance": 0.8,
            "coherence": 0.7,
            "verdict": "promote",
        },
        "Novelty 0.6, coherence 0.7, relevance 0.8. Verdict: promote.",
        lambda o: (
            [(e.text, e.confidence) for e in o.grimoire_upserts]
            == [(fragment(dreaming(DreamKind.HYPNAGOGIC)), 0.6)]
        ),
    ),
    DreamKind.INTEGRATION: (
        {
            "promoted": [
                {
                    "hypothesis_id": "g1",
                    "summary": "hold in calm markets",
                    "confidence": 0.8,
                    "rationale": "held in replay",
                }
            ],
            "staged": [],
            "discarded": [
                {
                    "hypothesis_id": "g2",
                    "summary": "moon phases",
                    "confidence": 0.2,
                    "rationale": "no evidence",
                }
            ],
            "playbook_diff": "+ hold in calm markets",
        },
        "Promote:\n- [g1] hold in calm markets (0.8)\nDiscard:\n- [g2] moon phases",
        lambda o: (
            o.grimoire_archive == ("g2",)
            and [(e.id, e.tier, e.confidence) for e in o.grimoire_upserts if not e.archived]
            == [("g1", "belief", 0.8)]
        ),
    ),
    DreamKind.THREAT: (
        {
            "threat_type": "a 30% crash",
            "severity": "high",
            "likelihood": 0.4,
            "impact_if_realized": "a third of the equity",
            "mitigation_actions": ["cut leverage", "set a stop"],
            "detection_signals": ["funding flips negative"],
            "rehearsal_outcome": "the stop held",
        },
        "Threat: a 30% crash\nLikelihood 0.4. Severity: high."
        "\nMitigations:\n- cut leverage\n- set a stop",
        lambda o: (
            o.events == (Event("threat_high"),)
            and [e.text for e in o.grimoire_upserts] == ["If a 30% crash: cut leverage; set a stop"]
        ),
    ),
}


@pytest.mark.parametrize("mode", MODES, ids=str)
@pytest.mark.parametrize("kind", list(DreamKind), ids=str)
async def test_each_kind_through_decide_in_every_mode(kind: DreamKind, mode: Mode) -> None:
    payload, text, expected = CASES[kind]
    provider, config = mode_provider(mode, DECISIONS[kind], payload, text)
    record = await decide(DREAM, dreaming(kind), budgeting(provider, config=config))
    assert record.source == "model", record.error
    assert record.response is not None and record.response.mode is mode
    assert record.outcome is not None and expected(record.outcome), record.outcome
    assert record.outcome.details["dream_kind"] == kind
