"""The context layers and which of them each pipeline profile runs.

    L1 state         vitality, phase, credits and burn rate, wallet, open positions, mood
    L2 observations  the recent observation window and the world feed (external text)
    L3 probes        the deterministic T0 results and the prediction error behind the call
    L4 knowledge     grimoire entries for the current regime and question, with confidence
    L5 episodes      the most similar past episodes and their outcomes
    L6 budget        what the call may cost and how long the answer may be
    L7 masking       identifiers replaced by placeholders before the prompt leaves
    L8 screening     external text checked for instructions; suspicious text quarantined

Minimal is the T0 path: no model is asked, and a prompt forced under it carries the state
alone. Fast (internal calls) runs L1, L3 and L6; Standard (user-facing) L1 to L6; Full
(high-security) adds masking and screening.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from golem.mortality import PipelineProfile

__all__ = ["PROFILE_LAYERS", "ContextSettings", "Layer", "ProfileLimits"]


class Layer(StrEnum):
    STATE = "L1"
    OBSERVATIONS = "L2"
    PROBES = "L3"
    KNOWLEDGE = "L4"
    EPISODES = "L5"
    BUDGET = "L6"
    MASKING = "L7"
    SCREENING = "L8"


_L = Layer
PROFILE_LAYERS: Mapping[PipelineProfile, frozenset[Layer]] = MappingProxyType(
    {
        PipelineProfile.MINIMAL: frozenset({_L.STATE}),
        PipelineProfile.FAST: frozenset({_L.STATE, _L.PROBES, _L.BUDGET}),
        PipelineProfile.STANDARD: frozenset(set(_L) - {_L.MASKING, _L.SCREENING}),
        PipelineProfile.FULL: frozenset(_L),
    }
)


@dataclass(frozen=True, slots=True)
class ProfileLimits:
    """A profile's prompt limit in tokens (system and user messages together) and each
    layer's own budget: a share of the limit for the retrieved layers (L2, L4, L5), a
    fixed number of tokens for the others (L1, L3, L6). A layer over its budget loses its
    least valuable lines before the limit itself cuts anything."""

    max_tokens: int
    observations: int = 12  # L2: how many recent observations at most
    feed_items: int = 6  # L2: how many world-feed items at most
    knowledge: int = 8  # L4: entries at most
    episodes: int = 5  # L5: episodes at most
    shares: Mapping[Layer, float] = field(
        default_factory=lambda: {_L.OBSERVATIONS: 0.3, _L.KNOWLEDGE: 0.2, _L.EPISODES: 0.15}
    )
    caps: Mapping[Layer, int] = field(
        default_factory=lambda: {_L.STATE: 300, _L.PROBES: 250, _L.BUDGET: 120}
    )

    def __post_init__(self) -> None:
        if self.max_tokens < 64:
            raise ValueError(f"a prompt limit of {self.max_tokens} tokens leaves no room")

    def budget_of(self, layer: Layer) -> int | None:
        """The tokens `layer` may take, or None where only the limit bounds it."""
        if layer in self.caps:
            return self.caps[layer]
        share = self.shares.get(layer)
        return None if share is None else int(share * self.max_tokens)


@dataclass(frozen=True, slots=True)
class ContextSettings:
    """Each profile's limits. The defaults fit the embedded model's 4,096-token window
    with room for an 800-token answer."""

    limits: Mapping[PipelineProfile, ProfileLimits] = field(
        default_factory=lambda: {
            PipelineProfile.MINIMAL: ProfileLimits(max_tokens=320),
            PipelineProfile.FAST: ProfileLimits(max_tokens=1200),
            PipelineProfile.STANDARD: ProfileLimits(max_tokens=2400),
            PipelineProfile.FULL: ProfileLimits(max_tokens=3000, observations=16, knowledge=10),
        }
    )

    def limits_for(self, profile: PipelineProfile) -> ProfileLimits:
        return self.limits[profile]
