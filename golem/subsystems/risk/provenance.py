"""Provenance: what a decision that moves money rests on, and the check that external text
cannot move it by itself.

A decision rests on the golem's own observations (the market numbers and probes it read,
its portfolio and phase), its grimoire, and external text (world-feed items, by `ref`).
The check is deterministic and runs after risk's verdict, whoever made it (a model, the
rules, a second opinion, a reused verdict), in every profile:

- an action is **corroborated** when the golem's own observations point its way: a fall
  in the price or a turbulent market, a weak health factor or a declining phase for an
  action that sells (an exit needs a larger fall than a hedge: it sells everything); a
  rise, or a position well under its target weight, for one that buys; a position off its
  target weight for a rebalance toward it;
- an action that is not corroborated while external text is in view (the newest feed items
  a prompt can show) is **blocked**, naming the items and what is missing;
- a parameter of the action (an address, a token, an amount) that appears in external text
  in view is **blocked** unless it is the golem's own (its wallet, the assets it holds, the
  size its own sizing gives) or on the allow-list (`[subsystems.risk] external_allow`); an
  address other than the golem's wallet is blocked unless allowed, quoted or not.

Without external text in view an uncorroborated action passes, marked: the check guards
against text from outside, not against the model's judgement of the golem's own numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from msgspec import Struct
from msgspec.structs import replace
from pydantic import BaseModel, ConfigDict, Field

from golem.mortality import Phase
from golem.subsystems.context.recall import estimate_regime, words_of
from golem.subsystems.contract import ProposedTrade, Situation
from golem.subsystems.risk.limits import RiskLimits, adds_exposure, trade_notional
from golem.world import TradeAction
from golem.world.feed import FeedItem

__all__ = ["Provenance", "ProvenancePolicy", "provenance_of"]

# What the golem's own numbers must show: a material move of the price. A hedge sells part
# of the position on a modest fall; an exit sells all of it and needs a fall three times as
# large. A z-score is not enough by itself: the heartbeat asks a model exactly when the
# price strays from its mean, so a z-score would corroborate nearly every model proposal
# (in a calm market a z of -2 can be a 0.06% dip).
_HEDGE_FALL = (-0.01, -0.005)  # window return, last-tick return
_EXIT_FALL = (-0.03, -0.015)
_RISE = (0.01, 0.005)
_OFF_TARGET = 0.1  # a position this far from its target weight (share of equity)
_SELLING = frozenset({TradeAction.EXIT, TradeAction.HEDGE, TradeAction.SELL})
_GRIMOIRE_CITED = 8  # the entries a decision is recorded to rest on, at most


class ProvenancePolicy(BaseModel):
    """`in_view`: how many of the newest feed items count as in view (the most any
    profile's prompt shows); `allow`: addresses and tokens an action may take from
    external text (compared case-insensitively)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    in_view: int = Field(default=6, ge=0)
    allow: frozenset[str] = frozenset()

    def allows(self, value: str) -> bool:
        return value.lower() in {item.lower() for item in self.allow}


class Provenance(Struct, frozen=True):
    """What one money-moving decision rests on, and the check's verdict on it."""

    observed: tuple[str, ...]  # the golem's own observations that point the action's way
    grimoire: tuple[str, ...]  # the entries it could draw on, by id
    external: tuple[str, ...]  # feed items in view, by ref
    blocked: bool = False
    reason: str = ""  # why it is blocked, or "uncorroborated" when it passes unsupported
    from_external: tuple[str, ...] = ()  # parameters found in external text

    @property
    def corroborated(self) -> bool:
        return bool(self.observed)

    def fields(self) -> dict[str, object]:
        """The decision log's `provenance` field."""
        fields: dict[str, object] = {
            "observed": list(self.observed),
            "grimoire": list(self.grimoire),
            "external": list(self.external),
        }
        if self.blocked:
            fields["blocked"] = True
        if self.reason:
            fields["reason"] = self.reason
        if self.from_external:
            fields["from_external"] = list(self.from_external)
        return fields


def provenance_of(
    ctx: Situation, trade: ProposedTrade, limits: RiskLimits, policy: ProvenancePolicy
) -> Provenance:
    """The provenance of `trade` proposed in `ctx`, blocked when external text would be
    moving the money (see the module's docstring)."""
    items = _in_view(ctx, policy.in_view)
    external = tuple(item.ref for item in items)
    observed = tuple(_corroboration(ctx, trade, limits))
    grimoire = _grimoire(ctx, trade)
    taken, quoting = _from_external(ctx, trade, limits, policy, items)
    if taken:
        source = f"external text ({', '.join(quoting)})" if quoting else "no input of its own"
        reason = f"{', '.join(taken)} from {source}, not on the allow-list"
        return Provenance(observed, grimoire, external, True, reason, taken)
    if observed:
        return Provenance(observed, grimoire, external)
    if not items:
        return Provenance(observed, grimoire, external, reason="uncorroborated")
    reason = (
        f"{trade.action} not corroborated by the golem's own observations "
        f"({_missing(trade, ctx, limits)}) with external text in view ({', '.join(external)})"
    )
    return Provenance(observed, grimoire, external, True, reason)


def _in_view(ctx: Situation, n: int) -> Sequence[FeedItem]:
    memory = ctx.memory
    return () if memory is None or n <= 0 else memory.feed(n)


def _falls(ctx: Situation, bounds: tuple[float, float]) -> list[str]:
    m, (window, tick) = ctx.market, bounds
    seen = []
    if m.delta_period is not None and m.delta_period <= window:
        seen.append(f"price {m.delta_period:+.2%} over the window")
    if m.delta_1 is not None and m.delta_1 <= tick:
        seen.append(f"price {m.delta_1:+.2%} in the last tick")
    return seen


def _rises(ctx: Situation) -> list[str]:
    m, (window, tick) = ctx.market, _RISE
    seen = []
    if m.delta_period is not None and m.delta_period >= window:
        seen.append(f"price {m.delta_period:+.2%} over the window")
    if m.delta_1 is not None and m.delta_1 >= tick:
        seen.append(f"price {m.delta_1:+.2%} in the last tick")
    return seen


def _strain(ctx: Situation, limits: RiskLimits, *, exiting: bool) -> list[str]:
    """The golem's own state calling for less exposure."""
    seen = []
    health = ctx.market.health_factor
    floor = limits.health_floor if exiting else limits.health_warning
    if health is not None and health < floor:
        seen.append(f"health factor {health:.2f}")
    if ctx.phase in (Phase.DECLINING, Phase.TERMINAL):
        seen.append(f"phase {ctx.phase}")
    vol = ctx.market.return_volatility
    if not exiting and vol is not None and vol > limits.volatility_warning:
        seen.append(f"volatility {vol:.4f} per tick")
    return seen


def _off_target(ctx: Situation, limits: RiskLimits) -> float:
    """The position's weight minus its target weight (share of equity)."""
    portfolio = ctx.portfolio
    if portfolio.equity_usd <= 0:
        return 0.0
    weight = portfolio.exposure_usd / portfolio.equity_usd
    return weight - limits.sizing.target_weight


def _corroboration(ctx: Situation, trade: ProposedTrade, limits: RiskLimits) -> list[str]:
    action = trade.action
    if action is TradeAction.EXIT:
        return _falls(ctx, _EXIT_FALL) + _strain(ctx, limits, exiting=True)
    if action in _SELLING:
        return _falls(ctx, _HEDGE_FALL) + _strain(ctx, limits, exiting=False)
    off = _off_target(ctx, limits)
    if action is TradeAction.REBALANCE:
        adding = adds_exposure(trade, ctx.portfolio, limits.sizing)
        seen = [f"position {off:+.0%} off its target weight"] if abs(off) >= _OFF_TARGET else []
        more = _rises(ctx) if adding else _falls(ctx, _HEDGE_FALL)
        return seen + more
    if action is TradeAction.BUY:
        under = [f"position {off:+.0%} under its target weight"] if off <= -_OFF_TARGET else []
        return under + _rises(ctx)
    return ["nothing traded"]  # observe, hold: no money moves


def _missing(trade: ProposedTrade, ctx: Situation, limits: RiskLimits) -> str:
    if trade.action is TradeAction.EXIT:
        return (
            f"no fall of {-_EXIT_FALL[0]:.0%} over the window or {-_EXIT_FALL[1]:.1%} in a tick, "
            f"no health factor below {limits.health_floor:g}, phase {ctx.phase}"
        )
    if trade.action in _SELLING:
        return (
            f"no fall of {-_HEDGE_FALL[0]:.0%} over the window or {-_HEDGE_FALL[1]:.1%} in a "
            f"tick, no turbulence, no weak health factor, phase {ctx.phase}"
        )
    return f"no move its way, position within {_OFF_TARGET:.0%} of its target weight"


def _grimoire(ctx: Situation, trade: ProposedTrade) -> tuple[str, ...]:
    memory = ctx.memory
    if memory is None:
        return tuple(e.id for e in ctx.grimoire if not e.archived)[:_GRIMOIRE_CITED]
    words = words_of(f"{trade.action} {trade.reason}")
    found = memory.knowledge(estimate_regime(ctx.market), words, _GRIMOIRE_CITED)
    return tuple(entry.id for entry in found)


def _from_external(
    ctx: Situation,
    trade: ProposedTrade,
    limits: RiskLimits,
    policy: ProvenancePolicy,
    items: Sequence[FeedItem],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The trade's parameters that are neither the golem's own nor allowed and could only
    have come from outside, and the refs of the items that quote them. An address other
    than the golem's wallet can come from nowhere else, quoted in view or not."""
    taken: list[str] = []
    quoting: list[str] = []

    def found(label: str, hit: Callable[[str], bool]) -> None:
        taken.append(label)
        quoting.extend(item.ref for item in items if hit(item.text.lower()))

    address = trade.to_address
    wallet = (ctx.wallet or "").lower()
    if address is not None and address.lower() != wallet and not policy.allows(address):
        found(f"address {address}", lambda text: address.lower() in text)
    asset = trade.asset
    held = {name.lower() for name in ctx.portfolio.positions}
    if asset is not None and asset.lower() not in held and not policy.allows(asset):
        word = re.compile(rf"(?<![\w$]){re.escape(asset.lower())}(?!\w)")
        if any(word.search(item.text.lower()) for item in items):
            found(f"token {asset}", lambda text: word.search(text) is not None)
    size = trade.size_usd
    if size is not None and trade.action is not TradeAction.EXIT:
        sized = trade_notional(replace(trade, size_usd=None), ctx.portfolio, limits.sizing)
        if abs(size - sized) > 0.01 and any(_quotes_amount(i.text, size) for i in items):
            found(f"amount ${size:,.2f}", lambda text: _quotes_amount(text, size))
    return tuple(taken), tuple(dict.fromkeys(quoting))


_AMOUNT = re.compile(r"\$?\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m)?\b", re.I)


def _quotes_amount(text: str, usd: float) -> bool:
    for match in _AMOUNT.finditer(text):
        value = float(match[1].replace(",", "") or 0)
        value *= {"k": 1e3, "m": 1e6}.get((match[2] or "").lower(), 1.0)
        if value > 0 and abs(value - usd) <= 0.005 * usd:
            return True
    return False
