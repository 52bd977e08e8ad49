"""One decision, end to end: the spine of DESIGN.md's "path of one decision".

allocate → (degraded: the deterministic path) → the subsystem's brief, assembled into a
prompt by the context layers its profile runs → run_structured with the attempts the
budget allows → charge the ledger for every attempt, at what the provider that answered it
priced it → restore masked identifiers → act → a `DecisionRecord` with everything needed to inspect
it, which the golem publishes to its subscribers (the log file among them).
"""

from __future__ import annotations

from collections.abc import Callable

import structlog
from msgspec.structs import replace

from golem.inference import (
    NO_USAGE,
    BillSink,
    ProviderError,
    Request,
    Response,
    StructuredOutput,
    StructuredOutputInvalid,
    Usage,
    run_structured,
)
from golem.mortality import (
    Allocation,
    CallEstimate,
    Charge,
    Degradation,
    Fallback,
    ModelTier,
    SubsystemName,
    allocate,
    split_diem,
    utc_day,
)
from golem.runtime.asking import (
    Budgeting,
    Call,
    Route,
    estimate_input_tokens,
    prompt_for,
    request_for,
)
from golem.runtime.memo import DecisionMemo, Lookup, Reuse
from golem.runtime.record import DecisionRecord
from golem.runtime.verify import Pay, Verification, judge
from golem.subsystems.context import ContextReport
from golem.subsystems.contract import Outcome, Situation, Subsystem

__all__ = ["DecisionRecord", "decide"]

log = structlog.get_logger("golem")


async def decide(
    subsystem: Subsystem,
    ctx: Situation,
    env: Budgeting | Callable[[], Budgeting],
    memo: DecisionMemo | None = None,
    *,
    seed: int | None = None,
) -> DecisionRecord:
    """Run `subsystem` once on `ctx`: the record of the decision, for the caller to
    publish. Never raises for a provider's failure or a malformed answer: those end in the
    deterministic path, their warning logged. `env` may be a function making the
    Budgeting, called only when a model may be asked (a T0 run, most heartbeats, needs
    none). `memo`: where a model's decision for the same situation may be found (reused at
    no cost, before anything is allocated) and where a new one is kept. `seed`: the
    sampling seed of an earlier call this one repeats (`Request.seed`)."""
    lookup = None if memo is None else memo.recall(subsystem, ctx)
    if lookup is not None and lookup.hit is not None:
        return _reused(subsystem, ctx, lookup)
    record = _plan(subsystem, ctx, env)
    if isinstance(record, Call):
        record = await _call(subsystem, ctx, record, seed)
    if memo is None or lookup is None:
        return record
    if record.source == "model" and record.decision is not None:
        shown = () if record.context is None else record.context.feed
        seed = None if record.response is None else record.response.seed
        memo.keep(
            lookup, ctx, record.decision, record.tier, record.decision_id, shown=shown, seed=seed
        )
    return replace(record, cache=lookup.cache) if lookup.cache else record


def _reused(subsystem: Subsystem, ctx: Situation, lookup: Lookup) -> DecisionRecord:
    """The record of a model decision applied again: it costs nothing and says whose it is."""
    hit, reuse = lookup.hit, lookup.reuse
    assert hit is not None and reuse is not None
    outcome = subsystem.act(ctx, hit.decision)
    summary = f"{outcome.summary} (reused {reuse.by}: {reuse.decision_id})"
    return _record(
        ctx,
        subsystem.name,
        lookup.asked,
        hit.tier,
        "reused",
        decision=hit.decision,
        outcome=replace(outcome, summary=summary),
        reused=reuse,
        cache=lookup.cache,
    )


def _plan(
    subsystem: Subsystem, ctx: Situation, given: Budgeting | Callable[[], Budgeting]
) -> DecisionRecord | Call:
    """The decision made without a model (skipped, T0, degraded), or the model call the
    allocator granted."""
    name = subsystem.name
    asked = tier = subsystem.tier(ctx)
    skip = subsystem.skip_reason(ctx)
    if skip is not None:
        return _record(ctx, name, asked, tier, "skipped", skip_reason=skip)
    if tier is ModelTier.T0:
        return _deterministic(subsystem, ctx, asked, "deterministic")
    env = given if isinstance(given, Budgeting) else given()
    at_most = subsystem.deliberation(ctx)
    degradations: list[Degradation] = []
    while tier is not ModelTier.T0:
        route = env.routes.route(name, tier)
        if route is None:
            return _deterministic(subsystem, ctx, asked, "fallback", error="no provider for tier")
        estimate = CallEstimate(
            price=route.price,
            input_tokens=estimate_input_tokens(ctx, subsystem, tier, env),
            max_output_tokens=route.max_output_tokens,
            diem=route.diem,
            cached_tokens=_likely_cached(env, route, subsystem, ctx),
        )
        granted = allocate(
            name,
            tier,
            env.state,
            env.ledger,
            env.clock,
            call=estimate,
            policy=env.policy,
            at_most=at_most,
        )
        if isinstance(granted, Allocation):
            return Call(asked, tier, route, granted, env, tuple(degradations))
        degradations.append(granted)
        if granted.fallback is Fallback.LOWER_TIER and tier is ModelTier.T2:
            tier = ModelTier.T1
            continue
        if granted.fallback is Fallback.SKIP:
            return _record(
                ctx,
                name,
                asked,
                tier,
                "skipped",
                degradations=tuple(degradations),
                skip_reason=f"degraded: {granted.reason}",
            )
        break
    return _deterministic(subsystem, ctx, asked, "deterministic", tuple(degradations))


def _prompt_key(subsystem: Subsystem, ctx: Situation) -> str:
    """A subsystem's stable prefix (its system text and schema) by the decision it asks."""
    return f"{subsystem.name}:{subsystem.decision_type(ctx).__name__}"


def _likely_cached(env: Budgeting, route: Route, subsystem: Subsystem, ctx: Situation) -> int:
    """The input tokens the call will likely read from the provider's prompt cache: what the
    last such call reported cached, when it was answered within the cache's lifetime."""
    if env.prompt_cache is None:
        return 0
    key, at = _prompt_key(subsystem, ctx), ctx.now.timestamp()
    return env.prompt_cache.likely_cached(route.provider.name, route.model, key, at)


async def _call(
    subsystem: Subsystem, ctx: Situation, call: Call, seed: int | None = None
) -> DecisionRecord:
    asked, route, allocation = call.asked, call.route, call.allocation
    env, degradations = call.env, call.degradations
    prompt = prompt_for(subsystem, ctx, call, env)
    decision_type = subsystem.decision_type(ctx)
    reasoning, profile = allocation.reasoning, allocation.profile
    foresight = env.foresight
    truth, informed = (
        (None, 0.0) if foresight is None else foresight.ask(call.tier, reasoning, profile)
    )
    request = request_for(subsystem, ctx, call, prompt, (truth, informed), seed=seed)
    try:
        response = await run_structured(
            route.provider,
            request,
            decision_type,
            env.config,
            max_attempts=allocation.max_attempts,
            billed=_held(env, ctx, subsystem.name, call),
        )
    except (StructuredOutputInvalid, ProviderError) as exc:
        # Every attempt answered so far is paid, at what the provider that answered it
        # priced it (run_structured sums them): never at the route's price, the dearest
        # member's, kept for the allocator's worst case.
        usage = exc.usage or NO_USAGE
        cost = exc.cost_usd
        paid = _charge(env, ctx, subsystem.name, call, usage=usage, cost=cost)
        if isinstance(exc, StructuredOutputInvalid):
            log.warning(
                "structured_output_invalid", subsystem=str(subsystem.name), errors=exc.errors
            )
        else:
            log.warning(
                "provider_error",
                subsystem=str(subsystem.name),
                error=exc.code,
                provider=exc.provider,
                status=exc.status,
            )
        fallback = _deterministic(
            subsystem, paid, asked, "fallback", degradations, error=f"{exc.code}: {exc}"
        )
        return replace(
            fallback,
            tier=call.tier,
            allocation=allocation,
            usage=usage,
            cost_usd=cost,
            context=prompt.report,
            failed_attempts=exc.failed_attempts,
        )
    if env.prompt_cache is not None and response.provider == route.provider.name:
        # The route's own provider answered (not a fallback's member): its cache is warm.
        key, at = _prompt_key(subsystem, ctx), ctx.now.timestamp()
        env.prompt_cache.sent(route.provider.name, route.model, key, at, response.usage)
    cost = response.cost_usd  # the answering provider's own price, 0.0 when it is free
    paid = _charge(
        env,
        ctx,
        subsystem.name,
        call,
        usage=response.usage,
        cost=cost,
        answered=(response.provider, response.model),
    )
    decision = prompt.restore(response.parsed)
    judged = await judge(
        subsystem,
        paid,
        call,
        decision,
        subsystem.judges(ctx, decision, prompt.report.feed),
        request=request,
        response=response,
        prompt=prompt,
        foreseen=(truth, informed),
        spent=(cost, response.usage),
        pay_as=lambda role: _pay_for(subsystem, call, role),
    )
    decision, paid = judged.decision, judged.ctx
    return _record(
        ctx,
        subsystem.name,
        asked,
        call.tier,
        "model",
        decision=decision,
        outcome=subsystem.act(paid, decision),
        response=response,
        allocation=allocation,
        degradations=degradations,
        cost_usd=judged.cost_usd,
        usage=judged.usage,
        context=prompt.report,
        verification=judged.verification,
        request=request,
        without_text=judged.without_text,
    )


def _pay_for(subsystem: Subsystem, call: Call, role: str) -> Pay:
    """How a judge's call in `subsystem`'s run is charged: under its own `role`."""

    def pay(
        paid: Situation,
        route: Route,
        granted: Allocation,
        *,
        usage: Usage,
        cost: float,
        answered: tuple[str, str] | None,
    ) -> Situation:
        second = Call(call.asked, call.tier, route, granted, call.env, ())
        return _charge(
            call.env,
            paid,
            subsystem.name,
            second,
            usage=usage,
            cost=cost,
            answered=answered,
            role=role,
        )

    return pay


def _deterministic(
    subsystem: Subsystem,
    ctx: Situation,
    asked: ModelTier,
    source: str,
    degradations: tuple[Degradation, ...] = (),
    *,
    error: str | None = None,
) -> DecisionRecord:
    decision = subsystem.deterministic(ctx)
    outcome = subsystem.act(ctx, decision) if decision is not None else None
    return _record(
        ctx,
        subsystem.name,
        asked,
        ModelTier.T0,
        source if decision is not None else "skipped",
        decision=decision,
        outcome=outcome,
        degradations=degradations,
        error=error,
        skip_reason=None if decision is not None else "no deterministic path",
    )


def _record(
    ctx: Situation,
    subsystem: SubsystemName,
    asked: ModelTier,
    tier: ModelTier,
    source: str,
    *,
    decision: StructuredOutput | None = None,
    outcome: Outcome | None = None,
    response: Response | None = None,
    allocation: Allocation | None = None,
    degradations: tuple[Degradation, ...] = (),
    error: str | None = None,
    cost_usd: float = 0.0,
    usage: Usage = NO_USAGE,
    skip_reason: str | None = None,
    context: ContextReport | None = None,
    reused: Reuse | None = None,
    cache: str | None = None,
    verification: Verification | None = None,
    request: Request | None = None,
    without_text: Verification | None = None,
) -> DecisionRecord:
    """The record of a run of `subsystem` on `ctx`."""
    return DecisionRecord(
        ctx.golem_id,
        ctx.now,
        ctx.vitality,
        ctx.phase,
        subsystem,
        ctx.tick,
        asked,
        tier,
        source,
        decision,
        outcome,
        response,
        allocation,
        degradations,
        error,
        cost_usd,
        usage,
        skip_reason,
        context,
        ctx.run,
        reused,
        cache,
        ctx,
        verification,
        request,
        without_text=without_text,
    )


def _held(env: Budgeting, ctx: Situation, subsystem: SubsystemName, call: Call) -> BillSink | None:
    """Where each attempt's bill goes as the provider answers it (`env.hold_bill`),
    under the key the call's charge will have: a tick killed mid-call keeps them."""
    hold = env.hold_bill
    if hold is None:
        return None

    def held(usage: Usage, cost: float, provider: str, model: str) -> None:
        if cost > 0 or usage.total_tokens:
            bill = Charge(
                subsystem=subsystem,
                provider=provider or call.route.provider.name,
                model=model or call.route.model,
                tokens=usage,
                usd=max(0.0, cost),
                diem=0.0,
                time=ctx.now,
                idempotency_key=_key(ctx, subsystem, call),
            )
            hold(bill)

    return held


def _key(ctx: Situation, subsystem: SubsystemName, call: Call, role: str | None = None) -> str:
    """What names this run of this subsystem's call in the ledger."""
    key = f"{ctx.golem_id}:{ctx.tick}:{ctx.run}:{subsystem}:{call.tier}"
    return f"{key}:{role}" if role else key


def _charge(
    env: Budgeting,
    ctx: Situation,
    subsystem: SubsystemName,
    call: Call,
    *,
    usage: Usage,
    cost: float,
    answered: tuple[str, str] | None = None,
    role: str | None = None,
) -> Situation:
    """Record what every attempt cost, once: the key names this run of this subsystem
    (and the call's `role` in it beside the first: risk's "verify").
    The row names the provider and model that `answered` (else the route's). Returns
    `ctx` with the credits this charge left, as the decision is acted on after it is paid
    (death's testament states them).

    `cost` is what the providers priced: an unpriced model costs 0.0, as the allocator
    estimates it (routes.py prices it FREE). `golem config check` refuses an unpriced
    model of a provider that needs a key; what is left unpriced is keyless (a server of
    one's own) and costs nothing here either."""
    if cost <= 0 and usage.total_tokens == 0:
        return ctx
    usd, diem = cost, 0.0
    if call.route.diem:
        left = env.state.diem_allowance - env.ledger.spent_diem(utc_day(ctx.now))
        usd, diem = split_diem(cost, left)
    provider, model = answered or (call.route.provider.name, call.route.model)
    charge = Charge(
        subsystem=subsystem,
        provider=provider,
        model=model,
        tokens=usage,
        usd=usd,
        diem=diem,
        time=ctx.now,
        idempotency_key=_key(ctx, subsystem, call, role),
    )
    if env.ledger.record(charge) is not charge or not usd:
        return ctx  # a replay of a run already charged: `ctx`'s credits count it already
    return replace(ctx, credits_usd=ctx.credits_usd - usd)
