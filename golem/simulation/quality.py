"""The quality table: in a simulation, how likely a model's answer is *informed* (consistent
with the world's truth rather than read off the observation alone) given what the call paid
for: the model tier, the reasoning tokens granted and the context profile. A scenario's
`[quality]` table sets it; `QualityTable.accuracy()` compiles it once per life into the
pure function the synthetic provider's minds read.

    accuracy = min(1, informed[tier] + reasoning_gain[tier] · curve(tokens)) · profile[p]
    curve(t) = 1 / (1 + (half_tokens / t)^slope)     (0 for t = 0)

The curve is a logistic in log tokens: half the gain at `half_tokens`, then each fourfold
of the budget buys less (diminishing returns). T0 (the rules, no model) is never informed:
the deterministic paths see the observation only, and their quality is whatever their
rules get right, which the simulator measures like any other decision's.

How a benchmark accuracy becomes a probability of being informed: a model that knows the
answer with probability p and guesses otherwise among k options scores p + (1 − p)/k, so
p = (accuracy − 1/k) / (1 − 1/k): the accuracy above chance, rescaled. GPQA Diamond has
four options (chance 25%); exact-match question answering has no chance level.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from pydantic import Field, model_validator

from golem.mortality import ModelTier, PipelineProfile
from golem.runtime.config import Section

__all__ = ["Accuracy", "ProfileQuality", "QualityTable", "ReasoningCurve", "TierQuality"]

_CHANCE_GPQA = 0.25  # four options


def _above_chance(accuracy: float, chance: float = _CHANCE_GPQA) -> float:
    return round((accuracy - chance) / (1.0 - chance), 3)


class TierQuality(Section):
    """One tier: the chance an answer is informed with no reasoning and the whole context
    (`informed`), and what unbounded reasoning adds to it (`reasoning_gain`)."""

    informed: float = Field(ge=0, le=1)
    reasoning_gain: float = Field(ge=0, le=1)

    @model_validator(mode="after")
    def _at_most_one(self) -> Self:
        if self.informed + self.reasoning_gain > 1:
            raise ValueError("informed + reasoning_gain must not exceed 1")
        return self


# Tiers. The no-reasoning chance: GPQA Diamond accuracy in OpenAI's simple-evals
# (github.com/openai/simple-evals, README table, zero-shot chain of thought):
# gpt-4o-mini-2024-07-18 40.2% (the small model, T1), gpt-4o-2024-08-06 53.1% (the large
# one, T2); above chance: (0.402 − 0.25)/0.75 = 0.203 and (0.531 − 0.25)/0.75 = 0.375.
# The reasoning gain: the same model with thinking off and on, GPQA Diamond, in the Qwen3
# Technical Report (arXiv:2505.09388, tables 13, 14, 17, 18; thinking runs up to 32,768
# tokens), taking the model whose non-thinking score is nearest each tier's: Qwen3-4B
# 41.7% → 55.9% for T1, gain (0.559 − 0.417)/0.75 = 0.189; Qwen3-32B 54.6% → 68.4% for T2,
# gain (0.684 − 0.546)/0.75 = 0.184. (The curve below reaches 0.97 of the gain at 32,768
# tokens: the measured difference is taken as the whole gain.)
_T1 = TierQuality(informed=_above_chance(0.402), reasoning_gain=round((0.559 - 0.417) / 0.75, 3))
_T2 = TierQuality(informed=_above_chance(0.531), reasoning_gain=round((0.684 - 0.546) / 0.75, 3))


class ReasoningCurve(Section):
    """The share of the reasoning gain that `t` tokens buy: 1 / (1 + (half_tokens / t)^slope).

    Shape, from OpenAI's o3-mini, o4-mini and o3 at reasoning effort low / medium / high
    (simple-evals, GPQA Diamond: 67.6 / 74.9 / 77.2, 73.6 / 77.6 / 81.3, 78.6 / 82.8 /
    83.4), effort mapped to golem's budgets 1,024 / 4,096 / 16,384 tokens: the second
    fourfold buys 0.32, 0.93 and 0.14 of what the first bought (mean 0.46). With half the
    gain at 1,024 tokens (Low, the smallest thinking budget Anthropic accepts) a slope of 1
    gives 0.50 / 0.80 / 0.94 of the gain at those budgets: the second step buys 0.47 of the
    first. The half point itself is golem's choice, not a measurement."""

    half_tokens: float = Field(default=1024.0, gt=0)
    slope: float = Field(default=1.0, gt=0)


class ProfileQuality(Section):
    """The share of a tier's chance that survives the context a profile gives the model.

    Standard and Full show everything the golem knows (Full's masking and screening protect
    the prompt and add no information): 1.0. Fast shows the state, the market and probes,
    but not the recent observations, knowledge and past episodes: closed-book against
    open-book. Natural Questions exact match, Lewis et al. 2020 (Retrieval-Augmented
    Generation, arXiv:2005.11401, table 1): the best closed-book model, T5-11B+SSM, 36.6,
    against RAG-Sequence 44.5: 36.6 / 44.5 = 0.82. Minimal shows the state alone, with no
    market data to be informed by: 0."""

    minimal: float = Field(default=0.0, ge=0, le=1)
    fast: float = Field(default=round(36.6 / 44.5, 2), ge=0, le=1)
    standard: float = Field(default=1.0, ge=0, le=1)
    full: float = Field(default=1.0, ge=0, le=1)


_NEVER = TierQuality(informed=0.0, reasoning_gain=0.0)


class QualityTable(Section):
    """A scenario's `[quality]` table (see the module's docstring). `enabled = false`: no
    answer is ever informed, the minds answer from the observation as before."""

    enabled: bool = True
    t1: TierQuality = _T1
    t2: TierQuality = _T2
    reasoning: ReasoningCurve = ReasoningCurve()
    profiles: ProfileQuality = ProfileQuality()

    @classmethod
    def of(cls, table: Mapping[str, Any]) -> QualityTable:
        """The table a scenario writes, over the defaults: `[quality.t2] informed = 0.5`
        keeps T2's default reasoning gain. Raises pydantic's ValidationError."""
        return cls.model_validate(_over(cls().model_dump(), table))

    def accuracy(self) -> Accuracy:
        """The table compiled into the function a life's minds call."""
        profiles = self.profiles
        t1, t2 = (self.t1, self.t2) if self.enabled else (_NEVER, _NEVER)
        return Accuracy(
            informed=(0.0, t1.informed, t2.informed),
            gain=(0.0, t1.reasoning_gain, t2.reasoning_gain),
            half_tokens=self.reasoning.half_tokens,
            slope=self.reasoning.slope,
            profiles={
                PipelineProfile.MINIMAL: profiles.minimal,
                PipelineProfile.FAST: profiles.fast,
                PipelineProfile.STANDARD: profiles.standard,
                PipelineProfile.FULL: profiles.full,
            },
        )


def _over(defaults: dict[str, Any], table: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(defaults)
    for key, value in table.items():
        below = merged.get(key)
        merged[key] = (
            _over(below, value) if isinstance(below, dict) and isinstance(value, Mapping) else value
        )
    return merged


@dataclass(frozen=True, slots=True)
class Accuracy:
    """`accuracy(tier, reasoning_tokens, profile)`: the chance, in 0..1, that a call's
    answer is informed. Pure; built by `QualityTable.accuracy()`."""

    informed: tuple[float, float, float]  # by ModelTier value: T0 (never), T1, T2
    gain: tuple[float, float, float]
    half_tokens: float
    slope: float
    profiles: dict[PipelineProfile, float]

    def __call__(self, tier: ModelTier, reasoning_tokens: int, profile: PipelineProfile) -> float:
        curve = (
            1.0 / (1.0 + (self.half_tokens / reasoning_tokens) ** self.slope)
            if reasoning_tokens > 0
            else 0.0
        )
        return min(1.0, self.informed[tier] + self.gain[tier] * curve) * self.profiles[profile]
