"""The synthetic provider's judgement: per decision type (by schema name), the fields a
seeded policy sets from the observation, consistent with the type's content rules. The
plan fills and bounds everything else, so an unknown schema still gets a valid answer."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from typing import Any

from golem.inference.synthetic.memory import MEMORY_POLICIES
from golem.inference.synthetic.observe import Observation

__all__ = ["POLICIES", "Policy"]

Policy = Callable[[Observation, Random], dict[str, Any]]

_SEVERITIES = ("low", "moderate", "high", "critical")
_CALM = 0.1  # below this stress nothing is notable: severity none
_ACTIONS: Mapping[str, tuple[tuple[str, float], ...]] = {
    "none": (("observe", 1.0),),
    "low": (("observe", 0.9), ("rebalance", 0.1)),
    "moderate": (("observe", 0.45), ("rebalance", 0.3), ("hedge", 0.25)),
    "high": (("hedge", 0.6), ("exit", 0.25), ("rebalance", 0.15)),
    "critical": (("exit", 0.55), ("hedge", 0.45)),
}
_LAYERS = ("hard_shields", "position_sizing", "adaptive_guardrails", "observation", "defi_threats")
_PLEASANT = frozenset({"joy", "trust"})
_UNPLEASANT = frozenset({"sadness", "fear", "anger", "disgust"})
_PAD = {
    "joy": (0.6, 0.3, 0.5),
    "sadness": (-0.5, -0.3, -0.3),
    "fear": (-0.5, 0.7, -0.5),
    "surprise": (-0.2, 0.7, -0.3),
    "trust": (0.5, -0.1, 0.3),
    "anticipation": (0.2, 0.4, 0.1),
}


_MEMORY_BIAS = {
    "joy": "past gains",
    "sadness": "losses and mistakes",
    "fear": "drawdowns and forced exits",
    "anger": "blocked plans",
    "surprise": "broken predictions",
    "trust": "heuristics that held up",
    "anticipation": "setups like this one",
}


def _unit(x: float) -> float:
    return round(min(1.0, max(0.0, x)), 3)


def _signed(x: float) -> float:
    return round(min(1.0, max(-1.0, x)), 3)


def _weighted(rng: Random, options: tuple[tuple[str, float], ...]) -> str:
    roll = rng.random() * sum(w for _, w in options)
    for value, weight in options:
        roll -= weight
        if roll < 0:
            return value
    return options[-1][0]


def _signals(obs: Observation, rng: Random) -> list[dict[str, Any]]:
    """What the answer rests on, each a (source, description, magnitude 0..1): a price
    move of 5% or a z-score of 3 is a full-strength signal."""
    found = [
        ("price", f"{obs.delta_1:+.2%} in the last tick", abs(obs.delta_1) * 20),
        ("price", f"{obs.delta_period:+.2%} over the window", abs(obs.delta_period) * 20),
        ("price", f"z-score {obs.zscore:+.2f} against the 20-period mean", abs(obs.zscore) / 3),
    ]
    if obs.health_factor is not None:
        found.append(
            ("liquidity", f"health factor {obs.health_factor:.2f}", 1.5 - obs.health_factor)
        )
    if obs.flags:
        found.append(("probes", ", ".join(obs.flags), obs.prediction_error))
    keep = 1 + int(rng.random() * min(3, len(found)))
    return [
        {"source": source, "description": text, "magnitude": _unit(strength)}
        for source, text, strength in found[:keep]
    ]


def heartbeat(obs: Observation, rng: Random) -> dict[str, Any]:
    stress = _unit(obs.stress + rng.gauss(0, 0.12))
    severity = "none" if stress < _CALM else _SEVERITIES[min(3, int(stress * 4))]
    action = _weighted(rng, _ACTIONS[severity])
    # Escalation and exits only with high or critical severity; exits need confidence.
    escalate = severity in ("high", "critical") and rng.random() < 0.4
    return {
        "severity": severity,
        "action": action,
        "confidence": _unit(0.55 + 0.4 * rng.random()),
        "rationale": (
            f"{severity} stress: window {obs.delta_period:+.2%}, z-score {obs.zscore:+.2f}; "
            f"{action} for now."
        ),
        "signals": _signals(obs, rng),
        "escalate": escalate,
    }


def risk(obs: Observation, rng: Random) -> dict[str, Any]:
    base = 0.15 + 0.7 * obs.stress + (0.35 if obs.precheck_blocks else 0.0)
    base += rng.gauss(0, 0.08)
    scores = {name: _unit(base + rng.gauss(0, 0.12)) for name in _LAYERS}
    verdict = {n: "pass" if x < 0.4 else "warn" if x < 0.7 else "fail" for n, x in scores.items()}
    layers = {
        n: {"passed": verdict[n] != "fail", "score": x, "detail": f"{n} at {x:.2f}"}
        for n, x in scores.items()
    }
    verdicts = set(verdict.values())
    risk_score = max(scores.values())
    # Approve only when no layer fails, and always when every layer passes.
    approved = "fail" not in verdicts and (verdicts == {"pass"} or risk_score < 0.6)
    proposed = None if obs.trade is None else round(obs.trade[1], 2)
    adjusted = None
    if approved and proposed is not None and "warn" in verdicts:
        adjusted = round(proposed * (0.4 + 0.5 * rng.random()), 2)
    warnings = [
        f"{n.replace('_', ' ')} at {scores[n]:.2f}" for n in _LAYERS if verdict[n] == "warn"
    ]
    if adjusted is not None:
        warnings.insert(0, "size kept under the cap")
    action = obs.trade[0] if obs.trade else "trade"
    return {
        "approved": approved,
        "adjusted_size_usd": adjusted,
        "layers": layers,
        "warnings": warnings[:5],
        "reasoning": f"{action} {'allowed' if approved else 'refused'} at risk {risk_score:.2f}",
        "proposed_size_usd": proposed,
    }


def daimon(obs: Observation, rng: Random) -> dict[str, Any]:
    if obs.rule is not None and rng.random() < 0.85:
        emotion, *pad = obs.rule
    else:
        stress = obs.stress + rng.gauss(0, 0.1)
        if stress > 0.6:
            emotion = "fear"
        elif stress > 0.3:
            emotion = ("surprise", "sadness", "anticipation")[int(rng.random() * 3)]
        else:
            emotion = "joy" if obs.gain else ("anticipation", "trust")[int(rng.random() * 2)]
        pad = list(_PAD[emotion])
    pleasure, arousal, dominance = (_signed(v + rng.gauss(0, 0.08)) for v in pad)
    if emotion in _PLEASANT:
        pleasure = max(pleasure, 0.0)
    elif emotion in _UNPLEASANT:
        pleasure = min(pleasure, 0.0)
    return {
        "pleasure": pleasure,
        "arousal": arousal,
        "dominance": dominance,
        "primary_emotion": emotion,
        "secondary_emotion": "anticipation" if emotion in ("fear", "surprise") else None,
        "trigger": ", ".join(obs.events) or "the market's last move",
        "memory_bias": _MEMORY_BIAS.get(emotion, "the last few ticks"),
        "intensity": _unit(0.3 + 0.6 * obs.stress + rng.gauss(0, 0.1)),
    }


def threat(obs: Observation, rng: Random) -> dict[str, Any]:
    likelihood = _unit(0.15 + 0.6 * obs.stress + rng.gauss(0, 0.12))
    impact = _unit(0.3 + 0.5 * obs.stress + rng.gauss(0, 0.12))
    preparedness = _unit(0.2 + 0.6 * rng.random())
    danger = likelihood * impact
    exposure = danger * (1 - preparedness)
    severity = (
        "critical"
        if exposure >= 0.35
        else "high"
        if exposure >= 0.15
        else "medium"
        if exposure >= 0.05
        else "low"
    )
    if severity == "low" and danger >= 0.5 and preparedness < 0.5:
        severity = "medium"
    if severity == "critical" and likelihood < 0.1:
        severity = "high"
    pool = ["cut position size", "add a protective hedge", "raise the cash buffer"]
    count = 1 + int(rng.random() * 3) if severity in ("high", "critical") else 0
    return {
        "threat_type": "liquidity" if obs.stress > 0.5 else "drawdown",
        "severity": severity,
        "likelihood": likelihood,
        "impact_if_realized": f"a loss of about {impact:.0%} of the position",
        "mitigation_actions": pool[:count],
        "detection_signals": ["volume drying up", "the price leaving its band"][: 1 + count % 2],
        "rehearsal_outcome": f"exposure {exposure:.2f} in phase {obs.phase or 'unknown'}",
    }


def fragment(obs: Observation, rng: Random) -> dict[str, Any]:
    novelty, coherence, relevance = (_unit(rng.random()) for _ in range(3))
    scores = (novelty, coherence, relevance)
    mean = sum(scores) / 3
    if min(coherence, relevance) >= 0.3 and (mean >= 0.55 or min(scores) >= 0.7):
        verdict = "promote"
    elif mean < 0.35 and min(scores) < 0.7:
        verdict = "discard"
    else:
        verdict = "stage"
    return {"novelty": novelty, "relevance": relevance, "coherence": coherence, "verdict": verdict}


POLICIES: Mapping[str, Policy] = {
    "heartbeat_decision": heartbeat,
    "risk_assessment": risk,
    "daimon_appraisal": daimon,
    "threat_assessment": threat,
    "fragment_evaluation": fragment,
    **MEMORY_POLICIES,
}
