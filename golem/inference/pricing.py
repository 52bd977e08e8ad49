"""Prices per model and the cost of a call from its usage."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from golem.inference.types import Response, Usage

__all__ = ["FREE", "Price", "priced"]

_PER_TOKEN = 1e-6  # prices are quoted in USD per million tokens


@dataclass(frozen=True, slots=True)
class Price:
    """USD per million tokens. `cached_input` defaults to `input`; `reasoning` defaults to
    `output` (providers that bill thinking as output: Anthropic, DeepSeek, Qwen);
    `cache_write` (input written to the cache, which Anthropic bills above `input`)
    defaults to `input`."""

    input: float
    output: float
    cached_input: float | None = None
    reasoning: float | None = None
    cache_write: float | None = None

    def cost(self, usage: Usage) -> float:
        cached = min(usage.cached_input_tokens, usage.input_tokens)
        written = min(usage.cache_write_tokens, usage.input_tokens - cached)
        cached_price = self.input if self.cached_input is None else self.cached_input
        write_price = self.input if self.cache_write is None else self.cache_write
        reasoning_price = self.output if self.reasoning is None else self.reasoning
        usd = (
            (usage.input_tokens - cached - written) * self.input
            + cached * cached_price
            + written * write_price
            + usage.output_tokens * self.output
            + usage.reasoning_tokens * reasoning_price
        )
        return usd * _PER_TOKEN

    def worst_case(
        self, input_tokens: int, max_output_tokens: int, cached_tokens: int = 0
    ) -> float:
        """The most a call can cost: every output token at the dearer of the output and
        reasoning prices, and every input token at the dearer of the input and cache-write
        prices (a prompt-cache miss writes the prefix), but `cached_tokens` of them, which
        the caller expects served from the cache (a hit it has reason to call likely), at
        the cached price."""
        reasoning_price = self.output if self.reasoning is None else self.reasoning
        dearest = max(self.output, reasoning_price)
        write = self.input if self.cache_write is None else max(self.input, self.cache_write)
        cached = min(max(cached_tokens, 0), input_tokens)
        cached_price = self.input if self.cached_input is None else self.cached_input
        usd = (input_tokens - cached) * write + cached * cached_price
        return (usd + max_output_tokens * dearest) * _PER_TOKEN


FREE = Price(0.0, 0.0)


def priced(response: Response, price: Price | None, **changes: Any) -> Response:
    """`response` with `changes`, and with cost_usd and the reasoning chain's share of it
    filled in from `price` (left as they are when the model is unpriced)."""
    if price is not None:
        usage = response.usage
        changes["cost_usd"] = price.cost(usage)
        if usage.reasoning_tokens:
            share = price.cost(Usage(reasoning_tokens=usage.reasoning_tokens))
            chain = response.reasoning
            changes["reasoning"] = replace(chain, cost=replace(chain.cost, usd=share))
    return response.evolve(**changes) if changes else response
