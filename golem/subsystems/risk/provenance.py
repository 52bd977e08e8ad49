"""Provenance: the check that external text may inform a decision that moves money but may
not by itself cause it, tested counterfactually.

What a decision rests on is recorded from its prompt (ContextReport.grounds: the golem's
own readings, its grimoire entries, world-feed items by `ref`). Before risk assesses a
trade, the runtime (golem.runtime.provenance) asks this module, in every profile:

1. **parameters**: an address, token or amount the trade takes from external text the
   proposing prompt showed is blocked unless it is the golem's own (its wallet, the assets
   it holds, the size its own sizing gives) or on `[subsystems.risk] external_allow`; an
   address other than the wallet is blocked unless allowed, quoted or not;
2. **no external text**: a trade whose proposing decision showed none passes, marked;
3. **corroborated**: the golem's own rules call for the same action on the same
   Situation (the proposer's deterministic path proposes it; a rebalance in the same
   direction), or risk's hard limits call for it: when they demand less exposure (health
   factor below `health_floor`, a position above `max_position_fraction` of equity), they
   call for a hedge (the golem's own partial sale), an exit in the Terminal phase (whose
   guardrail allows exits only), as the heartbeat's rules do on a critical health
   factor; any other sale (an exit, a rebalance down, a sale of it all) goes on to step 4,
   so that an attack cannot turn the hedge the limits call for into an exit;
4. otherwise only the **counterfactual** can tell: the proposer is asked again on the same
   Situation with the external text withheld, repeating the proposing call's sampling
   (`Request.seed`), so that only the text differs. When that clean answer proposes a
   trade, the clean answer's trade (its action and size) is what goes to risk, in place
   of the proposed one: the text may inform a decision, not change what it does. No trade
   in it, or no clean answer (unfunded, failed): blocked, naming the items and what was
   missing.

An attack can also keep the golem from acting: a model that obeys "exit now" while the
golem holds nothing proposes no trade, and the rebalance it would have proposed is lost.
So a decision whose action is a trade (rebalance, hedge, exit, buy, sell) but which traded
nothing, whose prompt showed external text and whose rules do not say the same, is put to
the same counterfactual (`untraded_needs_check`); the clean answer's trades go to risk in
its place (`in_place_of_nothing`). The text may not change what the golem does, neither by
causing an action nor by preventing one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from msgspec.structs import replace
from pydantic import BaseModel, ConfigDict, field_validator

from golem.mortality import Phase
from golem.subsystems.contract import ProposedTrade, Provenance, Situation
from golem.subsystems.risk.limits import RiskLimits, adds_exposure, trade_notional
from golem.world import TradeAction
from golem.world.feed import FeedItem

__all__ = [
    "Provenance",
    "ProvenanceCheck",
    "ProvenancePolicy",
    "in_place_of_nothing",
    "provenance_in",
    "side",
    "untraded_needs_check",
]

_SELLING = frozenset({TradeAction.EXIT, TradeAction.HEDGE, TradeAction.SELL})
_TRADING = frozenset(
    str(action) for action in TradeAction if action not in (TradeAction.OBSERVE, TradeAction.HOLD)
)


class ProvenancePolicy(BaseModel):
    """`allow`: addresses and tokens an action may take from external text (compared
    case-insensitively); `enabled` False turns the check off (a measurement control)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    allow: frozenset[str] = frozenset()
    enabled: bool = True

    @field_validator("allow")
    @classmethod
    def _folded(cls, allow: frozenset[str]) -> frozenset[str]:
        """Folded to lower case once, as every comparison is made."""
        return frozenset(item.lower() for item in allow)

    def allows(self, value: str) -> bool:
        return value.lower() in self.allow


def provenance_in(ctx: Situation) -> Provenance | None:
    """The verdict the runtime gave risk's Situation, if any."""
    return ctx.provenance


def side(trade: ProposedTrade, ctx: Situation, limits: RiskLimits) -> str:
    """What kind of action the trade is: "sell" (exit, hedge, sell, a rebalance down) or
    "buy" (buy, a rebalance up); the kinds the corroboration compares."""
    if trade.action in _SELLING:
        return "sell"
    if trade.action is TradeAction.REBALANCE:
        return "buy" if adds_exposure(trade, ctx.portfolio, limits.sizing) else "sell"
    return "buy"


@dataclass(frozen=True, slots=True)
class ProvenanceCheck:
    """One trade's check. `shown`: the feed items its proposing decision's prompt showed;
    `rules`: the trades the proposer's deterministic path proposes on the same Situation,
    and `rules_said` its decision in a word ("observe", "hedge")."""

    ctx: Situation
    trade: ProposedTrade
    proposed_by: str
    shown: tuple[FeedItem, ...]
    rules: tuple[ProposedTrade, ...]
    rules_said: str
    limits: RiskLimits
    policy: ProvenancePolicy

    def verdict(self) -> Provenance | None:
        """Steps 1 to 3; None when only the counterfactual can tell."""
        refs = tuple(item.ref for item in self.shown)
        if not self.policy.enabled:
            return self._made(refs, "off")
        taken, quoting = _from_external(self.ctx, self.trade, self.limits, self.policy, self.shown)
        if taken:
            source = f"external text ({', '.join(quoting)})" if quoting else "no input of its own"
            reason = f"{', '.join(taken)} from {source}, not on the allow-list"
            return self._made(refs, "parameters", blocked=True, reason=reason, taken=taken)
        if not self.shown:
            return self._made(refs, "no external text")
        if any(self._same(rule) for rule in self.rules):
            return self._made(refs, "rules", f"rules: {self.rules_said}")
        demand = _demanded(self.ctx, self.limits)
        if demand is not None and self.trade.action is _called_for(self.ctx):
            return self._made(refs, "risk limits", f"risk limits: {demand}: {self.trade.action}")
        return None

    def counterfactual(
        self, clean: Sequence[ProposedTrade] | None, said: str, index: int = 0
    ) -> Provenance:
        """Step 4: `clean`, the trades the proposer proposed with the external text
        withheld (None: it gave no answer of a model), `said` its answer in a word or why
        there was none; `index`, this trade's place among the proposed ones: the clean
        trade in the same place goes ahead instead."""
        refs = tuple(item.ref for item in self.shown)
        if clean is not None and index < len(clean):
            mine, trade = clean[index], self.trade
            same = (mine.action, mine.size_usd) == (trade.action, trade.size_usd)
            size = "" if trade.size_usd is None else f" ${trade.size_usd:,.2f}"
            return replace(
                self._made(refs, "counterfactual", f"without external text: {said}"),
                goes_ahead=mine,
                replaces="" if same else f"{trade.action}{size}",
            )
        missing = f"rules: {self.rules_said}; the same decision without external text: {said}"
        reason = (
            f"{self.trade.action} not corroborated ({missing}) with external text in the "
            f"prompt ({', '.join(refs)})"
        )
        return self._made(refs, "counterfactual", blocked=True, reason=reason)

    def _same(self, other: ProposedTrade) -> bool:
        """Whether `other` is the same action as the trade (a rebalance: the same way)."""
        ctx, limits = self.ctx, self.limits
        return other.action == self.trade.action and side(other, ctx, limits) == side(
            self.trade, ctx, limits
        )

    def _made(
        self,
        refs: tuple[str, ...],
        check: str,
        grounds: str = "",
        *,
        blocked: bool = False,
        reason: str = "",
        taken: tuple[str, ...] = (),
    ) -> Provenance:
        return Provenance(self.proposed_by, refs, check, grounds, blocked, reason, taken)


def untraded_needs_check(policy: ProvenancePolicy, shown: Sequence[FeedItem], wanted: str) -> bool:
    """Whether a decision that traded nothing, its action `wanted` in a word, may need the
    clean re-ask: the check is on, its action is a trade and its prompt showed external
    text (the caller asks the rules only then; when they say the same, it needs none)."""
    return policy.enabled and bool(shown) and wanted in _TRADING


def in_place_of_nothing(
    proposed_by: str,
    shown: Sequence[FeedItem],
    wanted: str,
    clean: Sequence[ProposedTrade] | None,
    said: str,
) -> tuple[Provenance, ...]:
    """The verdicts on the clean answer's trades (`clean`; None: no answer of a model, so
    nothing), each going ahead in place of the decision that asked for `wanted` and traded
    nothing."""
    refs = tuple(item.ref for item in shown)
    grounds = f"without external text: {said}"
    return tuple(
        Provenance(
            proposed_by,
            refs,
            "counterfactual",
            grounds,
            goes_ahead=trade,
            replaces=f"{wanted} (nothing to trade)",
        )
        for trade in clean or ()
    )


def _called_for(ctx: Situation) -> TradeAction:
    """The sale risk's hard limits call for when they demand less exposure: a hedge, or an
    exit in the Terminal phase (where risk allows exits only)."""
    return TradeAction.EXIT if ctx.phase is Phase.TERMINAL else TradeAction.HEDGE


def _demanded(ctx: Situation, limits: RiskLimits) -> str | None:
    """What in risk's hard limits calls for less exposure, if anything."""
    health = ctx.market.health_factor
    if health is not None and health < limits.health_floor:
        return f"health factor {health:.2f} below {limits.health_floor:g}"
    portfolio = ctx.portfolio
    if portfolio.equity_usd > 0:
        share = portfolio.exposure_usd / portfolio.equity_usd
        if share > limits.max_position_fraction:
            return f"position {share:.0%} of equity above {limits.max_position_fraction:.0%}"
    return None


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
