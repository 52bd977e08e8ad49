"""The curator's rules: how an evaluation changes the grimoire (prunes, cross-reference
nudges, promotions, decay of unconfirmed knowledge, archiving after low cycles), the
evidence episodes give an entry, and the rule-based evaluation used without a model."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from msgspec.structs import replace
from pydantic import BaseModel, ConfigDict, Field

from golem.mortality import ModelTier
from golem.subsystems.contract import GrimoireEntry
from golem.subsystems.curator.decision import CuratorEvaluation, Promotion, Relationship
from golem.world import Episode

__all__ = [
    "TIERS",
    "Curation",
    "CuratorConfig",
    "Evidence",
    "curate",
    "evidence",
    "normalized",
    "rule_evaluation",
    "tier_rank",
]

# The grimoire's tiers, lowest first: a promotion climbs one.
TIERS = ("staged", "belief", "principle")
_MAX_PROMOTIONS, _MAX_PRUNES = 8, 20  # the schema's bounds


class CuratorConfig(BaseModel):
    """The curator's parameters (DESIGN.md's domain reference gives the defaults)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    every_ticks: int = Field(default=50, ge=1)  # the runtime's schedule for the curator
    tier: ModelTier = ModelTier.T1
    archive_below: float = Field(default=0.1, ge=0, le=1)
    archive_after_cycles: int = Field(default=3, ge=1)  # consecutive cycles below the floor
    nudge: float = Field(default=0.1, ge=0, le=1)  # a strength-1 cross-reference moves this
    decay_per_cycle: float = Field(default=0.02, ge=0, le=1)  # unconfirmed knowledge fades
    promote_min_support: int = Field(default=5, ge=1)  # profitable episodes that confirm it
    promote_min_ratio: float = Field(default=2.0, ge=0)  # support ≥ ratio × against
    promote_min_confidence: float = Field(default=0.6, ge=0, le=1)
    prompt_entries: int = Field(default=20, ge=1)


@dataclass(frozen=True, slots=True)
class Evidence:
    """Resolved episodes in an entry's regime that made money (support) or lost it."""

    support: int = 0
    against: int = 0


@dataclass(frozen=True, slots=True)
class Curation:
    """What one curator cycle changes; `nudged` is each entry's confidence change."""

    upserts: tuple[GrimoireEntry, ...]
    archive: tuple[str, ...]
    promoted: tuple[str, ...]
    pruned: tuple[str, ...]
    archived: tuple[str, ...]
    nudged: dict[str, float]
    unknown_ids: tuple[str, ...]


def normalized(text: str) -> str:
    """Text as compared for duplicates: lower case, words only."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def tier_rank(entry: GrimoireEntry) -> int:
    return TIERS.index(entry.tier) if entry.tier in TIERS else 0


def evidence(entry: GrimoireEntry, episodes: Iterable[Episode]) -> Evidence:
    """Without reading the entry's words, the records can only say how trading went where
    the entry applies: an entry with a regime is judged by episodes in that regime, a
    general one (no regime, or "any") by every resolved episode."""
    general = entry.regime in (None, "", "any")
    support = against = 0
    for episode in episodes:
        if episode.outcome is None or episode.outcome.pnl_usd == 0:
            continue
        regime = episode.observation.regime
        if not general and (regime is None or regime.value != entry.regime):
            continue
        if episode.outcome.pnl_usd > 0:
            support += 1
        else:
            against += 1
    return Evidence(support, against)


def curate(
    grimoire: Sequence[GrimoireEntry],
    evaluation: CuratorEvaluation,
    episodes: Sequence[Episode],
    config: CuratorConfig,
) -> Curation:
    """Apply one evaluation, in order: prunes archive their entries; a `supports` reference
    raises its target by nudge × strength, a `contradicts` one lowers the less confident of
    the pair (the target on a tie), `extends` changes nothing; a promotion lifts its entry
    one tier (none above the top) and to its `to_confidence` (never down); entries that nothing
    confirmed this cycle (no support, no promotion, no profitable episode) decay; then an
    entry below `archive_below` for `archive_after_cycles` consecutive cycles is archived."""
    active = {e.id: e for e in grimoire if not e.archived}
    unknown: list[str] = []
    pruned = [i for i in dict.fromkeys(evaluation.prune_ids) if i in active]
    unknown += [i for i in evaluation.prune_ids if i not in active]
    current = {i: e for i, e in active.items() if i not in pruned}
    delta: dict[str, float] = defaultdict(float)
    confirmed: set[str] = set()
    for ref in evaluation.cross_references:
        missing = [i for i in (ref.source_id, ref.target_id) if i not in current]
        if missing:
            unknown += missing
            continue
        step = config.nudge * ref.strength
        if ref.relationship is Relationship.SUPPORTS:
            delta[ref.target_id] += step
            confirmed.add(ref.target_id)
        elif ref.relationship is Relationship.CONTRADICTS:
            weaker = min((ref.target_id, ref.source_id), key=lambda i: current[i].confidence)
            delta[weaker] -= step
    promoted = []
    for promotion in evaluation.promotions:
        entry = current.get(promotion.entry_id)
        if entry is None:
            unknown.append(promotion.entry_id)
            continue
        rank = tier_rank(entry)
        if rank + 1 < len(TIERS):
            confidence = max(entry.confidence, promotion.to_confidence)
            current[entry.id] = replace(entry, tier=TIERS[rank + 1], confidence=confidence)
            promoted.append(entry.id)
            confirmed.add(entry.id)
    for entry_id, entry in current.items():
        if entry_id not in confirmed and evidence(entry, episodes).support == 0:
            delta[entry_id] -= config.decay_per_cycle
    upserts, archived = [], []
    for entry_id, entry in current.items():
        confidence = round(min(1.0, max(0.0, entry.confidence + delta[entry_id])), 6)
        low = entry.low_cycles + 1 if confidence < config.archive_below else 0
        changed = replace(entry, confidence=confidence, low_cycles=low)
        if low >= config.archive_after_cycles:
            changed = replace(changed, archived=True)
            archived.append(entry_id)
        if changed != active[entry_id]:
            upserts.append(changed)
    upserts += [replace(active[i], archived=True) for i in pruned]
    nudged = {i: round(d, 6) for i, d in delta.items() if d}
    return Curation(
        upserts=tuple(upserts),
        archive=(*pruned, *archived),
        promoted=tuple(promoted),
        pruned=tuple(pruned),
        archived=tuple(archived),
        nudged=nudged,
        unknown_ids=tuple(dict.fromkeys(unknown)),
    )


def rule_evaluation(
    grimoire: Sequence[GrimoireEntry], episodes: Sequence[Episode], config: CuratorConfig
) -> CuratorEvaluation:
    """The evaluation without a model: duplicates (same words) are pruned, keeping the most
    confident and highest-tier copy; an entry confirmed by enough profitable episodes in its
    regime, clearly more than contradicted, and confident enough, is promoted one tier.
    Decay and archiving happen in `curate`, whichever path produced the evaluation."""
    active = [e for e in grimoire if not e.archived]
    keep: dict[str, GrimoireEntry] = {}
    for entry in active:
        key, kept = normalized(entry.text), keep.get(normalized(entry.text))
        if kept is None or (entry.confidence, tier_rank(entry)) > (
            kept.confidence,
            tier_rank(kept),
        ):
            keep[key] = entry
    kept_ids = {e.id for e in keep.values()}
    prune_ids = [e.id for e in active if e.id not in kept_ids][:_MAX_PRUNES]
    promotions = []
    for entry in sorted(active, key=lambda e: (-e.confidence, e.id)):
        rank = tier_rank(entry)
        if entry.id in prune_ids or rank + 1 >= len(TIERS):
            continue
        found = evidence(entry, episodes)
        if (
            found.support >= config.promote_min_support
            and found.support >= config.promote_min_ratio * found.against
            and entry.confidence >= config.promote_min_confidence
        ):
            reason = f"confirmed by {found.support} of {found.support + found.against} episodes"
            promotions.append(
                Promotion(
                    entry_id=entry.id,
                    from_confidence=entry.confidence,
                    to_confidence=entry.confidence,  # the episodes lift its tier, not its odds
                    reason=reason,
                )
            )
    promotions = promotions[:_MAX_PROMOTIONS]
    retained = [e for e in active if e.id not in prune_ids]
    health = sum(e.confidence for e in retained) / len(retained) if retained else 0.0
    return CuratorEvaluation(
        entries_evaluated=len(active),
        entries_retained=len(retained),
        entries_pruned=len(prune_ids),
        promotions=promotions,
        grimoire_health=round(min(1.0, max(0.0, health)), 4),
        prune_ids=prune_ids,
    )
