"""meaningful(): a schema-valid answer that says nothing is caught, one that says something
passes; on hand-written answers for each of the nine schemas."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import golem.subsystems
from golem.inference import StructuredOutput, WorkedExample
from golem.subsystems import ThreatAssessment
from golem.subsystems.meaningful import MEANINGFUL, meaningful
from tests.subsystems.examples import HOLLOW_THREAT, VALID

# A prompt that names every id the good examples refer to, as the briefs render them.
PROMPT = "\n".join(
    [
        "## Grimoire",
        *(f"- [{i}] confidence 0.60, tier staged: a lesson" for i in ("e1", "e3", "e4", "e7")),
        *(f"- [{i}] confidence 0.60, tier staged: a lesson" for i in ("e9", "e12", "g12", "g14")),
        "- #ep-17 tick 40: hedge (confidence 0.70) → pnl +3.00",
    ]
)


def _decision(kind: type[StructuredOutput], **changes: Any) -> StructuredOutput:
    fields = copy.deepcopy(VALID[kind])
    fields.update(changes)
    return kind.of(fields)


def test_every_schema_has_a_check() -> None:
    names = {d.response_schema().name for d in golem.subsystems.DECISIONS}
    assert set(MEANINGFUL) == names


@pytest.mark.parametrize("kind", list(VALID), ids=lambda k: k.response_schema().name)
def test_a_good_answer_is_meaningful(kind: type[StructuredOutput]) -> None:
    assert meaningful(kind.of(VALID[kind]), PROMPT) == []


def test_the_issues_threat_is_not_meaningful() -> None:
    """`golem ask --provider local --schema threat_assessment` answered this (issue 24)."""
    answer = ThreatAssessment.of(HOLLOW_THREAT)
    problems = meaningful(answer, "Rehearse the threat: ETH crashes 30% in an hour")
    assert any(p.startswith("/threat_type") for p in problems)
    assert sum(p.startswith("/mitigation_actions/") for p in problems) == 5
    assert "/detection_signals: empty" in problems


BAD: list[tuple[type[StructuredOutput], dict[str, Any], str]] = [
    (golem.subsystems.HeartbeatDecision, {"rationale": "."}, "/rationale"),
    (golem.subsystems.HeartbeatDecision, {"confidence": 0.0}, "/confidence"),
    (
        golem.subsystems.HeartbeatDecision,
        {"signals": [{"source": "x", "description": "y", "magnitude": 0.5}]},
        "/signals/0/source",
    ),
    (
        golem.subsystems.DaimonAppraisal,
        {"pleasure": 0.0, "arousal": 0.0, "dominance": 0.0, "intensity": 0.0},
        "/pleasure../intensity",
    ),
    (golem.subsystems.DaimonAppraisal, {"trigger": "-"}, "/trigger"),
    (golem.subsystems.RiskAssessment, {"warnings": ["A", "B"]}, "/warnings/0"),
    (golem.subsystems.CuratorEvaluation, {"prune_ids": ["e99"]}, "/prune_ids"),
    (golem.subsystems.CuratorEvaluation, {"entries_evaluated": 0}, "/entries_evaluated"),
    (golem.subsystems.ReplayAnalysis, {"episode_id": "ep-99"}, "/episode_id"),
    (golem.subsystems.ReplayAnalysis, {"lessons": []}, "/lessons"),
    (
        golem.subsystems.FragmentEvaluation,
        {"novelty": 0.0, "relevance": 0.0, "coherence": 0.0, "verdict": "stage"},
        "/novelty",
    ),
    (golem.subsystems.DreamIntegration, {"promoted": [], "staged": []}, "no item"),
    (
        golem.subsystems.DreamIntegration,
        {"staged": [{"hypothesis_id": "h9", "summary": "a b", "confidence": 0.5}]},
        "/staged/0/hypothesis_id",
    ),
    (golem.subsystems.ThreatAssessment, {"mitigation_actions": ["Item 1"]}, "/mitigation"),
    (golem.subsystems.ThreatAssessment, {"likelihood": 0.0}, "/likelihood"),
    (golem.subsystems.DeathTestament, {"learned": []}, "/learned"),
    (golem.subsystems.DeathTestament, {"killed_by": "A"}, "/killed_by"),
    (
        golem.subsystems.DeathTestament,
        {"would_change": ["hedge earlier", "hedge earlier"]},
        "/would_change: repeated",
    ),
]


@pytest.mark.parametrize(("kind", "changes", "problem"), BAD)
def test_a_hollow_answer_is_caught(
    kind: type[StructuredOutput], changes: dict[str, Any], problem: str
) -> None:
    problems = meaningful(_decision(kind, **changes), PROMPT)
    assert any(p.startswith(problem) for p in problems), problems


def test_an_empty_hypothesis_id_is_a_new_entry() -> None:
    item = {"hypothesis_id": "", "summary": "thin books widen spreads", "confidence": 0.5}
    item["rationale"] = "seen twice this week"
    decision = _decision(golem.subsystems.DreamIntegration, promoted=[], staged=[item])
    assert meaningful(decision, PROMPT) == []


EXAMPLES = [(kind, example) for kind in VALID for example in kind.worked_examples]


@pytest.mark.parametrize(
    ("kind", "example"), EXAMPLES, ids=lambda k: getattr(k, "schema_name", "example")
)
def test_every_worked_example_is_a_good_answer(
    kind: type[StructuredOutput], example: WorkedExample
) -> None:
    decision = kind.of(example.answer)
    assert kind.response_schema().validate(decision.model_dump(mode="json")) == []
    assert decision.validate_content() == []
    # It is a copy of itself (fragment_evaluation has no text to copy); nothing else is amiss.
    problems = meaningful(decision, example.situation)
    assert all(p.startswith("copies the worked example") for p in problems), problems


@pytest.mark.parametrize("example", ThreatAssessment.worked_examples)
def test_a_copy_of_a_worked_example_is_not_meaningful(example: WorkedExample) -> None:
    problems = meaningful(ThreatAssessment.of(example.answer), "Threat: ETH crashes 30%")
    assert any(p.startswith("copies the worked example") for p in problems)


def test_every_decision_has_two_worked_examples() -> None:
    assert all(len(kind.worked_examples) == 2 for kind in VALID)
