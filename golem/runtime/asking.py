"""The ask stage: what a granted model call sends, and where, and what came back.

The routes per tier, what a decision is paid from (`Budgeting`), and the call the
allocator granted (`Call`) with its prompt (the subsystem's brief in the context layers
its profile runs) and its request. `ask` sends it and reports what came back (`Asked`:
the response or the failure) and what it cost (`Bill`, for the charge stage, under the
key its charge has); each attempt's bill is held as the provider answers it (the ledger's
`HeldBills`). The judge stage (golem.runtime.verify) asks again through `send`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Protocol

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
from golem.inference.caching import PromptCache
from golem.inference.fallback import FallbackProvider
from golem.inference.pricing import Price
from golem.inference.progress import Thinking
from golem.inference.secrets import Redaction
from golem.mortality import (
    Allocation,
    AllocatorPolicy,
    Charge,
    Clock,
    Degradation,
    HeldBills,
    Ledger,
    ModelTier,
    MortalityState,
    SubsystemName,
)
from golem.subsystems.context import (
    CallBudget,
    ContextSettings,
    Prompt,
    TokenCounter,
    assemble,
)
from golem.subsystems.contract import Situation, Subsystem
from golem.subsystems.facts import Ask

__all__ = [
    "Answer",
    "Asked",
    "Bill",
    "Budgeting",
    "Call",
    "Funds",
    "Route",
    "Routes",
    "ThinkingWatch",
    "ask",
    "charge_key",
    "prompt_for",
    "request_for",
    "send",
]


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
    asks for a second opinion (`[subsystems.risk] verify_with`). Which serves a call is
    the grant's choice (golem.runtime.grant.route)."""

    tiers: Mapping[ModelTier, Route]
    death: Route | None = None
    verify: Route | None = None


# Who is told how a subsystem's model call thinks, as it thinks (the console of `golem run`).
ThinkingWatch = Callable[[SubsystemName, Thinking], None]


@dataclass(frozen=True, slots=True)
class Budgeting:
    """What a decision is paid from and governed by."""

    routes: Routes
    ledger: Ledger
    clock: Clock
    state: MortalityState
    config: StructuredOutputConfig  # the life's, compiled: modes and re-asks
    policy: AllocatorPolicy  # the life's, compiled
    context: ContextSettings  # each profile's limits
    watch: ThinkingWatch | None = None  # told how each model call's thinking goes (a console)
    # Which prompts the providers likely still cache (the golem's, kept across ticks):
    # a likely hit lets the allocator price that part of the input at the cached rate.
    prompt_cache: PromptCache | None = None
    secrets: Redaction | None = None  # the key values no prompt may carry (masked by value)
    # Keeps each attempt's bill, as the provider answers it, where a rollback or a kill
    # of the tick cannot lose it (StateStore.hold_bill): the daemon's.
    hold_bill: Callable[[Charge], None] | None = None

    def budgeting(self) -> Budgeting:
        """Itself: funds whose standing does not move (a test's, a one-off call's); a
        golem's move with each decision (golem.runtime.purse)."""
        return self


class Funds(Protocol):
    """What decisions are paid from: the Budgeting of one made now (a golem's Purse, whose
    standing moves with each decision; a Budgeting, whose does not)."""

    def budgeting(self) -> Budgeting: ...


@dataclass(frozen=True, slots=True)
class Call:
    """A model call the allocator granted, and the degradations on the way to it."""

    asked: ModelTier  # the tier the subsystem asked for
    tier: ModelTier  # the tier granted
    route: Route
    allocation: Allocation
    env: Budgeting
    degradations: tuple[Degradation, ...]
    prompt_key: str | None = None  # its prompt's in the prompt cache (None: no cache kept)


@dataclass(frozen=True, slots=True)
class Bill:
    """What one granted call cost: its `usage` and `cost` (what the providers that answered
    priced it, summed over its attempts: never the route's price), on `route` at `tier`,
    answered by `answered` (provider, model; None: the route's are named), as `role` in
    its run (None: the run's own call; a judge's "verify", "without_text"), charged under
    `key` (`charge_key`: its attempts were held under it)."""

    subsystem: SubsystemName
    route: Route
    tier: ModelTier
    key: str
    usage: Usage
    cost: float
    answered: tuple[str, str] | None = None
    role: str | None = None


Failure = StructuredOutputInvalid | ProviderError


@dataclass(frozen=True, slots=True)
class Answer:
    """What a sent request came back with: the `response`, or the `failure` that ended
    its attempts; either way its `bill`."""

    response: Response | None
    failure: Failure | None
    bill: Bill


@dataclass(frozen=True, slots=True)
class Asked:
    """The ask stage's output: the prompt and request sent, and what came back."""

    prompt: Prompt
    request: Request
    answer: Answer


def charge_key(
    ctx: Situation, subsystem: SubsystemName, tier: ModelTier, role: str | None = None
) -> str:
    """What names this run of this subsystem's call in the ledger (`role`: a judge's)."""
    named = f"{ctx.golem_id}:{ctx.tick}:{ctx.run}:{subsystem}:{tier}"
    return f"{named}:{role}" if role else named


async def send(
    subsystem: SubsystemName,
    ctx: Situation,
    call: Call,
    request: Request,
    decision: type[StructuredOutput],
    *,
    role: str | None = None,
) -> Answer:
    """`request` to the call's route, with the attempts its allocation allows. A provider's
    failure or a malformed answer is an `Answer` with its `failure`: every attempt answered
    so far is billed, at what the provider that answered it priced it (run_structured
    sums them), under the key this run's call (`ctx`, `role`) is charged by; each attempt's
    bill is held as it is answered (`Budgeting.hold_bill`), where a kill of the tick cannot
    lose it."""
    route, hold = call.route, call.env.hold_bill
    key = charge_key(ctx, subsystem, call.tier, role)
    billed = None
    if hold is not None:
        billed = HeldBills(subsystem, route.provider.name, route.model, ctx.now, key, hold)
    try:
        response = await run_structured(
            route.provider,
            request,
            decision,
            call.env.config,
            max_attempts=call.allocation.max_attempts,
            billed=billed,
        )
    except (StructuredOutputInvalid, ProviderError) as exc:
        usage = exc.usage or NO_USAGE
        bill = Bill(subsystem, route, call.tier, key, usage, exc.cost_usd, None, role)
        return Answer(None, exc, bill)
    answered = (response.provider, response.model)
    cost = response.cost_usd
    bill = Bill(subsystem, route, call.tier, key, response.usage, cost, answered, role)
    return Answer(response, None, bill)


async def ask(
    subsystem: Subsystem, ctx: Situation, call: Call, *, seed: int | None = None
) -> Asked:
    """The ask stage: the call's prompt and request, sent. `seed`: the sampling seed of an
    earlier call this one repeats (`Request.seed`)."""
    prompt = prompt_for(subsystem, ctx, call, call.env)
    request = request_for(subsystem, ctx, call, prompt, seed=seed)
    decision = subsystem.decision_type(ctx)
    answer = await send(subsystem.name, ctx, call, request, decision)
    return Asked(prompt, request, answer)


def prompt_for(subsystem: Subsystem, ctx: Situation, call: Call, env: Budgeting) -> Prompt:
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
        settings=env.context,
        tokenizer=call.route.tokenizer,
        task_first=call.route.provider.capabilities.task_first,
        secrets=env.secrets,
    )


def request_for(
    subsystem: Subsystem,
    ctx: Situation,
    call: Call,
    prompt: Prompt,
    *,
    seed: int | None,
) -> Request:
    """The prompt's request as the granted call sends it."""
    route, env = call.route, call.env
    reasoning, profile = call.allocation.reasoning, call.allocation.profile
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
            feed=prompt.report.feed,
        ),
        progress=None if env.watch is None else partial(env.watch, subsystem.name),
        seed=seed,
    )
