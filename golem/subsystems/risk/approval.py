"""Who answers when a trade above `[subsystems.risk] approve_above_stake` waits for the
owner (runtime/approvals.py keeps the queue): the rules compiled once for a life, and the
policy that stands in for the person in a simulation, so a life stays deterministic."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

__all__ = ["ApprovalPolicy", "ApprovalRules", "parse_policy"]


@dataclass(frozen=True, slots=True)
class ApprovalPolicy:
    """Who answers for the owner: nobody (`owner`: the owner, or the timeout), or a rule:
    approve everything, deny everything, approve a stake below `below_usd`."""

    name: str = "owner"
    below_usd: float | None = None

    def decides(self, stake_usd: float) -> bool | None:
        """Approve (True), deny (False), or wait for the owner (None)."""
        if self.name == "approve_all":
            return True
        if self.name == "deny_all":
            return False
        if self.below_usd is not None:
            return stake_usd < self.below_usd
        return None


def parse_policy(text: str) -> ApprovalPolicy:
    """`owner`, `approve_all`, `deny_all` or `approve_below:X` (X in USD, positive)."""
    if text in ("owner", "approve_all", "deny_all"):
        return ApprovalPolicy(text)
    name, _, amount = text.partition(":")
    if name == "approve_below":
        try:
            usd = float(amount)
        except ValueError:
            usd = -1.0
        if usd > 0 and usd != float("inf"):
            return ApprovalPolicy(name, usd)
    raise ValueError(
        f"an approval policy is owner, approve_all, deny_all or approve_below:USD, not {text!r}"
    )


@dataclass(frozen=True, slots=True)
class ApprovalRules:
    """`[subsystems.risk]`'s approval keys compiled for a life; `above_usd` None: no trade
    waits for anyone."""

    above_usd: float | None = None
    timeout: timedelta = timedelta(hours=1)
    policy: ApprovalPolicy = field(default_factory=ApprovalPolicy)
