"""Informed answers (what a model that knew the simulated world's truth would say) are right
by the definitions of their modules, pass their decision's content checks, and are what a
reader would call right in plain cases: a major fall is an exit, a flat calm market is
observed, an approval never lets through a trade that then loses."""

from itertools import product

import pytest

from golem.mortality import Phase, SubsystemName
from golem.subsystems.contract import Event, PortfolioView, ProposedTrade, Situation
from golem.subsystems.daimon import informed as daimon
from golem.subsystems.heartbeat import informed as heartbeat
from golem.subsystems.heartbeat.decision import HeartbeatAction, HeartbeatDecision, Severity
from golem.subsystems.risk import informed as risk
from golem.subsystems.risk.decision import RiskAssessment
from golem.world import Regime, TradeAction, Truth
from tests.policy import APPRAISAL, HEARTBEAT, LIMITS
from tests.subsystems.support import context

HB = (HEARTBEAT.probes.thresholds, HEARTBEAT.sizing)

RETURNS = (-0.05, -0.021, -0.008, -0.004, -0.001, 0.0, 0.002, 0.006, 0.015, 0.03)
REGIMES = (None, *Regime)
PORTFOLIOS = {
    "cash only": PortfolioView(cash_usd=1000.0, equity_usd=1000.0),
    "under target": PortfolioView(
        cash_usd=800.0, equity_usd=1000.0, positions={"ETH": 0.066}, exposure_usd=200.0
    ),
    "over target": PortfolioView(
        cash_usd=200.0, equity_usd=1000.0, positions={"ETH": 0.266}, exposure_usd=800.0
    ),
}
TRADES = [
    ProposedTrade(action, size, "test", SubsystemName.HEARTBEAT)
    for action, size in (
        (TradeAction.HEDGE, None),
        (TradeAction.EXIT, None),
        (TradeAction.REBALANCE, None),
        (TradeAction.BUY, 100.0),
        (TradeAction.SELL, 100.0),
    )
]


def truth(future_return: float, regime: Regime | None = Regime.CALM) -> Truth:
    return Truth(
        tick=7,
        price=3000.0,
        regime=regime,
        horizon_ticks=20,
        future_return=future_return,
        trough=min(0.0, future_return),
        regime_ahead=regime,
    )


def cases() -> list[tuple[Truth, Situation]]:
    return [
        (truth(r, regime), context(portfolio=portfolio))
        for r, regime, portfolio in product(RETURNS, REGIMES, PORTFOLIOS.values())
    ]


def test_the_informed_heartbeat_is_right_and_valid() -> None:
    for world, ctx in cases():
        decision = heartbeat.informed_heartbeat(
            world, ctx, HEARTBEAT.probes.thresholds, HEARTBEAT.sizing
        )
        assert decision.validate_content() == []
        assert heartbeat.is_right(decision, world, ctx, *HB), (world, ctx.portfolio, decision)


@pytest.mark.parametrize(
    ("future_return", "regime", "portfolio", "severity", "action"),
    [
        (-0.03, Regime.CALM, "over target", Severity.CRITICAL, HeartbeatAction.EXIT),
        (-0.008, Regime.CALM, "over target", Severity.MODERATE, HeartbeatAction.HEDGE),
        (-0.008, Regime.CRASH, "over target", Severity.HIGH, HeartbeatAction.HEDGE),
        (0.001, Regime.CALM, "over target", Severity.NONE, HeartbeatAction.OBSERVE),
        (0.001, Regime.VOLATILE, "cash only", Severity.MODERATE, HeartbeatAction.OBSERVE),
        (0.015, Regime.TRENDING, "cash only", Severity.LOW, HeartbeatAction.REBALANCE),
        (0.015, Regime.TRENDING, "over target", Severity.LOW, HeartbeatAction.OBSERVE),
    ],
)
def test_the_heartbeat_meets_the_coming_move_by_its_size(
    future_return: float,
    regime: Regime,
    portfolio: str,
    severity: Severity,
    action: HeartbeatAction,
) -> None:
    ctx = context(portfolio=PORTFOLIOS[portfolio])
    decision = heartbeat.informed_heartbeat(truth(future_return, regime), ctx, *HB)
    assert (decision.severity, decision.action) == (severity, action)
    assert decision.confidence == heartbeat.INFORMED_CONFIDENCE


def test_a_heartbeat_that_misreads_the_move_or_the_regime_is_wrong() -> None:
    ctx = context(portfolio=PORTFOLIOS["over target"])
    fall = truth(-0.03, Regime.CRASH)
    hedged = HeartbeatDecision(severity=Severity.CRITICAL, action=HeartbeatAction.HEDGE)
    assert heartbeat.is_right(hedged, fall, ctx, *HB)  # a hedge protects too, if less
    calm = HeartbeatDecision(severity=Severity.NONE, action=HeartbeatAction.OBSERVE)
    assert not heartbeat.is_right(calm, fall, ctx, *HB)
    assert not heartbeat.is_right(
        HeartbeatDecision(severity=Severity.LOW, action=HeartbeatAction.EXIT), fall, ctx, *HB
    )
    assert not heartbeat.is_right(
        HeartbeatDecision(severity=Severity.CRITICAL, action=HeartbeatAction.ESCALATE),
        fall,
        ctx,
        *HB,
    )


def test_the_informed_risk_assessment_is_right_and_valid() -> None:
    seen = set()
    for (world, base), trade in product(cases(), TRADES):
        ctx = context(portfolio=base.portfolio, proposed=trade)
        assessment = risk.informed_risk(world, ctx, LIMITS)
        assert assessment.validate_content() == []
        assert risk.is_right(assessment, world, ctx, LIMITS)
        seen.add(assessment.approved)
    assert seen == {True, False}


def test_an_approval_never_lets_through_a_trade_that_then_loses() -> None:
    held = PORTFOLIOS["over target"]
    hedge, buy = TRADES[0], TRADES[3]
    for r in RETURNS:
        for trade in (hedge, buy):
            ctx = context(portfolio=held if trade is hedge else PORTFOLIOS["cash only"])
            ctx = context(portfolio=ctx.portfolio, proposed=trade)
            if risk.informed_risk(truth(r), ctx, LIMITS).approved:
                assert risk.trade_pnl(truth(r), ctx, trade, LIMITS) > 0
    protect = context(portfolio=held, proposed=hedge)
    assert risk.informed_risk(truth(-0.02), protect, LIMITS).approved  # it protects the portfolio
    assert not risk.informed_risk(truth(0.02), protect, LIMITS).approved  # it would sell a rise
    assert not risk.informed_risk(truth(-0.001), protect, LIMITS).approved  # less than it costs
    approve = RiskAssessment.of(
        {"approved": True, "layers": risk.informed_risk(truth(-0.02), protect, LIMITS).layers}
    )
    assert not risk.is_right(approve, truth(0.02), protect, LIMITS)


def test_risk_never_approves_what_the_hard_limits_forbid() -> None:
    ctx = context(portfolio=PORTFOLIOS["under target"], proposed=TRADES[3], phase=Phase.DECLINING)
    assert not risk.informed_risk(truth(0.05), ctx, LIMITS).approved


def test_the_informed_appraisal_is_right_and_valid() -> None:
    for world, base in cases():
        for events in (
            (),
            (Event("trade_profit"),),
            (Event("regime_shift"), Event("trade_loss", 0.08)),
        ):
            ctx = context(portfolio=base.portfolio, events=events)
            appraisal = daimon.informed_appraisal(world, ctx, APPRAISAL)
            assert appraisal.validate_content() == []
            assert daimon.is_right(appraisal, world, ctx, APPRAISAL)


def test_a_coming_fall_is_feared_only_with_something_to_lose() -> None:
    held = context(portfolio=PORTFOLIOS["over target"], events=(Event("trade_profit"),))
    assert daimon.informed_appraisal(truth(-0.03), held, APPRAISAL).primary_emotion == "fear"
    assert daimon.informed_appraisal(truth(0.03), held, APPRAISAL).pleasure > 0
    flat = context(events=(Event("trade_profit"),))
    assert daimon.informed_appraisal(truth(-0.03), flat, APPRAISAL).primary_emotion == "joy"
