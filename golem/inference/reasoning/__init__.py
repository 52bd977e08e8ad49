"""Reasoning normalization: one ReasoningChain whatever the provider, and the depth scale."""

from golem.inference.reasoning.chain import (
    ReasoningChain,
    ReasoningCost,
    ReasoningStep,
    Visibility,
)
from golem.inference.reasoning.config import ReasoningConfig, ReasoningDepth

__all__ = [
    "ReasoningChain",
    "ReasoningConfig",
    "ReasoningCost",
    "ReasoningDepth",
    "ReasoningStep",
    "Visibility",
]
