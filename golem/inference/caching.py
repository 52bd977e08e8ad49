"""Which stable prefixes a provider likely still holds in its prompt cache, on the caller's
clock: the allocator may price a call's input at the cached rate only when a hit is likely.

A hit is likely when the same prefix (golem.inference.codecs._cache.prefix_key) went to the
same provider and model less than `ttl_s` ago (Anthropic's cache lives 5 minutes from its
last use; OpenAI's is cleared after 5 to 10 minutes without use) and that call's usage
showed the provider caching it (tokens read from, or written to, the cache). The count
expected is the one that call reported: the prefix, as the provider measured it."""

from __future__ import annotations

from dataclasses import dataclass, field

from golem.inference.types import Usage

__all__ = ["CACHE_TTL_S", "PromptCache"]

CACHE_TTL_S = 300.0  # the shortest documented lifetime: Anthropic's 5 minutes


@dataclass(slots=True)
class PromptCache:
    ttl_s: float = CACHE_TTL_S
    _seen: dict[tuple[str, str, str], tuple[float, int]] = field(default_factory=dict)

    def sent(self, provider: str, model: str, prefix: str, at: float, usage: Usage) -> None:
        """A call with `prefix` was answered at `at` (seconds on the caller's clock)."""
        cached = usage.cached_input_tokens + usage.cache_write_tokens
        self._seen[provider, model, prefix] = (at, cached)

    def likely_cached(self, provider: str, model: str, prefix: str, at: float) -> int:
        """The input tokens a call with `prefix` sent at `at` will likely read from the
        cache; 0 when a hit is not likely."""
        seen = self._seen.get((provider, model, prefix))
        if seen is None:
            return 0
        last, cached = seen
        return cached if 0 <= at - last < self.ttl_s else 0
