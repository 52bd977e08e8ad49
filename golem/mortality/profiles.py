"""Which pipeline profile and how much reasoning each subsystem's calls get (the default
table), and how mortality pressure takes reasoning away from all but the exempt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field

from golem.inference.reasoning import ReasoningConfig
from golem.mortality.names import ModelTier, SubsystemName

__all__ = [
    "PROFILE_TABLE",
    "PipelineProfile",
    "ProfileRow",
    "ReasoningPressurePolicy",
    "apply_mortality_to_reasoning",
    "select_profile_and_reasoning",
]

_S = SubsystemName


class PipelineProfile(StrEnum):
    """How much the pipeline around a call does, cheapest first."""

    MINIMAL = "minimal"  # no model call (T0): nothing to guard, no reasoning
    FAST = "fast"  # internal calls: light checks, light reasoning
    STANDARD = "standard"  # user-facing calls
    FULL = "full"  # high-security: PII masking, prompt-injection checks


@dataclass(frozen=True, slots=True)
class ProfileRow:
    profile: PipelineProfile
    reasoning: ReasoningConfig
    tier: ModelTier  # the tier the subsystem usually asks for


# The default table. Internal calls are Fast; the operator talks to a person (Standard);
# risk guards the money and death writes the testament, so both get Full and the deepest
# reasoning. Reasoning follows what a call is for: context and daimon react quickly (none,
# low); dreams run offline and rarely, so they may think hard; the operator and death see
# their reasoning (visible), the operator between tool calls too (interleaved).
PROFILE_TABLE: Mapping[SubsystemName, ProfileRow] = MappingProxyType(
    {
        _S.HEARTBEAT: ProfileRow(PipelineProfile.FAST, ReasoningConfig.low(), ModelTier.T1),
        _S.RISK: ProfileRow(PipelineProfile.FULL, ReasoningConfig.high(), ModelTier.T2),
        _S.DREAM: ProfileRow(PipelineProfile.FAST, ReasoningConfig.high(), ModelTier.T2),
        _S.DAIMON: ProfileRow(PipelineProfile.FAST, ReasoningConfig.low(), ModelTier.T1),
        _S.CONTEXT: ProfileRow(PipelineProfile.FAST, ReasoningConfig.none(), ModelTier.T1),
        _S.CURATOR: ProfileRow(PipelineProfile.FAST, ReasoningConfig.low(), ModelTier.T1),
        _S.PLAYBOOK: ProfileRow(PipelineProfile.FAST, ReasoningConfig.medium(), ModelTier.T1),
        _S.OPERATOR: ProfileRow(
            PipelineProfile.STANDARD, ReasoningConfig.interleaved_high(), ModelTier.T2
        ),
        _S.DEATH: ProfileRow(PipelineProfile.FULL, ReasoningConfig.visible_max(), ModelTier.T2),
    }
)

# A T2 heartbeat is an escalation: a surprise big enough to ask the strong model, which is
# given more room to think than the routine T1 question.
_HEARTBEAT_ESCALATION = ReasoningConfig.medium()


def select_profile_and_reasoning(
    subsystem: SubsystemName,
    security: bool,
    tier: ModelTier | None,
    table: Mapping[SubsystemName, ProfileRow],
) -> tuple[PipelineProfile, ReasoningConfig]:
    """The profile and reasoning for a call by `subsystem` at `tier` (None: its usual
    tier in `table`, the allocator policy's). Any T0 call is Minimal with no reasoning:
    there is no model. `security` (the golem runs in high-security mode) raises every
    model call to Full."""
    row = table[subsystem]
    tier = row.tier if tier is None else tier
    if tier is ModelTier.T0:
        return PipelineProfile.MINIMAL, ReasoningConfig.none()
    reasoning = row.reasoning
    if subsystem is _S.HEARTBEAT and tier is ModelTier.T2:
        reasoning = _HEARTBEAT_ESCALATION
    return (PipelineProfile.FULL if security else row.profile), reasoning


class ReasoningPressurePolicy(BaseModel):
    """Pressure above `downgrade_above` takes one level of depth away; above `none_above`
    all of it. `exempt` subsystems keep their reasoning whatever the pressure."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    downgrade_above: float = Field(default=0.7, ge=0, le=1)
    none_above: float = Field(default=0.9, ge=0, le=1)
    exempt: frozenset[SubsystemName] = frozenset({_S.RISK, _S.DEATH, _S.OPERATOR})


def apply_mortality_to_reasoning(
    subsystem: SubsystemName,
    reasoning: ReasoningConfig,
    pressure: float,
    policy: ReasoningPressurePolicy,
) -> ReasoningConfig:
    """`reasoning` after mortality pressure (1 − vitality); exempt subsystems get it back
    unchanged. With no depth left, visibility and interleaving go too."""
    if subsystem in policy.exempt:
        return reasoning
    if pressure > policy.none_above:
        return ReasoningConfig.none()
    if pressure > policy.downgrade_above:
        depth = reasoning.depth.downgrade()
        if not depth:
            return ReasoningConfig.none()
        return ReasoningConfig(depth, reasoning.visible, reasoning.interleaved)
    return reasoning
