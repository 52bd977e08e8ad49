"""The charge stage: what a call's attempts cost, recorded in the ledger once.

The ask stage reports a `Bill` (what answered, the usage, what the providers priced it:
golem.runtime.asking);
the charge stage records it under the key naming this run of this subsystem (and the
call's role in it beside the first: a judge's "verify", "without_text") and returns the
Situation with the credits the charge left, as the decision is acted on after it is paid
(death's testament states them). `held` keeps each attempt's bill as the provider answers
it, under the same key, where a kill of the tick cannot lose it.
"""

from __future__ import annotations

from msgspec.structs import replace

from golem.inference import BillSink, Usage
from golem.mortality import Charge, ModelTier, SubsystemName, split_diem, utc_day
from golem.runtime.asking import Bill, Budgeting, Route
from golem.subsystems.contract import Situation

__all__ = ["charge", "held"]


def key(ctx: Situation, subsystem: SubsystemName, tier: ModelTier, role: str | None = None) -> str:
    """What names this run of this subsystem's call in the ledger."""
    named = f"{ctx.golem_id}:{ctx.tick}:{ctx.run}:{subsystem}:{tier}"
    return f"{named}:{role}" if role else named


def charge(env: Budgeting, ctx: Situation, bill: Bill) -> Situation:
    """Record what every attempt of `bill`'s call cost, once. Returns `ctx` with the
    credits this charge left.

    `cost` is what the providers priced: an unpriced model costs 0.0, as the allocator
    estimates it (routes.py prices it FREE). `golem config check` refuses an unpriced
    model of a provider that needs a key; what is left unpriced is keyless (a server of
    one's own) and costs nothing here either."""
    usage, cost, route = bill.usage, bill.cost, bill.route
    if cost <= 0 and usage.total_tokens == 0:
        return ctx
    usd, diem = cost, 0.0
    if route.diem:
        left = env.state.diem_allowance - env.ledger.spent_diem(utc_day(ctx.now))
        usd, diem = split_diem(cost, left)
    provider, model = bill.answered or (route.provider.name, route.model)
    row = Charge(
        subsystem=bill.subsystem,
        provider=provider,
        model=model,
        tokens=usage,
        usd=usd,
        diem=diem,
        time=ctx.now,
        idempotency_key=key(ctx, bill.subsystem, bill.tier, bill.role),
    )
    if env.ledger.record(row) is not row or not usd:
        return ctx  # a replay of a run already charged: `ctx`'s credits count it already
    return replace(ctx, credits_usd=ctx.credits_usd - usd)


def held(
    env: Budgeting,
    ctx: Situation,
    subsystem: SubsystemName,
    route: Route,
    tier: ModelTier,
    *,
    role: str | None = None,
) -> BillSink | None:
    """Where each attempt's bill goes as the provider answers it (`env.hold_bill`),
    under the key the call's charge will have (`role`: a judge's, as `charge` keys it):
    a tick killed mid-call keeps them."""
    hold = env.hold_bill
    if hold is None:
        return None

    def kept(usage: Usage, cost: float, provider: str, model: str) -> None:
        if cost > 0 or usage.total_tokens:
            bill = Charge(
                subsystem=subsystem,
                provider=provider or route.provider.name,
                model=model or route.model,
                tokens=usage,
                usd=max(0.0, cost),
                diem=0.0,
                time=ctx.now,
                idempotency_key=key(ctx, subsystem, tier, role),
            )
            hold(bill)

    return kept
