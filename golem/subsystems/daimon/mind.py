"""The daimon's mind for the synthetic provider: mostly the rule table's appraisal of the
events (as the brief offers it), else an emotion for the stress it perceives; pleasure
keeps the sign its emotion needs. An answer informed by a simulation's truth (`Ask.knows`)
is the right one instead (daimon.informed)."""

from __future__ import annotations

from random import Random
from typing import Any

from golem.subsystems.daimon.informed import informed_appraisal
from golem.subsystems.daimon.rules import AppraisalRules, appraise
from golem.subsystems.daimon.subsystem import Daimon
from golem.subsystems.facts import Ask, Percept, signed, unit

__all__ = ["daimon"]

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


def daimon(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A daimon_appraisal of the events, or the right one from the truth."""
    truth = None if ask is None else ask.knows(rng)
    if ask is not None and truth is not None:
        return informed_appraisal(truth, ask.ctx, _rules(ask)).json_fields()
    seen = Percept.of(ask)
    rule = _rule(ask)
    if rule is not None and rng.random() < 0.85:
        emotion, pad = rule
    else:
        stress = seen.stress + rng.gauss(0, 0.1)
        if stress > 0.6:
            emotion = "fear"
        elif stress > 0.3:
            emotion = ("surprise", "sadness", "anticipation")[int(rng.random() * 3)]
        else:
            emotion = "joy" if seen.gain else ("anticipation", "trust")[int(rng.random() * 2)]
        pad = _PAD[emotion]
    pleasure, arousal, dominance = (signed(v + rng.gauss(0, 0.08)) for v in pad)
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
        "trigger": ", ".join(seen.events) or "the market's last move",
        "memory_bias": _MEMORY_BIAS.get(emotion, "the last few ticks"),
        "intensity": unit(0.3 + 0.6 * seen.stress + rng.gauss(0, 0.1)),
    }


def _rule(ask: Ask | None) -> tuple[str, tuple[float, float, float]] | None:
    """The rule table's reading the daimon's brief quotes: (emotion, PAD)."""
    if ask is None:
        return None
    rule = appraise(ask.ctx.events, _rules(ask))
    return str(rule.primary_emotion), (rule.pleasure, rule.arousal, rule.dominance)


def _rules(ask: Ask) -> AppraisalRules:
    return ask.asked_by(Daimon).config.rules
