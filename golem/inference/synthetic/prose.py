"""Decisions as a model writes them without JSON: labelled lines, bullet lists and
sections that each type's `from_text` reads (a renderer per schema name, and a generic
one); and the prose or code fences a prompt-guided model wraps its JSON in."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from typing import Any

__all__ = ["render_text", "wrap_json"]

Renderer = Callable[[Mapping[str, Any]], list[str]]


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    return "none" if value is None else str(value)


def _bullets(name: str, values: list[Any]) -> list[str]:
    return [f"{_label(name)}:", *(f"- {_scalar(v)}" for v in values)] if values else []


def _generic(value: Mapping[str, Any]) -> list[str]:
    lines = []
    for name, field in value.items():
        if isinstance(field, list):
            if field and isinstance(field[0], dict):
                items = (", ".join(f"{k} {_scalar(v)}" for k, v in f.items()) for f in field)
                lines += [f"{_label(name)}:", *(f"- {item}" for item in items)]
            else:
                lines += _bullets(name, field)
        elif isinstance(field, dict):
            lines += [f"{_label(k)}: {_scalar(v)}" for k, v in field.items()]
        else:
            lines.append(f"{_label(name)}: {_scalar(field)}")
    return lines


def _heartbeat(v: Mapping[str, Any]) -> list[str]:
    signals = [f"{s['source']}: {s['description']}" for s in v["signals"]]
    move = v.get("expected_move")
    return [
        f"Severity: {v['severity']}",
        f"Action: {v['action']}",
        f"Confidence: {v['confidence'] * 100:.0f}%",
        f"Escalate: {_scalar(v['escalate'])}",
        *([] if move is None else [f"Expected move: {move:+.2%}"]),
        *_bullets("signals", signals),
        f"Rationale: {v['rationale']}",
    ]


def _risk(v: Mapping[str, Any]) -> list[str]:
    lines = [f"Approved: {_scalar(v['approved'])}"]
    for name, layer in v["layers"].items():
        verdict = "pass" if layer["passed"] else "fail"
        lines.append(f"{_label(name)}: {verdict} ({layer['score']:.2f}) {layer['detail']}")
    if v["proposed_size_usd"] is not None:
        lines.append(f"Proposed size: ${v['proposed_size_usd']:.2f}")
    if v["adjusted_size_usd"] is not None:
        lines.append(f"Adjusted size: ${v['adjusted_size_usd']:.2f}")
    return [*lines, *_bullets("warnings", v["warnings"]), f"Reasoning: {v['reasoning']}"]


def _daimon(v: Mapping[str, Any]) -> list[str]:
    names = ("pleasure", "arousal", "dominance", "primary_emotion", "trigger", "memory_bias")
    lines = [f"{_label(n)}: {_scalar(v[n])}" for n in names]
    if v["secondary_emotion"] is not None:
        lines.append(f"Secondary emotion: {v['secondary_emotion']}")
    return [*lines, f"Intensity: {_scalar(v['intensity'])}"]


def _threat(v: Mapping[str, Any]) -> list[str]:
    names = ("threat_type", "severity", "likelihood", "impact_if_realized")
    return [
        *(f"{_label(n)}: {_scalar(v[n])}" for n in names),
        *_bullets("mitigation actions", v["mitigation_actions"]),
        *_bullets("detection signals", v["detection_signals"]),
        f"Rehearsal outcome: {v['rehearsal_outcome']}",
    ]


def _fragment(v: Mapping[str, Any]) -> list[str]:
    return [
        f"{_label(n)}: {_scalar(v[n])}" for n in ("verdict", "novelty", "relevance", "coherence")
    ]


def _curator(v: Mapping[str, Any]) -> list[str]:
    names = ("entries_evaluated", "entries_retained", "entries_pruned")
    lines = [f"{_label(n)}: {v[n]}" for n in names]
    if v["prune_ids"]:
        lines.append("Prune ids: " + ", ".join(v["prune_ids"]))
    promotions = [
        f"{p['entry_id']} from {p['from_confidence']:.2f} to {p['to_confidence']:.2f}: "
        f"{p['reason']}"
        for p in v["promotions"]
    ]
    links = [
        f"{r['source_id']} {r['relationship']} {r['target_id']} ({r['strength']:.2f})"
        for r in v["cross_references"]
    ]
    return [
        *lines,
        *_bullets("promotions", promotions),
        *_bullets("cross references", links),
        f"Grimoire health: {v['grimoire_health']:.2f}",
    ]


def _replay(v: Mapping[str, Any]) -> list[str]:
    lessons = [
        f"{x['insight']} (confidence {x['confidence']:.2f}"
        + (f", regime {x['applicable_conditions']}" if x["applicable_conditions"] else "")
        + ")"
        for x in v["lessons"]
    ]
    counterfactuals = [
        f"{c['alternative_action']} → {c['estimated_outcome']} "
        f"(plausibility {c['plausibility']:.2f})"
        for c in v["counterfactuals"]
    ]
    return [
        f"Episode id: #{v['episode_id']}",
        f"Episodes reviewed: {v['episodes_reviewed']}",
        f"Surprise score: {v['surprise_score']:.2f}",
        f"Arousal delta: {v['arousal_delta']:+.2f}",
        *_bullets("lessons", lessons),
        *_bullets("counterfactuals", counterfactuals),
    ]


def _integration(v: Mapping[str, Any]) -> list[str]:
    lines = []
    for decision in ("promoted", "staged", "discarded"):
        chosen = [
            f"[{i['hypothesis_id']}] {i['summary']} (confidence {i['confidence']:.2f})"
            + (f" — {i['rationale']}" if i["rationale"] else "")
            for i in v[decision]
        ]
        lines += _bullets(decision, chosen)
    diff = [f"Playbook diff: {v['playbook_diff']}"] if v["playbook_diff"] else []
    return [*(lines or ["Nothing to integrate."]), *diff]


def _testament(v: Mapping[str, Any]) -> list[str]:
    lists = ("learned", "got_wrong", "confused_by", "never_tested", "would_change", "suspects")
    links = [f"{c['cause']} → {c['effect']} ({c['confidence']:.2f})" for c in v["causal_links"]]
    return [
        *(line for name in lists for line in _bullets(name, v[name])),
        f"Killed by: {v['killed_by']}",
        *_bullets("causal links", links),
        f"Emotional arc: {v['emotional_arc']}",
        f"Arc class: {v['arc_class']}",
    ]


_RENDERERS: Mapping[str, Renderer] = {
    "heartbeat_decision": _heartbeat,
    "risk_assessment": _risk,
    "daimon_appraisal": _daimon,
    "threat_assessment": _threat,
    "fragment_evaluation": _fragment,
    "curator_evaluation": _curator,
    "replay_analysis": _replay,
    "dream_integration": _integration,
    "death_testament": _testament,
}


def render_text(schema_name: str, value: Mapping[str, Any]) -> str:
    """The decision as labelled prose (the NONE mode's answer, and the prose fault)."""
    return "\n".join(_RENDERERS.get(schema_name, _generic)(value))


def wrap_json(text: str, rng: Random, chance: float) -> str:
    """A prompt-guided answer: the JSON alone, or (with `chance`) fenced, or in prose."""
    if rng.random() >= chance:
        return text
    roll = rng.random()
    if roll < 0.4:
        return f"```json\n{text}\n```"
    if roll < 0.8:
        return f"Here is my answer:\n```json\n{text}\n```\nI kept it to the schema."
    return f"My decision follows. {text}"
