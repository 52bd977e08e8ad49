"""Counting prompt tokens: the estimate lives in golem.inference.tokens (the transport
estimates a cut stream's unreported tokens by it too); the context layers import it here."""

from __future__ import annotations

from golem.inference.tokens import TokenCounter, estimate_tokens

__all__ = ["TokenCounter", "estimate_tokens"]
