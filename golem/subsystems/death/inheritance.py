"""Succession's inheritance: the lessons of a dead golem's testament, as the grimoire
entries its successor is born with (the Bardo design's succession: staged, to be
confirmed by the successor's own experience, at a confidence reduced per generation)."""

from __future__ import annotations

from collections.abc import Iterator

from golem.subsystems.contract import GrimoireEntry
from golem.subsystems.curator.rules import normalized
from golem.subsystems.death.decision import DeathTestament
from golem.subsystems.death.records import NOTHING_LEARNED

__all__ = ["LESSON_CONFIDENCE", "inherited_lessons"]

# A lesson's confidence in the testament, by section: what the life concluded it learned,
# got wrong or would change is stated outright (1.0); what it only suspects, half (0.5);
# a causal link states its own. Confused-by and never-tested are questions, not lessons,
# and what killed it is in the successor's own clocks: none of those is inherited.
LESSON_CONFIDENCE = {"learned": 1.0, "got_wrong": 1.0, "would_change": 1.0, "suspects": 0.5}


def inherited_lessons(
    testament: DeathTestament, *, generation: int, factor: float
) -> tuple[GrimoireEntry, ...]:
    """The grimoire a successor of `generation` (2 for the founder's first successor) is
    born with: each lesson of its predecessor's `testament` once (duplicates by their
    words dropped), staged, at its confidence in the testament × factor^(generation − 1),
    as Bardo's generational decay (0.85 per generation)."""
    if generation < 2:
        raise ValueError(f"a successor's generation is 2 or more, got {generation}")
    decay = factor ** (generation - 1)
    entries: list[GrimoireEntry] = []
    seen: set[str] = set()
    for section, index, text, confidence in _lessons(testament):
        key = normalized(text)
        if not key or key in seen or text == NOTHING_LEARNED:
            continue
        seen.add(key)
        entries.append(
            GrimoireEntry(
                id=f"inherited-g{generation}-{section}-{index}",
                text=text[:200],
                confidence=round(confidence * decay, 6),
                provenance=f"testament of generation {generation - 1}: {section}",
            )
        )
    return tuple(entries)


def _lessons(testament: DeathTestament) -> Iterator[tuple[str, int, str, float]]:
    for section, confidence in LESSON_CONFIDENCE.items():
        for index, text in enumerate(getattr(testament, section)):
            yield section, index, text, confidence
    for index, link in enumerate(testament.causal_links):
        yield "causal_links", index, f"{link.cause} → {link.effect}", link.confidence
