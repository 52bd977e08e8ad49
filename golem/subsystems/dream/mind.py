"""The dream's minds for the synthetic provider, one per kind: replay (lessons for the
regime it perceives, about the episodes it replays), the hypnagogic judge of a fragment,
integration of the staged entries, and threat rehearsal scaled by stress. Each cites only
the ids its brief shows and keeps counts and lists consistent with its type's rules."""

from __future__ import annotations

from random import Random
from typing import Any

from golem.subsystems.dream.scenes import staged
from golem.subsystems.dream.subsystem import Dream
from golem.subsystems.facts import LESSONS, Ask, Percept, some, unit

__all__ = ["fragment", "integration", "replay", "threat"]

_ALTERNATIVES = ("hedge earlier", "hold instead of exiting", "halve the size", "stay in cash")
_INTEGRATED = 8  # staged entries an integration sorts at most


def _regime(seen: Percept) -> str:  # a lesson's applicable condition
    if seen.stress > 0.7:
        return "crash"
    if seen.volatility > 0.02 or abs(seen.zscore) > 1.5:
        return "volatile"
    return "trending" if abs(seen.delta_period) > 0.03 else "calm"


def replay(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A replay_analysis of the episodes the brief replays (the latest first cited)."""
    episodes = _replayed(ask)
    if not episodes:
        return {
            "episode_id": "",
            "lessons": [],
            "surprise_score": 0.0,
            "counterfactuals": [],
            "arousal_delta": 0.0,
            "episodes_reviewed": 0,
        }
    seen = Percept.of(ask)
    regime = _regime(seen)
    lessons = [
        {
            "insight": text,
            "confidence": unit(0.4 + 0.5 * rng.random()),
            "applicable_conditions": regime,
        }
        for text in some(LESSONS, rng, 1, 3)
    ]
    chosen = episodes[: int(rng.random() * min(3, len(episodes) + 1))]
    counterfactuals = [
        {
            "alternative_action": _ALTERNATIVES[int(rng.random() * len(_ALTERNATIVES))],
            "estimated_outcome": "a smaller loss",
            "plausibility": unit(rng.random()),
        }
        for _ in chosen
    ]
    surprise = unit(seen.stress + 0.2 * rng.random())
    return {
        "episode_id": episodes[-1],
        "lessons": lessons,
        "surprise_score": surprise,
        "counterfactuals": counterfactuals,
        "arousal_delta": round(0.4 * (surprise - 0.5), 3),
        "episodes_reviewed": len(episodes),
    }


def _replayed(ask: Ask | None) -> list[str]:
    if ask is None:
        return []
    config = ask.asked_by(Dream).config
    replayed = ask.shown(ask.ctx.episodes[-config.replay_episodes :])
    return list(dict.fromkeys(str(e.id) for e in replayed))


def fragment(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A fragment_evaluation: three drawn scores and the verdict they allow."""
    novelty, coherence, relevance = (unit(rng.random()) for _ in range(3))
    scores = (novelty, coherence, relevance)
    mean = sum(scores) / 3
    if min(coherence, relevance) >= 0.3 and (mean >= 0.55 or min(scores) >= 0.7):
        verdict = "promote"
    elif mean < 0.35 and min(scores) < 0.7:
        verdict = "discard"
    else:
        verdict = "stage"
    return {"novelty": novelty, "relevance": relevance, "coherence": coherence, "verdict": verdict}


def integration(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A dream_integration: each staged entry promoted, kept staged or discarded by how its
    confidence looks after the dream."""
    entries = ask.shown(staged(ask.ctx))[:_INTEGRATED] if ask is not None else []
    lists: dict[str, list[dict[str, Any]]] = {"promoted": [], "staged": [], "discarded": []}
    for entry in entries:
        seen = unit(entry.confidence + rng.gauss(0, 0.1))
        decision = "promoted" if seen >= 0.6 else "discarded" if seen < 0.2 else "staged"
        source = ("replay", "fragment", "threat")[int(rng.random() * 3)]
        lists[decision].append(
            {
                "hypothesis_id": entry.id,
                "summary": f"the entry {entry.id} as written",
                "confidence": max(seen, 0.5) if decision == "promoted" else seen,
                "rationale": f"seen at {seen:.2f} after the {source} dream",
            }
        )
    promoted = len(lists["promoted"])
    diff = f"{promoted} entries become beliefs" if promoted else None
    return {**lists, "playbook_diff": diff}


def threat(ask: Ask | None, rng: Random) -> dict[str, Any]:
    """A threat_assessment whose likelihood and impact rise with the stress perceived."""
    seen = Percept.of(ask)
    likelihood = unit(0.15 + 0.6 * seen.stress + rng.gauss(0, 0.12))
    impact = unit(0.3 + 0.5 * seen.stress + rng.gauss(0, 0.12))
    preparedness = unit(0.2 + 0.6 * rng.random())
    danger = likelihood * impact
    exposure = danger * (1 - preparedness)
    severity = (
        "critical"
        if exposure >= 0.35
        else "high"
        if exposure >= 0.15
        else "medium"
        if exposure >= 0.05
        else "low"
    )
    if severity == "low" and danger >= 0.5 and preparedness < 0.5:
        severity = "medium"
    if severity == "critical" and likelihood < 0.1:
        severity = "high"
    pool = ["cut position size", "add a protective hedge", "raise the cash buffer"]
    count = 1 + int(rng.random() * 3) if severity in ("high", "critical") else 0
    return {
        "threat_type": "liquidity" if seen.stress > 0.5 else "drawdown",
        "severity": severity,
        "likelihood": likelihood,
        "impact_if_realized": f"a loss of about {impact:.0%} of the position",
        "mitigation_actions": pool[:count],
        "detection_signals": ["volume drying up", "the price leaving its band"][: 1 + count % 2],
        "rehearsal_outcome": f"exposure {exposure:.2f} in phase {seen.phase or 'unknown'}",
    }
