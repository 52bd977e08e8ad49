"""What each kind of dream changes: replayed lessons and kept fragments become staged
knowledge, integration promotes, keeps staged or discards, rehearsed threats become events
and staged plans; and the one dream the records can dream alone, a statistical replay."""

from __future__ import annotations

import re
from collections import defaultdict

from msgspec.structs import replace

from golem.subsystems.contract import Context, GrimoireEntry, Outcome
from golem.subsystems.curator.rules import normalized
from golem.subsystems.dream.fragment import FragmentEvaluation, FragmentVerdict
from golem.subsystems.dream.integration import DreamIntegration, IntegrationDecision
from golem.subsystems.dream.replay import Lesson, MarketRegime, ReplayAnalysis
from golem.subsystems.dream.scenes import DreamConfig, describe, fragment, resolved, staged
from golem.subsystems.dream.threat import ThreatAssessment, ThreatVerdict

__all__ = ["act_fragment", "act_integration", "act_replay", "act_threat", "rule_replay"]

_MAX_LESSONS = 5


def _new_id(ctx: Context, kind: str, index: int) -> str:
    return f"dream-{kind}-{ctx.tick}-{ctx.run}-{index}"


def _stage(
    ctx: Context, kind: str, index: int, text: str, confidence: float, **fields: str | None
) -> GrimoireEntry:
    return GrimoireEntry(
        id=_new_id(ctx, kind, index),
        text=text,
        confidence=round(confidence, 6),
        tier="staged",
        provenance=f"dream:{kind} at tick {ctx.tick}",
        regime=fields.get("regime"),
    )


def act_replay(ctx: Context, decision: ReplayAnalysis, config: DreamConfig) -> Outcome:
    """A lesson already held (same words) is reinforced; a new one is staged, no surer than
    `max_new_confidence`, in the regime it names."""
    known = {normalized(e.text): e for e in ctx.grimoire if not e.archived}
    upserts, staged_ids, reinforced = [], [], []
    for index, lesson in enumerate(decision.lessons):
        held = known.get(normalized(lesson.insight))
        if held is not None:
            confidence = round(min(1.0, held.confidence + config.reinforce), 6)
            upserts.append(replace(held, confidence=confidence))
            reinforced.append(held.id)
            continue
        regime = None if lesson.regime is MarketRegime.ANY else lesson.regime.value
        confidence = min(lesson.confidence, config.max_new_confidence)
        entry = _stage(ctx, "replay", index, lesson.insight, confidence, regime=regime)
        upserts.append(entry)
        staged_ids.append(entry.id)
    return Outcome(
        summary=(
            f"replayed {decision.episodes_reviewed} episodes: {len(staged_ids)} lesson(s) staged, "
            f"{len(reinforced)} reinforced"
        ),
        grimoire_upserts=tuple(upserts),
        details={
            "dream_kind": "replay",
            "staged": staged_ids,
            "reinforced": reinforced,
            "counterfactuals": len(decision.counterfactuals),
        },
    )


def act_fragment(ctx: Context, decision: FragmentEvaluation, config: DreamConfig) -> Outcome:
    """A kept fragment is staged at its plausibility (capped); an incubating one is only
    announced, since nothing is queued; a discarded one leaves nothing."""
    text = decision.fragment or fragment(ctx)
    upserts: tuple[GrimoireEntry, ...] = ()
    events: tuple[str, ...] = ()
    if decision.verdict is FragmentVerdict.KEEP:
        confidence = min(decision.plausibility, config.max_new_confidence)
        upserts = (_stage(ctx, "hypnagogic", 0, text, confidence),)
    elif decision.verdict is FragmentVerdict.INCUBATE:
        events = ("dream_fragment_incubating",)
    return Outcome(
        summary=f"fragment {decision.verdict}: {text[:80]}",
        grimoire_upserts=upserts,
        events=events,
        details={"dream_kind": "hypnagogic", "fragment": text, "verdict": str(decision.verdict)},
    )


def _mentions(entry_id: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(entry_id)}(?![\w-])", text) is not None


def act_integration(ctx: Context, decision: DreamIntegration, config: DreamConfig) -> Outcome:
    """Each item finds its staged entry by id (named in its content or source) or by its
    words. Promote makes it a belief at the item's confidence; stage keeps it staged at that
    confidence; discard archives it. An item with no entry is new knowledge: promoted as a
    belief or staged; a discarded stranger changes nothing."""
    entries = staged(ctx)
    by_text = {normalized(e.text): e for e in entries}
    upserts: list[GrimoireEntry] = []
    archive: list[str] = []
    counts: dict[str, int] = defaultdict(int)
    for index, item in enumerate(decision.items):
        where = f"{item.content} {item.source}"
        entry = next((e for e in entries if _mentions(e.id, where)), None)
        entry = entry or by_text.get(normalized(item.content))
        tier = "belief" if item.decision is IntegrationDecision.PROMOTE else "staged"
        counts[str(item.decision)] += 1
        if item.decision is IntegrationDecision.DISCARD:
            if entry is not None:
                archive.append(entry.id)
                upserts.append(replace(entry, archived=True))
        elif entry is not None:
            upserts.append(replace(entry, tier=tier, confidence=item.confidence))
        else:
            text = re.sub(r"\[[^\]]*\]\s*", "", item.content).strip() or item.content
            upserts.append(
                replace(_stage(ctx, "integration", index, text, item.confidence), tier=tier)
            )
    return Outcome(
        summary=(
            f"integrated {len(decision.items)}: {counts['promote']} promoted, "
            f"{counts['stage']} staged, {counts['discard']} discarded"
        ),
        grimoire_upserts=tuple(upserts),
        grimoire_archive=tuple(archive),
        details={"dream_kind": "integration", **counts},
    )


def act_threat(ctx: Context, decision: ThreatAssessment, config: DreamConfig) -> Outcome:
    """A threat worth mitigating (mitigate or urgent) becomes an event for the waking
    subsystems and a staged plan, "If <threat>: <mitigations>"; accepted or monitored
    threats are only logged."""
    upserts: tuple[GrimoireEntry, ...] = ()
    events: tuple[str, ...] = ()
    if decision.verdict in (ThreatVerdict.MITIGATE, ThreatVerdict.URGENT):
        events = (f"threat_{decision.verdict}",)
        if decision.mitigations:
            plan = f"If {decision.threat}: {'; '.join(decision.mitigations)}"
            upserts = (_stage(ctx, "threat", 0, plan, config.threat_confidence),)
    return Outcome(
        summary=f"threat rehearsed ({decision.verdict}, exposure {decision.exposure:.2f})",
        grimoire_upserts=upserts,
        events=events,
        details={
            "dream_kind": "threat",
            "threat": decision.threat,
            "verdict": str(decision.verdict),
            "exposure": round(decision.exposure, 4),
        },
    )


def rule_replay(ctx: Context, config: DreamConfig) -> ReplayAnalysis:
    """Replay without a model: the recent resolved episodes grouped by (regime, action);
    each group of at least `rule_min_group` is a lesson stating its record, as sure as its
    size allows (n ÷ (n + 5)); the groups that moved the most money come first."""
    recent = resolved(ctx)[-config.replay_episodes :]
    groups: dict[tuple[MarketRegime, str], list[float]] = defaultdict(list)
    for episode in recent:
        seen = episode.observation.regime
        key = (MarketRegime(seen.value) if seen else MarketRegime.ANY, episode.decision.action)
        groups[key].append(episode.outcome.pnl_usd if episode.outcome else 0.0)
    ranked = sorted(groups.items(), key=lambda g: (-abs(sum(g[1])), g[0]))
    lessons = []
    for (regime, action), pnls in ranked:
        n = len(pnls)
        if n < config.rule_min_group:
            continue
        wins = sum(p > 0 for p in pnls)
        where = "any market" if regime is MarketRegime.ANY else f"{regime.value} markets"
        insight = f"In {where}, {action} won {wins} of {n} times (mean pnl {sum(pnls) / n:+.2f})"
        lessons.append(Lesson(insight=insight, confidence=round(n / (n + 5), 4), regime=regime))
    return ReplayAnalysis(
        episodes_reviewed=len(recent),
        lessons=lessons[:_MAX_LESSONS],
        summary=f"rules: {len(recent)} episodes replayed; latest {describe(recent[-1])}"
        if recent
        else "rules: nothing to replay",
    )
