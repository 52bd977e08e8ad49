"""µs per answer for parse + validate + typed model of a ~600-byte heartbeat-shaped answer.

Paths measured: schema-enforced valid (the goal: <= 15 µs), schema-enforced invalid (a
content error), prompt-guided (JSON in prose, through extract_json), and for comparison
jsonschema validation alone with a compiled validator and with jsonschema.validate().
Run: .venv/bin/python benchmarks/bench_structured.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum

import jsonschema
import orjson
from pydantic import BaseModel, ConfigDict, Field

from golem.inference import SchemaIssue, StructuredOutput, StructuredOutputInvalid, parse_response

GOAL_US = 15.0


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
    ESCALATE = "escalate"


class Signal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(max_length=40)
    value: float
    threshold: float
    triggered: bool


class BenchHeartbeat(StructuredOutput):
    """Shaped like the heartbeat decision: severity, action, confidence, signals."""

    schema_name = "bench_heartbeat"

    severity: Severity
    action: Action
    confidence: float = Field(ge=0, le=1)
    escalate: bool
    regime: str = Field(max_length=20)
    signals: list[Signal] = Field(max_length=8)
    reasoning: str = Field(max_length=400)
    next_check_seconds: int = Field(ge=1, le=3600)

    def validate_content(self) -> list[SchemaIssue]:
        if self.escalate and self.severity in (Severity.LOW, Severity.MEDIUM):
            return [SchemaIssue("/escalate", "escalation needs severity high or critical")]
        return []


ANSWER = {
    "severity": "high",
    "action": "hedge",
    "confidence": 0.72,
    "escalate": True,
    "regime": "volatile",
    "signals": [
        {"name": "price_delta_15m", "value": -0.041, "threshold": 0.02, "triggered": True},
        {"name": "volume_ratio", "value": 2.7, "threshold": 2.0, "triggered": True},
        {"name": "health_factor", "value": 1.41, "threshold": 1.5, "triggered": True},
    ],
    "reasoning": (
        "ETH fell 4.1% in fifteen minutes on 2.7x volume while the lending position's "
        "health factor slipped below 1.5; the regime moved from trending to volatile, so "
        "hedging half the exposure limits liquidation risk without selling into the drop."
    ),
    "next_check_seconds": 60,
}
VALID = orjson.dumps(ANSWER).decode()
INVALID = orjson.dumps({**ANSWER, "severity": "low"}).decode()  # a content error
PROSE = f"Here is my assessment of the tick:\n```json\n{VALID}\n```\nI will check again soon."


def enforced_valid() -> None:
    value, _ = parse_response(BenchHeartbeat, VALID, schema_enforced=True)
    if value.validate_content():
        raise AssertionError("valid answer reported invalid")


def enforced_invalid() -> None:
    value, _ = parse_response(BenchHeartbeat, INVALID, schema_enforced=True)
    if not value.validate_content():
        raise AssertionError("invalid answer reported valid")


def schema_invalid() -> None:
    try:
        parse_response(BenchHeartbeat, VALID.replace('"hedge"', '"panic"'), schema_enforced=True)
    except StructuredOutputInvalid:
        return
    raise AssertionError("schema violation not reported")


def prompt_guided() -> None:
    value, _ = parse_response(BenchHeartbeat, PROSE)
    value.validate_content()


SCHEMA = BenchHeartbeat.schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def jsonschema_compiled() -> None:
    VALIDATOR.validate(orjson.loads(VALID))


def jsonschema_uncompiled() -> None:
    jsonschema.validate(orjson.loads(VALID), SCHEMA)


def measure(fn: Callable[[], None], n: int, repeats: int = 5) -> float:
    """Best of `repeats` runs, in µs per call."""
    for _ in range(min(n, 200)):
        fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - start) / n)
    return best * 1e6


def main() -> None:
    print(f"answer size: {len(VALID)} bytes ({len(PROSE)} with prose)")
    rows = [
        ("schema-enforced, valid (parse+validate+typed+content)", enforced_valid, 20_000),
        ("schema-enforced, content error", enforced_invalid, 20_000),
        ("schema-enforced, schema error (bad enum)", schema_invalid, 5_000),
        ("prompt-guided, JSON in a fence with prose", prompt_guided, 5_000),
        ("reference: jsonschema, compiled validator", jsonschema_compiled, 2_000),
        ("reference: jsonschema.validate() per call", jsonschema_uncompiled, 200),
    ]
    results = {}
    for label, fn, n in rows:
        results[label] = us = measure(fn, n)
        print(f"{label:<58} {us:9.2f} µs/answer")
    valid = results[rows[0][0]]
    compiled = results[rows[4][0]]
    print(f"valid path vs compiled jsonschema alone: {compiled / valid:.1f}x faster")
    verdict = "PASS" if valid <= GOAL_US else "MISS"
    print(f"goal: valid path <= {GOAL_US:.0f} µs -> {valid:.2f} µs {verdict}")


if __name__ == "__main__":
    main()
