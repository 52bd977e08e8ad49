"""Decisions reused instead of asked again, kept for one life (the Golem holds one memo).

- The decision cache (the Bardo design's System 2 → System 1 distillation): a model's
  decision answers a materially identical situation within `cache_ttl`. A situation is
  the subsystem, the decision type, the tier asked, and the moment discretised: the
  market's regime, the probes that fired (the heartbeat's prediction error is their
  weights' sum, so they fix its severity), the proposed trade's action and size
  (÷ equity) in `cache_size_bucket` steps, and the events appraised.
- Judged proposals: risk is not asked again about a proposal its model judged within
  `verdict_window`: the same action and size (in `verdict_size_bucket` steps), in the
  same regime and prediction error (in `verdict_error_bucket` steps), whichever probes
  fired.

Only decisions a model made are kept, and a reuse is never kept again (it would outlive
its model's answer). A review the owner asked for (a steer) is neither reused nor kept.
Nothing is reused across a phase change: the owner calls `forget()` when the phase moves.
Death is never cached. A lookup is a dict read; an entry past its time is dropped when
read, and all such entries when the store passes `_KEPT`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Literal

from msgspec import Struct

from golem.inference import StructuredOutput
from golem.mortality import ModelTier, SubsystemName
from golem.runtime.config.sections import GolemConfig
from golem.subsystems.contract import Situation, Subsystem
from golem.subsystems.risk import Sizing, trade_notional
from golem.world.feed import FeedItem

__all__ = ["DecisionMemo", "Lookup", "MemoPolicy", "Reuse"]

_KEPT = 4096  # entries per store before the expired ones are swept
_RISK, _DEATH, _T0 = SubsystemName.RISK, SubsystemName.DEATH, ModelTier.T0

Key = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class MemoPolicy:
    """`cache_ttl` None: no decision cache; `verdict_window` None: risk is asked again."""

    cache_ttl: timedelta | None = None
    cached: frozenset[SubsystemName] = frozenset()
    cache_size_bucket: float = 0.05
    verdict_window: timedelta | None = None
    verdict_size_bucket: float = 0.05
    verdict_error_bucket: float = 0.1
    sizing: Sizing = field(default_factory=Sizing)  # how an unsized proposal is sized

    @classmethod
    def of(cls, config: GolemConfig, sizing: Sizing) -> MemoPolicy:
        """`[cache]` and `[subsystems.risk]`'s verdict keys compiled for a life; `sizing`:
        how risk and the heartbeat size a proposal, which the keys bucket by."""
        cache, risk = config.cache, config.subsystems.risk
        return cls(
            cache_ttl=cache.ttl if cache.enabled else None,
            cached=cache.cached(),
            cache_size_bucket=cache.size_bucket,
            verdict_window=risk.verdict_window,
            verdict_size_bucket=risk.verdict_size_bucket,
            verdict_error_bucket=risk.verdict_error_bucket,
            sizing=sizing,
        )

    @property
    def active(self) -> bool:
        return (self.cache_ttl is not None and bool(self.cached)) or (
            self.verdict_window is not None
        )


class Reuse(Struct, frozen=True):
    """Which lever reused a decision, the id of the model decision it reused, the
    world-feed items that decision's prompt showed (what a reuse rests on, too), and the
    seed its call was sampled with (`Response.seed`: a re-ask of it repeats it)."""

    by: Literal["cache", "verdict"]
    decision_id: str
    shown: tuple[FeedItem, ...] = ()
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class _Entry:
    decision: StructuredOutput
    tier: ModelTier
    decision_id: str
    until: datetime
    shown: tuple[FeedItem, ...] = ()
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class Lookup:
    """What a lookup found (`hit`, by `reuse`), and the keys a model's answer is kept under.
    `cache`: "hit" or "miss" when the cache was asked, None when it was not."""

    asked: ModelTier
    cache_key: Key | None
    verdict_key: Key | None
    hit: _Entry | None = None
    reuse: Reuse | None = None
    cache: Literal["hit", "miss"] | None = None


class DecisionMemo:
    def __init__(self, policy: MemoPolicy) -> None:
        self.policy = policy
        self._cache: dict[Key, _Entry] = {}
        self._verdicts: dict[Key, _Entry] = {}

    def forget(self) -> None:
        """Drop every entry: the phase moved (its owner calls this when it does)."""
        self._cache.clear()
        self._verdicts.clear()

    def recall(self, subsystem: Subsystem, ctx: Situation) -> Lookup | None:
        """The lookup for a run of `subsystem` that would ask a model, or None where
        neither lever applies (the run needs no model, or its subsystem is not kept)."""
        policy, name = self.policy, subsystem.name
        if ctx.steer is not None:  # the owner asked for a review: it is asked, never recalled
            return None
        cached = policy.cache_ttl is not None and name in policy.cached and name is not _DEATH
        judged = policy.verdict_window is not None and name is _RISK
        if not (cached or judged):
            return None
        asked = subsystem.tier(ctx)
        if asked is _T0 or subsystem.skip_reason(ctx) is not None:
            return None
        regime, probes = ctx.market.regime, ctx.probes
        verdict_key = cache_key = None
        if judged:
            error = None if probes is None else probes.prediction_error
            severity = None if error is None else int(error // policy.verdict_error_bucket)
            verdict_key = (
                regime,
                severity,
                *_proposal(ctx, policy.verdict_size_bucket, policy.sizing),
            )
        if cached:
            flags = () if probes is None else probes.flags
            kind = subsystem.decision_type(ctx).__name__
            trade = _proposal(ctx, policy.cache_size_bucket, policy.sizing)
            cache_key = (name, kind, asked, regime, flags, *trade, tuple(map(str, ctx.events)))
        lookup = Lookup(asked, cache_key, verdict_key)
        if verdict_key is not None and (hit := _fresh(self._verdicts, verdict_key, ctx)):
            return _found(lookup, hit, Reuse("verdict", hit.decision_id, hit.shown, hit.seed))
        if cache_key is None:
            return lookup
        if hit := _fresh(self._cache, cache_key, ctx):
            return _found(
                lookup, hit, Reuse("cache", hit.decision_id, hit.shown, hit.seed), cache="hit"
            )
        return replace(lookup, cache="miss")

    def keep(
        self,
        lookup: Lookup,
        ctx: Situation,
        decision: StructuredOutput,
        tier: ModelTier,
        decision_id: str,
        *,
        shown: tuple[FeedItem, ...] = (),
        seed: int | None = None,
    ) -> None:
        """A model's `decision` for the situation `lookup` was made for (`shown`: the feed
        items its prompt showed; `seed`: its call's sampling seed)."""
        policy, now = self.policy, ctx.now
        if lookup.cache_key is not None and policy.cache_ttl is not None:
            entry = _Entry(decision, tier, decision_id, now + policy.cache_ttl, shown, seed)
            _put(self._cache, lookup.cache_key, entry, now)
        if lookup.verdict_key is not None and policy.verdict_window is not None:
            entry = _Entry(decision, tier, decision_id, now + policy.verdict_window, shown, seed)
            _put(self._verdicts, lookup.verdict_key, entry, now)


def _proposal(ctx: Situation, bucket: float, sizing: Sizing) -> Key:
    """The proposed trade's action and its size ÷ equity in `bucket` steps."""
    trade = ctx.proposed
    if trade is None:
        return (None, None)
    equity = ctx.portfolio.equity_usd
    notional = trade_notional(trade, ctx.portfolio, sizing)
    return (trade.action, int(notional / equity // bucket) if equity > 0 else None)


def _fresh(store: dict[Key, _Entry], key: Key, ctx: Situation) -> _Entry | None:
    entry = store.get(key)
    if entry is None:
        return None
    if entry.until <= ctx.now:
        del store[key]
        return None
    return entry


def _put(store: dict[Key, _Entry], key: Key, entry: _Entry, now: datetime) -> None:
    if len(store) >= _KEPT:
        for stale in [k for k, e in store.items() if e.until <= now]:
            del store[stale]
        if len(store) >= _KEPT:
            store.clear()
    store[key] = entry


def _found(
    lookup: Lookup, hit: _Entry, reuse: Reuse, cache: Literal["hit"] | None = None
) -> Lookup:
    return replace(lookup, hit=hit, reuse=reuse, cache=cache)
