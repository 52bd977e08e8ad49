"""Facts stated once: the attempt count a structured call gets (the first call plus the
re-asks) is the inference floor's, and the allocator and the compiled life policy read it
from there."""

from __future__ import annotations

from golem.inference import StructuredOutputConfig
from golem.inference.types import DEFAULT_ATTEMPTS
from golem.mortality import AllocatorPolicy, MortalityParams


def test_the_attempt_count_is_stated_once() -> None:
    assert StructuredOutputConfig().max_attempts == DEFAULT_ATTEMPTS
    assert AllocatorPolicy().max_attempts == DEFAULT_ATTEMPTS
    assert MortalityParams().compile(seed=0).allocator.max_attempts == DEFAULT_ATTEMPTS


def test_fewer_re_asks_configured_grant_fewer_attempts() -> None:
    fewer = StructuredOutputConfig(max_retries=0).max_attempts
    policy = MortalityParams().compile(seed=0, max_attempts=fewer)
    assert policy.allocator.max_attempts == 1 < DEFAULT_ATTEMPTS
