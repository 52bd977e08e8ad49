"""One decision, end to end: the spine of DESIGN.md's "path of one decision".

allocate → (degraded: the deterministic path) → the subsystem's brief, assembled into a
prompt by the context layers its profile runs → run_structured with the attempts the
budget allows → charge the ledger for every attempt, at what the provider that answered it
priced it → restore masked identifiers → act → a `DecisionRecord` with everything needed to inspect
it, which the golem publishes to its subscribers (the log file among them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache, partial

import orjson
import structlog
from msgspec.structs import replace

from golem.inference import (
    NO_USAGE,
    Provider,
    ProviderError,
    Request,
    Response,
    StructuredOutput,
    StructuredOutputConfig,
    StructuredOutputInvalid,
    Usage,
    run_structured,
)
from golem.inference.fallback import FallbackProvider
from golem.inference.pricing import Price
from golem.inference.progress import Thinking
from golem.inference.reasoning import ReasoningConfig
from golem.mortality import (
    Allocation,
    AllocatorPolicy,
    CallEstimate,
    Charge,
    Clock,
    Degradation,
    Fallback,
    Ledger,
    ModelTier,
    MortalityState,
    PipelineProfile,
    SubsystemName,
    allocate,
    select_profile_and_reasoning,
    split_diem,
    utc_day,
)
from golem.runtime.memo import DecisionMemo, Lookup, Reuse
from golem.runtime.record import DecisionRecord
from golem.runtime.verify import FirstOpinion, Pay, Verification, Verified, second_opinion
from golem.subsystems.ask import Ask
from golem.subsystems.context import (
    CallBudget,
    ContextReport,
    ContextSettings,
    Prompt,
    TokenCounter,
    WithoutFeed,
    assemble,
    estimate_tokens,
)
from golem.subsystems.contract import Outcome, Situation, Subsystem
from golem.subsystems.risk import Risk, RiskAssessment
from golem.world import Truth

__all__ = [
    "Budgeting",
    "DecisionRecord",
    "Foresight",
    "Route",
    "Routes",
    "ThinkingWatch",
    "decide",
]

log = structlog.get_logger("golem")

_DEFAULT_CONTEXT = ContextSettings()
_DEFAULT_POLICY = AllocatorPolicy()


@dataclass(frozen=True, slots=True)
class Route:
    """Where one tier's calls go, and what the allocator expects them to cost. `price`
    (a chain's dearest member) is for that worst case only: a call is charged what the
    provider that answered it priced it (Response.cost_usd)."""

    provider: Provider
    model: str
    price: Price
    max_output_tokens: int = 800
    diem: bool = False  # Venice-routed: paid in DIEM first
    tokenizer: TokenCounter | None = None  # the model's own token count, where one runs here


@dataclass(frozen=True, slots=True)
class Routes:
    """The provider per model tier (T1 cheap, T2 strong), death's own, and the one risk
    asks for a second opinion (`[subsystems.risk] verify_with`)."""

    tiers: Mapping[ModelTier, Route]
    death: Route | None = None
    verify: Route | None = None

    def route(self, subsystem: SubsystemName, tier: ModelTier) -> Route | None:
        if subsystem is SubsystemName.DEATH and self.death is not None:
            return self.death
        return self.tiers.get(tier) or self.tiers.get(ModelTier.T2) or self.tiers.get(ModelTier.T1)


# Who is told how a subsystem's model call thinks, as it thinks (the console of `golem run`).
ThinkingWatch = Callable[[SubsystemName, Thinking], None]


@dataclass(frozen=True, slots=True)
class Budgeting:
    """What a decision is paid from and governed by."""

    routes: Routes
    ledger: Ledger
    clock: Clock
    state: MortalityState
    config: StructuredOutputConfig | None = None
    policy: AllocatorPolicy | None = None
    context: ContextSettings | None = None  # each profile's prompt limits (default: ours)
    foresight: Foresight | None = None  # a simulation's truth and quality (the daemon: none)
    watch: ThinkingWatch | None = None  # told how each model call's thinking goes (a console)


@dataclass(frozen=True, slots=True)
class Foresight:
    """What a simulation knows beside the golem: the world's truth at this moment (looked
    up only when a call may be informed by it) and the chance a call's answer is, by the
    tier, reasoning tokens granted and context profile it paid for."""

    truth: Callable[[], Truth | None]
    quality: Callable[[ModelTier, int, PipelineProfile], float]

    def ask(
        self, tier: ModelTier, reasoning: ReasoningConfig, profile: PipelineProfile
    ) -> tuple[Truth | None, float]:
        """(the truth, the chance it informs the answer) for one call."""
        informed = self.quality(tier, reasoning.depth.budget_tokens(), profile)
        return (self.truth() if informed > 0.0 else None), informed


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
    if isinstance(record, _Call):
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
) -> DecisionRecord | _Call:
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
            input_tokens=_estimate_input_tokens(ctx, subsystem, tier, env),
            max_output_tokens=route.max_output_tokens,
            diem=route.diem,
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
            return _Call(asked, tier, route, granted, env, tuple(degradations))
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


@dataclass(frozen=True, slots=True)
class _Call:
    """A model call the allocator granted, and the degradations on the way to it."""

    asked: ModelTier  # the tier the subsystem asked for
    tier: ModelTier  # the tier granted
    route: Route
    allocation: Allocation
    env: Budgeting
    degradations: tuple[Degradation, ...]


async def _call(
    subsystem: Subsystem, ctx: Situation, call: _Call, seed: int | None = None
) -> DecisionRecord:
    asked, route, allocation = call.asked, call.route, call.allocation
    env, degradations = call.env, call.degradations
    prompt = _prompt(subsystem, ctx, call, env)
    decision_type = subsystem.decision_type(ctx)
    reasoning, profile = allocation.reasoning, allocation.profile
    foresight = env.foresight
    truth, informed = (
        (None, 0.0) if foresight is None else foresight.ask(call.tier, reasoning, profile)
    )
    request = _request(subsystem, ctx, call, prompt, (truth, informed), seed=seed)
    try:
        response = await run_structured(
            route.provider,
            request,
            decision_type,
            env.config,
            max_attempts=allocation.max_attempts,
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
        )
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
    usage, verification, without_text = response.usage, None, None
    if isinstance(subsystem, Risk) and subsystem.swayable(decision, prompt.report.feed):
        checked = await _unswayed(
            subsystem, paid, call, decision, response=response, foreseen=(truth, informed)
        )
        decision, paid, without_text = checked.decision, checked.ctx, checked.verification
        cost, usage = cost + without_text.cost_usd, usage + without_text.usage
    verify = env.routes.verify
    if verify is not None and isinstance(subsystem, Risk) and subsystem.verifies(ctx):
        checked = await _verify(
            subsystem, paid, call, decision, request=request, response=response, prompt=prompt
        )
        decision, paid, verification = checked.decision, checked.ctx, checked.verification
        cost, usage = cost + verification.cost_usd, usage + verification.usage
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
        cost_usd=cost,
        usage=usage,
        context=prompt.report,
        verification=verification,
        request=request,
        without_text=without_text,
    )


def _request(
    subsystem: Subsystem,
    ctx: Situation,
    call: _Call,
    prompt: Prompt,
    foreseen: tuple[Truth | None, float],
    *,
    seed: int | None,
) -> Request:
    """The prompt's request as the granted call sends it."""
    route, env = call.route, call.env
    reasoning, profile = call.allocation.reasoning, call.allocation.profile
    truth, informed = foreseen
    return prompt.request.evolve(
        # A chain's members each ask for their own model (and price that one): the route's
        # model, its first member's, would send an OpenAI model to the next vendor.
        model=None if isinstance(route.provider, FallbackProvider) else route.model,
        reasoning=reasoning,
        max_tokens=route.max_output_tokens,
        # For a simulated model (the synthetic provider's minds); never sent.
        facts=Ask(
            ctx=ctx,
            subsystem=subsystem,
            decision=subsystem.decision_type(ctx).response_schema().name,
            tier=call.tier,
            profile=profile,
            reasoning=reasoning,
            inputs_cut=prompt.report.dropped.get("inputs", 0),
            truth=truth,
            informed=informed,
            feed=prompt.report.feed,
        ),
        progress=None if env.watch is None else partial(env.watch, subsystem.name),
        seed=seed,
    )


async def _unswayed(
    risk: Risk,
    ctx: Situation,
    call: _Call,
    decision: StructuredOutput,
    *,
    response: Response,
    foreseen: tuple[Truth | None, float],
) -> Verified:
    """Risk's assessment again with the world feed withheld, on the first call's sampling
    seed, the stricter standing (`ctx`: after the first charge): external text may make
    the guard stricter, never looser (golem.subsystems.risk.provenance)."""
    assert isinstance(decision, RiskAssessment), "risk decides a risk_assessment"
    env = call.env
    clean = replace(ctx, memory=None if ctx.memory is None else WithoutFeed(ctx.memory))
    prompt = _prompt(risk, clean, call, env)
    first = FirstOpinion(
        decision,
        f"{response.provider}:{response.model}",
        call.tier,
        call.allocation.reasoning.depth,
        _request(risk, clean, call, prompt, foreseen, seed=response.seed),
        _estimate_input_tokens(ctx, risk, call.tier, env),
    )
    return await second_opinion(
        risk,
        ctx,
        first,
        route=call.route,
        env=env,
        pay=_pay_for(risk, call, "without_text"),
        restore=prompt.restore,
        disagreement="risk_swayed_by_text",
    )


def _pay_for(risk: Risk, call: _Call, role: str) -> Pay:
    """How a second call of risk's run is charged: under its own `role`."""

    def pay(
        paid: Situation,
        route: Route,
        granted: Allocation,
        *,
        usage: Usage,
        cost: float,
        answered: tuple[str, str] | None,
    ) -> Situation:
        second = _Call(call.asked, call.tier, route, granted, call.env, ())
        return _charge(
            call.env, paid, risk.name, second, usage=usage, cost=cost, answered=answered, role=role
        )

    return pay


async def _verify(
    risk: Risk,
    ctx: Situation,
    call: _Call,
    decision: StructuredOutput,
    *,
    request: Request,
    response: Response,
    prompt: Prompt,
) -> Verified:
    """The verifier's opinion of a model's risk `decision` (`ctx`: after its charge)."""
    env = call.env
    route = env.routes.verify
    assert route is not None, "a verifier's route"
    assert isinstance(decision, RiskAssessment), "risk decides a risk_assessment"
    first = FirstOpinion(
        decision,
        f"{response.provider}:{response.model}",
        call.tier,
        call.allocation.reasoning.depth,
        request,
        _estimate_input_tokens(ctx, risk, call.tier, env),
    )

    return await second_opinion(
        risk,
        ctx,
        first,
        route=route,
        env=env,
        pay=_pay_for(risk, call, "verify"),
        restore=prompt.restore,
    )


def _prompt(subsystem: Subsystem, ctx: Situation, call: _Call, env: Budgeting) -> Prompt:
    """The subsystem's brief in the context its profile allows, told what it may cost."""
    allocation = call.allocation
    budget = CallBudget(
        max_output_tokens=call.route.max_output_tokens,
        worst_case_usd=allocation.worst_case_cost_usd,
        attempts=allocation.max_attempts,
        budget_left_usd=allocation.budget_left_usd,
        reasoning=allocation.reasoning.depth.name.lower(),
    )
    return assemble(
        subsystem.brief(ctx),
        ctx,
        allocation.profile,
        budget=budget,
        settings=env.context or _DEFAULT_CONTEXT,
        tokenizer=call.route.tokenizer,
        task_first=call.route.provider.capabilities.task_first,
    )


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


def _charge(
    env: Budgeting,
    ctx: Situation,
    subsystem: SubsystemName,
    call: _Call,
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
        idempotency_key=f"{ctx.golem_id}:{ctx.tick}:{ctx.run}:{subsystem}:{call.tier}"
        + (f":{role}" if role else ""),
    )
    if env.ledger.record(charge) is not charge or not usd:
        return ctx  # a replay of a run already charged: `ctx`'s credits count it already
    return replace(ctx, credits_usd=ctx.credits_usd - usd)


def _estimate_input_tokens(
    ctx: Situation, subsystem: Subsystem, tier: ModelTier, env: Budgeting
) -> int:
    """A pre-call bound on what the call sends: the decision's schema, and the token limit
    of the profile the call will run under (the assembled prompt never exceeds it)."""
    table = (env.policy or _DEFAULT_POLICY).profiles
    profile, _ = select_profile_and_reasoning(subsystem.name, env.state.security, tier, table)
    limit = (env.context or _DEFAULT_CONTEXT).limits_for(profile).max_tokens
    return _schema_tokens(subsystem.decision_type(ctx)) + limit


@lru_cache(maxsize=64)
def _schema_tokens(decision: type[StructuredOutput]) -> int:
    # Rendering the schema to measure it costs more than the rest of the estimate: once
    # per decision type.
    return estimate_tokens(orjson.dumps(decision.response_schema().schema).decode())
