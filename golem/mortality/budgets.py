"""Money per day: each subsystem's share of the daily budget under vitality pressure and the
sustainability ratio, the tiers of the daily cost cap, and the DIEM allowance that makes
Venice-routed calls free up to a daily amount.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from golem.mortality.names import SubsystemName

__all__ = [
    "BudgetLine",
    "BudgetPolicy",
    "CostCapPolicy",
    "CostCapTier",
    "KeyedValueError",
    "compute_reasoning_budgets",
    "cost_cap_tier",
    "pressure",
    "split_diem",
    "subsystem_budget",
    "sustainability_multiplier",
]

_S = SubsystemName


class BudgetLine(BaseModel):
    """share·(1 − pressure_weight·p) of the daily budget; a weight of 0 is never reduced."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    share: float = Field(ge=0)
    pressure_weight: float = Field(default=0.0, ge=0, le=1)


def _default_lines() -> dict[SubsystemName, BudgetLine]:
    return {
        _S.HEARTBEAT: BudgetLine(share=0.20, pressure_weight=0.5),
        _S.RISK: BudgetLine(share=0.15),
        _S.DREAM: BudgetLine(share=0.15, pressure_weight=0.3),
        _S.DAIMON: BudgetLine(share=0.05, pressure_weight=0.7),
        _S.CONTEXT: BudgetLine(share=0.10, pressure_weight=0.5),
        _S.CURATOR: BudgetLine(share=0.10, pressure_weight=0.3),
        _S.PLAYBOOK: BudgetLine(share=0.05, pressure_weight=0.5),
        _S.OPERATOR: BudgetLine(share=0.15),
    }


class BudgetPolicy(BaseModel):
    """The budget lines, the unlimited ones (death), and the sustainability rule: a ratio of
    income to spend above `expand_above` multiplies every budget by `expansion`; below
    `contract_below` multiplies all but `never_contracted` by `contraction`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    lines: dict[SubsystemName, BudgetLine] = Field(default_factory=_default_lines)
    unlimited: frozenset[SubsystemName] = frozenset({_S.DEATH})
    expand_above: float = 2.0
    expansion: float = Field(default=1.5, ge=1)
    contract_below: float = 0.5
    contraction: float = Field(default=0.3, ge=0, le=1)
    never_contracted: frozenset[SubsystemName] = frozenset({_S.RISK, _S.DEATH})

    @model_validator(mode="before")
    @classmethod
    def _over_default_lines(cls, data: Any) -> Any:
        """Lines given are laid over the default ones, key by key (`[...lines.risk]
        share = 0.01` keeps risk's pressure weight and every other line); a subsystem
        made unlimited keeps no default line."""
        if not isinstance(data, dict) or not isinstance(data.get("lines", {}), dict):
            return data
        unlimited = data.get("unlimited", cls.model_fields["unlimited"].default)
        unlimited_names = {str(name) for name in unlimited} if _iterable(unlimited) else set()
        given = {str(name): line for name, line in data.get("lines", {}).items()}
        lines: dict[str, Any] = {
            str(name): line.model_dump()
            for name, line in _default_lines().items()
            if str(name) not in unlimited_names
        }
        for name, line in given.items():
            base = lines.get(name)
            lines[name] = base | line if isinstance(base, dict) and isinstance(line, dict) else line
        return {**data, "lines": lines}

    @model_validator(mode="after")
    def _every_subsystem_funded_once(self) -> BudgetPolicy:
        missing = set(SubsystemName) - set(self.lines) - self.unlimited
        both = set(self.lines) & self.unlimited
        if missing:
            raise KeyedValueError(
                "no budget line and not in unlimited: each subsystem needs one of the two",
                [f"lines.{name}" for name in sorted(missing)],
            )
        if both:
            raise KeyedValueError(
                "a budget line for an unlimited subsystem: remove the line or the subsystem "
                "from unlimited",
                [f"lines.{name}" for name in sorted(both)],
            )
        return self


class KeyedValueError(ValueError):
    """A problem with keys below the model that raised it, named relative to it in `keys`
    so that a config reader can name them in full (`mortality.budgets.lines.death`)."""

    def __init__(self, message: str, keys: Iterable[str]) -> None:
        self.keys = tuple(keys)
        super().__init__(f"{message}: {', '.join(self.keys)}")
        self.message = message


def _iterable(value: object) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, str | bytes | dict)


def pressure(vitality: float) -> float:
    """Mortality pressure p = 1 − vitality."""
    if not 0.0 <= vitality <= 1.0:
        raise ValueError(f"vitality must be in [0, 1], got {vitality}")
    return 1.0 - vitality


def sustainability_multiplier(
    subsystem: SubsystemName, ratio: float | None, policy: BudgetPolicy
) -> float:
    """The factor the sustainability ratio (income ÷ spend; None when unknown) applies."""
    if ratio is None:
        return 1.0
    if math.isnan(ratio) or ratio < 0:
        raise ValueError(f"a sustainability ratio is non-negative, got {ratio}")
    if ratio > policy.expand_above:
        return policy.expansion
    if ratio < policy.contract_below and subsystem not in policy.never_contracted:
        return policy.contraction
    return 1.0


def compute_reasoning_budgets(
    vitality: float,
    daily_budget_usd: float,
    *,
    sustainability_ratio: float | None = None,
    policy: BudgetPolicy,
) -> dict[SubsystemName, float]:
    """Today's budget in USD for every subsystem, in SubsystemName order; unlimited ones
    (death) are `math.inf`. No budget grows as vitality falls."""
    return {
        subsystem: subsystem_budget(
            subsystem,
            vitality,
            daily_budget_usd,
            sustainability_ratio=sustainability_ratio,
            policy=policy,
        )
        for subsystem in SubsystemName
    }


def subsystem_budget(
    subsystem: SubsystemName,
    vitality: float,
    daily_budget_usd: float,
    *,
    sustainability_ratio: float | None = None,
    policy: BudgetPolicy,
) -> float:
    """Today's budget in USD for `subsystem` alone (`math.inf` when unlimited), as
    `compute_reasoning_budgets` gives it: the allocator needs one line per decision."""
    if not (math.isfinite(daily_budget_usd) and daily_budget_usd >= 0):
        raise ValueError(f"daily_budget_usd must be a finite amount >= 0, got {daily_budget_usd}")
    p = pressure(vitality)
    if subsystem in policy.unlimited:
        return math.inf
    line = policy.lines[subsystem]
    multiplier = sustainability_multiplier(subsystem, sustainability_ratio, policy)
    budget = daily_budget_usd * line.share * (1.0 - line.pressure_weight * p)
    return budget * multiplier


class CostCapTier(StrEnum):
    """How much of the day's cost cap is spent, and what that still allows."""

    NORMAL = "normal"  # below 70%: every tier
    NO_TOP_TIER = "no_top_tier"  # 70 to 90%: no top-tier model
    RISK_AND_DEATH_ONLY = "risk_and_death_only"  # 90 to 100%: no model but risk's and death's
    EXHAUSTED = "exhausted"  # 100%: deterministic paths only, and death


class CostCapPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    no_top_tier_at: float = Field(default=0.70, ge=0, le=1)
    risk_and_death_only_at: float = Field(default=0.90, ge=0, le=1)


def cost_cap_tier(spent_usd: float, cap_usd: float, policy: CostCapPolicy) -> CostCapTier:
    """The tier for `spent_usd` out of today's `cap_usd` (a cap of 0 is already spent)."""
    if cap_usd <= 0 or spent_usd >= cap_usd:
        return CostCapTier.EXHAUSTED
    used = spent_usd / cap_usd
    if used >= policy.risk_and_death_only_at:
        return CostCapTier.RISK_AND_DEATH_ONLY
    if used >= policy.no_top_tier_at:
        return CostCapTier.NO_TOP_TIER
    return CostCapTier.NORMAL


def split_diem(cost_usd: float, diem_left: float) -> tuple[float, float]:
    """(USD, DIEM) for a Venice-routed call costing `cost_usd`: DIEM pays first, one DIEM per
    dollar of Venice compute, while today's allowance lasts; USD pays the rest."""
    diem = min(cost_usd, max(0.0, diem_left))
    return cost_usd - diem, diem
