"""Policies for the decisions about the golem's memory (curator, replay, dream integration,
the death testament): they cite only the ids the prompt shows and keep every count,
list and link consistent with the type's content rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from typing import Any

from golem.inference.synthetic.observe import Observation

__all__ = ["MEMORY_POLICIES"]

_LESSONS = (
    "hedges pay when the window drops fast",
    "calm tapes reward patience",
    "thin liquidity turns exits expensive",
    "a falling health factor comes before forced sales",
    "momentum fades after a spike in volume",
)
_ALTERNATIVES = ("hedge earlier", "hold instead of exiting", "halve the size", "stay in cash")
_MISTAKES = ("trusted a trend too long", "spent on thinking in calm markets")
_PUZZLES = ("why volume led price", "the regime shifts without warning")
_UNTESTED = ("a slower heartbeat in calm markets",)
_CHANGES = ("keep a larger cash buffer", "think less when nothing moves")
_SUSPECTS = ("volatility clusters around funding", "the crash was a liquidity event")
_LINKS = (
    ("thin liquidity", "slippage on exits"),
    ("overtrading", "a faster burn"),
    ("a crash", "a falling vitality"),
)


def _unit(x: float) -> float:
    return round(min(1.0, max(0.0, x)), 3)


def _some(pool: tuple[str, ...], rng: Random, low: int, high: int) -> list[str]:
    count = min(len(pool), low + int(rng.random() * (high - low + 1)))
    start = int(rng.random() * len(pool))
    return [pool[(start + i) % len(pool)] for i in range(count)]


def _regime(obs: Observation) -> str:  # a lesson's applicable condition
    if obs.stress > 0.7:
        return "crash"
    if obs.volatility > 0.02 or abs(obs.zscore) > 1.5:
        return "volatile"
    return "trending" if abs(obs.delta_period) > 0.03 else "calm"


def curator(obs: Observation, rng: Random) -> dict[str, Any]:
    entries = list(obs.entries)
    pruned = [i for i, c in entries if c < 0.2 and rng.random() < 0.7][:20]
    kept = [(i, c) for i, c in entries if i not in pruned]
    promotions = [
        {
            "entry_id": i,
            "from_confidence": _unit(c),
            "to_confidence": _unit(c + 0.1),
            "reason": "held up",
        }
        for i, c in kept
        if c >= 0.6
    ][:2]
    links = []
    if len(kept) >= 2 and rng.random() < 0.6:
        (a, _), (b, _) = kept[0], kept[1]
        relationship = ("supports", "extends", "contradicts")[int(rng.random() * 3)]
        links.append(
            {
                "source_id": a,
                "target_id": b,
                "relationship": relationship,
                "strength": _unit(rng.random()),
            }
        )
    health = sum(c for _, c in kept) / len(kept) if kept else 0.0
    return {
        "entries_evaluated": len(entries),
        "entries_retained": len(entries) - len(pruned),
        "entries_pruned": len(pruned),
        "cross_references": links,
        "promotions": promotions,
        "grimoire_health": _unit(health),
        "prune_ids": pruned,
    }


def replay(obs: Observation, rng: Random) -> dict[str, Any]:
    episodes = list(obs.episodes)
    if not episodes:
        return {
            "episode_id": "",
            "lessons": [],
            "surprise_score": 0.0,
            "counterfactuals": [],
            "arousal_delta": 0.0,
            "episodes_reviewed": 0,
        }
    regime = _regime(obs)
    lessons = [
        {
            "insight": text,
            "confidence": _unit(0.4 + 0.5 * rng.random()),
            "applicable_conditions": [regime],
        }
        for text in _some(_LESSONS, rng, 1, 3)
    ]
    chosen = episodes[: int(rng.random() * min(3, len(episodes) + 1))]
    counterfactuals = [
        {
            "alternative_action": _ALTERNATIVES[int(rng.random() * len(_ALTERNATIVES))],
            "estimated_outcome": "a smaller loss",
            "plausibility": _unit(rng.random()),
        }
        for _ in chosen
    ]
    surprise = _unit(obs.stress + 0.2 * rng.random())
    return {
        "episode_id": episodes[-1],
        "lessons": lessons,
        "surprise_score": surprise,
        "counterfactuals": counterfactuals,
        "arousal_delta": round(0.4 * (surprise - 0.5), 3),
        "episodes_reviewed": len(episodes),
    }


def integration(obs: Observation, rng: Random) -> dict[str, Any]:
    lists: dict[str, list[dict[str, Any]]] = {"promoted": [], "staged": [], "discarded": []}
    for entry_id, confidence in obs.entries[:8]:
        seen = _unit(confidence + rng.gauss(0, 0.1))
        decision = "promoted" if seen >= 0.6 else "discarded" if seen < 0.2 else "staged"
        source = ("replay", "fragment", "threat")[int(rng.random() * 3)]
        lists[decision].append(
            {
                "hypothesis_id": entry_id,
                "summary": f"the entry {entry_id} as written",
                "confidence": max(seen, 0.5) if decision == "promoted" else seen,
                "rationale": f"seen at {seen:.2f} after the {source} dream",
            }
        )
    promoted = len(lists["promoted"])
    diff = f"{promoted} entries become beliefs" if promoted else None
    return {**lists, "playbook_diff": diff}


def testament(obs: Observation, rng: Random) -> dict[str, Any]:
    arc = obs.arc or ("tragic" if obs.stress > 0.5 else "stable")
    links = [
        {"cause": c, "effect": e, "confidence": _unit(0.4 + 0.5 * rng.random())}
        for c, e in _LINKS[: int(rng.random() * 3)]
    ]
    return {
        "learned": _some(_LESSONS, rng, 1, 3),
        "got_wrong": _some(_MISTAKES, rng, 0, 2),
        "confused_by": _some(_PUZZLES, rng, 0, 2),
        "never_tested": _some(_UNTESTED, rng, 0, 1),
        "killed_by": obs.cause_of_death or "the credits ran out",
        "would_change": _some(_CHANGES, rng, 1, 2),
        "suspects": _some(_SUSPECTS, rng, 0, 1),
        "causal_links": links,
        "emotional_arc": "hope, then strain, then acceptance",
        "arc_class": arc,
    }


MEMORY_POLICIES: Mapping[str, Callable[[Observation, Random], dict[str, Any]]] = {
    "curator_evaluation": curator,
    "replay_analysis": replay,
    "dream_integration": integration,
    "death_testament": testament,
}
