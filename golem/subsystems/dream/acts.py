"""What each kind of dream changes: replayed lessons and kept fragments become staged
knowledge, integration promotes, keeps staged or discards, rehearsed threats become events
and staged plans; and the one dream the records can dream alone, a statistical replay."""

from __future__ import annotations

import re
from collections import defaultdict

from msgspec.structs import replace

from golem.subsystems.contract import Event, GrimoireEntry, Outcome, Situation
from golem.subsystems.curator.rules import normalized
from golem.subsystems.dream.fragment import FragmentEvaluation, FragmentVerdict
from golem.subsystems.dream.integration import DreamIntegration, IntegrationDecision
from golem.subsystems.dream.replay_analysis import Lesson, MarketRegime, ReplayAnalysis, regime_of
from golem.subsystems.dream.scenes import DreamConfig, fragment, resolved, staged
from golem.subsystems.dream.threat import ThreatAssessment

__all__ = ["act_fragment", "act_integration", "act_replay", "act_threat", "rule_replay"]

_MAX_LESSONS = 5
_FULL_SURPRISE = 0.05  # a prediction missed by this much (a fraction of price) is a shock


def _new_id(ctx: Situation, kind: str, index: int) -> str:
    return f"dream-{kind}-{ctx.tick}-{ctx.run}-{index}"


def _stage(
    ctx: Situation, kind: str, index: int, text: str, confidence: float, **fields: str | None
) -> GrimoireEntry:
    return GrimoireEntry(
        id=_new_id(ctx, kind, index),
        text=text,
        confidence=round(confidence, 6),
        tier="staged",
        provenance=f"dream:{kind} at tick {ctx.tick}",
        regime=fields.get("regime"),
    )


def act_replay(ctx: Situation, decision: ReplayAnalysis, config: DreamConfig) -> Outcome:
    """A lesson already held (same words) is reinforced; a new one is staged, no surer than
    `max_new_confidence`, in the regime its conditions name (none: any regime)."""
    known = {normalized(e.text): e for e in ctx.grimoire if not e.archived}
    upserts, staged_ids, reinforced = [], [], []
    for index, lesson in enumerate(decision.lessons):
        held = known.get(normalized(lesson.insight))
        if held is not None:
            confidence = round(min(1.0, held.confidence + config.reinforce), 6)
            upserts.append(replace(held, confidence=confidence))
            reinforced.append(held.id)
            continue
        regime = regime_of(lesson)
        confidence = min(lesson.confidence, config.max_new_confidence)
        entry = _stage(
            ctx, "replay", index, lesson.insight, confidence, regime=regime and regime.value
        )
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
            "episode_id": decision.episode_id,
            "surprise_score": decision.surprise_score,
            "arousal_delta": decision.arousal_delta,
        },
    )


def act_fragment(ctx: Situation, decision: FragmentEvaluation, config: DreamConfig) -> Outcome:
    """A promoted fragment enters the grimoire, staged at its coherence (capped); a staged
    one is only announced (it incubates: nothing is queued); a discarded one leaves
    nothing."""
    text = fragment(ctx)
    upserts: tuple[GrimoireEntry, ...] = ()
    events: tuple[Event, ...] = ()
    if decision.verdict is FragmentVerdict.PROMOTE:
        confidence = min(decision.coherence, config.max_new_confidence)
        upserts = (_stage(ctx, "hypnagogic", 0, text, confidence),)
    elif decision.verdict is FragmentVerdict.STAGE:
        events = (Event("dream_fragment_incubating"),)
    return Outcome(
        summary=f"fragment {decision.verdict}: {text[:80]}",
        grimoire_upserts=upserts,
        events=events,
        details={"dream_kind": "hypnagogic", "fragment": text, "verdict": str(decision.verdict)},
    )


def _mentions(entry_id: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(entry_id)}(?![\w-])", text) is not None


def act_integration(ctx: Situation, decision: DreamIntegration, config: DreamConfig) -> Outcome:
    """Each item finds its staged entry by id (its hypothesis_id, or an id its summary
    names) or by its words. Promoted makes it a belief at the item's confidence; staged
    keeps it staged at that confidence; discarded archives it. An item with no entry is new
    knowledge: promoted as a belief or staged; a discarded stranger changes nothing."""
    entries = staged(ctx)
    by_text = {normalized(e.text): e for e in entries}
    upserts: list[GrimoireEntry] = []
    archive: list[str] = []
    counts: dict[str, int] = defaultdict(int)
    by_id = {e.id: e for e in entries}
    for index, (decision_of, _, item) in enumerate(decision.decided()):
        entry = by_id.get(item.hypothesis_id) or next(
            (e for e in entries if _mentions(e.id, item.summary)), None
        )
        entry = entry or by_text.get(normalized(item.summary))
        tier = "belief" if decision_of is IntegrationDecision.PROMOTE else "staged"
        counts[str(decision_of)] += 1
        if decision_of is IntegrationDecision.DISCARD:
            if entry is not None:
                archive.append(entry.id)
                upserts.append(replace(entry, archived=True))
        elif entry is not None:
            upserts.append(replace(entry, tier=tier, confidence=item.confidence))
        else:
            text = re.sub(r"\[[^\]]*\]\s*", "", item.summary).strip() or item.summary
            upserts.append(
                replace(_stage(ctx, "integration", index, text, item.confidence), tier=tier)
            )
    total = sum(counts.values())
    details: dict[str, object] = {"dream_kind": "integration", **counts}
    if decision.playbook_diff:
        details["playbook_diff"] = decision.playbook_diff
    return Outcome(
        summary=(
            f"integrated {total}: {counts['promoted']} promoted, "
            f"{counts['staged']} staged, {counts['discarded']} discarded"
        ),
        grimoire_upserts=tuple(upserts),
        grimoire_archive=tuple(archive),
        details=details,
    )


def act_threat(ctx: Situation, decision: ThreatAssessment, config: DreamConfig) -> Outcome:
    """A pressing threat (severity high or critical) becomes an event for the waking
    subsystems and a staged plan, "If <threat>: <mitigations>"; a low or medium one is
    only logged."""
    upserts: tuple[GrimoireEntry, ...] = ()
    events: tuple[Event, ...] = ()
    if decision.pressing:
        events = (Event(f"threat_{decision.severity}"),)
        if decision.mitigation_actions:
            plan = f"If {decision.threat_type}: {'; '.join(decision.mitigation_actions)}"
            upserts = (_stage(ctx, "threat", 0, plan, config.threat_confidence),)
    return Outcome(
        summary=(f"threat rehearsed ({decision.severity}, likelihood {decision.likelihood:.2f})"),
        grimoire_upserts=upserts,
        events=events,
        details={
            "dream_kind": "threat",
            "threat_type": decision.threat_type,
            "severity": str(decision.severity),
            "likelihood": decision.likelihood,
        },
    )


def rule_replay(ctx: Situation, config: DreamConfig) -> ReplayAnalysis:
    """Replay without a model: the recent resolved episodes grouped by (regime, action);
    each group of at least `rule_min_group` is a lesson stating its record, as sure as its
    size allows (n ÷ (n + 5)), holding in its regime; the groups that moved the most money
    come first. The surprise is the mean prediction miss, a 5% miss being full surprise;
    the rules feel nothing, so arousal does not move."""
    recent = resolved(ctx)[-config.replay_episodes :]
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    misses = []
    for episode in recent:
        seen = episode.observation.regime
        key = (seen.value if seen else "", episode.decision.action)
        groups[key].append(episode.outcome.pnl_usd if episode.outcome else 0.0)
        misses.append(abs(episode.prediction_error or 0.0))
    ranked = sorted(groups.items(), key=lambda g: (-abs(sum(g[1])), g[0]))
    lessons = []
    for (regime, action), pnls in ranked:
        n = len(pnls)
        if n < config.rule_min_group:
            continue
        wins = sum(p > 0 for p in pnls)
        where = f"{regime} markets" if regime else "any market"
        insight = f"In {where}, {action} won {wins} of {n} times (mean pnl {sum(pnls) / n:+.2f})"
        conditions = MarketRegime(regime).value if regime else ""
        lessons.append(
            Lesson(
                insight=insight, confidence=round(n / (n + 5), 4), applicable_conditions=conditions
            )
        )
    surprise = min(1.0, sum(misses) / len(misses) / _FULL_SURPRISE) if misses else 0.0
    return ReplayAnalysis(
        episode_id=str(recent[-1].id) if recent else "",
        lessons=lessons[:_MAX_LESSONS],
        surprise_score=round(surprise, 4),
        episodes_reviewed=len(recent),
    )
