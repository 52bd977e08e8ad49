"""What a dream is about: its kind (given, or by rotation), the conditions it needs, the
hypnagogic fragment recombined from a seed, and the threat scenario it rehearses."""

from __future__ import annotations

import random
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from golem.inference import StructuredOutput
from golem.mortality import ModelTier, Phase
from golem.subsystems.contract import RECENT_EPISODES, Dreaming, GrimoireEntry, Situation
from golem.subsystems.dream.fragment import FragmentEvaluation
from golem.subsystems.dream.integration import DreamIntegration
from golem.subsystems.dream.replay_analysis import ReplayAnalysis
from golem.subsystems.dream.threat import ThreatAssessment
from golem.world import Episode

__all__ = [
    "DECISIONS",
    "ROTATION",
    "DreamConfig",
    "DreamKind",
    "describe",
    "dream_kind",
    "fragment",
    "resolved",
    "scenario",
    "staged",
    "why_not",
]


class DreamKind(StrEnum):
    REPLAY = "replay"  # NREM replay of recent episodes
    HYPNAGOGIC = "hypnagogic"  # the observer judges a recombined fragment
    INTEGRATION = "integration"  # staged knowledge is promoted, kept staged or discarded
    THREAT = "threat"  # rehearsal of a bad scenario


# Replay first: it stages the lessons that a later integration reviews.
ROTATION = (DreamKind.REPLAY, DreamKind.HYPNAGOGIC, DreamKind.INTEGRATION, DreamKind.THREAT)
DECISIONS: dict[DreamKind, type[StructuredOutput]] = {
    DreamKind.REPLAY: ReplayAnalysis,
    DreamKind.HYPNAGOGIC: FragmentEvaluation,
    DreamKind.INTEGRATION: DreamIntegration,
    DreamKind.THREAT: ThreatAssessment,
}


class DreamConfig(BaseModel):
    """The dream's parameters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    every_ticks: int = Field(default=500, ge=1)  # the runtime's schedule; the rotation's step
    tier: ModelTier = ModelTier.T1
    # Resolved episodes needed to dream at all, among the RECENT_EPISODES a Situation shows.
    min_episodes: int = Field(default=10, ge=0, le=RECENT_EPISODES)
    replay_episodes: int = Field(default=20, ge=1)  # the most recent ones a replay sees
    rule_min_group: int = Field(default=3, ge=1)  # episodes per (regime, action) for a rule
    max_new_confidence: float = Field(default=0.6, ge=0, le=1)  # a dream is not evidence
    reinforce: float = Field(default=0.05, ge=0, le=1)  # a lesson dreamt again gains this
    threat_confidence: float = Field(default=0.4, ge=0, le=1)  # a rehearsed plan, staged
    threat_scenarios: tuple[str, ...] = Field(
        default=(
            "a 30% crash within an hour with the lending position's health factor at 1.1",
            "liquidity dries up: exiting costs ten times the usual slippage",
            "the price feed freezes for an hour in a volatile regime",
            "funding turns strongly negative for three days while the trend reverses",
        ),
        min_length=1,
    )


def dream_kind(ctx: Situation, config: DreamConfig) -> DreamKind:
    """`ctx.dreaming.kind` when the caller names one; else the rotation, stepped by
    `ctx.dreaming.cycle` (a count of dreams) or, without it, by tick ÷ every_ticks, so
    dreams on the default schedule take the four kinds in turn. Integration is in the
    rotation only while something is staged: a skipped dream does not count, so with
    nothing to integrate the rotation would stop there, and the golem never dream again
    (a replay that drew no lesson and a fragment discarded were enough)."""
    told = ctx.dreaming or Dreaming()
    if told.kind is not None:
        return DreamKind(told.kind)
    cycle = ctx.tick // config.every_ticks if told.cycle is None else told.cycle
    kinds = (
        ROTATION if staged(ctx) else tuple(k for k in ROTATION if k is not DreamKind.INTEGRATION)
    )
    return kinds[cycle % len(kinds)]


def resolved(ctx: Situation) -> list[Episode]:
    return [e for e in ctx.episodes if e.outcome is not None]


def staged(ctx: Situation) -> list[GrimoireEntry]:
    """The knowledge an integration dream reviews: staged and not archived."""
    return [e for e in ctx.grimoire if e.tier == "staged" and not e.archived]


def why_not(ctx: Situation, config: DreamConfig, kind: DreamKind) -> str | None:
    """Why no dream now: a dying golem does not dream, a poor one cannot pay, a young one
    has too little to dream about; integration needs staged knowledge to integrate."""
    if ctx.phase is Phase.TERMINAL:
        return "terminal phase: no dreams, only the death reflection"
    if ctx.credits_usd <= 0:
        return "no credits left to dream on"
    count = len(resolved(ctx))
    if count < config.min_episodes:
        return f"too few episodes: {count} resolved of {config.min_episodes} needed"
    if kind is DreamKind.INTEGRATION and not staged(ctx):
        return "nothing to integrate: no staged knowledge"
    return None


def describe(episode: Episode) -> str:
    regime = episode.observation.regime
    pnl = "pending" if episode.outcome is None else f"pnl {episode.outcome.pnl_usd:+.2f}"
    where = f"a {regime.value} market" if regime is not None else "the market"
    return f"episode {episode.id}: {episode.decision.action} in {where} → {pnl}"


def _rng(ctx: Situation) -> random.Random:
    seed = None if ctx.dreaming is None else ctx.dreaming.seed
    return random.Random(ctx.tick if seed is None else seed)


def fragment(ctx: Situation) -> str:
    """Two memories, picked by the seed (`ctx.dreaming.seed`, else the tick) from the
    active grimoire and the resolved episodes, put side by side as one possible pattern."""
    pool = [f"[{e.id}] {e.text}" for e in ctx.grimoire if not e.archived]
    pool += [describe(e) for e in resolved(ctx)]
    if len(pool) < 2:
        return pool[0] if pool else "an empty mind"
    first, second = _rng(ctx).sample(pool, 2)
    return f"What if these are one pattern? (1) {first} (2) {second}"


def scenario(ctx: Situation, config: DreamConfig) -> str:
    """`ctx.dreaming.threat_scenario` when given, else one of the configured scenarios,
    picked by the seed."""
    named = None if ctx.dreaming is None else ctx.dreaming.threat_scenario
    if named is not None:
        return named
    return _rng(ctx).choice(config.threat_scenarios)
