"""The arms of a comparison: a policy, and for the fixed policy optionally its daily budget
(`fixed@0.5`: the fixed policy at $0.50 a day), so that the vitality policy can be judged
against fixed budgets at several rates, the frontier of what money buys without an
allocator (frontier.py). An arm without a rate lives by the scenario's own
`[mortality] daily_budget_usd`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from golem.mortality import PolicyName

__all__ = ["Arm", "parse_arms"]

_RATED = PolicyName.FIXED  # the one policy whose budget is its whole behaviour


@dataclass(frozen=True, slots=True)
class Arm:
    """A policy, and the daily budget it lives on (None: the scenario's)."""

    policy: PolicyName
    daily_budget_usd: float | None = None

    def __str__(self) -> str:
        if self.daily_budget_usd is None:
            return str(self.policy)
        return f"{self.policy}@{self.daily_budget_usd:g}"

    @property
    def overrides(self) -> tuple[tuple[str, Any], ...]:
        """The scenario keys this arm sets (`LifeSpec.overrides`, after a sweep's)."""
        if self.daily_budget_usd is None:
            return ()
        return (("mortality.daily_budget_usd", self.daily_budget_usd),)


def parse_arms(text: str) -> list[Arm]:
    """`vitality,fixed@0.25,fixed@1,immortal`: the arms named, each once, in the order
    given. Raises ValueError with one line naming the part that is wrong."""
    parts = [part.strip() for part in text.split(",")]
    if not any(parts):
        raise ValueError("name at least one policy")
    known = ", ".join(PolicyName)
    arms: list[Arm] = []
    for part in parts:
        if not part:
            raise ValueError(f"an empty name in {text!r}")
        name, at, rate = part.partition("@")
        if name not in set(PolicyName):
            raise ValueError(f"unknown policy {name!r} (known: {known})")
        if not at:
            arms.append(Arm(PolicyName(name)))
            continue
        if name != _RATED:
            raise ValueError(f"{part!r}: only {_RATED} takes a daily budget (fixed@USD)")
        try:
            usd = float(rate)
        except ValueError:
            raise ValueError(f"{part!r}: the daily budget {rate!r} is not a number") from None
        if not (math.isfinite(usd) and usd > 0):
            raise ValueError(f"{part!r}: the daily budget must be a positive amount of USD")
        arms.append(Arm(PolicyName(name), usd))
    return list(dict.fromkeys(arms))
