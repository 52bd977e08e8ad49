"""A second model's opinion on a risk assessment (`[subsystems.risk] verify_with`).

After the first call is charged, the allocator grants the second from risk's budget line
and the cap, as it would any call of risk's (its worst case at the verifier's price, with
no more reasoning than the first was granted); it is sent the same prompt, charged to risk
under its own key, and the stricter assessment stands
(golem.subsystems.risk.opinions). A disagreement on approval is a `risk_disagreement` log
event. A second opinion the allocator cannot fund, or that fails, leaves the first standing
and the decision says why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import replace as replace_dataclass
from typing import Any, Protocol

import structlog
from msgspec import Struct
from msgspec.structs import replace

from golem.inference import (
    NO_USAGE,
    ProviderError,
    ReasoningDepth,
    Request,
    Response,
    StructuredOutput,
    StructuredOutputInvalid,
    Usage,
    run_structured,
)
from golem.mortality import Allocation, CallEstimate, ModelTier, SubsystemName, allocate
from golem.runtime.asking import (
    Budgeting,
    Call,
    Route,
    estimate_input_tokens,
    prompt_for,
    request_for,
)
from golem.runtime.store.ids import DecisionId
from golem.subsystems.ask import Ask
from golem.subsystems.context import Prompt, WithoutFeed
from golem.subsystems.contract import Situation
from golem.subsystems.risk import Risk, RiskAssessment, allowed_usd, stricter, trade_notional
from golem.world import Truth

__all__ = [
    "FirstOpinion",
    "Pay",
    "Verification",
    "Verified",
    "second_opinion",
    "verified",
    "without_text",
]

log = structlog.get_logger("golem")


class Pay(Protocol):
    """Charges one call of the verifier to risk (`answered`: the provider and model that
    answered, if one did): `ctx` with the credits the charge left."""

    def __call__(
        self,
        ctx: Situation,
        route: Route,
        granted: Allocation,
        /,
        *,
        usage: Usage,
        cost: float,
        answered: tuple[str, str] | None,
    ) -> Situation: ...


class Verification(Struct, frozen=True):
    """What the verifier said of one risk decision. `agreed` is None when it gave no answer
    (`skipped` says why); `second_kept`: the decision is the verifier's assessment."""

    by: str  # "provider:model", what answered (else the one configured)
    agreed: bool | None = None
    second_kept: bool = False
    cost_usd: float = 0.0
    usage: Usage = NO_USAGE
    skipped: str | None = None

    def unswayed_fields(self) -> dict[str, Any]:
        """As `fields`, for risk's assessment asked again without external text: the log
        line's `without_text` (`kept`: "clean" when the text had made it looser)."""
        if self.agreed is None:
            return {"skipped": self.skipped}
        kept = "clean" if self.second_kept else "first"
        return {"agreed": self.agreed, "kept": kept, "cost_usd": self.cost_usd}

    def fields(self) -> dict[str, Any]:
        """The decision's log line's share: `verified_by` and `agreed`, or `verify_skipped`."""
        if self.agreed is None:
            out: dict[str, Any] = {"verify_with": self.by, "verify_skipped": self.skipped}
        else:
            kept = "second" if self.second_kept else "first"
            out = {"verified_by": self.by, "agreed": self.agreed, "verify_kept": kept}
        if self.cost_usd or self.usage.total_tokens:
            out["verify_cost_usd"] = self.cost_usd
        return out


@dataclass(frozen=True, slots=True)
class FirstOpinion:
    """The first model's assessment and how it was asked."""

    decision: RiskAssessment
    by: str  # "provider:model" that answered
    tier: ModelTier
    depth: ReasoningDepth  # the reasoning it was granted: the verifier is granted no more
    request: Request  # as it was sent (masked): the verifier is sent the same
    input_tokens: int  # the allocator's bound on what the request sends


@dataclass(frozen=True, slots=True)
class Verified:
    """The decision that stands, the context after both charges, and what was verified."""

    decision: RiskAssessment
    ctx: Situation
    verification: Verification


async def second_opinion(
    risk: Risk,
    ctx: Situation,
    first: FirstOpinion,
    *,
    route: Route,
    env: Budgeting,
    pay: Pay,
    restore: Callable[[StructuredOutput], StructuredOutput],
    disagreement: str = "risk_disagreement",
) -> Verified:
    """Ask `route` for its assessment of `ctx.proposed` (`ctx`: after the first charge),
    and keep the stricter. `restore` puts back what the prompt masked; `disagreement`
    names the warning logged when the two differ on approval."""
    configured = f"{route.provider.name}:{route.model}"
    estimate = CallEstimate(
        price=route.price,
        input_tokens=first.input_tokens,
        max_output_tokens=route.max_output_tokens,
        diem=route.diem,
    )
    state = env.state
    if state.wallet_usd is not None:  # the wallet as the first charge left it
        state = replace_dataclass(state, wallet_usd=min(state.wallet_usd, ctx.credits_usd))
    granted = allocate(
        SubsystemName.RISK,
        first.tier,
        state,
        env.ledger,
        env.clock,
        call=estimate,
        policy=env.policy,
        at_most=first.depth,
    )
    if not isinstance(granted, Allocation):
        skipped = f"not funded: {granted.reason}"
        return Verified(first.decision, ctx, Verification(configured, skipped=skipped))
    request = first.request.evolve(
        model=route.model,
        reasoning=granted.reasoning,
        max_tokens=route.max_output_tokens,
        facts=_facts(first.request.facts, env, first.tier, granted),
    )
    try:
        response = await run_structured(
            route.provider,
            request,
            RiskAssessment,
            env.config,
            max_attempts=granted.max_attempts,
        )
    except (StructuredOutputInvalid, ProviderError) as exc:
        usage = exc.usage or NO_USAGE
        paid = pay(ctx, route, granted, usage=usage, cost=exc.cost_usd, answered=None)
        log.warning("risk_verify_failed", verify_with=configured, error=exc.code)
        verification = Verification(
            configured, cost_usd=exc.cost_usd, usage=usage, skipped=f"{exc.code}: {exc}"
        )
        return Verified(first.decision, paid, verification)
    answered = (response.provider, response.model)
    paid = pay(ctx, route, granted, usage=response.usage, cost=response.cost_usd, answered=answered)
    second = restore(response.parsed)
    assert isinstance(second, RiskAssessment), "risk's verifier answers a risk_assessment"
    trade = ctx.proposed
    assert trade is not None, "only a proposed trade is verified"
    notional = trade_notional(trade, ctx.portfolio, risk.config.limits.sizing)
    reconciled = stricter(first.decision, second, notional)
    by = ":".join(answered)
    if not reconciled.agreed:
        log.warning(
            disagreement,
            golem=ctx.golem_id,
            tick=ctx.tick,
            id=str(DecisionId(str(SubsystemName.RISK), ctx.tick, ctx.run)),
            action=str(trade.action),
            first_model=first.by,
            first_approved=first.decision.approved,
            first_size_usd=allowed_usd(first.decision, notional),
            second_model=by,
            second_approved=second.approved,
            second_size_usd=allowed_usd(second, notional),
            kept="second" if reconciled.second_kept else "first",
        )
    verification = Verification(
        by,
        agreed=reconciled.agreed,
        second_kept=reconciled.second_kept,
        cost_usd=response.cost_usd,
        usage=response.usage,
    )
    return Verified(reconciled.kept, paid, verification)


async def without_text(
    risk: Risk,
    ctx: Situation,
    call: Call,
    decision: StructuredOutput,
    *,
    response: Response,
    foreseen: tuple[Truth | None, float],
    pay: Pay,
) -> Verified:
    """Risk's assessment again with the world feed withheld, on the first call's sampling
    seed, the stricter standing (`ctx`: after the first charge): external text may make
    the guard stricter, never looser (golem.subsystems.risk.provenance)."""
    clean = replace(ctx, memory=None if ctx.memory is None else WithoutFeed(ctx.memory))
    prompt = prompt_for(risk, clean, call, call.env)
    request = request_for(risk, clean, call, prompt, foreseen, seed=response.seed)
    return await second_opinion(
        risk,
        ctx,
        _first(risk, ctx, call, decision, request=request, response=response),
        route=call.route,
        env=call.env,
        pay=pay,
        restore=prompt.restore,
        disagreement="risk_swayed_by_text",
    )


async def verified(
    risk: Risk,
    ctx: Situation,
    call: Call,
    decision: StructuredOutput,
    *,
    request: Request,
    response: Response,
    prompt: Prompt,
    pay: Pay,
) -> Verified:
    """The verifier's opinion of a model's risk `decision` (`ctx`: after its charge)."""
    route = call.env.routes.verify
    assert route is not None, "a verifier's route"
    return await second_opinion(
        risk,
        ctx,
        _first(risk, ctx, call, decision, request=request, response=response),
        route=route,
        env=call.env,
        pay=pay,
        restore=prompt.restore,
    )


def _first(
    risk: Risk,
    ctx: Situation,
    call: Call,
    decision: StructuredOutput,
    *,
    request: Request,
    response: Response,
) -> FirstOpinion:
    """The first call's opinion, as a second is asked about it."""
    assert isinstance(decision, RiskAssessment), "risk decides a risk_assessment"
    return FirstOpinion(
        decision,
        f"{response.provider}:{response.model}",
        call.tier,
        call.allocation.reasoning.depth,
        request,
        estimate_input_tokens(ctx, risk, call.tier, call.env),
    )


def _facts(facts: object, env: Budgeting, tier: ModelTier, granted: Allocation) -> object:
    """A simulated model's view of the second call: what it was granted, and (in a
    simulation) its own chance of being informed by the truth."""
    if not isinstance(facts, Ask):
        return facts
    foresight = env.foresight
    truth, informed = (
        (None, 0.0)
        if foresight is None
        else foresight.ask(tier, granted.reasoning, granted.profile)
    )
    return replace(
        facts, reasoning=granted.reasoning, profile=granted.profile, truth=truth, informed=informed
    )
