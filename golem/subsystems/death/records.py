"""The testament the golem's own records can write when no model answers: knowledge it
held, episodes that went wrong or surprised it, what killed it, and the arc of its life
read from its profit (or vitality) trajectory and its mood history."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from golem.mortality import DeathCause, ModelTier
from golem.subsystems.contract import GrimoireEntry, Situation
from golem.subsystems.curator.rules import tier_rank
from golem.subsystems.death.decision import ArcClass, CausalLink, DeathTestament
from golem.world import Episode

__all__ = [
    "NOTHING_LEARNED",
    "DeathConfig",
    "arc_class",
    "cause_of",
    "killed_by",
    "records_testament",
]

_LIST = 6  # the testament's list bound
# What the records say was learned when nothing was (the testament names a lesson or a
# mistake): no lesson to pass on.
NOTHING_LEARNED = "nothing I trusted: no knowledge earned enough confidence"


class DeathConfig(BaseModel):
    """Thanatopsis' parameters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tier: ModelTier = ModelTier.T2  # the life review deserves the strong model; always funded
    json_name: str = "testament.json"
    markdown_name: str = "testament.md"
    top: int = Field(default=3, ge=1, le=_LIST)  # items per list in the records' testament
    learned_floor: float = Field(default=0.5, ge=0, le=1)  # held knowledge, not a suspicion
    suspect_floor: float = Field(default=0.3, ge=0, le=1)
    arc_flat_equity: float = Field(default=0.01, ge=0)  # a PnL move under 1% of equity is flat
    arc_flat_vitality: float = Field(default=0.05, ge=0)


_CAUSES = {
    DeathCause.KILL_SWITCH: "the operator's kill switch",
    DeathCause.ECONOMIC: "credits ran out: ${credits:.2f} of ${initial:.2f} left, "
    "burning ${burn:.4f} a tick",
    DeathCause.EPISTEMIC: "my predictions stopped matching the market: the epistemic clock ran out",
    DeathCause.STOCHASTIC: "the hazard roll at tick {tick}: chance, not a mistake",
    DeathCause.VITALITY: "vitality fell to {vitality:.3f}, below the floor",
    DeathCause.TERMINAL: "Terminal outlasted its grace: at vitality {vitality:.3f} I could "
    "no longer act, and did not linger",
}


def cause_of(ctx: Situation) -> str:
    """`ctx.dying.cause`: a DeathCause's value, or any text; "unknown" if absent."""
    return "unknown" if ctx.dying is None else ctx.dying.cause or "unknown"


def killed_by(ctx: Situation) -> str:
    cause = cause_of(ctx)
    if cause not in set(DeathCause):
        return cause[:200]
    return _CAUSES[DeathCause(cause)].format(
        credits=ctx.credits_usd,
        initial=ctx.initial_credits_usd,
        burn=ctx.burn_rate_usd,
        tick=ctx.tick,
        vitality=ctx.vitality,
    )


def arc_class(series: Sequence[float], flat: float) -> ArcClass:
    """The life split in two halves: a fall then a rise is redemptive, a rise then a fall
    contaminating; otherwise an overall gain is progressive, a loss tragic, and a life that
    never moved more than `flat` is stable."""
    if len(series) < 2:
        return ArcClass.STABLE
    middle = len(series) // 2
    first, second = series[middle] - series[0], series[-1] - series[middle]
    if first < -flat and second > flat:
        return ArcClass.REDEMPTIVE
    if first > flat and second < -flat:
        return ArcClass.CONTAMINATING
    total = series[-1] - series[0]
    if total > flat:
        return ArcClass.PROGRESSIVE
    return ArcClass.TRAGIC if total < -flat else ArcClass.STABLE


def _trajectory(ctx: Situation, done: Sequence[Episode], config: DeathConfig) -> ArcClass:
    """Cumulative PnL of the resolved episodes when there are any; else the vitality
    history (`ctx.dying.vitality_history`) ending at today's vitality."""
    if len(done) >= 2:
        series, total = [0.0], 0.0
        for episode in done:
            total += episode.outcome.pnl_usd if episode.outcome else 0.0
            series.append(total)
        flat = config.arc_flat_equity * max(ctx.portfolio.equity_usd, 1.0)
        return arc_class(series, flat)
    before = () if ctx.dying is None else ctx.dying.vitality_history
    vitality = [*before, ctx.vitality]
    return arc_class(vitality, config.arc_flat_vitality)


def _emotional_arc(ctx: Situation) -> str:
    """From `ctx.dying.mood_history` to the mood now."""
    moods = [*(() if ctx.dying is None else ctx.dying.mood_history), ctx.mood]
    first, last = moods[0], moods[-1]
    lowest = min(m.pleasure for m in moods)
    return (
        f"pleasure {first.pleasure:+.2f} → lowest {lowest:+.2f} → {last.pleasure:+.2f}; "
        f"arousal {first.arousal:+.2f} → {last.arousal:+.2f}; dominance "
        f"{first.dominance:+.2f} → {last.dominance:+.2f} over {len(moods)} readings"
    )


def _episode_line(episode: Episode) -> str:
    outcome = episode.outcome
    assert outcome is not None
    return (
        f"episode {episode.id} at tick {episode.observation.tick}: {episode.decision.action} "
        f"expecting {episode.decision.predicted_delta:+.2%}, saw {outcome.actual_delta:+.2%}, "
        f"pnl {outcome.pnl_usd:+.2f}"
    )


def _entry_line(entry: GrimoireEntry) -> str:
    return f"{entry.text} (confidence {entry.confidence:.2f}, {entry.tier})"[:200]


def _links(done: Sequence[Episode], top: int) -> list[CausalLink]:
    by_regime: dict[str, list[float]] = defaultdict(list)
    for episode in done:
        regime = episode.observation.regime
        by_regime[regime.value if regime else "unlabelled"].append(
            episode.outcome.pnl_usd if episode.outcome else 0.0
        )
    ranked = sorted(by_regime.items(), key=lambda r: (-abs(sum(r[1])), r[0]))[:top]
    return [
        CausalLink(
            cause=f"trading in a {regime} market",
            effect=f"mean pnl {sum(pnls) / len(pnls):+.2f} over {len(pnls)} episodes",
            confidence=round(len(pnls) / (len(pnls) + 5), 4),
        )
        for regime, pnls in ranked
    ]


def records_testament(ctx: Situation, config: DeathConfig) -> DeathTestament:
    """The life review from the records alone: learned = the most trusted knowledge, got
    wrong = the worst losses, confused by = the biggest other surprises, never tested = the
    staged knowledge, suspects = the half-trusted, would change = the costliest action."""
    top = config.top
    active = sorted(
        (e for e in ctx.grimoire if not e.archived),
        key=lambda e: (-tier_rank(e), -e.confidence, e.id),
    )
    trusted = [e for e in active if e.confidence >= config.learned_floor]
    learned = [_entry_line(e) for e in trusted[:top]]
    done = [e for e in ctx.episodes if e.outcome is not None]
    losses = sorted((e for e in done if e.outcome and e.outcome.pnl_usd < 0), key=_pnl)[:top]
    lost = {e.id for e in losses}
    surprises = sorted(
        (e for e in done if e.id not in lost),
        key=lambda e: -abs(e.prediction_error or 0.0),
    )[:top]
    by_action: dict[str, float] = defaultdict(float)
    for episode in done:
        by_action[episode.decision.action] += _pnl(episode)
    would_change = [
        f"use {action} less: it lost ${-total:.2f} in all"
        for action, total in sorted(by_action.items(), key=lambda a: a[1])[:top]
        if total < 0
    ]
    if cause_of(ctx) == DeathCause.ECONOMIC:
        would_change.append(f"think more cheaply: I burned ${ctx.burn_rate_usd:.4f} a tick")
    suspects = [e for e in active if config.suspect_floor <= e.confidence < config.learned_floor]
    listed = {e.id for e in (*trusted[:top], *suspects[:top])}
    staged = [e for e in active if e.tier == "staged" and e.id not in listed]
    return DeathTestament(
        learned=learned or [NOTHING_LEARNED],
        got_wrong=[_episode_line(e) for e in losses],
        confused_by=[_episode_line(e) for e in surprises if e.prediction_error],
        never_tested=[f"{e.text} (staged, never confirmed)"[:200] for e in staged[:top]],
        killed_by=killed_by(ctx),
        would_change=would_change[:_LIST],
        suspects=[_entry_line(e) for e in suspects[:top]],
        causal_links=_links(done, top),
        emotional_arc=_emotional_arc(ctx)[:300],
        arc_class=_trajectory(ctx, done, config),
    )


def _pnl(episode: Episode) -> float:
    return episode.outcome.pnl_usd if episode.outcome else 0.0
