"""CuratorEvaluation: one pass over the grimoire's entries (how many were evaluated, kept
and pruned, which are promoted and how much surer, how entries support, contradict or
extend each other, and how healthy the grimoire is)."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any, Self

from pydantic import Field, StringConstraints, model_validator

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.subsystems.meaning import has_words, known_ids, nonzero
from golem.subsystems.parts import Fraction, Part, repeats
from golem.subsystems.text import (
    ENTRY_ID,
    Choices,
    as_fraction,
    clip,
    decision_from_text,
    items,
    labelled,
    numbers,
    read_count,
    read_fraction,
    section,
)

__all__ = ["CrossRef", "CuratorEvaluation", "Promotion", "Relationship", "curator_meaningful"]

EntryId = Annotated[str, StringConstraints(min_length=1, max_length=40)]
MAX_ENTRIES = 1000


class Relationship(StrEnum):
    SUPPORTS = "supports"
    CONTRADICTS = "contradicts"
    EXTENDS = "extends"


class Promotion(Part):
    """An entry the curator trusts more: it climbs one tier, at `to_confidence`."""

    entry_id: EntryId
    from_confidence: Fraction = Field(description="0..1, as the entry stands")
    to_confidence: Fraction = Field(description="0..1, at least from_confidence")
    reason: str = Field(default="", max_length=160)


class CrossRef(Part):
    source_id: EntryId
    target_id: EntryId
    relationship: Relationship
    strength: Fraction = Field(default=0.5, description="0..1: how far it moves the target")


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "Grimoire:\n"
        "- [k1] confidence 0.60, tier staged, regime bear, episodes 4 for / 1 against: "
        "sell rallies in bear regime\n"
        "- [k2] confidence 0.50, tier staged, regime any, episodes 0 for / 3 against: "
        "buy every dip\n"
        "- [k3] confidence 0.55, tier staged, regime any, episodes 2 for / 0 against: "
        "funding spikes precede reversals",
        {
            "entries_evaluated": 3,
            "entries_retained": 2,
            "entries_pruned": 1,
            "cross_references": [
                {"source_id": "k3", "target_id": "k1", "relationship": "supports", "strength": 0.6}
            ],
            "promotions": [
                {
                    "entry_id": "k1",
                    "from_confidence": 0.6,
                    "to_confidence": 0.75,
                    "reason": "sell rallies in bear regime held 4 of 5 times",
                }
            ],
            "grimoire_health": 0.7,
            "prune_ids": ["k2"],
        },
    ),
    WorkedExample(
        "Grimoire:\n"
        "- [e5] confidence 0.70, tier belief, regime bull, episodes 5 for / 0 against: "
        "breakouts on high volume hold\n"
        "- [e6] confidence 0.50, tier staged, regime bull, episodes 1 for / 1 against: "
        "volume confirms breakouts",
        {
            "entries_evaluated": 2,
            "entries_retained": 2,
            "entries_pruned": 0,
            "cross_references": [
                {"source_id": "e6", "target_id": "e5", "relationship": "extends", "strength": 0.4}
            ],
            "promotions": [],
            "grimoire_health": 0.8,
            "prune_ids": [],
        },
    ),
)


class CuratorEvaluation(StructuredOutput):
    """The curator's verdict on a batch of grimoire entries."""

    schema_name = "curator_evaluation"
    worked_examples = EXAMPLES
    # The entries pruned are the ids listed, and the rest of those evaluated are kept: an
    # answer that leaves the two counts out (the local grammar does not ask for them) has
    # them counted, so they cannot disagree with its lists.
    derived = ("entries_retained", "entries_pruned")

    entries_evaluated: int = Field(ge=0, le=MAX_ENTRIES)
    entries_retained: int = Field(ge=0, le=MAX_ENTRIES)
    entries_pruned: int = Field(ge=0, le=MAX_ENTRIES)
    cross_references: list[CrossRef] = Field(default_factory=list, max_length=8)
    promotions: list[Promotion] = Field(default_factory=list, max_length=8)
    grimoire_health: Fraction = Field(default=0.5, description="0..1")
    prune_ids: list[EntryId] = Field(
        default_factory=list, max_length=20, description="the entries pruned, by id"
    )

    @model_validator(mode="before")
    @classmethod
    def _counted(cls, data: Any) -> Any:
        """The derived counts of an answer that left them out."""
        if not isinstance(data, dict) or all(name in data for name in cls.derived):
            return data
        prune_ids = data.get("prune_ids")
        pruned = len(prune_ids) if isinstance(prune_ids, list) else 0
        evaluated = data.get("entries_evaluated")
        counted = {"entries_pruned": pruned}
        if isinstance(evaluated, int):
            counted["entries_retained"] = max(0, evaluated - data.get("entries_pruned", pruned))
        return counted | data

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        if self.entries_retained + self.entries_pruned > self.entries_evaluated:
            issues.append(SchemaIssue("/entries_retained", "retained + pruned exceeds evaluated"))
        if len(self.prune_ids) > self.entries_pruned:
            issues.append(SchemaIssue("/prune_ids", "more ids listed than entries pruned"))
        issues += repeats("/prune_ids", self.prune_ids)
        issues += repeats("/promotions", [p.entry_id for p in self.promotions], "/entry_id")
        pruned = set(self.prune_ids)
        for i, promotion in enumerate(self.promotions):
            if promotion.entry_id in pruned:
                issues.append(
                    SchemaIssue(f"/promotions/{i}/entry_id", "a pruned entry cannot be promoted")
                )
            if promotion.to_confidence < promotion.from_confidence:
                issues.append(
                    SchemaIssue(f"/promotions/{i}/to_confidence", "a promotion lowers confidence")
                )
        for i, ref in enumerate(self.cross_references):
            if ref.source_id == ref.target_id:
                issues.append(
                    SchemaIssue(f"/cross_references/{i}/target_id", "an entry refers to itself")
                )
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


RELATIONSHIP = Choices(
    {
        Relationship.SUPPORTS: r"support\w*|confirm\w*|corroborat\w*|agrees? with|reinforc\w*",
        Relationship.CONTRADICTS: (
            r"contradict\w*|conflicts? with|refut\w*|disagrees? with|oppos\w*"
        ),
        Relationship.EXTENDS: (r"extend\w*|builds? on|refin\w*|narrow\w*|qualif\w*|specializ\w*"),
    }
)
_ID_RE = re.compile(ENTRY_ID, re.I)
_PROMOTE = re.compile(rf"promot\w*\s+(?:entry\s+)?(?P<id>{ENTRY_ID})", re.I)
_PRUNE_PROSE = re.compile(
    rf"\b(?:prun\w*|archiv\w*|remov\w*)\s+(?:\d+\s+)?(?:entries\s+)?\(?(?P<ids>{ENTRY_ID}(?:\s*(?:,|and|&)\s*{ENTRY_ID})*)",
    re.I,
)
# Words for an entry that stays and one that goes: "nine are fine", "the bad ones are 3".
_SOUND = r"fine|good|valid|sound|healthy|useful|current|accurate"
_UNSOUND = r"stale|bad|outdated|obsolete|invalid|wrong|useless|superseded"
_KEEP = rf"retain\w*|kept|keep\w*|surviv\w*|stay\w*|remain\w*|(?:are|look) (?:{_SOUND})"
_DROP = rf"prun\w*|remov\w*|archiv\w*|discard\w*|dropp\w*|delet\w*|go|(?:are|look) (?:{_UNSOUND})"
_COUNTS = {
    "entries_evaluated": (
        r"evaluat\w*|review\w*|assess\w*|examin\w*|considered|checked|inspected|audited|"
        r"(?:of the|of all|all|out of|looked at|went through|there (?:are|were)|had)"
        r"(?=\s+\d+\s+(?:entries|items))|"
        rf"(?:{_KEEP}|{_DROP})\s+\d+\s+(?:out\s+)?of(?:\s+(?:the|all))?"  # "kept 7 of 10"
    ),
    "entries_retained": rf"{_KEEP}|(?:{_SOUND}) (?:entries|ones)",
    "entries_pruned": rf"{_DROP}|(?:{_UNSOUND}) (?:entries|ones)",
}


def _read(text: str) -> dict[str, Any]:
    counts = {name: read_count(text, label) for name, label in _COUNTS.items()}
    prune_ids = _prune_ids(text)
    promotions = _promotions(text)
    cross_references = _cross_references(text)
    if all(c is None for c in counts.values()) and not (
        prune_ids or promotions or cross_references
    ):
        raise UnparseableOutput("no counts, promotions, links or prunes in the text", text=text)
    evaluated = counts["entries_evaluated"]
    retained, pruned = counts["entries_retained"], counts["entries_pruned"]
    if pruned is None and prune_ids:
        pruned = len(prune_ids)
    if evaluated is not None and retained is None and pruned is not None:
        retained = max(0, evaluated - pruned)
    if evaluated is not None and pruned is None and retained is not None:
        pruned = max(0, evaluated - retained)
    if evaluated is not None and pruned is None and retained is None:
        retained, pruned = evaluated, 0
    if evaluated is None:
        evaluated = (retained or 0) + (pruned or 0)
    health = read_fraction(text, r"grimoire[ _]health|health")
    return {
        "entries_evaluated": evaluated,
        "entries_retained": retained or 0,
        "entries_pruned": pruned or 0,
        "cross_references": cross_references,
        "promotions": promotions,
        "grimoire_health": 0.5 if health is None else health,
        "prune_ids": prune_ids,
    }


def _prune_ids(text: str) -> list[str]:
    body = section(text, r"^(?:to )?(?:prune|pruned|pruning|remove|removed|archive|archived)\b")
    found = [] if body is None else _ids(body)
    if not found:
        for value in labelled(text, r"prune[ _]?ids|prun\w*|archiv\w*", whole_line=True):
            found = _ids(value)
            if found:
                break
    if not found:
        found = [i for match in _PRUNE_PROSE.finditer(text) for i in _ids(match["ids"])]
    return list(dict.fromkeys(found))[:20]


def _ids(text: str) -> list[str]:
    return [clip(match[0], 40) for match in _ID_RE.finditer(text)]


def _promotions(text: str) -> list[Promotion]:
    found: dict[str, Promotion] = {}
    body = section(text, r"^promot\w*")
    for item in items(body or "", limit=8, max_chars=300):
        ids = _ids(item)
        if ids:
            found.setdefault(ids[0], _promotion(ids[0], item))
    for match in _PROMOTE.finditer(text):
        sentence = re.split(r"(?<=[.!?])\s|\n", text[match.end() :], maxsplit=1)[0]
        found.setdefault(match["id"], _promotion(match["id"], sentence))
    return list(found.values())[:8]


def _promotion(entry_id: str, item: str) -> Promotion:
    """`e12 from 0.6 to 0.8: held across regimes`; one number is the new confidence, and
    the entry is taken to have stood no higher; none leaves it at 0.5."""
    values = [v for v in (as_fraction(n) for n in numbers(item.split(":", 1)[0])) if v]
    to = values[-1] if values else 0.5
    start = values[0] if len(values) > 1 else min(to, 0.5)
    return Promotion(
        entry_id=entry_id,
        from_confidence=min(start, to),
        to_confidence=to,
        reason=_reason(item),
    )


def _reason(item: str) -> str:
    """What follows the item's separator or "because", else nothing."""
    split = re.split(r"\s*(?::|—|–|\s-\s|\bbecause\b|\bas\b)\s*", item, maxsplit=1)
    return clip(split[1], 160) if len(split) > 1 else ""


def _cross_references(text: str) -> list[CrossRef]:
    body = section(text, r"^(?:cross[- ]?ref\w*|links?|relations?|relationships?|connections?)")
    candidates = items(body, limit=8, max_chars=300) if body else []
    candidates += re.split(r"(?<=[.;])\s+|\n", text)
    found: dict[tuple[str, str], CrossRef] = {}
    for candidate in candidates:
        relation = RELATIONSHIP.mentions(candidate)
        ids = list(_ID_RE.finditer(candidate))
        if not relation or len(ids) < 2:
            continue
        first = relation[0]
        source = [m for m in ids if m.end() <= first.start]
        target = [m for m in ids if m.start() >= first.end]
        if not (source and target) or first.negated:
            continue
        strength = next(
            (v for v in (as_fraction(n) for n in numbers(candidate[target[0].end() :])) if v),
            0.5,
        )
        key = (source[-1][0], target[0][0])
        found.setdefault(
            key,
            CrossRef(
                source_id=key[0], target_id=key[1], relationship=first.choice, strength=strength
            ),
        )
    return list(found.values())[:8]


def curator_meaningful(decision: CuratorEvaluation, prompt: str) -> list[str]:
    """Entries evaluated (some, when the prompt lists any), every id one the prompt names,
    a reason for each promotion."""
    problems = []
    if ENTRY_LINE.search(prompt):
        problems += nonzero([decision.entries_evaluated], "/entries_evaluated")
    problems += known_ids(decision.prune_ids, prompt, "/prune_ids")
    for i, promotion in enumerate(decision.promotions):
        problems += known_ids([promotion.entry_id], prompt, f"/promotions/{i}/entry_id")
        problems += has_words(promotion.reason, f"/promotions/{i}/reason", 2)
    for i, ref in enumerate(decision.cross_references):
        ids = [ref.source_id, ref.target_id]
        problems += known_ids(ids, prompt, f"/cross_references/{i}")
    return problems


ENTRY_LINE = re.compile(r"^- \[[^\]]+\]", re.M)  # how a brief lists an entry: "- [g12] ..."
