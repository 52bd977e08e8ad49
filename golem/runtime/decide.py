"""One decision, end to end: the spine of DESIGN.md's "path of one decision", as stages
entered once each, in this order:

1. plan (here): what the subsystem wants (`Plan`: the tier it asks, or why it skips); T0
   is the deterministic path, no money moves.
2. grant (grant.py): the allocator's answer (`Call`), degrading T2 → T1 → T0 or skip.
3. ask (asking.py): the brief assembled into a prompt, its request sent with the attempts
   the grant allows (`Asked`: the response or the failure, and its `Bill`).
4. charge (charge.py): every attempt paid, at what the provider that answered priced it,
   before anything is acted on or judged (a judge's call is granted on what is left).
5. judge (verify.py): the second looks the subsystem declares (`Subsystem.judges`), each
   granted, asked and charged by the stages above (`Judged`).
6. record (here): the subsystem acts on the decision that stands, and the
   `DecisionRecord` is built by name from the stages' outputs, for the caller to publish.

A stage between judge and record (an action gate, an owner's approval) is one more call
in `_asked`, taking the `Judged` and returning it (or a decision that stands instead).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import structlog
from msgspec.structs import replace

from golem.inference import (
    NO_USAGE,
    Request,
    Response,
    StructuredOutput,
    StructuredOutputInvalid,
    Usage,
)
from golem.mortality import Allocation, Degradation, ModelTier, SubsystemName
from golem.runtime.asking import Asked, Call, Funds, ask
from golem.runtime.charge import charge
from golem.runtime.grant import Declined, grant
from golem.runtime.memo import DecisionMemo, Lookup, Reuse
from golem.runtime.quiet_records import QuietRecords
from golem.runtime.record import DecisionRecord
from golem.runtime.verify import Verification, judge
from golem.subsystems.context import ContextReport
from golem.subsystems.contract import Outcome, Situation, Subsystem

if TYPE_CHECKING:
    from golem.runtime.golem import Golem

__all__ = ["Decisions", "Plan", "decide", "plan"]

log = structlog.get_logger("golem")


@dataclass(frozen=True, slots=True)
class Plan:
    """What a subsystem wants of this run: the tier it `asked` (T0: no model), or the
    `skip_reason` it gave for not running."""

    asked: ModelTier
    skip_reason: str | None = None


async def decide(
    subsystem: Subsystem,
    ctx: Situation,
    funds: Funds,
    memo: DecisionMemo | None = None,
    *,
    seed: int | None = None,
) -> DecisionRecord:
    """Run `subsystem` once on `ctx`: the record of the decision, for the caller to
    publish. Never raises for a provider's failure or a malformed answer: those end in the
    deterministic path, their warning logged. `funds`: what the decision is paid from
    (its Budgeting made only when a model may be asked: a T0 run, most heartbeats, needs
    none).
    `memo`: where a model's decision for the same situation may be found (reused at no
    cost, before anything is allocated) and where a new one is kept. `seed`: the sampling
    seed of an earlier call this one repeats (`Request.seed`)."""
    lookup = None if memo is None else memo.recall(subsystem, ctx)
    if lookup is not None and lookup.hit is not None:
        return _reused(subsystem, ctx, lookup)
    record = await _decided(subsystem, ctx, funds, seed)
    if memo is None or lookup is None:
        return record
    if record.source == "model" and record.decision is not None:
        shown = () if record.context is None else record.context.feed
        seed = None if record.response is None else record.response.seed
        memo.keep(
            lookup, ctx, record.decision, record.tier, record.decision_id, shown=shown, seed=seed
        )
    return replace(record, cache=lookup.cache) if lookup.cache else record


def plan(subsystem: Subsystem, ctx: Situation) -> Plan:
    """The plan stage: the tier `subsystem` asks for on `ctx`, or why it does not run."""
    return Plan(subsystem.tier(ctx), subsystem.skip_reason(ctx))


async def _decided(
    subsystem: Subsystem, ctx: Situation, funds: Funds, seed: int | None
) -> DecisionRecord:
    planned = plan(subsystem, ctx)
    if planned.skip_reason is not None:
        return _skipped(
            subsystem, ctx, asked=planned.asked, tier=planned.asked, reason=planned.skip_reason
        )
    if planned.asked is ModelTier.T0:
        return _deterministic(subsystem, ctx, planned.asked, Declined())
    env = funds.budgeting()
    call = grant(subsystem, ctx, planned.asked, env)
    if isinstance(call, Declined):
        if call.skip_reason is not None:
            tier = planned.asked if call.tier is None else call.tier
            return _skipped(
                subsystem,
                ctx,
                asked=planned.asked,
                tier=tier,
                reason=call.skip_reason,
                declined=call,
            )
        return _deterministic(subsystem, ctx, planned.asked, call)
    asked = await ask(subsystem, ctx, call, seed=seed)
    paid = charge(env, ctx, asked.answer.bill)
    return await _asked(subsystem, ctx, paid, call, asked)


async def _asked(
    subsystem: Subsystem, ctx: Situation, paid: Situation, call: Call, asked: Asked
) -> DecisionRecord:
    """The record of a granted call, asked and charged (`paid`: `ctx` after the charge):
    its decision judged and acted on, or the deterministic path when it failed."""
    answer, env, route = asked.answer, call.env, call.route
    bill, response = answer.bill, answer.response
    if response is None:
        exc = answer.failure
        assert exc is not None, "an answer without a response says why"
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
        declined = Declined(call.degradations, error=f"{exc.code}: {exc}")
        fallback = _deterministic(subsystem, paid, call.asked, declined)
        return replace(
            fallback,
            tier=call.tier,
            allocation=call.allocation,
            usage=bill.usage,
            cost_usd=bill.cost,
            context=asked.prompt.report,
            failed_attempts=exc.failed_attempts,
        )
    key, cache = call.prompt_key, env.prompt_cache
    if key is not None and cache is not None and response.provider == route.provider.name:
        # The route's own provider answered (not a fallback's member): its cache is warm.
        cache.sent(route.provider.name, route.model, key, ctx.now.timestamp(), response.usage)
    decision = asked.prompt.restore(response.parsed)
    spent = (bill.cost, bill.usage)
    judged = await judge(subsystem, ctx, paid, call, decision, asked=asked, spent=spent)
    return _record(
        ctx,
        subsystem=subsystem.name,
        tier_asked=call.asked,
        tier=call.tier,
        source="model",
        decision=judged.decision,
        outcome=subsystem.act(judged.ctx, judged.decision),
        response=response,
        allocation=call.allocation,
        degradations=call.degradations,
        cost_usd=judged.cost_usd,
        usage=judged.usage,
        context=asked.prompt.report,
        verification=judged.verification,
        request=asked.request,
        without_text=judged.without_text,
    )


def _reused(subsystem: Subsystem, ctx: Situation, lookup: Lookup) -> DecisionRecord:
    """The record of a model decision applied again: it costs nothing and says whose it is."""
    hit, reuse = lookup.hit, lookup.reuse
    assert hit is not None and reuse is not None
    outcome = subsystem.act(ctx, hit.decision)
    summary = f"{outcome.summary} (reused {reuse.by}: {reuse.decision_id})"
    return _record(
        ctx,
        subsystem=subsystem.name,
        tier_asked=lookup.asked,
        tier=hit.tier,
        source="reused",
        decision=hit.decision,
        outcome=replace(outcome, summary=summary),
        reused=reuse,
        cache=lookup.cache,
    )


def _skipped(
    subsystem: Subsystem,
    ctx: Situation,
    *,
    asked: ModelTier,
    tier: ModelTier,
    reason: str,
    declined: Declined | None = None,
) -> DecisionRecord:
    return _record(
        ctx,
        subsystem=subsystem.name,
        tier_asked=asked,
        tier=tier,
        source="skipped",
        degradations=() if declined is None else declined.degradations,
        error=None if declined is None else declined.error,
        skip_reason=reason,
    )


def _deterministic(
    subsystem: Subsystem, ctx: Situation, asked: ModelTier, declined: Declined
) -> DecisionRecord:
    """The decision without a model: "fallback" when a model was granted and failed (or
    none serves the tier: `declined.error`), "deterministic" otherwise."""
    decision = subsystem.deterministic(ctx)
    if decision is None:
        reason = "no deterministic path"
        return _skipped(
            subsystem, ctx, asked=asked, tier=ModelTier.T0, reason=reason, declined=declined
        )
    return _record(
        ctx,
        subsystem=subsystem.name,
        tier_asked=asked,
        tier=ModelTier.T0,
        source="deterministic" if declined.error is None else "fallback",
        decision=decision,
        outcome=subsystem.act(ctx, decision),
        degradations=declined.degradations,
        error=declined.error,
    )


class Decisions:
    """How a golem's subsystems are run: each decision paid from its `funds` (the standing
    read as it begins), looked up in and kept in its `memo`, and its record published."""

    def __init__(
        self,
        funds: Funds,
        memo: DecisionMemo | None,
        publish: Callable[[DecisionRecord], None],
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.funds, self.memo, self._publish = funds, memo, publish
        self._now = now  # the golem's clock: when each run began (None: not said)

    async def run(self, subsystem: Subsystem, ctx: Situation) -> DecisionRecord:
        began = None if self._now is None else self._now()
        record = _began(await decide(subsystem, ctx, self.funds, self.memo), began)
        self._publish(record)
        return record

    def quiet(self, golem: Golem) -> QuietRecords:
        """The part of a fast-forward that makes and publishes `golem`'s heartbeat
        decisions over a quiet stretch (quiet_records.py), made as it is now."""
        return QuietRecords.of(golem)

    async def again(
        self, subsystem: Subsystem, ctx: Situation, *, of: DecisionRecord, seed: int | None
    ) -> DecisionRecord:
        """A counterfactual of `of`: `subsystem` asked anew on `ctx` (never a reused
        decision), sampled with `seed`, its record naming the decision it re-asks."""
        began = None if self._now is None else self._now()
        record = await decide(subsystem, ctx, self.funds, seed=seed)
        record = replace(_began(record, began), counterfactual_of=of.decision_id)
        self._publish(record)
        return record


def _began(record: DecisionRecord, began: datetime | None) -> DecisionRecord:
    """`record`, saying when its run began when that is after its context's time (a real
    clock moved since the tick began; a simulation's never has, and its records stay
    as they are)."""
    return record if began is None or began <= record.time else replace(record, began=began)


def _record(
    ctx: Situation,
    *,
    subsystem: SubsystemName,
    tier_asked: ModelTier,
    tier: ModelTier,
    source: str,
    decision: StructuredOutput | None = None,
    outcome: Outcome | None = None,
    response: Response | None = None,
    allocation: Allocation | None = None,
    degradations: tuple[Degradation, ...] = (),
    cost_usd: float = 0.0,
    usage: Usage = NO_USAGE,
    context: ContextReport | None = None,
    verification: Verification | None = None,
    request: Request | None = None,
    without_text: Verification | None = None,
    error: str | None = None,
    skip_reason: str | None = None,
    reused: Reuse | None = None,
    cache: str | None = None,
) -> DecisionRecord:
    """The record stage: a run of `subsystem` on `ctx`, each field named."""
    return DecisionRecord(
        golem=ctx.golem_id,
        time=ctx.now,
        vitality=ctx.vitality,
        phase=ctx.phase,
        tick=ctx.tick,
        run=ctx.run,
        situation=ctx,
        subsystem=subsystem,
        tier_asked=tier_asked,
        tier=tier,
        source=source,
        decision=decision,
        outcome=outcome,
        response=response,
        allocation=allocation,
        degradations=degradations,
        cost_usd=cost_usd,
        usage=usage,
        context=context,
        verification=verification,
        request=request,
        without_text=without_text,
        error=error,
        skip_reason=skip_reason,
        reused=reused,
        cache=cache,
    )
