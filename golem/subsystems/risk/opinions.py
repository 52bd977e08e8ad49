"""Two models' assessments of one trade, made one (`[subsystems.risk] verify_with`): the
stricter stands. A rejection beats an approval; of two approvals, the one that allows the
smaller size; a tie, or two rejections, keeps the first. The kept assessment is kept whole
(its layers, warnings and reasoning): a verdict is never stitched from two answers."""

from __future__ import annotations

from dataclasses import dataclass

from golem.subsystems.risk.decision import RiskAssessment

__all__ = ["Reconciled", "allowed_usd", "stricter"]


@dataclass(frozen=True, slots=True)
class Reconciled:
    """The assessment that stands, whose it is, and whether the two agreed on approval."""

    kept: RiskAssessment
    second_kept: bool
    agreed: bool


def allowed_usd(assessment: RiskAssessment, notional: float) -> float | None:
    """What an assessment allows: nothing (None) when it rejects; else its adjusted size,
    or the size as proposed (as it read it, else the trade's `notional`)."""
    if not assessment.approved:
        return None
    for size in (assessment.adjusted_size_usd, assessment.proposed_size_usd):
        if size is not None:
            return size
    return notional


def stricter(first: RiskAssessment, second: RiskAssessment, notional: float) -> Reconciled:
    """The stricter of `first` (the tier's model) and `second` (the verifier) for a trade
    of `notional` USD."""
    agreed = first.approved == second.approved
    if not agreed:
        return Reconciled(second if first.approved else first, first.approved, agreed)
    if not first.approved:
        return Reconciled(first, False, agreed)
    smaller = _less(allowed_usd(second, notional), allowed_usd(first, notional))
    return Reconciled(second if smaller else first, smaller, agreed)


def _less(size: float | None, than: float | None) -> bool:
    return size is not None and than is not None and size < than
