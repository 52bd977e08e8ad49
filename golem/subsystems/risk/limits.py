"""Risk's hard limits: a pure five-layer assessment of a proposed trade against position,
trade-size and health-factor limits and the phase's rules. It is risk's deterministic path
and the floor under every model verdict: a model may be stricter, never looser."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from golem.mortality import Phase
from golem.subsystems.contract import PortfolioView, ProposedTrade, Situation
from golem.subsystems.risk.decision import RiskAssessment
from golem.subsystems.risk.layers import LayerResult, RiskLayers
from golem.world import MarketSummary, TradeAction

__all__ = ["MIN_TRADE_USD", "RiskLimits", "Sizing", "adds_exposure", "assess", "trade_notional"]

MIN_TRADE_USD = 1.0  # the smallest trade risk approves (the venue itself fills from $0.01)

_REDUCING = frozenset({TradeAction.EXIT, TradeAction.HEDGE, TradeAction.SELL})
_NOTHING = frozenset({TradeAction.OBSERVE, TradeAction.HOLD})


class Sizing(BaseModel):
    """How an action without a stated size is sized; the paper portfolio's defaults."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target_weight: float = Field(default=0.5, ge=0, le=1)  # rebalance toward
    hedge_fraction: float = Field(default=0.5, gt=0, le=1)  # share of the position sold


class RiskLimits(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    max_position_fraction: float = Field(default=0.6, gt=0, le=1)  # exposure ÷ equity after
    max_trade_fraction: float = Field(default=0.25, gt=0, le=1)  # one trade ÷ equity
    max_trade_usd: float | None = Field(default=None, gt=0)  # an absolute cap as well
    health_floor: float = Field(default=1.2, gt=0)  # below it nothing may add exposure
    health_warning: float = Field(default=1.5, gt=0)
    volatility_warning: float = Field(default=0.002, gt=0)  # per-tick σ of returns
    min_trade_usd: float = Field(default=MIN_TRADE_USD, ge=0)  # a trade capped below is blocked
    sizing: Sizing = Field(default_factory=Sizing)


def trade_notional(trade: ProposedTrade, portfolio: PortfolioView, sizing: Sizing) -> float:
    """The USD the trade would move: its stated size, or what the portfolio would do."""
    held = portfolio.exposure_usd
    if trade.action is TradeAction.EXIT:
        return held
    if trade.size_usd is not None:
        return trade.size_usd
    if trade.action is TradeAction.HEDGE:
        return sizing.hedge_fraction * held
    if trade.action is TradeAction.SELL:
        return held
    if trade.action is TradeAction.BUY:
        return portfolio.cash_usd
    if trade.action is TradeAction.REBALANCE:
        return abs(sizing.target_weight * portfolio.equity_usd - held)
    return 0.0


def adds_exposure(trade: ProposedTrade, portfolio: PortfolioView, sizing: Sizing) -> bool:
    if trade.action in _REDUCING or trade.action in _NOTHING:
        return False
    if trade.action is TradeAction.REBALANCE:
        return sizing.target_weight * portfolio.equity_usd > portfolio.exposure_usd
    return True


def _pass(score: float, detail: str) -> LayerResult:
    return LayerResult(passed=True, score=round(min(1.0, max(0.0, score)), 4), detail=detail)


def _fail(score: float, detail: str) -> LayerResult:
    return LayerResult(passed=False, score=round(min(1.0, max(0.0, score)), 4), detail=detail)


def _observation(market: MarketSummary, limits: RiskLimits, warnings: list[str]) -> LayerResult:
    # No hard market limit: turbulence warns, and the model may block on it.
    vol = market.return_volatility
    if vol is None:
        return _pass(0.2, "too little history to measure volatility")
    score = 0.5 * vol / limits.volatility_warning
    if score < 0.4:
        return _pass(score, f"volatility {vol:.4f} per tick")
    warnings.append(f"volatility {vol:.4f} per tick is high")
    return _pass(min(0.7, max(0.4, score)), warnings[-1])  # a warning, not a failure


def _defi_threats(
    market: MarketSummary, adding: bool, limits: RiskLimits, warnings: list[str]
) -> LayerResult:
    health = market.health_factor
    if health is None:
        return _pass(0.1, "no lending position")
    if adding and health < limits.health_floor:
        return _fail(0.9, f"health factor {health:.2f} below {limits.health_floor:g}")
    if health < limits.health_warning:
        # Reducing exposure helps a weak position: it passes, with the risk noted.
        if adding:
            warnings.append(f"health factor {health:.2f} is low")
            return _pass(0.6, warnings[-1])
        return _pass(0.4, f"health factor {health:.2f} is low")
    return _pass(0.1, f"health factor {health:.2f}")


def _adaptive_guardrails(ctx: Situation, action: TradeAction, adding: bool) -> LayerResult:
    if ctx.phase is Phase.TERMINAL and action is not TradeAction.EXIT:
        return _fail(1.0, "terminal: exits only")
    if ctx.phase is Phase.DECLINING and adding:
        return _fail(0.8, "declining: only trades that unwind")
    return _pass(0.5 * (1 - ctx.vitality), f"{ctx.phase}, vitality {ctx.vitality:.2f}")


def assess(ctx: Situation, trade: ProposedTrade, limits: RiskLimits) -> RiskAssessment:
    """The hard-limit assessment of `trade` in `ctx`: approved unless a layer fails, the
    size capped by the trade-size limit (exits are never capped) and the position room;
    each cap and each concern short of a failure is a warning."""
    portfolio, market = ctx.portfolio, ctx.market
    notional = trade_notional(trade, portfolio, limits.sizing)
    adding = adds_exposure(trade, portfolio, limits.sizing)
    allowed, warnings = notional, []

    cap = limits.max_trade_fraction * portfolio.equity_usd
    if limits.max_trade_usd is not None:
        cap = min(cap, limits.max_trade_usd)
    if trade.action is TradeAction.EXIT or notional <= cap:
        # An exit may exceed the cap (it is never capped): its score stays a pass's.
        share = min(1.0, notional / cap) if cap > 0 else 0.0
        sizing = _pass(0.5 * share, "within trade size")
    else:
        allowed = cap
        warnings.append(f"size capped at ${cap:,.2f} (largest single trade)")
        sizing = _pass(0.6, f"${notional:,.2f} exceeds the ${cap:,.2f} trade limit")

    if notional <= 0:
        shields = _fail(0.3, "nothing to trade")
    elif adding:
        room = min(
            limits.max_position_fraction * portfolio.equity_usd - portfolio.exposure_usd,
            portfolio.cash_usd,
        )
        if room < limits.min_trade_usd:
            shields = _fail(0.8, "position at its limit or no cash")
        elif allowed > room:
            allowed = room
            warnings.append(f"size capped at ${room:,.2f} (position limit)")
            shields = _pass(0.6, "position limit reached")
        else:
            after = (portfolio.exposure_usd + allowed) / max(portfolio.equity_usd, 1e-9)
            shields = _pass(0.6 * after / limits.max_position_fraction, f"{after:.0%} of equity")
    else:
        shields = _pass(0.1, "reduces exposure")

    layers = RiskLayers(
        hard_shields=shields,
        position_sizing=sizing,
        adaptive_guardrails=_adaptive_guardrails(ctx, trade.action, adding),
        observation=_observation(market, limits, warnings),
        defi_threats=_defi_threats(market, adding, limits, warnings),
    )
    failing = [name for name, layer in layers if not layer.passed]
    approved = not failing
    return RiskAssessment(
        approved=approved,
        adjusted_size_usd=round(allowed, 2) if approved else None,
        layers=layers,
        warnings=warnings[:5],
        reasoning=(
            f"hard limits: {trade.action} of ${notional:,.2f} "
            + ("approved" if approved else "blocked by " + ", ".join(failing))
        ),
        proposed_size_usd=round(notional, 2),
    )
