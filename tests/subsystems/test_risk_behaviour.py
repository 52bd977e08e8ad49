"""Risk: the hard limits as a table and a property; a rejection blocks the trade; a model
approval never loosens a hard limit; every structured-output mode through decide()."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.inference import Mode
from golem.inference.scripted import ScriptedProvider
from golem.mortality import ModelTier, Phase, SubsystemName
from golem.runtime.decide import decide
from golem.subsystems.contract import PortfolioView, ProposedTrade, Situation
from golem.subsystems.risk import Risk, RiskAssessment, assess
from golem.world import TradeAction
from tests.policy import LIMITS, RISK

from .support import MODES, budgeting, context, market, mode_provider

CASH = PortfolioView(cash_usd=1000.0, equity_usd=1000.0)
HELD = PortfolioView(cash_usd=400.0, equity_usd=1000.0, positions={"ETH": 0.2}, exposure_usd=600.0)
HALF = PortfolioView(cash_usd=500.0, equity_usd=1000.0, exposure_usd=500.0)
LIGHT = PortfolioView(cash_usd=800.0, equity_usd=1000.0, positions={"ETH": 0.1}, exposure_usd=200.0)


def trade(action: str, size: float | None = None) -> ProposedTrade:
    return ProposedTrade(TradeAction(action), size, "test", SubsystemName.HEARTBEAT)


def proposing(action: str, size: float | None = None, **changes: Any) -> Situation:
    return context(proposed=trade(action, size), **changes)


@pytest.mark.parametrize(
    ("ctx", "approved", "size", "failing"),
    [
        (proposing("buy", 200.0, portfolio=CASH), True, 200.0, None),
        (proposing("buy", 400.0, portfolio=CASH), True, 250.0, None),  # one trade ≤ 25%
        (proposing("buy", 200.0, portfolio=HALF), True, 100.0, None),  # room to 60%
        (proposing("buy", 100.0, portfolio=HELD), False, None, "hard_shields"),  # 60% held
        (proposing("buy", 100.0, portfolio=CASH, market=market(health_factor=1.1)),
         False, None, "defi_threats"),
        (proposing("hedge", None, portfolio=HELD, market=market(health_factor=1.1)),
         True, 250.0, None),  # reducing helps a weak position (300 capped at 250)
        (proposing("buy", 100.0, portfolio=CASH, phase=Phase.DECLINING, vitality=0.2),
         False, None, "adaptive_guardrails"),
        (proposing("rebalance", None, portfolio=HELD, phase=Phase.DECLINING, vitality=0.2),
         True, 100.0, None),  # 60% → 50%: an unwind
        (proposing("rebalance", None, portfolio=LIGHT, phase=Phase.DECLINING, vitality=0.2),
         False, None, "adaptive_guardrails"),  # 20% → 50% adds exposure
        (proposing("hedge", None, portfolio=HELD, phase=Phase.TERMINAL, vitality=0.05),
         False, None, "adaptive_guardrails"),
        (proposing("exit", None, portfolio=HELD, phase=Phase.TERMINAL, vitality=0.05),
         True, 600.0, None),  # exits are never capped
        (proposing("exit", None, portfolio=CASH), False, None, "hard_shields"),  # nothing held
    ],
)  # fmt: skip
def test_hard_limits(
    ctx: Situation, approved: bool, size: float | None, failing: str | None
) -> None:
    assert ctx.proposed is not None
    verdict = assess(ctx, ctx.proposed, LIMITS)
    assert verdict.validate_content() == []
    assert verdict.approved is approved
    assert verdict.adjusted_size_usd == size
    failed = [name for name, layer in verdict.layers if not layer.passed]
    assert failed == ([] if failing is None else [failing])


_money = st.floats(0, 1e6)


@given(
    action=st.sampled_from(list(TradeAction)),
    size=st.one_of(st.none(), _money),
    cash=_money, exposure=_money,
    health=st.one_of(st.none(), st.floats(0, 5)),
    volatility=st.one_of(st.none(), st.floats(0, 0.1)),
    phase=st.sampled_from(list(Phase)), vitality=st.floats(0, 1),
)  # fmt: skip
def test_hard_limits_always_give_a_consistent_assessment(
    *,
    action: TradeAction,
    size: float | None,
    cash: float,
    exposure: float,
    health: float | None,
    volatility: float | None,
    phase: Phase,
    vitality: float,
) -> None:
    portfolio = PortfolioView(cash_usd=cash, equity_usd=cash + exposure, exposure_usd=exposure)
    ctx = proposing(
        action,
        size,
        portfolio=portfolio,
        market=market(health_factor=health, return_volatility=volatility),
        phase=phase,
        vitality=vitality,
    )
    assert ctx.proposed is not None
    verdict = assess(ctx, ctx.proposed, LIMITS)
    assert verdict.validate_content() == []
    if verdict.approved:
        assert verdict.adjusted_size_usd is not None
        assert verdict.adjusted_size_usd <= (verdict.proposed_size_usd or 0)
        assert phase is not Phase.TERMINAL or action is TradeAction.EXIT
    outcome = Risk(RISK).act(ctx, verdict)
    assert (outcome.approved is None) != (outcome.blocked is None)


def test_tier_and_skip() -> None:
    risk = Risk(RISK)
    assert risk.tier(proposing("buy", 100.0)) is ModelTier.T2
    assert risk.tier(proposing("hedge", portfolio=HELD)) is ModelTier.T1
    assert risk.skip_reason(context()) == "no trade proposed"


def _layers(observed_passed: bool = True, score: float = 0.2) -> dict[str, Any]:
    layer = {"passed": True, "score": 0.2, "detail": "fine"}
    return {
        "hard_shields": layer,
        "position_sizing": layer,
        "adaptive_guardrails": layer,
        "observation": {"passed": observed_passed, "score": score, "detail": "a crash under way"},
        "defi_threats": layer,
    }


def _answer(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"approved": True, "adjusted_size_usd": 150.0, "layers": _layers()}
    base |= {"warnings": [], "reasoning": "", "proposed_size_usd": 200.0}
    return base | changes


async def _decide_on(ctx: Situation, answer: dict[str, Any]) -> Any:
    provider, _ = mode_provider(Mode.SCHEMA_ENFORCED, RiskAssessment, answer, "")
    record = await decide(Risk(RISK), ctx, budgeting(provider))
    assert record.source == "model"
    return record, record.fields()


async def test_a_rejected_assessment_blocks_the_trade() -> None:
    rejection = _answer(
        approved=False, adjusted_size_usd=None, layers=_layers(observed_passed=False, score=0.9)
    )
    ctx = proposing("buy", 200.0, portfolio=CASH)
    record, _ = await _decide_on(ctx, rejection)
    assert record.outcome.blocked == ctx.proposed
    assert record.outcome.approved is None and record.outcome.trades == ()
    assert "blocked buy" in record.outcome.summary


async def test_a_model_approval_never_loosens_a_hard_limit() -> None:
    ctx = proposing("buy", 200.0, portfolio=CASH, phase=Phase.DECLINING, vitality=0.2)
    record, line = await _decide_on(ctx, _answer())
    assert record.outcome.blocked == ctx.proposed and record.outcome.approved is None
    assert line["override"] == "hard_limit" and line["hard_limit_failing"] == "adaptive_guardrails"


async def test_the_hard_cap_trims_a_model_size() -> None:
    ctx = proposing("buy", 400.0, portfolio=CASH)
    record, line = await _decide_on(ctx, _answer(proposed_size_usd=400.0, adjusted_size_usd=None))
    assert record.outcome.approved.size_usd == 250.0
    assert line["capped_by"] == "hard_limit"


async def test_the_model_may_be_stricter() -> None:
    ctx = proposing("buy", 200.0, portfolio=CASH)
    record, line = await _decide_on(ctx, _answer(adjusted_size_usd=50.0))
    assert record.outcome.approved.size_usd == 50.0
    assert "capped_by" not in line


@pytest.mark.parametrize("phase", [Phase.DECLINING, Phase.CONSERVATION])
async def test_risk_is_not_degraded_by_phase(phase: Phase) -> None:
    provider, _ = mode_provider(Mode.SCHEMA_ENFORCED, RiskAssessment, _answer(), "")
    ctx = proposing("buy", 200.0, portfolio=CASH, phase=phase)
    record = await decide(Risk(RISK), ctx, budgeting(provider, phase=phase))
    assert record.source == "model" and record.degradations == ()


@pytest.mark.parametrize(
    ("phase", "daily_budget", "action", "approved"),
    [
        (Phase.TERMINAL, 10.0, "exit", True),
        (Phase.TERMINAL, 10.0, "hedge", False),
        (Phase.THRIVING, 0.0, "buy", True),  # the cost cap is spent: the hard limits decide
    ],
)
async def test_deterministic_path_at_terminal_or_cap(
    phase: Phase, daily_budget: float, action: str, approved: bool
) -> None:
    provider = ScriptedProvider([])
    ctx = proposing(action, 100.0, portfolio=HELD if action != "buy" else CASH, phase=phase)
    env = budgeting(provider, phase=phase, daily_budget_usd=daily_budget)
    record = await decide(Risk(RISK), ctx, env)
    assert record.source == "deterministic" and provider.requests == []
    assert isinstance(record.decision, RiskAssessment)
    assert record.decision.approved is approved
    assert record.outcome is not None
    assert (record.outcome.approved is not None) is approved


FREE_TEXT = (
    "Approved at reduced size.\nObservation: pass\nPosition sizing: warn (0.5)\nAdjusted size: $150"
)


@pytest.mark.parametrize("mode", MODES)
async def test_every_mode_end_to_end(mode: Mode) -> None:
    provider, config = mode_provider(mode, RiskAssessment, _answer(), FREE_TEXT)
    ctx = proposing("buy", 200.0, portfolio=CASH)
    record = await decide(Risk(RISK), ctx, budgeting(provider, config=config))
    assert record.source == "model"
    assert record.response is not None and record.response.mode is mode
    assert isinstance(record.decision, RiskAssessment) and record.decision.approved
    assert record.outcome is not None and record.outcome.approved is not None
    assert record.outcome.approved.size_usd == 150.0
    user = provider.requests[0].messages[-1].content or ""
    assert "buy of $200.00" in user and "hard-limit pre-check" in user
