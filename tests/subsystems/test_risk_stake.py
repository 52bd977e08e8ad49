"""Risk deliberation in proportion to the stake ([subsystems.risk] deliberation = "stake"):
the bands, the tier and depth they ask for, what the allocator then grants and prices, and
what the decision's log line says."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from golem.inference import Mode, ReasoningDepth
from golem.mortality import AllocatorPolicy, ModelTier, SubsystemName
from golem.runtime.decide import decide
from golem.subsystems.contract import PortfolioView, ProposedTrade, Situation
from golem.subsystems.risk import Risk, RiskAssessment, RiskConfig, Stake, StakeBands
from golem.world import TradeAction
from tests.policy import RISK

from .support import budgeting, context, mode_provider
from .test_risk_behaviour import _answer

BANDS = StakeBands(small=0.05, large=0.2)
STAKE = Risk(RiskConfig(stakes=BANDS))
CASH = PortfolioView(cash_usd=1000.0, equity_usd=1000.0)
HELD = PortfolioView(cash_usd=400.0, equity_usd=1000.0, positions={"ETH": 0.2}, exposure_usd=600.0)


def buying(size: float, credits: float = 100.0) -> Situation:
    trade = ProposedTrade(TradeAction.BUY, size, "test", SubsystemName.HEARTBEAT)
    return context(proposed=trade, portfolio=CASH, credits_usd=credits)


@pytest.mark.parametrize(
    ("stake", "credits_left", "band"),
    [
        (0.01, 1.0, Stake.SMALL),
        (0.05, 1.0, Stake.MEDIUM),
        (0.19, 1.0, Stake.MEDIUM),
        (0.2, 1.0, Stake.LARGE),
        (0.09, 0.5, Stake.SMALL),  # half the credits left: the small band doubles
        (0.19, 0.1, Stake.SMALL),  # ... up to the large band's bound
        (0.2, 0.01, Stake.LARGE),  # a large stake stays large however poor the golem
        (0.2, 0.0, Stake.LARGE),
        (0.01, 0.0, Stake.SMALL),  # no credits: everything below large is small
    ],
)
def test_bands(stake: float, credits_left: float, band: Stake) -> None:
    assert BANDS.band(stake, credits_left) is band


def test_small_stake_must_be_below_large() -> None:
    with pytest.raises(ValueError, match="small_stake must be below large_stake"):
        StakeBands(small=0.2, large=0.2)


@pytest.mark.parametrize(
    ("size", "credits", "tier", "depth"),
    [
        (20.0, 100.0, ModelTier.T1, ReasoningDepth.NONE),  # 2% of equity
        (100.0, 100.0, ModelTier.T1, ReasoningDepth.MEDIUM),  # 10%
        (100.0, 40.0, ModelTier.T1, ReasoningDepth.NONE),  # 10%, 40% of credits left
        (250.0, 100.0, ModelTier.T2, None),  # 25%: the seeds' tier and depth
        (250.0, 1.0, ModelTier.T2, None),
    ],
)
def test_stake_chooses_tier_and_depth(
    size: float, credits: float, tier: ModelTier, depth: ReasoningDepth | None
) -> None:
    ctx = buying(size, credits)
    assert (STAKE.tier(ctx), STAKE.deliberation(ctx)) == (tier, depth)
    # Fixed deliberation: the seeds' tier for a trade that adds exposure, the allocator's depth.
    assert (Risk(RISK).tier(ctx), Risk(RISK).deliberation(ctx)) == (ModelTier.T2, None)


def test_a_large_reducing_trade_keeps_the_seeds_cheap_tier() -> None:
    exit_all = ProposedTrade(TradeAction.EXIT, None, "test", SubsystemName.HEARTBEAT)
    ctx = context(proposed=exit_all, portfolio=HELD)
    assert (STAKE.tier(ctx), STAKE.deliberation(ctx)) == (ModelTier.T1, None)


async def _assessed(
    risk: Risk, size: float, daily_budget_usd: float, *, fit: bool = True
) -> dict[str, Any]:
    provider, _ = mode_provider(Mode.SCHEMA_ENFORCED, RiskAssessment, _answer(), "")
    env = budgeting(provider, daily_budget_usd=daily_budget_usd)
    if not fit:
        env = replace(env, policy=AllocatorPolicy(fit_depth=frozenset()))
    record = await decide(risk, buying(size), env)
    return record.fields()


async def test_the_allocator_grants_and_prices_the_stakes_depth() -> None:
    small = await _assessed(STAKE, 20.0, 10.0)
    fixed = await _assessed(Risk(RISK), 20.0, 10.0)
    assert (small["tier"], small["reasoning_depth"]) == ("1", "none")
    assert (fixed["tier"], fixed["reasoning_depth"]) == ("2", "high")
    assert (small["stake"], small["deliberation"]) == (0.02, "small")
    assert "stake" not in fixed and "deliberation" not in fixed
    large = await _assessed(STAKE, 250.0, 10.0)
    assert (large["tier"], large["reasoning_depth"]) == ("2", "high")
    assert large["deliberation"] == "large"


async def test_a_small_stake_fits_a_budget_the_seeds_depth_does_not() -> None:
    # Risk's line is 15% of $0.30: the seeds' T2 call with high reasoning cannot be
    # afforded (worst case ~$0.07 at $1/$4 per million), a small stake's call can.
    fixed = await _assessed(Risk(RISK), 20.0, 0.3, fit=False)
    small = await _assessed(STAKE, 20.0, 0.3, fit=False)
    assert fixed["source"] == "deterministic"
    assert fixed["degradation"] == [
        {"reason": "budget_exhausted", "fallback": "deterministic", "tier": "2"}
    ]
    assert small["source"] == "model"
    # By default (`[mortality] fit_depth`) the seeds' call is fitted to the line instead.
    fitted = await _assessed(Risk(RISK), 20.0, 0.3)
    assert (fitted["source"], fitted["tier"]) == ("model", "2")
    assert fitted["reasoning_fitted_from"] == "high"
    assert fitted["reasoning_depth"] in ("none", "low", "medium")
