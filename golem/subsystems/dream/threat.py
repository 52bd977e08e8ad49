"""ThreatAssessment: a rehearsed threat (its type, severity, likelihood and impact if it
happens), the mitigations to prepare, the signals that would show it coming and how the
rehearsal went; and its text reader."""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput, WorkedExample
from golem.inference.narrow import either, keywords
from golem.subsystems.meaning import has_words, items_have_words, nonzero
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

__all__ = ["ThreatAssessment", "ThreatSeverity", "threat_meaningful"]

_ACT_ON = 0.1  # a critical threat needs at least this likelihood


class ThreatSeverity(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "Threat: the DEX is hacked while 20% of the funds sit in its pool.",
        {
            "threat_type": "the DEX is hacked",
            "severity": "high",
            "likelihood": 0.1,
            "impact_if_realized": "the 20% of the funds in its pool is lost",
            "mitigation_actions": ["move half the funds out of the DEX pool"],
            "detection_signals": ["the DEX pool drains fast"],
            "rehearsal_outcome": (
                "If the DEX is hacked, 20% of the funds are lost; halving halves it."
            ),
        },
    ),
    WorkedExample(
        "Threat: the oracle lags by ten minutes during a fast ETH sell-off.",
        {
            "threat_type": "the oracle lags by ten minutes",
            "severity": "medium",
            "likelihood": 0.3,
            "impact_if_realized": "a fast ETH sell-off liquidates the loan at a stale price",
            "mitigation_actions": [
                "keep the health factor above 2 in a fast ETH sell-off",
                "repay part of the loan when the oracle lags",
            ],
            "detection_signals": [
                "the oracle lags the ETH price by ten minutes",
                "ETH falls 5% within ten minutes",
            ],
            "rehearsal_outcome": "A ten-minute oracle lag is survivable with a health factor of 2.",
        },
    ),
)


class ThreatAssessment(StructuredOutput):
    """One rehearsed threat and what to do about it."""

    schema_name = "threat_assessment"
    worked_examples = EXAMPLES

    threat_type: str = Field(min_length=1, max_length=160)
    severity: ThreatSeverity
    likelihood: Fraction = Field(description="0..1")
    impact_if_realized: str = Field(default="", max_length=200)
    mitigation_actions: list[ListItem] = Field(default_factory=list, max_length=5)
    detection_signals: list[ListItem] = Field(default_factory=list, max_length=5)
    rehearsal_outcome: str = Field(default="", max_length=300)

    @property
    def pressing(self) -> bool:
        """Serious enough to prepare for: severity high or critical."""
        return self.severity in (ThreatSeverity.HIGH, ThreatSeverity.CRITICAL)

    @classmethod
    def narrowed_schema(cls, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """A high threat names a mitigation; a critical one also a likelihood of at
        least 0.1; a low or medium one, anything."""
        mitigated = keywords(minItems=1)
        return either(
            schema,
            {"/severity": keywords(enum=[ThreatSeverity.LOW.value, ThreatSeverity.MEDIUM.value])},
            {
                "/severity": keywords(const=ThreatSeverity.HIGH.value),
                "/mitigation_actions": mitigated,
            },
            {
                "/severity": keywords(const=ThreatSeverity.CRITICAL.value),
                "/likelihood": keywords(minimum=_ACT_ON),
                "/mitigation_actions": mitigated,
            },
        )

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        if self.severity is ThreatSeverity.CRITICAL and self.likelihood < _ACT_ON:
            issues.append(SchemaIssue("/severity", "critical for a remote threat"))
        if self.pressing and not self.mitigation_actions:
            issues.append(
                SchemaIssue("/mitigation_actions", f"a {self.severity} threat needs a mitigation")
            )
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


SEVERITY = Choices(
    {
        ThreatSeverity.LOW: r"low|minor|negligible|remote",
        ThreatSeverity.MEDIUM: r"medium|moderate|elevated",
        ThreatSeverity.HIGH: r"high|severe|serious",
        ThreatSeverity.CRITICAL: r"critical|urgent|existential|catastrophic",
    }
)
_MITIGATION_HEADINGS = (
    r"^(?:mitigation[ _]actions?|mitigations?|countermeasures?|safeguards?)",
    r"^(?:preparations?|steps|plan)$",
)
_DETECTION_HEADING = r"^(?:detection[ _]signals?|signals?|warning signs?|early warnings?|tells?)"


_MITIGATE_BY = re.compile(
    r"\b(?:mitigat\w*|to mitigate|to prepare|prepare)(?: (?:it|this|that))?(?:,| by| we should)\s+"
    r"(?P<steps>[^.\n]+)",
    re.I,
)


def _detection(text: str) -> str:
    found = section(text, _DETECTION_HEADING)
    if found is None:
        found = next(labelled(text, r"detection[ _]signals?|warning signs?"), "")
    return found


def _read(text: str) -> dict[str, Any]:
    likelihood = read_fraction(
        text, r"likelihood|probability|chance|odds", after=r"likel\w*|chance|probab\w*"
    )
    threat = next(labelled(text, r"threat[ _]type|threat|scenario", whole_line=True), None)
    severity = read_choice(
        text, SEVERITY, labels=(r"severity|threat level|risk level|danger",), use_prose=False
    )
    if severity is None:
        severity = SEVERITY.pick(text)
    if severity is None and threat is None and likelihood is None:
        raise UnparseableOutput("no threat, severity or likelihood in the text", text=text)
    severity = severity or ThreatSeverity.MEDIUM
    if threat is None:
        threat = re.split(r"(?<=[.!?])\s|\n", text.strip(), maxsplit=1)[0]
    mitigations = section(text, _MITIGATION_HEADINGS[0]) or section(text, _MITIGATION_HEADINGS[1])
    if mitigations is None:
        mitigations = next(labelled(text, r"mitigat\w*(?:[ _]actions?)?", whole_line=True), "")
    if not mitigations:  # "Mitigate by splitting the position."
        prose = _MITIGATE_BY.search(text)
        mitigations = prose["steps"] if prose else ""
    impact = next(labelled(text, r"impact(?:[ _]if[ _]realized)?|damage", whole_line=True), "")
    outcome = section(text, r"^(?:rehearsal[ _]outcome|outcome|rehearsal|result)$")
    return {
        "threat_type": clip(threat, 160),
        "severity": severity,
        "likelihood": 0.5 if likelihood is None else likelihood,
        "impact_if_realized": clip(impact, 200),
        "mitigation_actions": items(mitigations, limit=5, max_chars=120),
        "detection_signals": items(_detection(text), limit=5, max_chars=120),
        "rehearsal_outcome": clip(outcome or text, 300),
    }


def threat_meaningful(decision: ThreatAssessment, prompt: str) -> list[str]:
    """The threat and its impact in words, a likelihood above zero, at least one mitigation
    and one detection signal, each a phrase and none a placeholder, and how it went."""
    problems = has_words(decision.threat_type, "/threat_type", 2)
    problems += nonzero([decision.likelihood], "/likelihood")
    problems += has_words(decision.impact_if_realized, "/impact_if_realized", 3)
    problems += items_have_words(decision.mitigation_actions, "/mitigation_actions", some=True)
    problems += items_have_words(decision.detection_signals, "/detection_signals", some=True)
    return problems + has_words(decision.rehearsal_outcome, "/rehearsal_outcome", 3)
