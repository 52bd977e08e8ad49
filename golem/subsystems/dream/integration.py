"""DreamIntegration: what a dream cycle hands to the grimoire: hypotheses promoted, staged
for more evidence or discarded, each with its id, a summary, a confidence and a rationale;
and how the playbook changes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.inference.narrow import keywords, narrowed
from golem.subsystems.meaning import has_words, known_ids
from golem.subsystems.parts import Fraction, Part
from golem.subsystems.text import (
    ENTRY_ID,
    Choices,
    assign_sections,
    bracketed_fraction,
    clip,
    decision_from_text,
    items,
    outside_brackets,
    read_fraction,
    section,
    strip_meta,
)

__all__ = ["DreamIntegration", "IntegrationDecision", "IntegrationItem", "integration_meaningful"]

_PROMOTE_FLOOR = 0.5


class IntegrationDecision(StrEnum):
    """Which list an item is in: promoted, staged or discarded."""

    PROMOTE = "promoted"
    STAGE = "staged"
    DISCARD = "discarded"


class IntegrationItem(Part):
    hypothesis_id: str = Field(
        default="", max_length=40, description="the staged entry's id; empty for a new one"
    )
    summary: str = Field(min_length=1, max_length=200)
    confidence: Fraction = Field(default=0.5, description="0..1")
    rationale: str = Field(default="", max_length=200)


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "Staged knowledge:\n"
        "- [k7] (0.60, from dream:replay at tick 12) thin weekend books widen spreads\n"
        "- [k8] (0.20, from dream:hypnagogic at tick 15) the moon phase moves BTC",
        {
            "promoted": [
                {
                    "hypothesis_id": "k7",
                    "summary": "thin weekend books widen spreads",
                    "confidence": 0.7,
                    "rationale": "from dream:replay at tick 12, held at 0.60",
                }
            ],
            "staged": [],
            "discarded": [
                {
                    "hypothesis_id": "k8",
                    "summary": "the moon phase moves BTC",
                    "confidence": 0.1,
                    "rationale": "from dream:hypnagogic at tick 15, only 0.20",
                }
            ],
            "playbook_diff": "Trade smaller when weekend books are thin.",
        },
    ),
    WorkedExample(
        "Staged knowledge:\n"
        "- [h3] (0.45, from dream:replay at tick 80) funding spikes precede reversals",
        {
            "promoted": [],
            "staged": [
                {
                    "hypothesis_id": "h3",
                    "summary": "funding spikes precede reversals",
                    "confidence": 0.45,
                    "rationale": "seen once at tick 80, not yet tested",
                }
            ],
            "discarded": [],
            "playbook_diff": "Watch funding rates before trading a reversal.",
        },
    ),
)


class DreamIntegration(StructuredOutput):
    """The dream's candidates for the grimoire and what becomes of each."""

    schema_name = "dream_integration"
    worked_examples = EXAMPLES

    promoted: list[IntegrationItem] = Field(default_factory=list, max_length=8)
    staged: list[IntegrationItem] = Field(default_factory=list, max_length=8)
    discarded: list[IntegrationItem] = Field(default_factory=list, max_length=8)
    playbook_diff: str | None = Field(
        default=None, max_length=400, description="how the playbook changes, if it does"
    )

    def decided(self) -> list[tuple[IntegrationDecision, int, IntegrationItem]]:
        """Every item with its list and its place there: promoted, staged, discarded."""
        lists = (
            (IntegrationDecision.PROMOTE, self.promoted),
            (IntegrationDecision.STAGE, self.staged),
            (IntegrationDecision.DISCARD, self.discarded),
        )
        return [(decision, i, item) for decision, chosen in lists for i, item in enumerate(chosen)]

    @classmethod
    def narrowed_schema(cls, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """A promotion at confidence 0.5 or more."""
        return narrowed(schema, {"/promoted/*/confidence": keywords(minimum=_PROMOTE_FLOOR)})

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        for i, item in enumerate(self.promoted):
            if item.confidence < _PROMOTE_FLOOR:
                issues.append(SchemaIssue(f"/promoted/{i}/confidence", "promote needs >= 0.5"))
        seen: set[str] = set()
        for decision, i, item in self.decided():
            key = item.hypothesis_id or item.summary.strip().lower()
            if key in seen:
                field = "hypothesis_id" if item.hypothesis_id else "summary"
                issues.append(SchemaIssue(f"/{decision}/{i}/{field}", "a repeated item"))
            seen.add(key)
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


_DECISION_WORDS = {
    IntegrationDecision.PROMOTE: r"promot\w*|commit\w*|adopt\w*",
    IntegrationDecision.STAGE: r"stag\w*|pending|hold|provisional\w*|needs? more evidence",
    IntegrationDecision.DISCARD: r"discard\w*|drop\w*|reject\w*|dismiss\w*",
}
DECISION = Choices(_DECISION_WORDS)
_ANY_DECISION = "|".join(_DECISION_WORDS.values())
_META = r"confidence|conf|source|from|id"
_ID = re.compile(r"\[(?P<id>[\w:#-]{1,40})\]|\bid(?:\s*[:=]\s*|\s+)(?P<named>[\w:#-]{1,40})", re.I)
_NOTHING = re.compile(r"\bnothing\b|\bno (?:items|insights|candidates|hypothes[ie]s)\b", re.I)
_LEADING_DECISION = re.compile(rf"^(?:{_ANY_DECISION})\b\s*[:=–—-]?\s*", re.I)
_RATIONALE = re.compile(r"\s*(?:—|–|\s-\s|\bbecause\b)\s*", re.I)
# A list's field that carries only its count ("promoted=1", "Staged (0)", "Discarded: none"):
# the items, if any, are written elsewhere.
_COUNT_ONLY = re.compile(
    rf"^\W*(?:{_ANY_DECISION})\b[ \t]*(?:\(\d+\))?[ \t]*[:=]?[ \t]*(?:\d+|none|zero)?\W*$", re.I
)
_FATE = re.compile(rf"\b(?:{_ANY_DECISION})\b", re.I)
# A fate given to nothing: "stage none", "nothing promoted", "discard 0".
_NONE_GIVEN = re.compile(
    rf"\b(?:none|nothing|zero)\s+(?:\w+\s+)?(?:{_ANY_DECISION})\b|"
    rf"\b(?:{_ANY_DECISION})[ \t:=]+(?:none|nothing|zero|0)\b(?!\s+(?:has|is|was|are|were|of)\b)",
    re.I,
)
# Ids joined in a list, each its own item: "h1 and h2", "h-41, h-42 & h-43".
_JOINED_IDS = re.compile(rf"{ENTRY_ID}(?:\s*(?:,|and|&)\s*{ENTRY_ID})+", re.I)


def _read(text: str) -> dict[str, Any]:
    grouped = assign_sections(text, {d.value: _heading(w) for d, w in _DECISION_WORDS.items()})
    found: dict[IntegrationDecision, list[IntegrationItem]] = {d: [] for d in IntegrationDecision}
    for decision in IntegrationDecision:
        for line in items(grouped.get(decision.value, ""), limit=8, max_chars=400):
            found[decision] += [_item(part) for part in _each_id(line)]
    if not any(found.values()):
        body = section(text, r"^(?:items|candidates|hypothes[ie]s|integration\w*)$") or text
        lines = [line for line in body.split("\n") if not _COUNT_ONLY.match(line)]
        for line in _sentences(items("\n".join(lines), limit=8, max_chars=400)):
            for clause in _clauses(line):
                picked = DECISION.pick(clause)
                if picked is not None:
                    found[picked] += [_item(part) for part in _clause_items(clause)]
    if not any(found.values()) and not _NOTHING.search(text):
        raise UnparseableOutput("no items to promote, stage or discard in the text", text=text)
    diff = section(text, r"^(?:playbook[ _]?diff|playbook changes?|playbook)$")
    return {
        "promoted": found[IntegrationDecision.PROMOTE][:8],
        "staged": found[IntegrationDecision.STAGE][:8],
        "discarded": found[IntegrationDecision.DISCARD][:8],
        "playbook_diff": clip(diff, 400) if diff else None,
    }


def _heading(words: str) -> str:
    """A list's heading: its fate, after at most two words ("To promote", "Hypotheses
    staged") that do not negate it ("Not promoted")."""
    return rf"^(?:(?!(?:not|no|nothing|never)\b)[\w-]+\s+){{0,2}}(?:{words})\b"


def _sentences(lines: list[str]) -> list[str]:
    """A one-line answer ("Promote h1 (0.8). Stage h2. Discard h3.") as its sentences."""
    if len(lines) != 1:
        return lines
    return [part for part in re.split(r"(?<=[.!?])\s+", lines[0]) if part.strip()]


def _clauses(sentence: str) -> list[str]:
    """A sentence that gives different fates ("keep h1 and h2 staged, promote h3, and drop
    h4"; "(h-70 promoted, h-71 staged)") as a clause per fate; a part that names no fate
    belongs to the one before it."""
    inner = sentence.strip(" .")
    if inner.startswith("(") and inner.endswith(")"):
        inner = inner[1:-1]
    clauses: list[str] = []
    for part in outside_brackets(inner, ",;"):
        if clauses and not _FATE.search(part):
            clauses[-1] += ", " + part
        else:
            clauses.append(part)
    fates = {DECISION.pick(clause) for clause in clauses} - {None}
    return clauses if len(fates) > 1 else [sentence]


def _clause_items(clause: str) -> list[str]:
    """What one fate is given: nothing ("stage none"); the items listed in its parentheses
    ("promote 2 (h-7, oracle lag; h-9, HF alerts)"); each of several ids joined ("discard
    h-41 and h-42"); else the clause is the one item."""
    if _NONE_GIVEN.search(clause):
        return []
    listed = re.search(r"\((?P<inner>[^()]*;[^()]*)\)", clause)
    if listed is not None:
        return [part.strip() for part in listed["inner"].split(";") if part.strip()]
    joined = _JOINED_IDS.search(re.sub(r"\([^()]*\)", "", clause))
    if joined is not None:
        return re.findall(ENTRY_ID, joined[0], re.I)
    return [clause]


def _each_id(line: str) -> list[str]:
    """A list item that is only ids joined ("h-3 and h-4") as an item per id."""
    if _JOINED_IDS.fullmatch(line.strip(" .")):
        return re.findall(ENTRY_ID, line, re.I)
    return [line]


def _item(line: str) -> IntegrationItem:
    """`[g12] funding flips precede reversals (0.8) — held in replay`."""
    confidence = read_fraction(line, r"confidence|conf")
    if confidence is None:
        confidence = bracketed_fraction(line)
    named = _ID.search(line)
    text = re.sub(r"\[[^\]]*\]", "", line)
    if named is not None and named["named"]:
        text = text.replace(named[0], "")
    text = _LEADING_DECISION.sub("", text.strip())
    summary, rationale = (*_RATIONALE.split(text, maxsplit=1), "")[:2]
    summary = strip_meta(summary, _META).strip(" ,;:")
    return IntegrationItem(
        hypothesis_id=clip((named["id"] or named["named"]) if named else "", 40),
        summary=clip(summary or line, 200),
        confidence=0.5 if confidence is None else confidence,
        rationale=clip(rationale, 200),
    )


def integration_meaningful(decision: DreamIntegration, prompt: str) -> list[str]:
    """At least one item decided; each id one the prompt names (or empty, for a new one),
    each summary a sentence, each rationale a phrase."""
    decided = decision.decided()
    problems = [] if decided else ["no item promoted, staged or discarded"]
    for fate, i, item in decided:
        where = f"/{fate}/{i}"
        problems += known_ids([item.hypothesis_id], prompt, f"{where}/hypothesis_id", empty_ok=True)
        problems += has_words(item.summary, f"{where}/summary", 3)
        problems += has_words(item.rationale, f"{where}/rationale", 2)
    return problems
