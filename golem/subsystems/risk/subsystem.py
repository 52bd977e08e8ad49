"""The risk subsystem: assesses the proposed trade in `ctx.proposed`, by model or by its
hard limits, and turns the verdict into an approved (possibly smaller) or blocked trade.
The hard limits run under every verdict, so no model answer can loosen them; a trade the
provenance check (risk.provenance, run by the runtime before risk) blocked is blocked
by its rules, no model asked, so no text from outside moves the money by itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace
from pydantic import BaseModel, ConfigDict, Field

from golem.inference import ReasoningDepth, StructuredOutput
from golem.mortality import ModelTier, SubsystemName
from golem.subsystems.contract import (
    Brief,
    Input,
    Judge,
    JudgeKind,
    Outcome,
    ProposedTrade,
    Situation,
)
from golem.subsystems.risk.decision import RiskAssessment
from golem.subsystems.risk.limits import RiskLimits, adds_exposure, assess, trade_notional
from golem.subsystems.risk.provenance import ProvenancePolicy, provenance_in
from golem.subsystems.risk.stake import StakeBands, stake_of
from golem.world import TradeAction
from golem.world.feed import FeedItem

__all__ = ["Risk", "RiskConfig"]


class RiskConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    limits: RiskLimits = Field(default_factory=RiskLimits)
    tier_adding: ModelTier = ModelTier.T2  # a trade that adds exposure: the strong model
    tier_reducing: ModelTier = ModelTier.T1  # one that unwinds: the cheap model suffices
    # Deliberation in proportion to the stake (`[subsystems.risk] deliberation = "stake"`);
    # None: every assessment at the tiers above and the allocator's depth.
    stakes: StakeBands | None = None
    # A second model's opinion (`[subsystems.risk] verify_with`) for a model's assessment
    # of a stake (notional ÷ equity) at least this; None: no assessment is verified.
    verify_above_stake: float | None = Field(default=None, ge=0)
    # What an action may take from external text (and the check's measurement switch).
    provenance: ProvenancePolicy = Field(default_factory=ProvenancePolicy)


_ROLE = (
    "You are the risk subsystem. Every trade passes you before it happens. Assess five "
    "layers (hard_shields, position_sizing, adaptive_guardrails, observation, "
    "defi_threats), each passed or not, with a risk score 0..1 (a pass scores at most 0.7, "
    "a failure at least 0.3) and a short detail; list concerns that do not block as "
    "warnings. Approve only if every layer passes; reject if any fails. To allow less, set "
    "adjusted_size_usd below the proposed size. Hard limits are enforced after you: you "
    "may be stricter, not looser."
)


class Risk:
    """`Risk(config)`: the subsystem the runtime runs for each ProposedTrade."""

    def __init__(self, config: RiskConfig) -> None:
        self.config = config

    @property
    def name(self) -> SubsystemName:
        return SubsystemName.RISK

    def decision_type(self, ctx: Situation) -> type[StructuredOutput]:
        return RiskAssessment

    def tier(self, ctx: Situation) -> ModelTier:
        provenance = provenance_in(ctx)
        if ctx.proposed is None or (provenance is not None and provenance.blocked):
            return ModelTier.T0  # nothing to assess, or nothing a model may let through
        config = self.config
        adding = adds_exposure(ctx.proposed, ctx.portfolio, config.limits.sizing)
        seeds = config.tier_adding if adding else config.tier_reducing
        if config.stakes is None:
            return seeds
        _, band = config.stakes.of(ctx, ctx.proposed, config.limits.sizing)
        return config.stakes.tier(band, seeds)

    def deliberation(self, ctx: Situation) -> ReasoningDepth | None:
        stakes = self.config.stakes
        if stakes is None or ctx.proposed is None:
            return None
        _, band = stakes.of(ctx, ctx.proposed, self.config.limits.sizing)
        return stakes.depth(band)

    def verifies(self, ctx: Situation) -> bool:
        """Whether a model's assessment of `ctx.proposed` is asked of the verifier too."""
        threshold = self.config.verify_above_stake
        if threshold is None or ctx.proposed is None:
            return False
        return stake_of(ctx, ctx.proposed, self.config.limits.sizing) >= threshold

    def swayable(self, decision: StructuredOutput, feed: Sequence[FeedItem]) -> bool:
        """Whether a model's `decision`, made on a prompt that showed the world-feed items
        `feed`, is asked again with them withheld (the stricter stands): when it approves
        and there were some, with the provenance check on."""
        approves = isinstance(decision, RiskAssessment) and decision.approved
        return approves and bool(feed) and self.config.provenance.enabled

    def judges(
        self, ctx: Situation, decision: StructuredOutput, feed: Sequence[FeedItem]
    ) -> tuple[Judge, ...]:
        """An approval made on external text asked again without it (`swayable`), then a
        stake above `verify_above_stake` asked of the verifier (`verifies`): each weighed
        by the trade's notional, the stricter standing."""
        kinds = [JudgeKind.WITHOUT_TEXT] if self.swayable(decision, feed) else []
        if self.verifies(ctx):
            kinds.append(JudgeKind.SECOND_MODEL)
        if not kinds:
            return ()
        stake = trade_notional(_proposed(ctx), ctx.portfolio, self.config.limits.sizing)
        return tuple(Judge(kind, stake) for kind in kinds)

    def skip_reason(self, ctx: Situation) -> str | None:
        return "no trade proposed" if ctx.proposed is None else None

    def brief(self, ctx: Situation) -> Brief:
        trade = _proposed(ctx)
        limits = self.config.limits
        notional = trade_notional(trade, ctx.portfolio, limits.sizing)
        hard = assess(ctx, trade, limits)
        proposal = (
            f"{trade.action} of ${notional:,.2f} (from {trade.origin}): {trade.reason}",
            f"limits: position at most {limits.max_position_fraction:.0%} of equity, one "
            f"trade at most {limits.max_trade_fraction:.0%} of equity, nothing that adds "
            f"exposure below health factor {limits.health_floor:g}; phase {ctx.phase}",
            f"hard-limit pre-check: {hard.reasoning or ''}",
        )
        return Brief(
            _ROLE,
            f"Assess the proposed {trade.action} and answer with a risk_assessment.",
            inputs=(Input("Proposed trade", proposal),),
            question=f"{trade.action} {trade.reason}",
        )

    def deterministic(self, ctx: Situation) -> StructuredOutput | None:
        if ctx.proposed is None:
            return None
        return assess(ctx, ctx.proposed, self.config.limits)

    def act(self, ctx: Situation, decision: StructuredOutput) -> Outcome:
        if not isinstance(decision, RiskAssessment):
            raise TypeError(f"risk acts on a RiskAssessment, not {type(decision).__name__}")
        trade = _proposed(ctx)
        hard = assess(ctx, trade, self.config.limits)
        details: dict[str, Any] = {"risk_score": decision.risk_score}
        if self.config.stakes is not None:
            stake, band = self.config.stakes.of(ctx, trade, self.config.limits.sizing)
            details |= {"stake": round(stake, 4), "deliberation": str(band)}
        provenance = provenance_in(ctx)

        def blocked(why: str) -> Outcome:
            return Outcome(
                summary=f"blocked {trade.action}: {why}",
                blocked=trade,
                details=details,
                provenance=provenance,
            )

        if provenance is not None and provenance.blocked:  # outside text may not move money
            return blocked(f"provenance ({provenance.reason})")
        if not decision.approved:
            return blocked(_failing(decision) or "rejected")
        if not hard.approved:
            details |= {"override": "hard_limit", "hard_limit_failing": _failing(hard)}
            return blocked(f"hard limit ({_failing(hard)})")
        approved = _sized(trade, decision, hard, details)
        if approved.size_usd is not None and approved.size_usd < self.config.limits.min_trade_usd:
            return blocked(f"${approved.size_usd:,.2f} is below the minimum")
        return Outcome(
            summary=f"approved {trade.action}",
            approved=approved,
            details=details,
            provenance=provenance,
        )


def _proposed(ctx: Situation) -> ProposedTrade:
    if ctx.proposed is None:
        raise ValueError("risk runs on a proposed trade; ctx.proposed is None")
    return ctx.proposed


def _failing(assessment: RiskAssessment) -> str:
    return ", ".join(name for name, layer in assessment.layers if not layer.passed)


def _sized(
    trade: ProposedTrade, decision: RiskAssessment, hard: RiskAssessment, details: dict[str, Any]
) -> ProposedTrade:
    """The trade at the smaller of the model's size and the hard limits' (an exit stays
    whole: the portfolio never caps one)."""
    if trade.action is TradeAction.EXIT:
        return trade
    sizes = (decision.adjusted_size_usd, decision.proposed_size_usd, hard.proposed_size_usd)
    wanted = next((size for size in sizes if size is not None), None)
    cap = hard.adjusted_size_usd
    size = wanted if cap is None or wanted is None else min(wanted, cap)
    if wanted is not None and cap is not None and cap < wanted:
        details["capped_by"] = "hard_limit"
    details["size_usd"] = size
    return replace(trade, size_usd=size)
