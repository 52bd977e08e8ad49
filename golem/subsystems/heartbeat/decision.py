"""HeartbeatDecision: what a T1/T2 heartbeat tick decides when its probes' prediction
error passed the gate (severity, action, whether to escalate), and how it reads free text."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, UnparseableOutput
from golem.subsystems.parts import Fraction, Part, repeats
from golem.subsystems.text import (
    YES_NO,
    Choices,
    as_value,
    clip,
    decision_from_text,
    first_number,
    items,
    read_choice,
    read_fraction,
    section,
)

__all__ = ["HeartbeatAction", "HeartbeatDecision", "Severity", "Signal"]


class Severity(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"


class HeartbeatAction(StrEnum):
    """observe changes nothing; the other three go to risk before anything happens."""

    OBSERVE = "observe"
    REBALANCE = "rebalance"
    HEDGE = "hedge"
    EXIT = "exit"


class Signal(Part):
    """One observation the decision rests on, e.g. price_delta = -0.042."""

    name: str = Field(max_length=40, description="short snake_case name, e.g. price_delta")
    value: float | None = Field(
        default=None, ge=-1e6, le=1e6, description="observed value; fractions for percentages"
    )
    note: str = Field(default="", max_length=120)


class HeartbeatDecision(StructuredOutput):
    """The heartbeat's decision on one escalated tick."""

    schema_name = "heartbeat_decision"

    severity: Severity
    action: HeartbeatAction
    confidence: Fraction = Field(default=0.5, description="0..1")
    escalate: bool = Field(default=False, description="true: re-run this tick at T2")
    signals: list[Signal] = Field(default_factory=list, max_length=6)
    reasoning: str = Field(default="", max_length=400)

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        if self.escalate and self.severity is Severity.LOW:
            issues.append(SchemaIssue("/escalate", "escalating needs severity medium or above"))
        if self.action is HeartbeatAction.EXIT:
            if self.severity in (Severity.LOW, Severity.MEDIUM):
                issues.append(SchemaIssue("/action", "an exit needs severity high or critical"))
            if self.confidence < 0.5:
                issues.append(SchemaIssue("/confidence", "an exit needs confidence >= 0.5"))
        issues += repeats("/signals", (signal.name for signal in self.signals), "/name")
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, _read)


SEVERITY = Choices(
    {
        Severity.LOW: r"low|minor|negligible",
        Severity.MEDIUM: r"medium|moderate|elevated",
        Severity.HIGH: r"high|severe|serious",
        Severity.CRITICAL: r"critical|urgent|emergency|extreme",
    }
)
SEVERITY_PROSE = Choices({severity: severity.value for severity in Severity})
ACTION = Choices(
    {
        HeartbeatAction.OBSERVE: (
            r"observ\w*|monitor\w*|watch\w*|wait\w*|hold|holding|do nothing|stay put|"
            r"sit tight|no action"
        ),
        HeartbeatAction.REBALANCE: r"re-?balanc\w*",
        HeartbeatAction.HEDGE: r"hedg\w*",
        HeartbeatAction.EXIT: (
            r"exit\w*|unwind\w*|sell (?:everything|it all|all)|"
            r"close (?:the |all |our |my )?(?:position|positions|everything)"
        ),
    }
)
ESCALATION = Choices(
    {True: r"escalat\w*|t2|tier[ -]?2|deeper (?:look|review|analysis)"}, flip=lambda v: not v
)
# An action with no stated severity implies at least this much.
_IMPLIED_SEVERITY = {
    HeartbeatAction.OBSERVE: Severity.LOW,
    HeartbeatAction.REBALANCE: Severity.MEDIUM,
    HeartbeatAction.HEDGE: Severity.MEDIUM,
    HeartbeatAction.EXIT: Severity.HIGH,
}
_SEVERITY_LABELS = (r"severity", r"risk level|alert level|urgency|threat level|risk|alert")
_ACTION_LABELS = (r"action|recommended action|recommendation|decision|next step|verdict|call",)


def _read(text: str) -> dict[str, Any]:
    severity = read_choice(text, SEVERITY, labels=_SEVERITY_LABELS, prose=SEVERITY_PROSE)
    action = read_choice(text, ACTION, labels=_ACTION_LABELS)
    if severity is None and action is None:
        raise UnparseableOutput("no severity and no action in the text", text=text)
    action = action or HeartbeatAction.OBSERVE
    escalate = read_choice(text, YES_NO, labels=(r"escalat\w*",), use_prose=False)
    if escalate is None:
        escalate = ESCALATION.pick(text) or False
    reasoning = section(text, r"^(?:reasoning|rationale|why|explanation)$")
    return {
        "severity": severity or _IMPLIED_SEVERITY[action],
        "action": action,
        "confidence": _confidence(text),
        "escalate": escalate,
        "signals": _signals(section(text, r"^(?:key )?signals?$") or ""),
        "reasoning": clip(reasoning or text, 400),
    }


def _confidence(text: str) -> float:
    found = read_fraction(
        text, r"confidence|certainty|conviction", after=r"confiden\w*|sure|certain|conviction"
    )
    return 0.5 if found is None else found


def _signals(body: str) -> list[Signal]:
    return [_signal(item) for item in items(body, limit=6, max_chars=200)]


def _signal(item: str) -> Signal:
    """`price delta: -4.2% (sharp)` → price_delta, -0.042, "sharp"; an item with no
    name before a separator is named by its first words and kept whole as the note."""
    named = re.match(r"(?P<name>[^:=]{1,40}?)\s*(?:[:=]|\s[-–—])\s*(?P<rest>.*)", item)
    if named is None:
        return Signal(name=_snake(" ".join(item.split()[:3])), note=clip(item, 120))
    rest = named["rest"]
    number = first_number(rest)
    if number is not None:
        rest = rest[: number.start()] + rest[number.end() :]
    return Signal(
        name=_snake(named["name"]),
        value=as_value(number) if number is not None else None,
        note=clip(rest.strip(" ,;-–—").removeprefix("(").removesuffix(")"), 120),
    )


def _snake(words: str) -> str:
    return clip(re.sub(r"\W+", "_", words.lower()).strip("_"), 40)
