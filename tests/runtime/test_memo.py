"""Decisions reused instead of asked again: the decision cache ([cache]) and risk's judged
proposals ([subsystems.risk] verdict_window), through decide(), and what the record, its
log line and a simulated life's summary say of them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import orjson
import trio
from msgspec.structs import replace

from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, Phase, SubsystemName, utc_day
from golem.runtime.decide import decide
from golem.runtime.memo import DecisionMemo, MemoPolicy
from golem.runtime.record import DecisionRecord
from golem.simulation.run import LifeSpec, live
from golem.simulation.scenario import load_scenario
from golem.simulation.tally import Tally
from golem.subsystems.contract import Event, OwnerSteer, ProposedTrade, Situation
from golem.world import Regime, TradeAction
from tests.inference.decisions import VALID, Pulse

from .test_decide import NOW, Toy, budgeting, context
from .test_no_dead_knobs import BASE, charge, golem_of, parse_config, with_keys

ANSWER = orjson.dumps(VALID).decode()
CACHE = MemoPolicy(cache_ttl=timedelta(minutes=30), cached=frozenset(SubsystemName))
VERDICTS = MemoPolicy(verdict_window=timedelta(hours=1))
RISK = Toy(name=SubsystemName.RISK)


def later(ctx: Situation, minutes: float, **changes: object) -> Situation:
    """The same situation `minutes` later, a few ticks on."""
    return replace(
        ctx, tick=ctx.tick + 1 + int(minutes), now=ctx.now + timedelta(minutes=minutes), **changes
    )


def buying(size: float, **changes: object) -> Situation:
    trade = ProposedTrade(TradeAction.BUY, size, "test", SubsystemName.HEARTBEAT)
    return context(proposed=trade, run=1, **changes)


async def twice(
    memo: DecisionMemo, first: Situation, second: Situation, subsystem: Toy | None = None
) -> tuple[DecisionRecord, DecisionRecord, ScriptedProvider]:
    toy = subsystem or Toy()
    provider = ScriptedProvider([ANSWER, ANSWER])
    env = budgeting(provider)
    a = await decide(toy, first, env, memo)
    b = await decide(toy, second, env, memo)
    return a, b, provider


async def test_a_model_decision_is_reused_for_the_same_situation_at_no_cost() -> None:
    memo = DecisionMemo(CACHE)
    ctx = context()
    provider = ScriptedProvider([ANSWER])  # one answer: a second call would fail
    env = budgeting(provider)
    made = await decide(Toy(), ctx, env, memo)
    reused = await decide(Toy(), later(ctx, 10), env, memo)
    assert (made.source, made.cache) == ("model", "miss")
    assert (reused.source, reused.cache, reused.cost_usd) == ("reused", "hit", 0.0)
    assert reused.decision == made.decision and reused.tier is made.tier
    assert len(provider.requests) == 1
    assert len(env.ledger.charges(utc_day(NOW))) == 1
    line, original = reused.fields(), made.fields()
    assert original["id"] == "heartbeat@7.0" and original["cache"] == "miss"
    assert (line["cache"], line["reused_by"], line["reused_from"]) == (
        "hit",
        "cache",
        "heartbeat@7.0",
    )
    assert line["summary"] == "hedge at high (reused cache: heartbeat@7.0)"
    assert "id" not in line


async def test_without_a_memo_the_model_is_asked_each_time() -> None:
    provider = ScriptedProvider([ANSWER, ANSWER])
    env = budgeting(provider)
    for ctx in (context(), later(context(), 10)):
        record = await decide(Toy(), ctx, env)
        assert (record.source, record.cache) == ("model", None)
        assert "cache" not in record.fields()
    assert len(provider.requests) == 2


async def test_an_entry_lives_for_its_ttl_from_the_models_answer() -> None:
    memo = DecisionMemo(CACHE)
    ctx = context()
    _, hit, _ = await twice(memo, ctx, later(ctx, 29))
    assert hit.source == "reused"
    # The reuse at 29 minutes did not renew the entry: at 30 the model is asked again.
    _, _, provider = await twice(DecisionMemo(CACHE), ctx, later(ctx, 30))
    assert len(provider.requests) == 2
    memo = DecisionMemo(CACHE)
    await decide(Toy(), ctx, budgeting(ScriptedProvider([ANSWER])), memo)
    await decide(Toy(), later(ctx, 20), budgeting(ScriptedProvider([])), memo)
    expired = await decide(Toy(), later(ctx, 31), budgeting(ScriptedProvider([ANSWER])), memo)
    assert (expired.source, expired.cache) == ("model", "miss")


async def test_a_different_situation_misses() -> None:
    ctx = context()
    others = [
        later(ctx, 1, market=replace(ctx.market, regime=Regime.CRASH)),
        later(ctx, 1, events=(Event("regime_shift"),)),
    ]
    for other in others:
        _, second, provider = await twice(DecisionMemo(CACHE), ctx, other)
        assert (second.source, second.cache) == ("model", "miss")
        assert len(provider.requests) == 2


async def test_a_trade_in_another_size_bucket_misses() -> None:
    # $1000 of equity, buckets of 5%: $100 and $120 share one, $160 is another.
    _, same, _ = await twice(DecisionMemo(CACHE), buying(100.0), later(buying(120.0), 1), RISK)
    _, other, _ = await twice(DecisionMemo(CACHE), buying(100.0), later(buying(160.0), 1), RISK)
    assert (same.source, other.source) == ("reused", "model")


async def test_nothing_survives_forget_the_phase_change() -> None:
    memo = DecisionMemo(CACHE)
    ctx = context()
    await decide(Toy(), ctx, budgeting(ScriptedProvider([ANSWER])), memo)
    memo.forget()
    record = await decide(Toy(), later(ctx, 1), budgeting(ScriptedProvider([ANSWER])), memo)
    assert record.source == "model"


async def test_death_is_never_cached_nor_a_model_less_decision() -> None:
    memo = DecisionMemo(CACHE)
    death = Toy(name=SubsystemName.DEATH)
    assert memo.recall(death, context()) is None
    _, second, _ = await twice(memo, context(), later(context(), 1), death)
    assert (second.source, second.cache) == ("model", None)
    # A rule-made decision (Terminal allows no model) is not kept for later.
    terminal = context(phase=Phase.TERMINAL, vitality=0.05)
    env = budgeting(ScriptedProvider([ANSWER]), phase=Phase.TERMINAL)
    first = await decide(Toy(), terminal, env, memo)
    second = await decide(Toy(), later(terminal, 1), env, memo)
    assert (first.source, second.source, second.cache) == ("deterministic",) * 2 + ("miss",)


async def test_a_t0_run_and_a_subsystem_not_listed_are_not_looked_up() -> None:
    memo = DecisionMemo(MemoPolicy(cache_ttl=timedelta(hours=1), cached=frozenset()))
    assert memo.recall(Toy(), context()) is None
    assert DecisionMemo(CACHE).recall(Toy(wanted=ModelTier.T0), context()) is None


async def test_a_review_the_owner_asked_for_is_neither_reused_nor_kept() -> None:
    memo = DecisionMemo(CACHE)
    steered = context(steer=OwnerSteer(("look again",)))
    provider = ScriptedProvider([ANSWER, ANSWER, ANSWER])
    env = budgeting(provider)
    made = await decide(Toy(), context(), env, memo)
    review = await decide(Toy(), later(steered, 1), env, memo)  # same situation, but steered
    after = await decide(Toy(), later(context(), 2), env, memo)
    assert (made.source, review.source, review.cache) == ("model", "model", None)
    assert (after.source, after.reused.decision_id if after.reused else None) == (
        "reused",
        made.decision_id,  # what the cache holds is the unsteered answer, not the review
    )
    assert len(provider.requests) == 2


async def test_risk_is_not_asked_again_about_a_proposal_it_judged() -> None:
    memo = DecisionMemo(VERDICTS)
    judged, again, provider = await twice(memo, buying(100.0), later(buying(110.0), 30), RISK)
    assert (judged.source, again.source) == ("model", "reused")
    assert (again.cache, again.cost_usd) == (None, 0.0)
    line = again.fields()
    assert (line["reused_by"], line["reused_from"]) == ("verdict", "risk@7.1")
    assert "(reused verdict: risk@7.1)" in line["summary"]
    assert len(provider.requests) == 1


async def test_a_verdict_applies_within_its_window_and_to_its_proposal_only() -> None:
    _, late, _ = await twice(DecisionMemo(VERDICTS), buying(100.0), later(buying(100.0), 60), RISK)
    _, other, _ = await twice(DecisionMemo(VERDICTS), buying(100.0), later(buying(200.0), 1), RISK)
    hedge = later(
        buying(100.0),
        1,
        proposed=ProposedTrade(TradeAction.HEDGE, 100.0, "t", SubsystemName.HEARTBEAT),
    )
    _, hedged, _ = await twice(DecisionMemo(VERDICTS), buying(100.0), hedge, RISK)
    assert (late.source, other.source, hedged.source) == ("model",) * 3
    # Only risk's verdicts: the heartbeat is asked again.
    _, heartbeat, _ = await twice(DecisionMemo(VERDICTS), context(), later(context(), 1))
    assert heartbeat.source == "model"


async def test_the_tally_counts_hits_misses_and_reused_verdicts() -> None:
    tally = Tally(NOW)
    memo = DecisionMemo(CACHE)
    for record in await twice(memo, context(), later(context(), 1)):
        if isinstance(record, DecisionRecord):
            tally(record)
    for record in await twice(DecisionMemo(VERDICTS), buying(100.0), later(buying(100.0), 1), RISK):
        if isinstance(record, DecisionRecord):
            tally(record)
    assert (tally.cache_hits, tally.cache_misses, tally.verdicts_reused) == (1, 1, 1)
    assert tally.cache_hit_rate == 0.5
    assert tally.decisions_by_source["reused"] == 2


def test_a_golem_forgets_its_memo_when_its_phase_moves() -> None:
    with golem_of(parse_config(BASE)) as golem:
        assert golem.memo is None  # every lever off: no memo at all
    with golem_of(parse_config(with_keys(BASE, {"cache": {"enabled": True}}))) as golem:
        memo = golem.memo
        assert memo is not None
        ctx = context()
        lookup = memo.recall(Toy(), ctx)
        assert lookup is not None
        memo.keep(lookup, ctx, Pulse.model_validate(VALID), ModelTier.T1, "heartbeat@7.0")
        assert getattr(memo.recall(Toy(), ctx), "hit", None) is not None
        golem.store.ledger.record(charge(SubsystemName.OPERATOR, 0.9 * golem.store.credits()))
        golem._update_vitals(0.0)
        assert golem.vitals.phase is not Phase.THRIVING
        assert getattr(memo.recall(Toy(), ctx), "hit", None) is None


def test_a_simulated_lifes_summary_reports_the_hit_rate(tmp_path: Path) -> None:
    scenario = Path(__file__).parents[2] / "simulations" / "decline.toml"
    cached = tmp_path / "cached.toml"
    cached.write_text(scenario.read_text() + "\n[cache]\nenabled = true\n")
    summaries = []
    for path in (scenario, cached):
        spec = LifeSpec(path, 1, tmp_path / path.stem, days=3.0, record=False)
        summaries.append(trio.run(live, load_scenario(path), spec).summary)
    plain, with_cache = summaries
    assert (plain["cache_hits"], plain["cache_misses"], plain["cache_hit_rate"]) == (0, 0, None)
    hits, misses = with_cache["cache_hits"], with_cache["cache_misses"]
    assert hits > 0 and with_cache["cache_hit_rate"] == round(hits / (hits + misses), 9)
    assert with_cache["decisions_by_source"]["reused"] == hits
