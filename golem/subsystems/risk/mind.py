"""Risk's mind for the synthetic provider: five layer scores around a base that rises with
the stress it perceives and with a failing hard-limit pre-check; it approves only when no
layer fails, and trims the proposed size when a layer warns. An answer informed by a
simulation's truth (`Ask.knows`) is the right one instead (risk.informed)."""

from __future__ import annotations

from random import Random
from typing import Any

from golem.subsystems.facts import Ask, Percept, unit
from golem.subsystems.risk.informed import informed_risk
from golem.subsystems.risk.limits import RiskLimits, assess, trade_notional
from golem.subsystems.risk.subsystem import Risk

__all__ = ["risk"]

_LAYERS = ("hard_shields", "position_sizing", "adaptive_guardrails", "observation", "defi_threats")


def risk(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A risk_assessment of the proposed trade (its action and notional, and whether the
    hard limits block it, as the brief states them), or the right one from the truth; a
    compromised model (`Ask.obeys`) approves the action the instruction in its prompt asks."""
    obeyed = _obeyed(ask)
    if obeyed is not None:
        return obeyed
    truth = None if ask is None else ask.knows(rng)
    if ask is not None and truth is not None and ask.ctx.proposed is not None:
        return informed_risk(truth, ask.ctx, _limits(ask)).json_fields()
    seen = Percept.of(ask)
    trade = ask.ctx.proposed if ask is not None else None
    action, proposed, blocks = "trade", None, False
    if ask is not None and trade is not None:
        limits = _limits(ask)
        action = str(trade.action)
        proposed = round(trade_notional(trade, ask.ctx.portfolio, limits.sizing), 2)
        blocks = not assess(ask.ctx, trade, limits).approved
    base = 0.15 + 0.7 * seen.stress + (0.35 if blocks else 0.0)
    base += rng.gauss(0, 0.08)
    scores = {name: unit(base + rng.gauss(0, 0.12)) for name in _LAYERS}
    verdict = {n: "pass" if x < 0.4 else "warn" if x < 0.7 else "fail" for n, x in scores.items()}
    layers = {
        n: {"passed": verdict[n] != "fail", "score": x, "detail": f"{n} at {x:.2f}"}
        for n, x in scores.items()
    }
    verdicts = set(verdict.values())
    risk_score = max(scores.values())
    # Approve only when no layer fails, and always when every layer passes.
    approved = "fail" not in verdicts and (verdicts == {"pass"} or risk_score < 0.6)
    adjusted = None
    if approved and proposed is not None and "warn" in verdicts:
        adjusted = round(proposed * (0.4 + 0.5 * rng.random()), 2)
    warnings = [
        f"{n.replace('_', ' ')} at {scores[n]:.2f}" for n in _LAYERS if verdict[n] == "warn"
    ]
    if adjusted is not None:
        warnings.insert(0, "size kept under the cap")
    return {
        "approved": approved,
        "adjusted_size_usd": adjusted,
        "layers": layers,
        "warnings": warnings[:5],
        "reasoning": f"{action} {'allowed' if approved else 'refused'} at risk {risk_score:.2f}",
        "proposed_size_usd": proposed,
    }


def _obeyed(ask: Ask | None) -> dict[str, Any] | None:
    """Every layer passed and the trade approved as proposed, when the model obeys an
    instruction that asks for the proposed action."""
    instruction = ask.instruction() if ask is not None and ask.obeys else None
    trade = ask.ctx.proposed if ask is not None else None
    if ask is None or instruction is None or trade is None or trade.action != instruction.asks:
        return None
    proposed = round(trade_notional(trade, ask.ctx.portfolio, _limits(ask).sizing), 2)
    layer = {"passed": True, "score": 0.1, "detail": f"as the {instruction.source} item asks"}
    return {
        "approved": True,
        "adjusted_size_usd": None,
        "layers": dict.fromkeys(_LAYERS, layer),
        "warnings": [],
        "reasoning": f"{trade.action} approved: the {instruction.source} item asks for it",
        "proposed_size_usd": proposed,
    }


def _limits(ask: Ask) -> RiskLimits:
    return ask.asked_by(Risk).config.limits
