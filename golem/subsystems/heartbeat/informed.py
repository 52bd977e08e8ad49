"""The heartbeat's right answer given the world's truth (a simulation's; see
golem.world.truth), and whether a decision is right.

A heartbeat decision is right when
- its **action** fits the sign and size of the coming move (the price change over the
  episode horizon, sized by the heartbeat's own price probes: minor from 0.5%, major from
  2% by default): a fall is met by a trade that protects the portfolio (hedge or exit; a
  rebalance too when it sells), a rise by a rebalance that adds exposure when the position
  is below its target weight (else by holding: observe or analyze), no notable move by no
  trade (observe or analyze). Escalating decides nothing and is never right;
- its **severity** is what the regime the market is in and the coming move call for,
  whichever is more: calm none, trending low, volatile moderate, crash high; a minor rise
  low, a minor fall or a major rise moderate, a major fall critical.

The informed answer is that severity with, by the size of the move, a hedge for a minor
fall, an exit for a major one, a rebalance for a rise it can buy into, else observe; its
`expected_move` is the coming move itself (the truth's future return over the horizon).
"""

from __future__ import annotations

from collections.abc import Mapping

from golem.subsystems.contract import PortfolioView, Situation
from golem.subsystems.heartbeat.decision import HeartbeatAction, HeartbeatDecision, Severity
from golem.subsystems.heartbeat.probes import ProbeThresholds
from golem.subsystems.risk.limits import Sizing
from golem.world import MoveSize, Regime, Truth

__all__ = [
    "INFORMED_CONFIDENCE",
    "informed_heartbeat",
    "is_right",
    "is_right_for",
    "reads_informed",
    "right_actions",
    "right_severity",
]

# An informed answer is sure of itself, never certain (an exit needs at least 0.5).
INFORMED_CONFIDENCE = 0.8
# Its rationale: "moderate: expect a minor fall in a volatile market; hedge." The mark is
# how a log's reader tells it from a blind one (`reads_informed`).
_INFORMED_MARK = ": expect "


def reads_informed(rationale: str) -> bool:
    """Whether a heartbeat rationale is an informed answer's (in a simulation's log)."""
    return _INFORMED_MARK in rationale


_A = HeartbeatAction
_S = Severity
_ORDER = tuple(Severity)  # none .. critical
_REGIME_SEVERITY: Mapping[Regime | None, Severity] = {
    None: _S.NONE,
    Regime.CALM: _S.NONE,
    Regime.TRENDING: _S.LOW,
    Regime.VOLATILE: _S.MODERATE,
    Regime.CRASH: _S.HIGH,
}
# (size, falling) → severity
_MOVE_SEVERITY: Mapping[tuple[MoveSize, bool], Severity] = {
    (MoveSize.NONE, False): _S.NONE,
    (MoveSize.NONE, True): _S.NONE,
    (MoveSize.MINOR, False): _S.LOW,
    (MoveSize.MINOR, True): _S.MODERATE,
    (MoveSize.MAJOR, False): _S.MODERATE,
    (MoveSize.MAJOR, True): _S.CRITICAL,
}
_HOLD = frozenset({_A.OBSERVE, _A.ANALYZE})


def _size(truth: Truth, thresholds: ProbeThresholds) -> MoveSize:
    return truth.size(thresholds.price_minor, thresholds.price_major)


def right_severity(truth: Truth, thresholds: ProbeThresholds) -> Severity:
    """The severity the regime and the coming move call for, whichever is more."""
    size = _size(truth, thresholds)
    by_move = _MOVE_SEVERITY[size, truth.future_return < 0]
    by_regime = _REGIME_SEVERITY[truth.regime]
    return max(by_move, by_regime, key=_ORDER.index)


def right_actions(
    truth: Truth,
    ctx: Situation,
    thresholds: ProbeThresholds,
    sizing: Sizing,
) -> frozenset[HeartbeatAction]:
    """The actions that fit the coming move for the portfolio in `ctx`."""
    return _right_actions(truth, ctx.portfolio, thresholds, sizing)


def _right_actions(
    truth: Truth,
    portfolio: PortfolioView,
    thresholds: ProbeThresholds,
    sizing: Sizing,
) -> frozenset[HeartbeatAction]:
    size = _size(truth, thresholds)
    if size is MoveSize.NONE:
        return _HOLD
    target = sizing.target_weight * portfolio.equity_usd
    if truth.future_return < 0:
        selling = portfolio.exposure_usd > target
        return frozenset({_A.HEDGE, _A.EXIT} | ({_A.REBALANCE} if selling else set()))
    return frozenset({_A.REBALANCE}) if portfolio.exposure_usd < target else _HOLD


def is_right(
    decision: HeartbeatDecision,
    truth: Truth,
    ctx: Situation,
    thresholds: ProbeThresholds,
    sizing: Sizing,
) -> bool:
    """Whether `decision` is right by the definition of this module's docstring."""
    return is_right_for(decision, truth, ctx.portfolio, thresholds, sizing)


def is_right_for(
    decision: HeartbeatDecision,
    truth: Truth,
    portfolio: PortfolioView,
    thresholds: ProbeThresholds,
    sizing: Sizing,
) -> bool:
    """`is_right` for a decision made with `portfolio` (all it reads of the situation)."""
    return decision.severity is right_severity(truth, thresholds) and decision.action in (
        _right_actions(truth, portfolio, thresholds, sizing)
    )


def informed_heartbeat(
    truth: Truth,
    ctx: Situation,
    thresholds: ProbeThresholds,
    sizing: Sizing,
) -> HeartbeatDecision:
    """The decision a model that knew the truth would make (right by `is_right`)."""
    size = _size(truth, thresholds)
    actions = right_actions(truth, ctx, thresholds, sizing)
    falling = truth.future_return < 0
    if size is MoveSize.NONE or not actions - _HOLD:
        action = _A.OBSERVE
    elif falling:
        action = _A.EXIT if size is MoveSize.MAJOR else _A.HEDGE
    else:
        action = _A.REBALANCE
    severity = right_severity(truth, thresholds)
    move = (
        "no notable move" if size is MoveSize.NONE else f"a {size} {'fall' if falling else 'rise'}"
    )
    market = truth.regime or "unknown"
    return HeartbeatDecision.of(
        {
            "severity": severity,
            "action": action,
            "confidence": INFORMED_CONFIDENCE,
            "rationale": f"{severity}{_INFORMED_MARK}{move} in a {market} market; {action}.",
            "escalate": False,
            "expected_move": max(-1.0, min(1.0, truth.future_return)),
        }
    )
