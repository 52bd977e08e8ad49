"""The daimon's right appraisal given the world's truth (a simulation's; see
golem.world.truth), and whether an appraisal is right.

An appraisal is right when its valence (the sign of its pleasure) agrees with what is
coming to the golem: with a position held and a notable move ahead (minor or major by the
heartbeat's price probes), a fall is a loss coming (pleasure below zero) and a rise a gain
(pleasure above zero); otherwise only the events are there to appraise, and the valence
agrees with the rule table's reading of them.

The informed appraisal is fear of a coming fall (the prospect of harm; stronger for a major
one), anticipation of a coming rise, else the rule table's appraisal.
"""

from __future__ import annotations

from golem.subsystems.contract import Situation
from golem.subsystems.daimon.decision import EMOTION_PAD, MEMORY_BIAS, DaimonAppraisal, Emotion
from golem.subsystems.daimon.rules import AppraisalRules, appraise
from golem.subsystems.heartbeat.probes import ProbeThresholds
from golem.world import MoveSize, Truth

__all__ = ["informed_appraisal", "is_right"]

_SLACK = 0.1  # a pleasure within ±0.1 of zero reads as neutral (the schema's own slack)
_INTENSITY = {MoveSize.MINOR: 0.5, MoveSize.MAJOR: 0.8}
# The moves a right appraisal answers to are those the heartbeat's probes call minor and
# major (ProbeThresholds' own: no config sets them; the daimon has no probes of its own).
_MOVES = ProbeThresholds()


def _coming(truth: Truth, ctx: Situation) -> MoveSize:
    """The size of the move ahead as it touches the golem (none without a position)."""
    if ctx.portfolio.exposure_usd <= 0:
        return MoveSize.NONE
    return truth.size(_MOVES.price_minor, _MOVES.price_major)


def _valence(pleasure: float) -> int:
    return 0 if abs(pleasure) <= _SLACK else (1 if pleasure > 0 else -1)


def is_right(
    appraisal: DaimonAppraisal,
    truth: Truth,
    ctx: Situation,
    rules: AppraisalRules,
) -> bool:
    """Whether `appraisal` is right by this module's definition."""
    if _coming(truth, ctx) is not MoveSize.NONE:
        return _valence(appraisal.pleasure) == truth.direction
    rule = appraise(ctx.events, rules)
    return _valence(appraisal.pleasure) == _valence(rule.pleasure)


def informed_appraisal(
    truth: Truth,
    ctx: Situation,
    rules: AppraisalRules,
) -> DaimonAppraisal:
    """The appraisal a model that knew the truth would make (right by `is_right`)."""
    size = _coming(truth, ctx)
    if size is MoveSize.NONE:
        return appraise(ctx.events, rules)
    emotion = Emotion.FEAR if truth.future_return < 0 else Emotion.ANTICIPATION
    pleasure, arousal, dominance = EMOTION_PAD[emotion]
    return DaimonAppraisal.of(
        {
            "pleasure": pleasure,
            "arousal": arousal,
            "dominance": dominance,
            "primary_emotion": emotion,
            "trigger": ", ".join(map(str, ctx.events))[:120] or "the move ahead",
            "memory_bias": MEMORY_BIAS[emotion],
            "intensity": _INTENSITY[size],
        }
    )
