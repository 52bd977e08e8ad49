"""The apoptotic reserve (Bardo prd/02-mortality/04-economic-mortality.md §3, "Death Fund"):
money held back so that every golem can afford to die. It is locked at creation, recomputed
every `recalculate_ticks` on the open positions, subtracted from what the allocator sees as
spendable, and unlocked only by the death protocol (death's call is the one it pays for).

A wallet smaller than the reserve is all reserve: no call but death's is ever granted.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ReserveParams"]


class ReserveParams(BaseModel):
    """The `[mortality.reserve]` section, Bardo's `compute_apoptotic_reserve` and its
    defaults: max(max(`floor_usd`, `proportional_rate`·initial funding), settle + life
    review + legacy), settle being `per_position_usd` per open position plus `settle_usd`.
    All zero: no reserve (death's call then overdraws what is left)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    floor_usd: float = Field(default=0.30, ge=0)  # base_floor_usdc
    proportional_rate: float = Field(default=0.02, ge=0, le=1)  # of the initial funding
    per_position_usd: float = Field(default=0.02, ge=0)  # settling one open position
    settle_usd: float = Field(default=0.02, ge=0)  # the settle phase's own cost
    life_review_usd: float = Field(default=0.15, ge=0)  # min_life_review_cost
    legacy_usd: float = Field(default=0.05, ge=0)  # legacy_upload_cost
    # How often (in ticks) the reserve is recomputed on the positions then open (Bardo:
    # every 500 ticks, some 5.6 hours of its heartbeat); a restart recomputes it too.
    recalculate_ticks: int = Field(default=500, gt=0)

    def amount(self, initial_funding_usd: float, open_positions: int) -> float:
        """The reserve, in USD, for a golem funded with `initial_funding_usd` and holding
        `open_positions` positions."""
        base = max(self.floor_usd, initial_funding_usd * self.proportional_rate)
        settle = open_positions * self.per_position_usd + self.settle_usd
        return max(base, settle + self.life_review_usd + self.legacy_usd)
