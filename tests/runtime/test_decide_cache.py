"""decide() and the prompt cache (issue 34, item 8): the allocator prices a call's input at
the cached rate only when a hit is likely: the same subsystem's decision was answered by
the route's own provider, caching, less than the cache's lifetime before."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import orjson

from golem.inference.caching import PromptCache
from golem.inference.pricing import Price
from golem.inference.scripted import ScriptedProvider
from golem.inference.types import Usage
from golem.mortality import Allocation
from golem.runtime.asking import Budgeting
from golem.runtime.decide import decide
from tests.inference.decisions import VALID
from tests.runtime.test_decide import NOW, Toy, budgeting, context

PRICE = Price(input=3.0, output=15.0, cached_input=0.3, cache_write=3.75)
ANSWER = orjson.dumps(VALID).decode()


def _env(usage: Usage) -> Budgeting:
    provider = ScriptedProvider([ANSWER] * 3, price=PRICE, usage_per_call=usage)
    env = budgeting(provider)
    route = replace(env.routes.tiers[next(iter(env.routes.tiers))], price=PRICE)
    routes = replace(env.routes, tiers=dict.fromkeys(env.routes.tiers, route))
    return replace(env, routes=routes, prompt_cache=PromptCache())


async def _worst(env: Budgeting, after: timedelta) -> float:
    record = await decide(Toy(), context(now=NOW + after), env)
    assert isinstance(record.allocation, Allocation)
    return record.allocation.worst_case_cost_usd


async def test_a_likely_hit_lowers_the_worst_case_a_stale_one_does_not() -> None:
    env = _env(Usage(input_tokens=3000, cached_input_tokens=2000, output_tokens=50))
    first = await _worst(env, timedelta(0))
    within = await _worst(env, timedelta(seconds=60))  # the first call cached 2000 tokens
    # At most the 2000 tokens cached before move from the dearest input price (a write's)
    # to the cached one (fewer when the call's input estimate is smaller).
    assert first - 2000 * (3.75 - 0.3) * 1e-6 - 1e-12 <= within < first
    stale = await _worst(env, timedelta(seconds=60 + 301))
    assert stale == first


async def test_no_hit_is_likely_after_a_call_that_cached_nothing() -> None:
    env = _env(Usage(input_tokens=3000, output_tokens=50))
    first = await _worst(env, timedelta(0))
    assert await _worst(env, timedelta(seconds=10)) == first
