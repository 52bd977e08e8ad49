"""The grant stage: the allocator's answer to a call a subsystem wants.

`grant` walks the tiers down as the allocator degrades them (T2 → T1) until a call is
granted (`Call`) or declined (`Declined`: skip, or the deterministic path): at each, the
route that serves it (`route`) and the input the call may send (`estimate_input_tokens`),
what the provider likely still caches of it (the `Call` names its prompt's key, for the
cache's note once it is answered). `granted` is one call's grant at one route's worst
case: the judge stage's second calls ask it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import orjson

from golem.inference import ReasoningDepth, StructuredOutput
from golem.mortality import (
    Allocation,
    CallEstimate,
    Degradation,
    Fallback,
    ModelTier,
    MortalityState,
    SubsystemName,
    allocate,
    select_profile_and_reasoning,
)
from golem.runtime.asking import Budgeting, Call, Route, Routes
from golem.subsystems.context import estimate_tokens
from golem.subsystems.contract import Situation, Subsystem

__all__ = ["Declined", "estimate_input_tokens", "grant", "granted", "prompt_key", "route"]


@dataclass(frozen=True, slots=True)
class Declined:
    """No model call: `skip_reason` set, the run is skipped (at `tier`, the one declined);
    else (`error`, when no provider serves the tier) the deterministic path runs.
    `degradations`: on the way."""

    degradations: tuple[Degradation, ...] = ()
    skip_reason: str | None = None
    error: str | None = None
    tier: ModelTier | None = None


def granted(
    subsystem: Subsystem,
    tier: ModelTier,
    route: Route,
    env: Budgeting,
    *,
    input_tokens: int,
    cached_tokens: int = 0,
    at_most: ReasoningDepth | None = None,
    state: MortalityState | None = None,
) -> Allocation | Degradation:
    """The allocator's answer to one call of `subsystem` on `route` (its worst case at the
    route's price), from `state` (default: the budgeting's)."""
    estimate = CallEstimate(
        price=route.price,
        input_tokens=input_tokens,
        max_output_tokens=route.max_output_tokens,
        diem=route.diem,
        cached_tokens=cached_tokens,
    )
    return allocate(
        subsystem.name,
        tier,
        env.state if state is None else state,
        env.ledger,
        env.clock,
        call=estimate,
        policy=env.policy,
        at_most=at_most,
    )


def grant(
    subsystem: Subsystem, ctx: Situation, asked: ModelTier, env: Budgeting
) -> Call | Declined:
    """The call the allocator grants `subsystem`, asking for `asked`, or why none."""
    name, tier = subsystem.name, asked
    at_most = subsystem.deliberation(ctx)
    key = None if env.prompt_cache is None else prompt_key(subsystem, ctx)
    degradations: list[Degradation] = []
    while tier is not ModelTier.T0:
        served = route(env.routes, name, tier)
        if served is None:
            return Declined(tuple(degradations), error="no provider for tier")
        answer = granted(
            subsystem,
            tier,
            served,
            env,
            input_tokens=estimate_input_tokens(ctx, subsystem, tier, env),
            cached_tokens=_likely_cached(env, served, key, ctx),
            at_most=at_most,
        )
        if isinstance(answer, Allocation):
            return Call(asked, tier, served, answer, env, tuple(degradations), key)
        degradations.append(answer)
        if answer.fallback is Fallback.LOWER_TIER and tier is ModelTier.T2:
            tier = ModelTier.T1
            continue
        if answer.fallback is Fallback.SKIP:
            skipped = f"degraded: {answer.reason}"
            return Declined(tuple(degradations), skip_reason=skipped, tier=tier)
        break
    return Declined(tuple(degradations))


def route(routes: Routes, subsystem: SubsystemName, tier: ModelTier) -> Route | None:
    """The route that serves `subsystem`'s call at `tier`: death's own when it has one,
    else the tier's, else whichever tier is routed (T2 first)."""
    if subsystem is SubsystemName.DEATH and routes.death is not None:
        return routes.death
    tiers = routes.tiers
    return tiers.get(tier) or tiers.get(ModelTier.T2) or tiers.get(ModelTier.T1)


def estimate_input_tokens(
    ctx: Situation, subsystem: Subsystem, tier: ModelTier, env: Budgeting
) -> int:
    """A pre-call bound on what the call sends: the decision's schema, and the token limit
    of the profile the call will run under (the assembled prompt never exceeds it)."""
    table = env.policy.profiles
    profile, _ = select_profile_and_reasoning(subsystem.name, env.state.security, tier, table)
    limit = env.context.limits_for(profile).max_tokens
    return _schema_tokens(subsystem.decision_type(ctx)) + limit


@lru_cache(maxsize=64)
def _schema_tokens(decision: type[StructuredOutput]) -> int:
    # Rendering the schema to measure it costs more than the rest of the estimate: once
    # per decision type.
    return estimate_tokens(orjson.dumps(decision.response_schema().schema).decode())


def prompt_key(subsystem: Subsystem, ctx: Situation) -> str:
    """A subsystem's stable prefix (its system text and schema) by the decision it asks."""
    return f"{subsystem.name}:{subsystem.decision_type(ctx).__name__}"


def _likely_cached(env: Budgeting, route: Route, key: str | None, ctx: Situation) -> int:
    """The input tokens the call will likely read from the provider's prompt cache (`key`:
    its prompt's): what the last such call reported cached, when it was answered within
    the cache's lifetime."""
    if env.prompt_cache is None or key is None:
        return 0
    at = ctx.now.timestamp()
    return env.prompt_cache.likely_cached(route.provider.name, route.model, key, at)
