"""The charge stage: what a call's attempts cost, recorded in the ledger once.

The ask stage reports a `Bill` (what answered, the usage, what the providers priced it,
and the key naming this run of this subsystem's call, with its role in it beside the
first: a judge's "verify", "without_text": golem.runtime.asking); the charge stage records
it under that key and returns the Situation with the credits the charge left, as the
decision is acted on after it is paid (death's testament states them). Each attempt's
bill was held under the same key as the provider answered it (the ask stage's), where a
kill of the tick cannot lose it.
"""

from __future__ import annotations

from msgspec.structs import replace

from golem.mortality import Charge, split_diem, utc_day
from golem.runtime.asking import Bill, Budgeting
from golem.subsystems.contract import Situation

__all__ = ["charge"]


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
        idempotency_key=bill.key,
    )
    if env.ledger.record(row) is not row or not usd:
        return ctx  # a replay of a run already charged: `ctx`'s credits count it already
    return replace(ctx, credits_usd=ctx.credits_usd - usd)
