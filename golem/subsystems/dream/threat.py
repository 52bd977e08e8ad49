"""ThreatAssessment: a rehearsed threat (how likely, how damaging, how prepared the golem
is), the verdict on it and the mitigations to prepare; and its text reader."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput
from golem.subsystems.parts import Fraction, ListItem
from golem.subsystems.text import (
    Choices,
    clip,
    decision_from_text,
    items,
    labelled,
    read_choice,
    read_fraction,
    section,
)

__all__ = ["ThreatAssessment", "ThreatVerdict"]


class ThreatVerdict(StrEnum):
    ACCEPT = "accept"
    MONITOR = "monitor"
    MITIGATE = "mitigate"
    URGENT = "urgent"


class ThreatAssessment(StructuredOutput):
    """One rehearsed threat and what to do about it."""

    schema_name = "threat_assessment"

    threat: str = Field(min_length=1, max_length=160)
    likelihood: Fraction = Field(description="0..1")
    impact: Fraction = Field(description="0..1")
    preparedness: Fraction = Field(description="0..1")
    verdict: ThreatVerdict
    mitigations: list[ListItem] = Field(default_factory=list, max_length=5)
    reasoning: str = Field(default="", max_length=300)

    @property
    def exposure(self) -> float:
        """Likelihood × impact, less what preparation covers."""
        return self.likelihood * self.impact * (1 - self.preparedness)

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        danger = self.likelihood * self.impact
        if self.verdict is ThreatVerdict.ACCEPT and danger >= 0.5 and self.preparedness < 0.5:
            issues.append(
                SchemaIssue("/verdict", "accepting a likely, damaging, unprepared threat")
            )
        if self.verdict is ThreatVerdict.URGENT and danger < 0.1:
            issues.append(SchemaIssue("/verdict", "urgent for a remote or harmless threat"))
        if self.verdict in (ThreatVerdict.MITIGATE, ThreatVerdict.URGENT) and not self.mitigations:
            issues.append(SchemaIssue("/mitigations", f"{self.verdict} needs a mitigation"))
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


VERDICT = Choices(
    {
        ThreatVerdict.ACCEPT: r"accept\w*|ignor\w*|tolerat\w*|live with it",
        ThreatVerdict.MONITOR: r"monitor\w*|watch\w*|keep an eye",
        ThreatVerdict.MITIGATE: r"mitigat\w*|protect\w*|defend\w*|reduce (?:the )?exposure",
        ThreatVerdict.URGENT: r"urgent\w*|immediate\w*|act now|right now|critical",
    }
)
_MITIGATION_HEADINGS = (
    r"^(?:mitigations?|countermeasures?|safeguards?)",
    r"^(?:preparations?|steps|plan)$",
)
_SCORES = {
    "likelihood": (r"likelihood|probability|chance|odds", r"likel\w*|chance|probab\w*"),
    "impact": (r"impact|severity|damage|harm", r"impact|severity|damage"),
    "preparedness": (r"preparedness|readiness|prepared|ready", r"prepared|ready"),
}


def _read(text: str) -> dict[str, Any]:
    scores = {
        name: read_fraction(text, label, after=after) for name, (label, after) in _SCORES.items()
    }
    threat = next(labelled(text, r"threat|scenario", whole_line=True), None)
    verdict = read_choice(
        text, VERDICT, labels=(r"verdict|decision|recommendation|response|action",), use_prose=False
    )
    if verdict is None and threat is None and all(v is None for v in scores.values()):
        raise UnparseableOutput("no threat, scores or verdict in the text", text=text)
    if verdict is None:
        verdict = VERDICT.pick(text)
    values = {name: 0.5 if value is None else value for name, value in scores.items()}
    if verdict is None:
        verdict = _verdict_for(
            values["likelihood"] * values["impact"] * (1 - values["preparedness"])
        )
    if threat is None:
        threat = re.split(r"(?<=[.!?])\s|\n", text.strip(), maxsplit=1)[0]
    mitigations = section(text, _MITIGATION_HEADINGS[0]) or section(text, _MITIGATION_HEADINGS[1])
    if mitigations is None:
        mitigations = next(labelled(text, r"mitigat\w*", whole_line=True), "")
    reasoning = section(text, r"^(?:reasoning|rationale|why|explanation)$")
    return {
        **values,
        "threat": clip(threat, 160),
        "verdict": verdict,
        "mitigations": items(mitigations, limit=5, max_chars=120),
        "reasoning": clip(reasoning or text, 300),
    }


def _verdict_for(exposure: float) -> ThreatVerdict:
    if exposure >= 0.3:
        return ThreatVerdict.MITIGATE
    return ThreatVerdict.MONITOR if exposure >= 0.1 else ThreatVerdict.ACCEPT
