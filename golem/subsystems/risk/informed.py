"""Risk's right answer given the world's truth (a simulation's; see golem.world.truth), and
whether an assessment is right.

A trade **pays** when, over the episode horizon, it gains more than it costs: a trade that
sells (an exit, a hedge, a sale, a rebalance down to the target weight) protects the
portfolio by the fall it avoids, notional × −(coming return); one that buys gains notional
× (coming return); both pay the fee and the slippage of the venue's cost model (`Truth.costs`).
The notional is what would go through: the size the hard limits allow.

A risk assessment is right when it approves exactly the trades that pay and that the hard
limits allow: an approval that lets through a trade that then loses is wrong, and so is a
rejection of one that would have protected the portfolio or gained.

The informed assessment is the hard limits' own (their layers, caps and warnings), approved
when the trade pays; when it does not, the observation layer fails on the coming move.
"""

from __future__ import annotations

from golem.subsystems.contract import ProposedTrade, Situation
from golem.subsystems.risk.decision import RiskAssessment
from golem.subsystems.risk.layers import LayerResult
from golem.subsystems.risk.limits import RiskLimits, adds_exposure, assess, trade_notional
from golem.world import TradeAction, Truth

__all__ = ["informed_risk", "is_right", "trade_pays", "trade_pnl"]

_SELLING = frozenset({TradeAction.EXIT, TradeAction.HEDGE, TradeAction.SELL})


def trade_pnl(
    truth: Truth,
    ctx: Situation,
    trade: ProposedTrade,
    limits: RiskLimits,
) -> float:
    """What `trade` gains over the horizon against not trading, net of its costs (USD)."""
    costs = truth.costs
    hard = assess(ctx, trade, limits)
    notional = hard.adjusted_size_usd
    if notional is None:
        notional = trade_notional(trade, ctx.portfolio, limits.sizing)
    selling = trade.action in _SELLING or (
        trade.action is TradeAction.REBALANCE
        and not adds_exposure(trade, ctx.portfolio, limits.sizing)
    )
    side = -1.0 if selling else 1.0
    volatility = ctx.market.return_volatility or 0.0
    cost_rate = costs.fee_rate + costs.slippage_bps(notional, volatility) / 10_000.0
    return notional * (side * truth.future_return - cost_rate)


def trade_pays(
    truth: Truth,
    ctx: Situation,
    trade: ProposedTrade,
    limits: RiskLimits,
) -> bool:
    return trade_pnl(truth, ctx, trade, limits) > 0.0


def is_right(
    assessment: RiskAssessment,
    truth: Truth,
    ctx: Situation,
    limits: RiskLimits,
) -> bool:
    """Whether `assessment` of `ctx.proposed` is right by this module's definition."""
    trade = _proposed(ctx)
    allowed = assess(ctx, trade, limits).approved
    return assessment.approved == (allowed and trade_pays(truth, ctx, trade, limits))


def informed_risk(
    truth: Truth,
    ctx: Situation,
    limits: RiskLimits,
) -> RiskAssessment:
    """The assessment a model that knew the truth would make (right by `is_right`)."""
    trade = _proposed(ctx)
    hard = assess(ctx, trade, limits)
    if not hard.approved or trade_pays(truth, ctx, trade, limits):
        return hard
    move = f"{truth.future_return:+.2%}"
    observation = LayerResult(passed=False, score=0.8, detail=f"the coming move ({move}) loses")
    layers = hard.layers.model_copy(update={"observation": observation})
    return RiskAssessment(
        approved=False,
        adjusted_size_usd=None,
        layers=layers,
        warnings=hard.warnings,
        reasoning=f"{trade.action} would lose over the horizon: the price moves {move}",
        proposed_size_usd=hard.proposed_size_usd,
    )


def _proposed(ctx: Situation) -> ProposedTrade:
    if ctx.proposed is None:
        raise ValueError("risk is right or wrong about a proposed trade; ctx.proposed is None")
    return ctx.proposed
