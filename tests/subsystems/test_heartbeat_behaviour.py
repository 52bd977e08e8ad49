"""Heartbeat: probes, the gate θ and tiers as tables and properties; escalation to T2,
trades for risk, and every structured-output mode end to end through decide()."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from golem.inference import Mode
from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, Phase
from golem.runtime.decide import decide
from golem.subsystems.contract import Event, PortfolioView, Probes, Situation
from golem.subsystems.heartbeat import (
    GateParams,
    Heartbeat,
    HeartbeatDecision,
    ProbeConfig,
    ProbePolicy,
    ProbeThresholds,
    compute_probes,
    escalated,
    gate,
    interval,
    tier_for,
)
from golem.world import MarketSummary, TradeAction
from tests.policy import HEARTBEAT, SCHEDULE

from .support import MODES, budgeting, context, market, mode_provider

CALM = market()
PROBES = ProbePolicy.of(ProbeConfig())  # every probe knob at its default
HELD = PortfolioView(cash_usd=400.0, equity_usd=1000.0, positions={"ETH": 0.2}, exposure_usd=600.0)


def probes_of(summary: MarketSummary, previous: MarketSummary | None = CALM, **kw: Any) -> Probes:
    args: dict[str, Any] = {"vitality": 1.0, "arousal": 0.0, "credits_usd": 100.0}
    args |= {"burn_rate_usd": 0.001, "policy": PROBES} | kw
    return compute_probes(summary, previous, **args)


def at_tier(tier: ModelTier, **changes: Any) -> Situation:
    probes = Probes(prediction_error=0.5, theta=0.35, tier=tier, flags=("price_delta>2.0%",))
    return context(probes=probes, **changes)


# --- the gate and the tiers --------------------------------------------------------------


@pytest.mark.parametrize(
    ("confidence", "vitality", "arousal", "theta"),
    [
        (0.5, 1.0, 0.0, 0.375),
        (None, 1.0, 0.0, 0.375),  # no decision yet: the default confidence 0.5
        (1.0, 1.0, 0.0, 0.45),
        (0.0, 1.0, 0.0, 0.3),
        (0.0, 0.0, 0.0, 0.21),  # a dying golem escalates sooner
        (0.0, 0.0, 1.0, 0.168),  # an agitated one sooner still
        (0.0, 0.0, -1.0, 0.168),  # |arousal|
        (0.5, 0.8, -0.5, 0.31725),
    ],
)
def test_gate_formula(
    confidence: float | None, vitality: float, arousal: float, theta: float
) -> None:
    assert gate(confidence, vitality, arousal, GateParams()) == pytest.approx(theta)


def test_gate_is_clamped() -> None:
    assert gate(1.0, 1.0, 0.0, GateParams(base=1.0)) == 0.8
    assert gate(0.0, 0.0, 1.0, GateParams(base=0.01)) == 0.05


@pytest.mark.parametrize(
    ("pe", "tier"),
    [(0.0, ModelTier.T0), (0.29, ModelTier.T0), (0.3, ModelTier.T1), (0.59, ModelTier.T1),
     (0.6, ModelTier.T2), (1.0, ModelTier.T2)],
)  # fmt: skip
def test_tier_bands_at_theta_0_3(pe: float, tier: ModelTier) -> None:
    assert tier_for(pe, 0.3) is tier


@given(
    st.one_of(st.none(), st.floats(-2, 3)),
    st.floats(-1, 2),
    st.floats(-3, 3),
)
def test_theta_always_within_bounds(
    confidence: float | None, vitality: float, arousal: float
) -> None:
    assert 0.05 <= gate(confidence, vitality, arousal, GateParams()) <= 0.8


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0.05, 0.8))
def test_tier_is_monotone_in_pe(a: float, b: float, theta: float) -> None:
    low, high = sorted((a, b))
    assert tier_for(low, theta) <= tier_for(high, theta)


_opt = st.one_of(st.none(), st.floats(-5, 5))


@given(
    delta_1=_opt, delta_period=_opt, zscore=_opt, previous_z=_opt,
    volume_ratio=st.one_of(st.none(), st.floats(0, 50)),
    health=st.one_of(st.none(), st.floats(0, 5)),
    credits=st.floats(0, 1000), burn=st.floats(0, 10),
    confidence=st.floats(0, 1), vitality=st.floats(0, 1), arousal=st.floats(-1, 1),
)  # fmt: skip
def test_probes_keep_pe_in_unit_interval_and_tier_consistent(
    *,
    delta_1: float | None,
    delta_period: float | None,
    zscore: float | None,
    previous_z: float | None,
    volume_ratio: float | None,
    health: float | None,
    credits: float,
    burn: float,
    confidence: float,
    vitality: float,
    arousal: float,
) -> None:
    summary = market(
        delta_1=delta_1,
        delta_period=delta_period,
        zscore=zscore,
        volume_ratio=volume_ratio,
        health_factor=health,
    )
    probes = compute_probes(
        summary,
        market(zscore=previous_z),
        vitality=vitality,
        arousal=arousal,
        credits_usd=credits,
        burn_rate_usd=burn,
        confidence=confidence,
        policy=PROBES,
    )
    assert 0.0 <= probes.prediction_error <= 1.0
    assert 0.05 <= probes.theta <= 0.8
    assert probes.tier is tier_for(probes.prediction_error, probes.theta)
    assert (probes.prediction_error == 0) == (probes.flags == ())


# --- the probes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "previous_z", "flags", "pe"),
    [
        ({}, 0.2, (), 0.0),
        ({"delta_period": 0.01}, 0.2, ("price_delta>0.5%",), 0.15),
        ({"delta_period": -0.03}, 0.2, ("price_delta>2.0%",), 0.5),
        ({"delta_1": 0.03}, 0.2, (), 0.0),  # by default the move is read over the period
        ({"volume_ratio": 4.0}, 0.2, ("volume>3x",), 0.15),
        ({"health_factor": 1.4}, 0.2, ("health_factor<1.5",), 0.3),
        ({"health_factor": 1.1}, 0.2, ("health_factor<1.2",), 0.75),
        ({"zscore": 1.5}, 0.2, ("regime_change:within>above",), 0.1),
        ({"zscore": 0.1}, -1.3, ("regime_change:below>within",), 0.1),
        ({"zscore": -1.5}, 1.5, ("regime_flip:above>below",), 0.35),
        ({"zscore": 1.5}, 1.4, ("outside_band:above",), 0.02),  # being outside is not news
        ({"zscore": 1.5}, None, ("outside_band:above",), 0.02),  # no band last tick
    ],
)
def test_probe_table(
    changes: dict[str, float], previous_z: float | None, flags: tuple[str, ...], pe: float
) -> None:
    probes = probes_of(market(**changes), market(zscore=previous_z))
    assert probes.flags == flags
    assert probes.prediction_error == pytest.approx(pe)
    # The facts the rules act on are typed, not read back from the flags' wording.
    assert probes.health_critical is (changes.get("health_factor", 2.0) < 1.2)
    assert probes.regime_flip is (flags == ("regime_flip:above>below",))


def test_one_tick_horizon_is_configurable() -> None:
    policy = ProbePolicy.of(ProbeConfig(thresholds=ProbeThresholds(price_horizon="tick")))
    probes = probes_of(market(delta_1=0.03, delta_period=0.0), policy=policy)
    assert probes.flags == ("price_delta>2.0%",)


def test_credit_runway_probe() -> None:
    assert probes_of(CALM, credits_usd=10.0, burn_rate_usd=0.01).flags == ("credit_runway_low",)
    assert probes_of(CALM, credits_usd=10.0, burn_rate_usd=0.0).flags == ()


def test_everything_at_once_caps_pe_at_one_and_asks_t2() -> None:
    summary = market(delta_period=-0.05, volume_ratio=9.0, health_factor=1.0, zscore=-3.0)
    probes = probes_of(summary, market(zscore=2.0), credits_usd=1.0, burn_rate_usd=0.01)
    assert probes.prediction_error == 1.0
    assert probes.tier is ModelTier.T2
    assert len(probes.flags) == 5


def test_interval_doubles_from_conservation_down() -> None:
    assert (
        interval(Phase.THRIVING, SCHEDULE)
        == interval(Phase.STABLE, SCHEDULE)
        == timedelta(seconds=15)
    )
    assert (
        interval(Phase.CONSERVATION, SCHEDULE)
        == interval(Phase.DECLINING, SCHEDULE)
        == timedelta(seconds=30)
    )


# --- behaviour through decide() ----------------------------------------------------------


async def test_t0_tick_observes_without_a_model() -> None:
    provider = ScriptedProvider([])
    ctx = context(probes=probes_of(CALM))
    record = await decide(Heartbeat(HEARTBEAT), ctx, budgeting(provider))
    assert record.source == "deterministic" and record.tier is ModelTier.T0
    assert isinstance(record.decision, HeartbeatDecision)
    assert (record.decision.severity, record.decision.action) == ("none", "observe")
    assert record.outcome is not None and record.outcome.trades == ()
    assert provider.requests == []


def test_a_quiet_tick_repeats_the_rules_decision_it_made_before() -> None:
    heartbeat = Heartbeat(HEARTBEAT)
    assert probes_of(CALM).prediction_error == 0.0 and probes_of(CALM).flags == ()
    assert isinstance(probes_of(CALM).prediction_error, float)  # not sum()'s int 0
    quiet = context(probes=probes_of(CALM))
    first = heartbeat.deterministic(quiet)
    assert heartbeat.deterministic(quiet) is first  # validated once, then reused
    surprised = context(probes=replace(probes_of(CALM), prediction_error=0.9))
    other = heartbeat.deterministic(surprised)
    assert other is not first and isinstance(other, HeartbeatDecision)
    assert other.severity == "high" and "PE 0.90" in other.rationale


def _answer(**changes: Any) -> dict[str, Any]:
    base = {"severity": "moderate", "action": "observe", "confidence": 0.6, "escalate": False}
    return base | {"signals": [], "rationale": "a sharp fall"} | changes


async def test_escalation_reaches_t2() -> None:
    cheap, _ = mode_provider(Mode.SCHEMA_ENFORCED, HeartbeatDecision, _answer(escalate=True), "")
    strong, _ = mode_provider(
        Mode.SCHEMA_ENFORCED, HeartbeatDecision, _answer(severity="high", action="hedge"), ""
    )
    env = budgeting(cheap, t2=strong)
    ctx = at_tier(ModelTier.T1, portfolio=HELD)
    first = await decide(Heartbeat(HEARTBEAT), ctx, env)
    assert first.source == "model" and first.tier is ModelTier.T1
    assert first.outcome is not None and first.outcome.escalate_to is ModelTier.T2
    assert first.outcome.trades == ()

    second = await decide(Heartbeat(HEARTBEAT), escalated(ctx, first.outcome.escalate_to), env)
    assert second.source == "model" and second.tier is ModelTier.T2
    assert len(cheap.requests) == len(strong.requests) == 1
    assert strong.requests[0].model == "strong-1"
    assert second.outcome is not None and second.outcome.escalate_to is None
    (trade,) = second.outcome.trades
    assert (trade.action, trade.size_usd, trade.origin) == ("hedge", 300.0, "heartbeat")


async def test_a_t2_tick_lowered_to_t1_does_not_escalate_again() -> None:
    provider, _ = mode_provider(Mode.SCHEMA_ENFORCED, HeartbeatDecision, _answer(escalate=True), "")
    env = budgeting(provider, phase=Phase.CONSERVATION)  # caps inference at the cheap tier
    record = await decide(
        Heartbeat(HEARTBEAT), at_tier(ModelTier.T2, phase=Phase.CONSERVATION), env
    )
    assert record.source == "model" and record.tier is ModelTier.T1
    assert record.outcome is not None and record.outcome.escalate_to is None


@pytest.mark.parametrize(
    ("action", "portfolio", "expected"),
    [
        ("observe", HELD, None),
        ("hedge", HELD, ("hedge", 300.0)),
        ("exit", HELD, ("exit", None)),  # an exit is the whole position, never sized
        ("rebalance", HELD, ("rebalance", 100.0)),  # 60% held, toward the 50% target
        ("hedge", PortfolioView(cash_usd=1000.0, equity_usd=1000.0), None),  # nothing held
        # Dust: half of $1.58 is below the minimum trade, which risk would block every tick.
        ("hedge", PortfolioView(cash_usd=999.0, equity_usd=1000.58, exposure_usd=1.58), None),
        (
            "exit",
            PortfolioView(cash_usd=999.0, equity_usd=1000.58, exposure_usd=1.58),
            ("exit", None),
        ),
    ],
)
def test_actions_become_trades_for_risk(
    action: str, portfolio: PortfolioView, expected: tuple[str, float | None] | None
) -> None:
    decision = HeartbeatDecision.model_validate(_answer(severity="high", action=action))
    outcome = Heartbeat(HEARTBEAT).act(at_tier(ModelTier.T1, portfolio=portfolio), decision)
    trades = [(t.action, t.size_usd) for t in outcome.trades]
    assert trades == ([] if expected is None else [expected])
    assert outcome.approved is None and outcome.escalate_to is None


def test_events_for_the_daimon_once_per_tick() -> None:
    probes = probes_of(market(zscore=-1.5, delta_period=-0.03), market(zscore=1.5))
    assert probes.tier is ModelTier.T2
    ctx = context(probes=probes)
    decision = Heartbeat(HEARTBEAT).deterministic(ctx)
    assert Heartbeat(HEARTBEAT).act(ctx, decision).events == (
        Event("regime_shift"),
        Event("prediction_miss"),
    )
    assert Heartbeat(HEARTBEAT).act(escalated(ctx, ModelTier.T2), decision).events == ()
    quiet = context(probes=probes_of(market(zscore=1.5)))  # a band change alone
    assert Heartbeat(HEARTBEAT).act(quiet, Heartbeat(HEARTBEAT).deterministic(quiet)).events == ()


def test_every_heartbeat_line_shows_the_market_numbers_the_probes_read() -> None:
    summary = market(delta_period=-0.0312345678, zscore=None)
    ctx = context(market=summary, probes=probes_of(summary))
    rules = Heartbeat(HEARTBEAT).deterministic(ctx)
    assert isinstance(rules, HeartbeatDecision) and rules.signals == []  # they are in the line
    details = Heartbeat(HEARTBEAT).act(ctx, rules).details
    assert details["market"]["price_delta"] == -0.031235
    assert "zscore" not in details["market"]  # unknown: left out
    assert not {"severity", "action", "confidence"} & set(details)  # the line's decision has them
    model_made = HeartbeatDecision.model_validate(_answer(severity="low", action="observe"))
    assert Heartbeat(HEARTBEAT).act(ctx, model_made).details["market"] == details["market"]


@pytest.mark.parametrize(
    ("summary", "portfolio", "severity", "action"),
    [
        # Terminal: risk allows exits only, so the rules unwind rather than hedge.
        (market(health_factor=1.1), HELD, "critical", "exit"),
        (market(health_factor=1.1), PortfolioView(1000.0, 1000.0), "critical", "observe"),
        (market(delta_period=-0.03), HELD, "moderate", "observe"),
        (market(delta_period=-0.03, volume_ratio=5.0, zscore=-1.5), HELD, "high", "observe"),
    ],
)
async def test_degraded_heartbeat_decides_from_the_probes(
    summary: MarketSummary, portfolio: PortfolioView, severity: str, action: str
) -> None:
    provider = ScriptedProvider([])
    ctx = context(market=summary, portfolio=portfolio, probes=probes_of(summary))
    ctx = replace(ctx, phase=Phase.TERMINAL, vitality=0.05)
    record = await decide(Heartbeat(HEARTBEAT), ctx, budgeting(provider, phase=Phase.TERMINAL))
    assert record.source == "deterministic" and provider.requests == []
    decision = record.decision
    assert isinstance(decision, HeartbeatDecision) and decision.validate_content() == []
    assert (decision.severity, decision.action) == (severity, action)
    assert record.outcome is not None
    assert [t.action for t in record.outcome.trades] == ([] if action == "observe" else [action])


async def test_out_of_budget_before_terminal_the_rules_hedge() -> None:
    summary = market(health_factor=1.1)
    ctx = replace(
        context(market=summary, portfolio=HELD, probes=probes_of(summary)),
        phase=Phase.DECLINING,
        vitality=0.2,
    )
    env = budgeting(ScriptedProvider([]), phase=Phase.DECLINING, daily_budget_usd=1e-9)
    record = await decide(Heartbeat(HEARTBEAT), ctx, env)
    assert record.source == "deterministic" and record.degradations
    assert isinstance(record.decision, HeartbeatDecision)
    assert record.decision.action == "hedge"


FREE_TEXT = "Severity: HIGH. I would not exit yet; action: hedge. Confidence 72%."


@pytest.mark.parametrize("mode", MODES)
async def test_every_mode_end_to_end(mode: Mode) -> None:
    answer = _answer(severity="high", action="hedge", confidence=0.72)
    provider, config = mode_provider(mode, HeartbeatDecision, answer, FREE_TEXT)
    record = await decide(
        Heartbeat(HEARTBEAT),
        at_tier(ModelTier.T1, portfolio=HELD),
        budgeting(provider, config=config),
    )
    assert record.source == "model"
    assert record.response is not None and record.response.mode is mode
    decision = record.decision
    assert isinstance(decision, HeartbeatDecision)
    assert (decision.severity, decision.action, decision.confidence) == ("high", "hedge", 0.72)
    assert record.outcome is not None
    assert [(t.action, t.size_usd) for t in record.outcome.trades] == [(TradeAction.HEDGE, 300.0)]
    prompt = provider.requests[0].messages[-1].content or ""
    assert "price_delta>2.0%" in prompt and "escalate" in (
        provider.requests[0].messages[0].content or ""
    )
