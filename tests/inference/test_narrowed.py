"""What a decision's grammar can say of its content rules, it says: each schema's narrowed
form (golem.inference.narrow) admits every good answer (the worked examples and the test
examples), refuses answers that break a rule it states, and compiles for llguidance with
the decision's own fields in the prompt outline; pure, no model."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import golem.subsystems
from golem.inference import InvalidSchema, StructuredOutput
from golem.inference.local.bounds import Backend, DecoderBounds
from golem.inference.local.constraint import SchemaCache
from golem.inference.narrow import keywords, narrowed
from golem.subsystems import (
    DaimonAppraisal,
    DreamIntegration,
    HeartbeatDecision,
    RiskAssessment,
    ThreatAssessment,
)
from tests.subsystems.examples import VALID

NARROWED = [d for d in golem.subsystems.DECISIONS if d.response_schema().narrowed is not None]


def _admits(kind: type[StructuredOutput], answer: dict[str, Any]) -> bool:
    narrow = kind.response_schema().narrowed
    assert narrow is not None
    return not list(Draft202012Validator(narrow).iter_errors(answer))


def _changed(kind: type[StructuredOutput], **fields: Any) -> dict[str, Any]:
    answer = copy.deepcopy(VALID[kind])
    answer.update(fields)
    return answer


def test_the_decisions_with_rules_a_grammar_can_state_narrow_their_schema() -> None:
    names = {kind.response_schema().name for kind in NARROWED}
    assert names == {
        "heartbeat_decision",
        "daimon_appraisal",
        "risk_assessment",
        "threat_assessment",
        "dream_integration",
    }


@pytest.mark.parametrize("kind", NARROWED, ids=lambda k: k.response_schema().name)
def test_every_good_answer_is_admitted(kind: type[StructuredOutput]) -> None:
    Draft202012Validator.check_schema(kind.response_schema().narrowed or {})
    answers = [VALID[kind], *(dict(example.answer) for example in kind.worked_examples)]
    for answer in answers:
        assert kind.of(answer).validate_content() == []
        assert _admits(kind, answer), answer


def _layers(**changed: dict[str, Any]) -> dict[str, Any]:
    layers = copy.deepcopy(VALID[RiskAssessment]["layers"])
    for name, layer in changed.items():
        layers[name] = layer
    return layers


@pytest.mark.parametrize(
    ("kind", "answer"),
    [
        (
            RiskAssessment,
            {
                "approved": True,
                "layers": _layers(observation={"passed": False, "score": 0.5, "detail": "thin"}),
            },
        ),
        (
            RiskAssessment,
            {"layers": _layers(observation={"passed": True, "score": 0.9, "detail": "thin"})},
        ),
        (
            RiskAssessment,
            {
                "approved": False,
                "layers": _layers(observation={"passed": False, "score": 0.1, "detail": "thin"}),
            },
        ),
        (RiskAssessment, {"approved": False, "warnings": [], "adjusted_size_usd": None}),
        (DaimonAppraisal, {"primary_emotion": "anger", "pleasure": 0.5, "secondary_emotion": None}),
        (DaimonAppraisal, {"primary_emotion": "joy", "pleasure": -0.6, "secondary_emotion": None}),
        (HeartbeatDecision, {"severity": "low", "action": "exit", "confidence": 0.9}),
        (HeartbeatDecision, {"severity": "high", "action": "exit", "confidence": 0.3}),
        (HeartbeatDecision, {"severity": "low", "action": "observe", "escalate": True}),
        (ThreatAssessment, {"severity": "critical", "likelihood": 0.05}),
        (ThreatAssessment, {"severity": "high", "mitigation_actions": []}),
    ],
    ids=lambda v: getattr(v, "schema_name", "answer"),
)
def test_an_answer_breaking_a_stated_rule_is_refused(
    kind: type[StructuredOutput], answer: dict[str, Any]
) -> None:
    bad = _changed(kind, **answer)
    assert kind.of(bad).validate_content() != []  # the rule the grammar states
    assert not _admits(kind, bad)


def test_a_promotion_below_its_floor_is_refused() -> None:
    good = copy.deepcopy(VALID[DreamIntegration])
    assert good["promoted"] and _admits(DreamIntegration, good)
    good["promoted"][0]["confidence"] = 0.3
    assert not _admits(DreamIntegration, good)


@pytest.mark.parametrize("kind", NARROWED, ids=lambda k: k.response_schema().name)
def test_the_narrowed_grammar_compiles_and_the_outline_tells_the_fields(
    kind: type[StructuredOutput],
) -> None:
    schema = kind.response_schema()
    compiled = SchemaCache(DecoderBounds()).get(
        schema.name, schema.schema, Backend.LLGUIDANCE, narrowed=schema.narrowed
    )
    assert compiled.added[0] == "/: held to its content rules"
    assert "anyOf" in compiled.schema or schema.name == "dream_integration"
    for field in schema.schema["properties"]:
        assert f"- {field}:" in compiled.outline


def test_a_narrowing_naming_no_field_is_refused() -> None:
    with pytest.raises(InvalidSchema, match="/nowhere"):
        narrowed({"type": "object", "properties": {}}, {"/nowhere": keywords(minimum=0)})
