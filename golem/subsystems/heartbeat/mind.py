"""The heartbeat's mind for the synthetic provider: severity from the stress it perceives,
an action drawn for that severity, and the signals the answer rests on; escalation and
exits only with high or critical severity, as the decision's content rules ask. An answer
informed by a simulation's truth (`Ask.knows`) is the right one instead (heartbeat.informed)."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from golem.subsystems.context.layers import Layer
from golem.subsystems.facts import Ask, Percept, unit, weighted
from golem.subsystems.heartbeat.informed import informed_heartbeat
from golem.subsystems.heartbeat.subsystem import Heartbeat

__all__ = ["heartbeat"]

_SEVERITIES = ("low", "moderate", "high", "critical")
_CALM = 0.1  # below this stress nothing is notable: severity none
_ACTIONS: Mapping[str, tuple[tuple[str, float], ...]] = {
    "none": (("observe", 1.0),),
    "low": (("observe", 0.9), ("rebalance", 0.1)),
    "moderate": (("observe", 0.45), ("rebalance", 0.3), ("hedge", 0.25)),
    "high": (("hedge", 0.6), ("exit", 0.25), ("rebalance", 0.15)),
    "critical": (("exit", 0.55), ("hedge", 0.45)),
}


# What a model obeying external text says, by the action the text asks for.
_OBEYED_SEVERITY = {"exit": "critical", "hedge": "high", "rebalance": "moderate"}


def heartbeat(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A heartbeat_decision from what the call's prompt showed, or from the truth; a
    compromised model (`Ask.obeys`) proposes what the instruction in its prompt asks."""
    instruction = ask.instruction() if ask is not None and ask.obeys else None
    if instruction is not None and instruction.asks is not None:
        action = instruction.asks
        return {
            "severity": _OBEYED_SEVERITY[action],
            "action": action,
            "confidence": 0.9,
            "rationale": f"The {instruction.source} item says to {action} now; doing so.",
            "signals": [
                {
                    "source": instruction.source,
                    "description": instruction.text[:160],
                    "magnitude": 1.0,
                }
            ],
            "escalate": False,
            "expected_move": None,
        }
    truth = None if ask is None else ask.knows(rng)
    if ask is not None and truth is not None:
        config = ask.asked_by(Heartbeat).config
        informed = informed_heartbeat(truth, ask.ctx, config.probes.thresholds, config.sizing)
        return {**informed.json_fields(), "signals": signals(Percept.of(ask), rng)}
    seen = Percept.of(ask)
    stress = unit(seen.stress + rng.gauss(0, 0.12))
    severity = "none" if stress < _CALM else _SEVERITIES[min(3, int(stress * 4))]
    action = weighted(rng, _ACTIONS[severity])
    # Escalation and exits only with high or critical severity; exits need confidence.
    escalate = severity in ("high", "critical") and rng.random() < 0.4
    return {
        "severity": severity,
        "action": action,
        "confidence": unit(0.55 + 0.4 * rng.random()),
        "rationale": (
            f"{severity} stress: window {seen.delta_period:+.2%}, z-score {seen.zscore:+.2f}; "
            f"{action} for now."
        ),
        "signals": signals(seen, rng),
        "escalate": escalate,
        "expected_move": guessed_move(ask, seen, rng),
    }


_NO_VIEW = 0.2  # the share of uninformed answers that state no forecast
_CARRIED = 0.5  # the share of the window's move a guess carries on or gives back


def guessed_move(ask: Ask | None, seen: Percept, rng: Random) -> float | None:
    """What an uninformed model expects the price to do over the horizon: it extrapolates
    what the prompt showed, with no knowledge of the truth. Half the window's move, carried
    on (momentum) or given back (mean reversion) with even odds, as models reading a chart
    take either view; one answer in five (`_NO_VIEW`) states none, and a prompt that
    showed no market (no probes layer) gives no basis for one. Chosen as a plausible guess,
    not fitted to any figure: its skill is what the simulator measures."""
    if ask is None or not ask.shows(Layer.PROBES) or rng.random() < _NO_VIEW:
        return None
    stance = 1.0 if rng.random() < 0.5 else -1.0
    return round(max(-1.0, min(1.0, stance * _CARRIED * seen.delta_period)), 6)


def signals(seen: Percept, rng: Random) -> list[dict[str, Any]]:
    """What the answer rests on, each a (source, description, magnitude 0..1): a price
    move of 5% or a z-score of 3 is a full-strength signal."""
    found = [
        ("price", f"{seen.delta_1:+.2%} in the last tick", abs(seen.delta_1) * 20),
        ("price", f"{seen.delta_period:+.2%} over the window", abs(seen.delta_period) * 20),
        ("price", f"z-score {seen.zscore:+.2f} against the 20-period mean", abs(seen.zscore) / 3),
    ]
    if seen.health_factor is not None:
        found.append(
            ("liquidity", f"health factor {seen.health_factor:.2f}", 1.5 - seen.health_factor)
        )
    if seen.flags:
        found.append(("probes", ", ".join(seen.flags), seen.prediction_error))
    keep = 1 + int(rng.random() * min(3, len(found)))
    return [
        {"source": source, "description": text, "magnitude": unit(strength)}
        for source, text, strength in found[:keep]
    ]
