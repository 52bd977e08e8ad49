"""The judge stage: the second looks a subsystem declares on its model's decision
(`Subsystem.judges`), each a second opinion of which the stricter stands. The judges weigh
risk assessments (the only decision any subsystem declares judges for today).

A second model's opinion on a risk assessment (`[subsystems.risk] verify_with`):

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
from typing import Any

import structlog
import trio
from msgspec import Struct
from msgspec.structs import replace

from golem.inference import (
    NO_USAGE,
    ReasoningDepth,
    Request,
    Response,
    StructuredOutput,
    Usage,
)
from golem.mortality import Allocation, ModelTier
from golem.runtime.asking import (
    Asked,
    Budgeting,
    Call,
    Route,
    prompt_for,
    request_for,
    send,
)
from golem.runtime.charge import charge
from golem.runtime.grant import estimate_input_tokens, granted
from golem.runtime.store.ids import DecisionId
from golem.subsystems.context import WithoutFeed
from golem.subsystems.contract import Judge, JudgeKind, Situation, Subsystem
from golem.subsystems.facts import Ask
from golem.subsystems.risk import RiskAssessment, allowed_usd, stricter

__all__ = [
    "FirstOpinion",
    "Judged",
    "Verification",
    "Verified",
    "judge",
    "second_opinion",
]

log = structlog.get_logger("golem")


class Verification(Struct, frozen=True):
    """What the verifier said of one risk decision. `agreed` is None when it gave no answer
    (`skipped` says why); `second_kept`: the decision is the verifier's assessment. `sent`:
    the call went out (answered or failed, billed or not; False: never funded), taking
    `latency_s` (its provider's measure when it answered, else the time until it failed)."""

    by: str  # "provider:model", what answered (else the one configured)
    agreed: bool | None = None
    second_kept: bool = False
    cost_usd: float = 0.0
    usage: Usage = NO_USAGE
    skipped: str | None = None
    sent: bool = False
    latency_s: float = 0.0

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
    stake_usd: float  # what the assessment weighs (the judge's): the two are weighed by it


@dataclass(frozen=True, slots=True)
class Verified:
    """The decision that stands, the context after both charges, and what was verified."""

    decision: RiskAssessment
    ctx: Situation
    verification: Verification


async def second_opinion(
    subsystem: Subsystem,
    ctx: Situation,
    first: FirstOpinion,
    *,
    route: Route,
    env: Budgeting,
    role: str,
    restore: Callable[[StructuredOutput], StructuredOutput],
    disagreement: str = "risk_disagreement",
) -> Verified:
    """Ask `route` for its assessment of `ctx.proposed` (`ctx`: after the first charge),
    and keep the stricter: granted, asked and charged (under `role`) by the stages the
    first call went through. `restore` puts back what the prompt masked; `disagreement`
    names the warning logged when the two differ on approval."""
    configured = f"{route.provider.name}:{route.model}"
    state = env.state
    if state.wallet_usd is not None:  # the wallet as the first charge left it
        state = replace_dataclass(state, wallet_usd=min(state.wallet_usd, ctx.credits_usd))
    allocation = granted(
        subsystem,
        first.tier,
        route,
        env,
        input_tokens=first.input_tokens,
        at_most=first.depth,
        state=state,
    )
    if not isinstance(allocation, Allocation):
        skipped = f"not funded: {allocation.reason}"
        return Verified(first.decision, ctx, Verification(configured, skipped=skipped))
    call = Call(first.tier, first.tier, route, allocation, env, ())
    request = first.request.evolve(
        model=route.model,
        reasoning=allocation.reasoning,
        max_tokens=route.max_output_tokens,
        facts=_facts(first.request.facts, allocation),
    )
    started = trio.current_time()  # the clock the providers time their answers by
    answer = await send(subsystem.name, ctx, call, request, RiskAssessment, role=role)
    took = trio.current_time() - started
    paid, bill, response = charge(env, ctx, answer.bill), answer.bill, answer.response
    if response is None:
        assert answer.failure is not None
        exc = answer.failure
        log.warning("risk_verify_failed", verify_with=configured, error=exc.code)
        verification = Verification(
            configured,
            cost_usd=bill.cost,
            usage=bill.usage,
            skipped=f"{exc.code}: {exc}",
            sent=True,
            latency_s=took,
        )
        return Verified(first.decision, paid, verification)
    answered = (response.provider, response.model)
    second = restore(response.parsed)
    assert isinstance(second, RiskAssessment), "risk's verifier answers a risk_assessment"
    trade = ctx.proposed
    assert trade is not None, "only a proposed trade is verified"
    notional = first.stake_usd
    reconciled = stricter(first.decision, second, notional)
    by = ":".join(answered)
    if not reconciled.agreed:
        log.warning(
            disagreement,
            golem=ctx.golem_id,
            tick=ctx.tick,
            id=str(DecisionId(str(subsystem.name), ctx.tick, ctx.run)),
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
        sent=True,
        latency_s=response.latency_s if response.latency_s > 0 else took,
    )
    return Verified(reconciled.kept, paid, verification)


@dataclass(frozen=True, slots=True)
class Judged:
    """The decision that stands after the judges, the context after their charges, what
    each said, and the decision's cost and usage with theirs added."""

    decision: StructuredOutput
    ctx: Situation
    cost_usd: float
    usage: Usage
    verification: Verification | None = None  # the second model's
    without_text: Verification | None = None  # the feed-withheld re-ask's


async def judge(
    subsystem: Subsystem,
    ctx: Situation,
    paid: Situation,
    call: Call,
    decision: StructuredOutput,
    *,
    asked: Asked,
    spent: tuple[float, Usage],
) -> Judged:
    """The judge stage: `decision` (a model's on `ctx`, `paid` after its charge, `spent`
    its cost and usage, `asked` how it was asked) through each judge its subsystem
    declares on `ctx`, in turn; a second model is asked only when a verifier is routed."""
    response = asked.answer.response
    assert response is not None, "only an answered call is judged"
    judged = Judged(decision, paid, *spent)
    for declared in subsystem.judges(ctx, decision, asked.prompt.report.feed):
        first = _first(
            subsystem,
            judged.ctx,
            call,
            judged.decision,
            declared=declared,
            request=asked.request,
            response=response,
        )
        if declared.kind is JudgeKind.WITHOUT_TEXT:
            checked = await _without_text(subsystem, judged.ctx, call, first, response=response)
            judged = _added(judged, checked, without_text=checked.verification)
        elif declared.kind is JudgeKind.SECOND_MODEL and call.env.routes.verify is not None:
            checked = await second_opinion(
                subsystem,
                judged.ctx,
                first,
                route=call.env.routes.verify,
                env=call.env,
                role="verify",
                restore=asked.prompt.restore,
            )
            judged = _added(judged, checked, verification=checked.verification)
    return judged


def _added(judged: Judged, checked: Verified, **said: Verification) -> Judged:
    """`judged` after one more judge: its decision and context, its cost and usage added."""
    spent = checked.verification
    return replace_dataclass(
        judged,
        decision=checked.decision,
        ctx=checked.ctx,
        cost_usd=judged.cost_usd + spent.cost_usd,
        usage=judged.usage + spent.usage,
        **said,
    )


async def _without_text(
    subsystem: Subsystem,
    ctx: Situation,
    call: Call,
    first: FirstOpinion,
    *,
    response: Response,
) -> Verified:
    """The assessment again with the world feed withheld, on the first call's sampling
    seed, the stricter standing (`ctx`: after the first charge): external text may make
    the guard stricter, never looser (golem.subsystems.risk.provenance)."""
    clean = replace(ctx, memory=None if ctx.memory is None else WithoutFeed(ctx.memory))
    prompt = prompt_for(subsystem, clean, call, call.env)
    request = request_for(subsystem, clean, call, prompt, seed=response.seed)
    return await second_opinion(
        subsystem,
        ctx,
        replace_dataclass(first, request=request),
        route=call.route,
        env=call.env,
        role="without_text",
        restore=prompt.restore,
        disagreement="risk_swayed_by_text",
    )


def _first(
    subsystem: Subsystem,
    ctx: Situation,
    call: Call,
    decision: StructuredOutput,
    *,
    declared: Judge,
    request: Request,
    response: Response,
) -> FirstOpinion:
    """The first call's opinion, as a second is asked about it (`ctx`: before its charge,
    as the allocator's input estimate read it)."""
    assert isinstance(decision, RiskAssessment), "the judges weigh a risk_assessment"
    return FirstOpinion(
        decision,
        f"{response.provider}:{response.model}",
        call.tier,
        call.allocation.reasoning.depth,
        request,
        estimate_input_tokens(ctx, subsystem, call.tier, call.env),
        declared.stake_usd,
    )


def _facts(facts: object, granted: Allocation) -> object:
    """A simulated model's view of the second call: what it was granted."""
    if not isinstance(facts, Ask):
        return facts
    return replace(facts, reasoning=granted.reasoning, profile=granted.profile)
