"""Profiles per subsystem and mortality's hold on reasoning depth."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.mortality import (
    PROFILE_TABLE,
    ModelTier,
    PipelineProfile,
    ReasoningConfig,
    ReasoningDepth,
    SubsystemName,
    apply_mortality_to_reasoning,
    select_profile_and_reasoning,
)
from tests.policy import ALLOCATOR

S = SubsystemName
P = PipelineProfile
EXEMPT = (S.RISK, S.DEATH, S.OPERATOR)

reasoning_configs = st.builds(
    ReasoningConfig, st.sampled_from(ReasoningDepth), st.booleans(), st.booleans()
)


@pytest.mark.parametrize(
    ("subsystem", "tier", "profile", "reasoning"),
    [
        (S.HEARTBEAT, ModelTier.T0, P.MINIMAL, ReasoningConfig.none()),
        (S.HEARTBEAT, ModelTier.T1, P.FAST, ReasoningConfig.low()),
        (S.HEARTBEAT, ModelTier.T2, P.FAST, ReasoningConfig.medium()),
        (S.DAIMON, None, P.FAST, ReasoningConfig.low()),
        (S.CURATOR, None, P.FAST, ReasoningConfig.low()),
        (S.DREAM, None, P.FAST, ReasoningConfig.high()),
        (S.CONTEXT, None, P.FAST, ReasoningConfig.none()),
        (S.PLAYBOOK, None, P.FAST, ReasoningConfig.medium()),
        (S.OPERATOR, None, P.STANDARD, ReasoningConfig.interleaved_high()),
        (S.RISK, None, P.FULL, ReasoningConfig.high()),
        (S.DEATH, None, P.FULL, ReasoningConfig.visible_max()),
        (S.RISK, ModelTier.T0, P.MINIMAL, ReasoningConfig.none()),
    ],
)
def test_profile_table(
    subsystem: SubsystemName,
    tier: ModelTier | None,
    profile: PipelineProfile,
    reasoning: ReasoningConfig,
) -> None:
    assert select_profile_and_reasoning(subsystem, False, tier, PROFILE_TABLE) == (
        profile,
        reasoning,
    )


@pytest.mark.parametrize("subsystem", list(SubsystemName))
def test_security_raises_every_model_call_to_full(subsystem: SubsystemName) -> None:
    profile, reasoning = select_profile_and_reasoning(subsystem, True, None, PROFILE_TABLE)
    assert profile is P.FULL
    assert reasoning == PROFILE_TABLE[subsystem].reasoning
    assert (
        select_profile_and_reasoning(subsystem, True, ModelTier.T0, PROFILE_TABLE)[0] is P.MINIMAL
    )


@pytest.mark.parametrize(
    ("pressure", "before", "after"),
    [
        (0.0, ReasoningConfig.high(), ReasoningConfig.high()),
        (0.7, ReasoningConfig.high(), ReasoningConfig.high()),  # strictly above 0.7
        (0.71, ReasoningConfig.high(), ReasoningConfig.medium()),
        (0.71, ReasoningConfig.interleaved_max(), ReasoningConfig.interleaved_high()),
        (0.71, ReasoningConfig(ReasoningDepth.LOW, visible=True), ReasoningConfig.none()),
        (0.9, ReasoningConfig.visible_max(), ReasoningConfig(ReasoningDepth.HIGH, visible=True)),
        (0.91, ReasoningConfig.visible_max(), ReasoningConfig.none()),
        (1.0, ReasoningConfig.low(), ReasoningConfig.none()),
    ],
)
def test_pressure_table(pressure: float, before: ReasoningConfig, after: ReasoningConfig) -> None:
    assert apply_mortality_to_reasoning(S.DREAM, before, pressure, ALLOCATOR.reasoning) == after


@given(st.sampled_from(EXEMPT), reasoning_configs, st.floats(0, 1))
def test_exempt_subsystems_are_never_touched(
    subsystem: SubsystemName, reasoning: ReasoningConfig, pressure: float
) -> None:
    assert (
        apply_mortality_to_reasoning(subsystem, reasoning, pressure, ALLOCATOR.reasoning)
        is reasoning
    )


@given(st.sampled_from(SubsystemName), reasoning_configs, st.floats(0, 1), st.floats(0, 1))
def test_pressure_never_deepens_reasoning(
    subsystem: SubsystemName, reasoning: ReasoningConfig, p1: float, p2: float
) -> None:
    low, high = sorted((p1, p2))
    calm = apply_mortality_to_reasoning(subsystem, reasoning, low, ALLOCATOR.reasoning)
    pressed = apply_mortality_to_reasoning(subsystem, reasoning, high, ALLOCATOR.reasoning)
    assert pressed.depth <= calm.depth <= reasoning.depth
