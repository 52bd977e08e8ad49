"""The subsystems' minds (what the synthetic provider answers): each reads the structured
Ask (the Situation, the subsystem's config, the profile), only what its prompt showed, and
answers in line with the market and with its decision's content rules."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest
from msgspec.structs import replace

from golem.inference import get_schema
from golem.inference.synthetic.plan import Object, compile_schema
from golem.mortality import ModelTier, PipelineProfile, SubsystemName
from golem.subsystems import DECISIONS
from golem.subsystems.contract import Dying, Event, GrimoireEntry, Probes, ProposedTrade, Situation
from golem.subsystems.curator import Curator, CuratorConfig
from golem.subsystems.curator.mind import curator
from golem.subsystems.daimon import appraise
from golem.subsystems.daimon.mind import daimon
from golem.subsystems.death import DeathConfig, Thanatopsis
from golem.subsystems.death.mind import testament as life_review
from golem.subsystems.death.records import killed_by, records_testament
from golem.subsystems.dream import Dream, DreamConfig
from golem.subsystems.dream.mind import integration, replay
from golem.subsystems.facts import Ask, Percept
from golem.subsystems.heartbeat.mind import heartbeat
from golem.subsystems.minds import MINDS
from golem.subsystems.risk.mind import risk
from golem.world import DecisionSummary, Episode, TradeAction
from golem.world import EpisodeOutcome as Result
from tests.policy import APPRAISAL
from tests.subsystems.support import ask_for, context, market

HEDGE = ProposedTrade(TradeAction.HEDGE, 250.0, "a sharp drop", SubsystemName.HEARTBEAT)


def _episode(episode_id: int) -> Episode:
    return Episode(
        episode_id,
        market(tick=episode_id),
        DecisionSummary(action="hedge"),
        Result(horizon_ticks=20, actual_delta=-0.01, pnl_usd=-2.0),
    )


def _ctx(*, crash: bool, **changes: Any) -> Situation:
    moves = (
        {"delta_1": -0.035, "delta_period": -0.14, "zscore": -2.9, "health_factor": 1.15}
        if crash
        else {}
    )
    return context(
        market=market(**moves),
        probes=Probes(0.95 if crash else 0.05, 0.3, ModelTier.T1, ("price_delta>2%",)),
        events=(Event("trade_loss", 0.08),) if crash else (Event("trade_profit"),),
        **changes,
    )


def _answers(mind: Any, ask: Ask | None, n: int, seed: int = 3) -> list[dict[str, Any]]:
    return [mind(ask, Random(f"{seed}:{i}")) for i in range(n)]


def test_there_is_a_mind_for_every_decision_of_the_subsystems() -> None:
    # The subsystems' nine decisions (other tests register schemas of their own).
    assert set(MINDS) == {decision.schema_name for decision in DECISIONS}


@pytest.mark.parametrize("name", sorted(MINDS))
@pytest.mark.parametrize("crash", [False, True])
def test_every_mind_answers_within_its_decisions_content_rules(name: str, crash: bool) -> None:
    """Through the provider's plan (as `golem ask` does without facts too)."""
    decision = get_schema(name)
    plan = compile_schema(decision.response_schema().schema)
    assert isinstance(plan, Object)
    grimoire = tuple(
        GrimoireEntry(f"g{i}", f"knowledge {i}", c) for i, c in enumerate((0.9, 0.1, 0.65, 0.4))
    )
    episodes = tuple(_episode(i) for i in (11, 12, 13))
    ask = ask_for(name, _ctx(crash=crash, grimoire=grimoire, episodes=episodes, proposed=HEDGE))
    for facts in (ask, None):
        for seed in range(20):
            rng = Random(seed)
            value = plan.make(rng, MINDS[name](facts, rng))
            assert decision.model_validate(value).validate_content() == [], (seed, value)


def test_a_crash_brings_more_severity_and_hedges_than_a_calm_market() -> None:
    rank = {"none": 0, "low": 0, "moderate": 1, "high": 2, "critical": 3}
    severity, defensive = {}, {}
    for crash in (True, False):
        answers = _answers(heartbeat, ask_for("heartbeat_decision", _ctx(crash=crash)), 200)
        severity[crash] = sum(rank[a["severity"]] for a in answers)
        defensive[crash] = sum(a["action"] in ("hedge", "exit") for a in answers)
    assert severity[True] > 2 * severity[False]
    assert defensive[True] > 100 and defensive[False] < 20


def test_a_mind_reads_no_market_its_profile_did_not_show() -> None:
    """Minimal runs only the state layer: the crash is not in the prompt, so not in mind."""
    crash = _ctx(crash=True)
    shown = Percept.of(ask_for("heartbeat_decision", crash, profile=PipelineProfile.FAST))
    hidden = Percept.of(ask_for("heartbeat_decision", crash, profile=PipelineProfile.MINIMAL))
    assert shown.stress == 1.0 and shown.flags == ("price_delta>2%",)
    assert hidden == Percept(vitality=crash.vitality, phase=str(crash.phase))
    assert hidden.stress == 0.0


def test_risk_approves_calm_trades_more_often_than_crash_trades() -> None:
    approved = {}
    for crash in (True, False):
        ask = ask_for("risk_assessment", _ctx(crash=crash, proposed=HEDGE))
        answers = _answers(risk, ask, 100, seed=5)
        approved[crash] = sum(a["approved"] for a in answers)
        assert all(a["proposed_size_usd"] == 250.0 for a in answers)
        assert all(a["reasoning"].startswith("hedge ") for a in answers)
    assert approved[False] > 80
    assert approved[True] < 20


def test_risk_is_warier_of_a_trade_its_hard_limits_block() -> None:
    """An added position with no cash fails the hard limits' pre-check (risk's config)."""
    buy = ProposedTrade(TradeAction.BUY, 500.0, "buy the dip", SubsystemName.HEARTBEAT)
    calm = _ctx(crash=False, proposed=buy)
    broke = replace(calm, portfolio=replace(calm.portfolio, cash_usd=0.0))
    rates = {
        name: sum(a["approved"] for a in _answers(risk, ask_for("risk_assessment", ctx), 100))
        for name, ctx in (("cash", calm), ("broke", broke))
    }
    assert rates["broke"] < rates["cash"] / 2


def test_the_daimon_mostly_feels_what_its_rule_table_reads() -> None:
    ctx = _ctx(crash=True)
    rule = appraise(ctx.events, APPRAISAL)
    felt = Counter(
        a["primary_emotion"] for a in _answers(daimon, ask_for("daimon_appraisal", ctx), 200)
    )
    assert felt[str(rule.primary_emotion)] > 150
    assert all(
        a["trigger"] == "trade_loss:0.0800"
        for a in _answers(daimon, ask_for("daimon_appraisal", ctx), 5)
    )


def test_the_curator_reviews_the_entries_its_brief_lists_and_cites_no_other() -> None:
    grimoire = tuple(
        GrimoireEntry(f"g{i}", f"knowledge {i}", c)
        for i, c in enumerate((0.9, 0.1, 0.65, 0.4, 0.05, 0.7))
    )
    ctx = _ctx(crash=False, grimoire=grimoire)
    listed = ask_for("curator_evaluation", ctx, subsystem=Curator(CuratorConfig(prompt_entries=4)))
    shown = {"g0", "g5", "g2", "g3"}  # the four most trusted
    for answer in _answers(curator, listed, 50):
        assert answer["entries_evaluated"] == 4
        cited = {p["entry_id"] for p in answer["promotions"]} | set(answer["prune_ids"])
        cited |= {r[k] for r in answer["cross_references"] for k in ("source_id", "target_id")}
        assert cited <= shown
        assert not answer["prune_ids"]  # none of the four is below 0.2
    cut = replace(listed, inputs_cut=3)  # the prompt kept only the first line
    assert {a["entries_evaluated"] for a in _answers(curator, cut, 5)} == {1}


def test_replay_cites_the_latest_episode_it_replays() -> None:
    ctx = _ctx(crash=False, episodes=tuple(_episode(i) for i in range(30, 60)))
    dream = Dream(DreamConfig(replay_episodes=10))
    answers = _answers(replay, ask_for("replay_analysis", ctx, subsystem=dream), 20)
    assert {(a["episode_id"], a["episodes_reviewed"]) for a in answers} == {("59", 10)}
    cut = ask_for("replay_analysis", ctx, subsystem=dream, inputs_cut=4)
    assert {a["episode_id"] for a in _answers(replay, cut, 5)} == {"55"}
    assert _answers(replay, ask_for("replay_analysis", _ctx(crash=False)), 1)[0]["episode_id"] == ""


def test_integration_sorts_only_the_staged_entries() -> None:
    grimoire = (
        GrimoireEntry("s1", "staged one", 0.9),
        GrimoireEntry("b1", "a belief", 0.9, tier="belief"),
        GrimoireEntry("s2", "staged two", 0.1),
    )
    ask = ask_for("dream_integration", _ctx(crash=False, grimoire=grimoire))
    for answer in _answers(integration, ask, 20):
        ids = [i["hypothesis_id"] for k in ("promoted", "staged", "discarded") for i in answer[k]]
        assert sorted(ids) == ["s1", "s2"]


def test_the_testament_names_the_cause_and_the_arc_the_records_read() -> None:
    ctx = _ctx(crash=True, dying=Dying("economic"))
    ask = ask_for("death_testament", ctx)
    records = records_testament(ctx, Thanatopsis(DeathConfig()).config)
    for answer in _answers(life_review, ask, 5):
        assert answer["killed_by"] == killed_by(ctx)
        assert answer["arc_class"] == str(records.arc_class)
    assert _answers(life_review, None, 1)[0]["killed_by"] == "the credits ran out"


def test_a_mind_answers_only_the_subsystem_whose_decision_it_is() -> None:
    """The daimon's mind reads the daimon's appraisal rules; asked by the curator it would
    answer by rules nobody chose, so it says who asked instead."""
    asked = ask_for("daimon_appraisal", context(), subsystem=Curator(CuratorConfig()))
    with pytest.raises(TypeError, match="daimon_appraisal is the Daimon's, asked by curator"):
        daimon(asked, Random(0))
    assert daimon(ask_for("daimon_appraisal", context()), Random(0))["primary_emotion"]
