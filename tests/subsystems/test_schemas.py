"""The nine decision schemas: registered, strict, bounded, and their content checks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel

from golem.inference import StructuredOutput, get_schema, registered_schemas, strict_preflight
from golem.subsystems import (
    DECISIONS,
    CuratorEvaluation,
    DaimonAppraisal,
    DeathTestament,
    DreamIntegration,
    FragmentEvaluation,
    HeartbeatDecision,
    ReplayAnalysis,
    RiskAssessment,
    ThreatAssessment,
)
from golem.subsystems.dream import ThreatSeverity

from .examples import VALID

NAMES = {
    "heartbeat_decision": HeartbeatDecision,
    "daimon_appraisal": DaimonAppraisal,
    "risk_assessment": RiskAssessment,
    "curator_evaluation": CuratorEvaluation,
    "replay_analysis": ReplayAnalysis,
    "fragment_evaluation": FragmentEvaluation,
    "dream_integration": DreamIntegration,
    "threat_assessment": ThreatAssessment,
    "death_testament": DeathTestament,
}
ids = [d.schema_name for d in DECISIONS]


def test_all_nine_are_registered_under_their_names() -> None:
    registry = registered_schemas()
    for name, decision in NAMES.items():
        assert registry[name] is decision
        assert get_schema(name) is decision
    assert set(NAMES) == {d.schema_name for d in DECISIONS}


def test_the_documented_import_paths() -> None:
    from golem.subsystems.curator import CrossRef, CuratorEvaluation, Promotion
    from golem.subsystems.daimon import DaimonAppraisal
    from golem.subsystems.death import DeathTestament
    from golem.subsystems.dream import (
        Counterfactual,
        DreamIntegration,
        FragmentEvaluation,
        IntegrationItem,
        Lesson,
        ReplayAnalysis,
        ThreatAssessment,
    )
    from golem.subsystems.heartbeat import HeartbeatDecision, Signal
    from golem.subsystems.risk import LayerResult, RiskAssessment, RiskLayers

    parts = (CrossRef, Promotion, Counterfactual, IntegrationItem, Lesson, Signal)
    assert all(issubclass(part, BaseModel) for part in (*parts, LayerResult, RiskLayers))
    assert {d.schema_name for d in (CuratorEvaluation, DaimonAppraisal, DeathTestament)} <= set(
        NAMES
    )
    assert {
        d.schema_name
        for d in (DreamIntegration, FragmentEvaluation, ReplayAnalysis, ThreatAssessment)
    } <= set(NAMES)
    assert HeartbeatDecision is NAMES["heartbeat_decision"]
    assert RiskAssessment is NAMES["risk_assessment"]


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
def test_schema_is_strict_and_a_valid_json_schema(decision: type[StructuredOutput]) -> None:
    schema = decision.schema()
    assert strict_preflight(schema) is None
    Draft202012Validator.check_schema(schema)
    assert decision.response_schema().strict_ok
    assert "$ref" not in str(schema) and "$defs" not in schema


def _nodes(node: Any, pointer: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    if isinstance(node, Mapping):
        yield pointer, node
        for key, child in node.items():
            if key == "properties":
                for name, sub in child.items():
                    yield from _nodes(sub, f"{pointer}/{name}")
            elif key in ("items", "anyOf"):
                yield from _nodes(child, pointer)
    elif isinstance(node, list):
        for child in node:
            yield from _nodes(child, pointer)


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
def test_every_string_list_and_number_is_bounded(decision: type[StructuredOutput]) -> None:
    """A local model's grammar stops by itself only when strings and lists are bounded."""
    checked = 0
    for pointer, node in _nodes(decision.schema()):
        kind = node.get("type")
        if kind == "string" and "enum" not in node:
            assert 0 < node.get("maxLength", 0) <= 400, pointer
        elif kind == "array":
            assert 0 < node.get("maxItems", 0) <= 20, pointer
        elif kind in ("number", "integer"):
            assert "minimum" in node and "maximum" in node, pointer
        else:
            continue
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
def test_the_example_is_valid_against_schema_model_and_content(
    decision: type[StructuredOutput],
) -> None:
    example = VALID[decision]
    assert decision.response_schema().validate(example) == []
    parsed = decision.model_validate(example)
    assert parsed.validate_content() == []
    assert parsed.model_dump(mode="json") == example


@pytest.mark.parametrize("decision", DECISIONS, ids=ids)
def test_guidance_names_the_schema(decision: type[StructuredOutput]) -> None:
    assert decision.schema_name in decision.prompt_guidance()


@pytest.mark.parametrize(
    ("decision", "change", "pointer"),
    [
        (HeartbeatDecision, {"confidence": 1.2}, "/confidence"),
        (HeartbeatDecision, {"rationale": "x" * 401}, "/rationale"),
        (DaimonAppraisal, {"pleasure": -1.5}, "/pleasure"),
        (RiskAssessment, {"adjusted_size_usd": -5}, "/adjusted_size_usd"),
        (CuratorEvaluation, {"prune_ids": [f"e{i}" for i in range(21)]}, "/prune_ids"),
        (ReplayAnalysis, {"surprise_score": 1.5}, "/surprise_score"),
        (ReplayAnalysis, {"arousal_delta": -1.5}, "/arousal_delta"),
        (FragmentEvaluation, {"verdict": "maybe"}, "/verdict"),
        (ThreatAssessment, {"likelihood": float("nan")}, "/likelihood"),
        (DeathTestament, {"arc_class": "comic"}, "/arc_class"),
    ],
)
def test_bounds_are_enforced_client_side(
    decision: type[StructuredOutput], change: dict[str, Any], pointer: str
) -> None:
    """Some backends ignore number bounds; pydantic does not."""
    from pydantic import ValidationError

    from golem.inference.structured import validation_issues

    with pytest.raises(ValidationError) as caught:
        decision.model_validate({**VALID[decision], **change})
    assert any(issue.pointer == pointer for issue in validation_issues(caught.value))


def _layers(**verdicts: tuple[bool, float]) -> dict[str, Any]:
    layers = dict(VALID[RiskAssessment]["layers"])
    for name, (passed, score) in verdicts.items():
        layers[name] = {"passed": passed, "score": score, "detail": ""}
    return layers


CONTENT_CASES: list[tuple[type[StructuredOutput], dict[str, Any], list[str]]] = [
    (HeartbeatDecision, {"severity": "low", "escalate": True, "action": "observe"}, ["/escalate"]),
    (HeartbeatDecision, {"severity": "none", "escalate": False, "action": "escalate"}, ["/action"]),
    (HeartbeatDecision, {"severity": "moderate", "escalate": False, "action": "escalate"}, []),
    (
        HeartbeatDecision,
        {"severity": "moderate", "escalate": False, "action": "exit", "confidence": 0.3},
        ["/action", "/confidence"],
    ),
    (
        HeartbeatDecision,
        {"signals": [{"source": "price", "description": "hf 1.2", "magnitude": 0.4}] * 2},
        ["/signals/1/description"],
    ),
    (DaimonAppraisal, {"primary_emotion": "joy", "pleasure": -0.6}, ["/pleasure"]),
    (DaimonAppraisal, {"primary_emotion": "fear", "pleasure": 0.4}, ["/pleasure"]),
    (DaimonAppraisal, {"primary_emotion": "surprise", "pleasure": 0.4}, []),
    (DaimonAppraisal, {"secondary_emotion": "fear"}, ["/secondary_emotion"]),
    (RiskAssessment, {"layers": _layers(defi_threats=(False, 0.9))}, ["/approved"]),
    (
        RiskAssessment,
        {
            "approved": False,
            "adjusted_size_usd": None,
            "layers": _layers(position_sizing=(True, 0.1)),
            "warnings": [],
        },
        ["/approved"],
    ),
    (  # a warning may be reason enough to refuse
        RiskAssessment,
        {"approved": False, "adjusted_size_usd": None, "layers": _layers()},
        [],
    ),
    (RiskAssessment, {"adjusted_size_usd": 6000.0}, ["/adjusted_size_usd"]),
    (
        RiskAssessment,
        {"approved": False, "adjusted_size_usd": 100.0},
        ["/adjusted_size_usd"],
    ),
    (
        RiskAssessment,
        {"layers": _layers(observation=(True, 0.9), position_sizing=(True, 0.5))},
        ["/layers/observation/score"],
    ),
    (
        RiskAssessment,
        {
            "approved": False,
            "adjusted_size_usd": None,
            "layers": _layers(observation=(False, 0.1)),
        },
        ["/layers/observation/score"],
    ),
    (RiskAssessment, {"warnings": ["  "]}, ["/warnings/0"]),
    (CuratorEvaluation, {"entries_evaluated": 10}, ["/entries_retained"]),
    (CuratorEvaluation, {"entries_pruned": 2, "entries_retained": 9}, ["/prune_ids"]),
    (
        CuratorEvaluation,
        {"promotions": [{"entry_id": "e4", "from_confidence": 0.5, "to_confidence": 0.6}]},
        ["/promotions/0/entry_id"],
    ),
    (
        CuratorEvaluation,
        {"promotions": [{"entry_id": "e5", "from_confidence": 0.6, "to_confidence": 0.5}]},
        ["/promotions/0/to_confidence"],
    ),
    (
        CuratorEvaluation,
        {
            "cross_references": [
                {"source_id": "e3", "target_id": "e3", "relationship": "extends", "strength": 1}
            ]
        },
        ["/cross_references/0/target_id"],
    ),
    (CuratorEvaluation, {"prune_ids": ["e1", "e1"]}, ["/prune_ids/1"]),
    (ReplayAnalysis, {"episodes_reviewed": 0}, ["/episodes_reviewed"]),
    (
        ReplayAnalysis,
        {"lessons": [{"insight": "Same", "confidence": 0.5, "applicable_conditions": ""}] * 2},
        ["/lessons/1/insight"],
    ),
    (FragmentEvaluation, {"verdict": "promote", "relevance": 0.1}, ["/verdict"]),
    (
        FragmentEvaluation,
        {"verdict": "discard", "novelty": 0.9, "coherence": 0.8, "relevance": 0.7},
        ["/verdict"],
    ),
    (
        DreamIntegration,
        {"promoted": [{"hypothesis_id": "g1", "summary": "x", "confidence": 0.2}]},
        ["/promoted/0/confidence"],
    ),
    (
        DreamIntegration,
        {"discarded": [{"hypothesis_id": "g12", "summary": "x", "confidence": 0.5}]},
        ["/discarded/0/hypothesis_id"],
    ),
    (
        DreamIntegration,
        {"staged": [{"summary": "new idea", "confidence": 0.5}] * 2, "promoted": []},
        ["/staged/1/summary"],
    ),
    (ThreatAssessment, {"severity": "critical", "likelihood": 0.05}, ["/severity"]),
    (ThreatAssessment, {"mitigation_actions": []}, ["/mitigation_actions"]),
    (ThreatAssessment, {"severity": "medium", "mitigation_actions": []}, []),
    (DeathTestament, {"learned": [], "got_wrong": []}, ["/learned"]),
    (
        DeathTestament,
        {"causal_links": [{"cause": "Fear", "effect": "fear ", "confidence": 0.5}]},
        ["/causal_links/0/effect"],
    ),
]


@pytest.mark.parametrize(("decision", "change", "pointers"), CONTENT_CASES)
def test_content_checks_name_the_field(
    decision: type[StructuredOutput], change: dict[str, Any], pointers: list[str]
) -> None:
    value = decision.model_validate({**VALID[decision], **change})
    assert [issue.pointer for issue in value.validate_content()] == pointers


def test_a_high_or_critical_threat_is_pressing() -> None:
    threat = ThreatAssessment.model_validate(VALID[ThreatAssessment])
    assert threat.pressing and threat.severity is ThreatSeverity.HIGH
    assert not threat.model_copy(update={"severity": ThreatSeverity.MEDIUM}).pressing
