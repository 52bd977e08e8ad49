"""The agreement of a replay with its original: verdict fields read off the schema,
numbers within a relative tolerance, booleans and enums equal, failures counted apart."""

from __future__ import annotations

from dataclasses import replace

import pytest

import golem.subsystems  # noqa: F401  (registers the decision schemas)
from golem.runtime.agreement import agree, differing, flatten, tally, verdict_fields
from golem.runtime.store import Answer
from tests.runtime.test_requests import kept


def test_verdict_fields_are_the_decisive_scalars() -> None:
    assert verdict_fields("risk_assessment") == (
        "approved",
        "adjusted_size_usd",
        "proposed_size_usd",
    )
    assert verdict_fields("heartbeat_decision") == (
        "severity",
        "action",
        "confidence",
        "escalate",
        "expected_move",
    )


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (1000.0, 950.0, True),  # 5% apart
        (1000.0, 850.0, False),  # 15% apart
        (0.0, 0.0, True),
        (None, None, True),
        (None, 500.0, False),
        (True, True, True),
        (True, 1, False),  # a bool is not a number here
        ("high", "high", True),
        ("high", "critical", False),
    ],
)
def test_agree_within_a_relative_tolerance(a: object, b: object, same: bool) -> None:
    assert agree(a, b, 0.1) is same


def test_flatten_and_differing_name_dotted_fields() -> None:
    a = {"approved": True, "layers": {"hard": {"passed": True}}, "warnings": ["x"]}
    b = {"approved": True, "layers": {"hard": {"passed": False}}, "warnings": ["x", "y"]}
    assert flatten(a) == {"approved": True, "layers.hard.passed": True, "warnings.0": "x"}
    assert differing(a, b) == ["layers.hard.passed", "warnings.1"]


def answer(**decision: object) -> Answer:
    base = kept().answer
    return replace(base, decision={**base.decision, **decision}, cost_usd=0.5)


def test_tally_counts_agreement_per_subsystem_and_field() -> None:
    original = kept("heartbeat@1.0")  # severity low, action observe, confidence 0.7
    other = kept("risk@2.0")  # a risk id with a heartbeat schema: grouped by subsystem
    rows = tally(
        [
            (original, answer(confidence=0.72)),  # agrees on everything
            (original, answer(severity="high")),  # one field apart
            (original, None),  # the replay failed
            (other, answer()),
        ],
        tolerance=0.1,
    )
    heartbeat, risk = rows
    assert (heartbeat.subsystem, heartbeat.n, heartbeat.failed, heartbeat.agreed) == (
        "heartbeat",
        3,
        1,
        1,
    )
    assert heartbeat.by_field["severity"] == 1 and heartbeat.by_field["action"] == 2
    assert heartbeat.replay_usd == 1.0 and heartbeat.original_usd == pytest.approx(3 * 0.0021)
    assert (risk.n, risk.agreed) == (1, 1)
