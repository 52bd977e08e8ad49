"""Decision types used by the structured-output tests (shaped like a heartbeat decision)."""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput


class Severity(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"


class Action(StrEnum):
    OBSERVE = "observe"
    REBALANCE = "rebalance"
    HEDGE = "hedge"
    EXIT = "exit"


class Signal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    strength: float = Field(ge=0, le=1, description="0..1")


class Pulse(StructuredOutput):
    """A heartbeat-shaped decision for tests."""

    schema_name = "test_pulse"

    severity: Severity
    action: Action
    confidence: float = Field(ge=0, le=1)
    escalate: bool = False
    reasoning: str = ""
    signals: list[Signal] = Field(default_factory=list)
    note: str | None = None

    @classmethod
    def from_text(cls, text: str) -> Pulse:
        labelled = re.search(r"severity\W+(low|medium|high|critical)\b", text, re.I)
        action = re.search(r"action\W+(observe|rebalance|hedge|exit)\b", text, re.I)
        if not (labelled and action):
            raise UnparseableOutput("no severity and action in the text", text=text)
        number = re.search(r"confidence\D*([01]?\.\d+|\d+(?=\s*%))", text, re.I)
        confidence = 0.5
        if number:
            value = float(number.group(1))
            confidence = value / 100 if value > 1 else value
        return cls(
            severity=Severity(labelled.group(1).lower()),
            action=Action(action.group(1).lower()),
            confidence=confidence,
        )

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        if self.escalate and self.severity in (Severity.LOW, Severity.MEDIUM):
            issues.append(SchemaIssue("/escalate", "escalation needs severity high or critical"))
        if self.action is Action.EXIT and self.confidence < 0.5:
            issues.append(SchemaIssue("/confidence", "an exit needs confidence >= 0.5"))
        return issues


VALID = {
    "severity": "high",
    "action": "hedge",
    "confidence": 0.72,
    "escalate": True,
    "reasoning": "ETH fell 4% in 15 minutes while funding flipped negative.",
    "signals": [{"name": "price_delta", "strength": 0.8}],
    "note": None,
}
