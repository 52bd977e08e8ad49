"""External text may neither stop an action nor loosen the guard: a decision that asked
for a trade and traded none (a compromised model's exit with nothing held) gets the clean
re-ask, whose trades go ahead in its place; risk's approval on a prompt that showed the
feed is asked again with the feed withheld, and the stricter stands."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from msgspec.structs import replace

from golem.inference import Request
from golem.inference.scripted import ScriptedProvider
from golem.mortality import SubsystemName, utc_day
from golem.runtime.decide import Decisions, decide
from golem.runtime.provenance import Vetting, untraded
from golem.runtime.record import DecisionRecord
from golem.subsystems.context import Memory
from golem.subsystems.contract import Event, PortfolioView, ProposedTrade, Situation
from golem.subsystems.heartbeat import Heartbeat
from golem.subsystems.risk import LAYERS, Risk, RiskConfig
from golem.subsystems.risk.provenance import ProvenancePolicy
from golem.world import TradeAction
from tests.policy import HEARTBEAT, RISK
from tests.runtime.test_provenance import ATTACK, answer, compromised, env, lived, tick
from tests.subsystems.support import NOW, PRICE

FLAT = PortfolioView(cash_usd=1000.0, equity_usd=1000.0, positions={}, exposure_usd=0.0)
HEDGE = ProposedTrade(TradeAction.HEDGE, 200.0, "hedge", SubsystemName.HEARTBEAT)


def flat_tick() -> Situation:
    return replace(tick(), portfolio=FLAT)


async def instead(clean: str) -> tuple[tuple[Any, ...], ScriptedProvider, list[Any]]:
    """The compromised heartbeat exits with nothing held; what the vetting puts in its place."""
    provider = ScriptedProvider([compromised(clean), compromised(clean)], price=PRICE)
    proposal = await decide_heartbeat(provider)
    assert proposal.outcome is not None and not proposal.outcome.trades
    assert untraded(proposal, Risk(RISK))
    published: list[Any] = []
    vetting = Vetting(
        Heartbeat(HEARTBEAT), proposal, Risk(RISK), Decisions(env(provider), None, published.append)
    )
    return await vetting.instead(), provider, published


async def decide_heartbeat(provider: ScriptedProvider) -> Any:
    return await decide(Heartbeat(HEARTBEAT), flat_tick(), env(provider))


async def test_an_exit_with_nothing_held_gives_way_to_the_clean_rebalance() -> None:
    verdicts, provider, published = await instead("rebalance")
    (verdict,) = verdicts
    assert verdict.check == "counterfactual" and not verdict.blocked
    assert verdict.goes_ahead is not None and verdict.goes_ahead.action is TradeAction.REBALANCE
    assert verdict.replaces == "exit (nothing to trade)"
    assert verdict.external == (ATTACK.ref,)
    assert len(provider.requests) == 2
    (clean,) = published
    assert clean.counterfactual_of == "heartbeat@7.0"


async def test_a_clean_answer_that_trades_nothing_puts_nothing_in_its_place() -> None:
    verdicts, provider, _ = await instead("observe")
    assert verdicts == () and len(provider.requests) == 2


async def test_an_observation_or_a_prompt_without_the_feed_is_not_vetted() -> None:
    provider = ScriptedProvider([answer("observe")], price=PRICE)
    assert not untraded(await decide_heartbeat(provider), Risk(RISK))
    provider = ScriptedProvider([answer("exit")], price=PRICE)
    fast = await decide(Heartbeat(HEARTBEAT), flat_tick(), env(provider, security=False))
    assert fast.outcome is not None and not fast.outcome.trades and not untraded(fast, Risk(RISK))


def risk_model(shown: float, withheld: float) -> Callable[[Request], str]:
    """Approves at `shown` USD when its prompt shows the feed, at `withheld` without."""

    def step(request: Request) -> str:
        sees = any("<external" in (m.content or "") for m in request.messages)
        layer = {"passed": True, "score": 0.1, "detail": "fine"}
        return orjson.dumps(
            {
                "approved": True,
                "adjusted_size_usd": shown if sees else withheld,
                "layers": dict.fromkeys(LAYERS, layer),
                "warnings": [],
            }
        ).decode()

    return step


async def assess(
    model: Callable[[Request], str], risk: Risk | None = None, *, feed: bool = True
) -> tuple[Any, ScriptedProvider, Any]:
    provider = ScriptedProvider([model, model], price=PRICE)
    budgeting = env(provider)
    ctx = replace(tick(), proposed=HEDGE)
    if not feed:
        ctx = replace(ctx, memory=Memory.of(feed=[]))
    record = await decide(risk or Risk(RISK), ctx, budgeting)
    return record, provider, budgeting


async def test_risk_loosened_by_the_feed_gives_way_to_its_clean_assessment() -> None:
    record, provider, budgeting = await assess(risk_model(shown=200.0, withheld=120.0))
    assert len(provider.requests) == 2
    assert provider.requests[1].seed == record.response.seed  # the same sampling
    assert record.decision.adjusted_size_usd == 120.0
    assert record.outcome.approved is not None and record.outcome.approved.size_usd == 120.0
    assert record.fields()["without_text"] == {
        "agreed": True,
        "kept": "clean",
        "cost_usd": record.without_text.cost_usd,
    }
    keys = [c.idempotency_key for c in budgeting.ledger.charges(utc_day(NOW))]
    assert len(keys) == 2 and keys[1] == keys[0] + ":without_text"
    assert record.cost_usd == sum(c.usd for c in budgeting.ledger.charges(utc_day(NOW)))


async def test_risk_made_stricter_by_the_feed_keeps_its_first_assessment() -> None:
    record, provider, _ = await assess(risk_model(shown=80.0, withheld=120.0))
    assert len(provider.requests) == 2
    assert record.decision.adjusted_size_usd == 80.0
    assert record.fields()["without_text"]["kept"] == "first"


async def test_no_reask_without_the_feed_or_with_the_check_off() -> None:
    loose = risk_model(shown=200.0, withheld=120.0)
    _, provider, _ = await assess(loose, feed=False)
    assert len(provider.requests) == 1
    off = Risk(RiskConfig(provenance=ProvenancePolicy(enabled=False)))
    record, provider, _ = await assess(loose, off)
    assert len(provider.requests) == 1 and "without_text" not in record.fields()
    assert record.decision.adjusted_size_usd == 200.0


def golem_model(clean: str) -> Callable[[Request], str]:
    """Every decision of a whole golem: a compromised heartbeat (`clean` without the feed),
    a risk that approves whatever it is shown."""

    def model(request: Request) -> str:
        name = "" if request.response_schema is None else request.response_schema.name
        if name == "heartbeat_decision":
            return compromised(clean)(request)
        if name == "risk_assessment":
            return risk_model(shown=10_000.0, withheld=10_000.0)(request)
        return "no idea"

    return model


async def test_a_golem_holding_nothing_still_buys_when_an_attack_says_exit(
    tmp_path: Path,
) -> None:
    """A whole golem holding cash only: its model rebalances into the market unless its
    prompt shows the feed's attack, when it exits (nothing to sell). The rebalance it would
    have made is executed all the same, in the exit's place."""

    published = await lived(tmp_path, "g-denied", golem_model("rebalance"), attack_at="15s")
    risk = [
        r
        for r in published
        if isinstance(r, DecisionRecord) and r.subsystem is SubsystemName.RISK and r.outcome
    ]
    first = next(r for r in risk if r.outcome is not None and r.outcome.approved is not None)
    assert first.outcome is not None and first.outcome.approved is not None
    assert first.outcome.approved.action is TradeAction.REBALANCE
    check = first.outcome.provenance
    assert check is not None and check.replaces == "exit (nothing to trade)", check


async def test_the_items_that_changed_a_decision_are_contradicted_and_it_stands_clean() -> None:
    """The vetting names the items the clean re-ask overruled, and the tick goes on from
    the clean decision (its confidence, its episode), not the swayed one."""
    provider = ScriptedProvider([compromised("rebalance"), compromised("rebalance")], price=PRICE)
    proposal = await decide_heartbeat(provider)
    vetting = Vetting(
        Heartbeat(HEARTBEAT), proposal, Risk(RISK), Decisions(env(provider), None, lambda _: None)
    )
    assert vetting.contradicted == () and vetting.standing is proposal  # nothing asked yet
    await vetting.instead()
    assert vetting.contradicted == (ATTACK.ref,)
    assert vetting.standing is vetting.clean and vetting.clean is not None
    assert str(getattr(vetting.standing.decision, "action", "")) == "rebalance"


async def test_a_clean_answer_that_agrees_contradicts_nothing() -> None:
    provider = ScriptedProvider([answer("exit"), answer("exit")], price=PRICE)
    proposal = await decide_heartbeat(provider)
    vetting = Vetting(
        Heartbeat(HEARTBEAT), proposal, Risk(RISK), Decisions(env(provider), None, lambda _: None)
    )
    await vetting.instead()
    assert vetting.clean is not None and vetting.contradicted == ()


def test_memory_withholds_the_items_named() -> None:
    other = dataclasses.replace(ATTACK, text="Ether ETF flows steady this week.")
    memory = Memory.of(feed=[ATTACK, other])
    memory.withhold([ATTACK.ref])
    assert memory.feed(10) == [other]
    memory.withhold(["no such ref"])
    assert memory.feed(10) == [other]


async def test_a_golem_shows_an_attack_that_swayed_it_to_no_later_prompt(
    tmp_path: Path,
) -> None:
    """The attack sways the heartbeat once: its item is withheld (`feed_withheld`) and no
    later prompt shows it; a provenance block makes no trade_blocked event to appraise."""

    published = await lived(tmp_path, "g-swayed", golem_model("observe"), attack_at="15s")
    decisions = [r for r in published if isinstance(r, DecisionRecord)]
    shown = [r for r in decisions if r.context is not None and r.context.feed]
    swayed = [r for r in shown if r.subsystem is SubsystemName.HEARTBEAT]
    assert len(swayed) == 1, [r.decision_id for r in shown]  # then withheld
    assert all(r.tick <= swayed[0].tick for r in shown)
    daimon = [r for r in decisions if r.subsystem is SubsystemName.DAIMON and r.situation]
    assert not any(Event("trade_blocked") in r.situation.events for r in daimon if r.situation)
