"""Reasoning normalization: one ReasoningChain whatever the provider, and the depth scale."""

from golem.inference.reasoning.chain import (
    ReasoningChain,
    ReasoningCost,
    ReasoningStep,
    Visibility,
)
from golem.inference.reasoning.config import ReasoningConfig, ReasoningDepth
from golem.inference.reasoning.think import (
    ContentChunk,
    ReasoningEvent,
    ThinkChunk,
    ThinkEnd,
    ThinkStart,
    ThinkTagSplitter,
    UsageUpdate,
    split_think,
)

__all__ = [
    "ContentChunk",
    "ReasoningChain",
    "ReasoningConfig",
    "ReasoningCost",
    "ReasoningDepth",
    "ReasoningEvent",
    "ReasoningStep",
    "ThinkChunk",
    "ThinkEnd",
    "ThinkStart",
    "ThinkTagSplitter",
    "UsageUpdate",
    "Visibility",
    "split_think",
]
