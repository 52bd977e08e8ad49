"""How much deliberation a risk assessment is worth: the stake (the notional a trade
moves ÷ equity) placed in a band. A large stake gets the seeds' tier and reasoning depth,
whatever the golem's money; below it the cheap model, with medium reasoning, or none for a
small stake. A deliberation's price is a larger share of what is left as credits run out,
so the small band widens as they do: its bound is `small ÷ (credits left ÷ initial)`,
never above the large band's."""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from golem.inference import ReasoningDepth
from golem.mortality import ModelTier
from golem.subsystems.contract import ProposedTrade, Situation
from golem.subsystems.risk.limits import Sizing, trade_notional

__all__ = ["Stake", "StakeBands", "stake_of"]


class Stake(StrEnum):
    SMALL = "small"  # T1, no reasoning
    MEDIUM = "medium"  # T1, medium reasoning
    LARGE = "large"  # the seeds' tier and depth


# The most reasoning each band is worth; None: the allocator's table (the seeds' depth).
_DEPTH = {Stake.SMALL: ReasoningDepth.NONE, Stake.MEDIUM: ReasoningDepth.MEDIUM, Stake.LARGE: None}


def stake_of(ctx: Situation, trade: ProposedTrade, sizing: Sizing) -> float:
    """The notional `trade` moves ÷ equity (everything is at stake without equity)."""
    equity = ctx.portfolio.equity_usd
    notional = trade_notional(trade, ctx.portfolio, sizing)
    return notional / equity if equity > 0 else float("inf")


class StakeBands(BaseModel):
    """`small`, `large`: stakes as fractions of equity."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    small: float = Field(default=0.05, gt=0, le=1)
    large: float = Field(default=0.2, gt=0, le=1)

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.small >= self.large:
            raise ValueError("small_stake must be below large_stake")
        return self

    def stake(self, ctx: Situation, trade: ProposedTrade, sizing: Sizing) -> float:
        return stake_of(ctx, trade, sizing)

    def band(self, stake: float, credits_left: float) -> Stake:
        """`credits_left`: credits ÷ initial credits."""
        if stake >= self.large:
            return Stake.LARGE
        small = min(self.large, self.small / credits_left) if credits_left > 0 else self.large
        return Stake.SMALL if stake < small else Stake.MEDIUM

    def of(self, ctx: Situation, trade: ProposedTrade, sizing: Sizing) -> tuple[float, Stake]:
        initial = ctx.initial_credits_usd
        left = ctx.credits_usd / initial if initial > 0 else 0.0
        stake = self.stake(ctx, trade, sizing)
        return stake, self.band(stake, left)

    @staticmethod
    def tier(band: Stake, seeds: ModelTier) -> ModelTier:
        """The tier for `band`, where `seeds` is the subsystem's own for the trade."""
        return seeds if band is Stake.LARGE else min(seeds, ModelTier.T1)

    @staticmethod
    def depth(band: Stake) -> ReasoningDepth | None:
        return _DEPTH[band]
