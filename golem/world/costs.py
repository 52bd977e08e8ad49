"""What a paper trade costs: a proportional fee, and slippage that grows with the order's
size and with the market's volatility (both in basis points of the mark price).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CostModel"]


class CostModel(BaseModel):
    """slippage_bps = min(cap, base + impact · notional ÷ impact_notional_usd
    + volatility_factor · σ · 10 000), where σ is the per-tick volatility of returns."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fee_bps: float = Field(default=30.0, ge=0, lt=10_000)
    base_slippage_bps: float = Field(default=5.0, ge=0)
    impact_bps: float = Field(default=10.0, ge=0)
    impact_notional_usd: float = Field(default=100_000.0, gt=0)
    volatility_factor: float = Field(default=0.5, ge=0)
    max_slippage_bps: float = Field(default=500.0, ge=0, lt=10_000)  # keeps a sale's price > 0

    @property
    def fee_rate(self) -> float:
        return self.fee_bps / 10_000.0

    def slippage_bps(self, notional_usd: float, volatility: float = 0.0) -> float:
        size_term = self.impact_bps * notional_usd / self.impact_notional_usd
        volatility_term = self.volatility_factor * max(volatility, 0.0) * 10_000.0
        return min(self.max_slippage_bps, self.base_slippage_bps + size_term + volatility_term)
