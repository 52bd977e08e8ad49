"""The nine decision schemas speak the seeds' field names and enum sets: `golem schemas NAME`
prints every seed field, and an answer carrying exactly the seed's fields (whatever the
golem adds has a default) parses in every structured-output mode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
import pytest

from golem.cli import main
from golem.inference import (
    Capabilities,
    Message,
    Mode,
    Request,
    StructuredOutput,
    StructuredOutputConfig,
    get_schema,
    parse_response,
    run_structured,
)
from golem.inference.scripted import ScriptedProvider, tool_answer
from golem.subsystems import HeartbeatDecision

Spec = Mapping[str, Any]  # field -> None (a scalar), a frozenset (its enum), or a nested Spec

_LAYER: Spec = {"passed": None, "score": None, "detail": None}
_ITEM: Spec = {"hypothesis_id": None, "summary": None, "confidence": None, "rationale": None}
PLUTCHIK = frozenset(
    {"joy", "trust", "fear", "surprise", "sadness", "disgust", "anger", "anticipation"}
)

# Each schema's fields as the seeds define them (death_testament: the seeds define none).
SEED_FIELDS: dict[str, Spec] = {
    "heartbeat_decision": {
        "severity": frozenset({"none", "low", "moderate", "high", "critical"}),
        "action": frozenset({"observe", "analyze", "rebalance", "hedge", "exit", "escalate"}),
        "confidence": None,
        "rationale": None,
        "signals": {"source": None, "description": None, "magnitude": None},
        "escalate": None,
    },
    "daimon_appraisal": {
        "pleasure": None,
        "arousal": None,
        "dominance": None,
        "primary_emotion": PLUTCHIK,
        "secondary_emotion": PLUTCHIK,
        "trigger": None,
        "memory_bias": None,
    },
    "risk_assessment": {
        "approved": None,
        "adjusted_size_usd": None,
        "layers": {
            "hard_shields": _LAYER,
            "position_sizing": _LAYER,
            "adaptive_guardrails": _LAYER,
            "observation": _LAYER,
            "defi_threats": _LAYER,
        },
        "warnings": None,
        "reasoning": None,
    },
    "curator_evaluation": {
        "entries_evaluated": None,
        "entries_retained": None,
        "entries_pruned": None,
        "cross_references": {
            "source_id": None,
            "target_id": None,
            "relationship": frozenset({"supports", "contradicts", "extends"}),
        },
        "promotions": {
            "entry_id": None,
            "from_confidence": None,
            "to_confidence": None,
            "reason": None,
        },
        "grimoire_health": None,
    },
    "replay_analysis": {
        "episode_id": None,
        "lessons": {"insight": None, "confidence": None, "applicable_conditions": None},
        "surprise_score": None,
        "counterfactuals": {
            "alternative_action": None,
            "estimated_outcome": None,
            "plausibility": None,
        },
        "arousal_delta": None,
    },
    "fragment_evaluation": {
        "novelty": None,
        "relevance": None,
        "coherence": None,
        "verdict": frozenset({"promote", "stage", "discard"}),
    },
    "dream_integration": {
        "promoted": _ITEM,
        "staged": _ITEM,
        "discarded": _ITEM,
        "playbook_diff": None,
    },
    "threat_assessment": {
        "threat_type": None,
        "severity": frozenset({"low", "medium", "high", "critical"}),
        "likelihood": None,
        "impact_if_realized": None,
        "mitigation_actions": None,
        "detection_signals": None,
        "rehearsal_outcome": None,
    },
}

# One answer per schema shaped exactly as the seed's struct: no field the golem added.
SEED_ANSWERS: dict[str, dict[str, Any]] = {
    "heartbeat_decision": {
        "severity": "moderate",
        "action": "analyze",
        "confidence": 0.64,
        "rationale": "ETH slid 2.1% on rising volume; worth a closer look, not a trade.",
        "signals": [
            {"source": "price", "description": "down 2.1% in an hour", "magnitude": 0.5},
            {"source": "volume", "description": "3x the daily mean", "magnitude": 0.7},
        ],
        "escalate": False,
    },
    "daimon_appraisal": {
        "pleasure": -0.4,
        "arousal": 0.6,
        "dominance": -0.2,
        "primary_emotion": "fear",
        "secondary_emotion": "surprise",
        "trigger": "a 6% loss on the ETH position",
        "memory_bias": "recall past drawdowns and how they ended",
    },
    "risk_assessment": {
        "approved": True,
        "adjusted_size_usd": 800.0,
        "layers": {
            "hard_shields": {"passed": True, "score": 0.1, "detail": "inside every limit"},
            "position_sizing": {"passed": True, "score": 0.45, "detail": "Kelly says smaller"},
            "adaptive_guardrails": {"passed": True, "score": 0.3, "detail": "stable phase"},
            "observation": {"passed": True, "score": 0.5, "detail": "volatility rising"},
            "defi_threats": {"passed": True, "score": 0.2, "detail": "no oracle anomaly"},
        },
        "warnings": ["volatility above its 30-day mean"],
        "reasoning": None,
    },
    "curator_evaluation": {
        "entries_evaluated": 10,
        "entries_retained": 8,
        "entries_pruned": 2,
        "cross_references": [
            {"source_id": "g3", "target_id": "g5", "relationship": "extends"},
        ],
        "promotions": [
            {
                "entry_id": "g5",
                "from_confidence": 0.55,
                "to_confidence": 0.7,
                "reason": "confirmed in two more crashes",
            }
        ],
        "grimoire_health": 0.72,
    },
    "replay_analysis": {
        "episode_id": "ep-42",
        "lessons": [
            {
                "insight": "Exits in a crash cost more the later they come",
                "confidence": 0.7,
                "applicable_conditions": "crash and thin liquidity",
            }
        ],
        "surprise_score": 0.65,
        "counterfactuals": [
            {
                "alternative_action": "exit at the first health warning",
                "estimated_outcome": "half the loss",
                "plausibility": 0.6,
            }
        ],
        "arousal_delta": 0.15,
    },
    "fragment_evaluation": {
        "novelty": 0.7,
        "relevance": 0.6,
        "coherence": 0.5,
        "verdict": "stage",
    },
    "dream_integration": {
        "promoted": [
            {
                "hypothesis_id": "h-1",
                "summary": "funding flips precede reversals",
                "confidence": 0.75,
                "rationale": "held in three replays",
            }
        ],
        "staged": [],
        "discarded": [
            {
                "hypothesis_id": "h-2",
                "summary": "the moon moves the market",
                "confidence": 0.1,
                "rationale": "no evidence",
            }
        ],
        "playbook_diff": "+ hedge when funding flips negative",
    },
    "threat_assessment": {
        "threat_type": "oracle manipulation",
        "severity": "high",
        "likelihood": 0.15,
        "impact_if_realized": "collateral liquidated at a false price",
        "mitigation_actions": ["cap the position at 10% of equity"],
        "detection_signals": ["oracle price diverges from spot by over 2%"],
        "rehearsal_outcome": "the cap held the loss under 3%",
    },
}
NAMES = sorted(SEED_FIELDS)
REQUEST = Request(messages=(Message.system("You are a golem."), Message.user("Decide.")))


def _printed(name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["schemas", name]) == 0
    schema: dict[str, Any] = orjson.loads(capsys.readouterr().out)
    return schema


def _variants(node: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A property's schema without its null branch or array wrapper."""
    if "anyOf" in node:
        return [v for sub in node["anyOf"] for v in _variants(sub) if v.get("type") != "null"]
    if node.get("type") == "array":
        return _variants(node["items"])
    return [node]


def _assert_speaks(schema: Mapping[str, Any], spec: Spec, where: str) -> None:
    properties = schema["properties"]
    assert set(spec) <= set(properties), f"{where}: missing {set(spec) - set(properties)}"
    for field, expected in spec.items():
        (node,) = _variants(properties[field])
        if isinstance(expected, frozenset):
            assert set(node["enum"]) == expected, f"{where}/{field}"
        elif isinstance(expected, Mapping):
            _assert_speaks(node, expected, f"{where}/{field}")


def _assert_shaped(answer: Mapping[str, Any], spec: Spec, where: str) -> None:
    """The fixture itself carries exactly the seed's fields, nested ones too."""
    assert set(answer) == set(spec), where
    for field, expected in spec.items():
        if isinstance(expected, Mapping):
            value = answer[field]
            for i, item in enumerate(value if isinstance(value, list) else [value]):
                _assert_shaped(item, expected, f"{where}/{field}/{i}")


@pytest.mark.parametrize("name", NAMES)
def test_golem_schemas_prints_every_seed_field_and_enum(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = _printed(name, capsys)
    assert schema["additionalProperties"] is False
    _assert_speaks(schema, SEED_FIELDS[name], name)


@pytest.mark.parametrize("name", NAMES)
def test_a_seed_shaped_answer_is_valid_as_it_stands(name: str) -> None:
    """Every field the golem adds has a default, or this answer would not validate."""
    answer = SEED_ANSWERS[name]
    _assert_shaped(answer, SEED_FIELDS[name], name)
    decision = get_schema(name).model_validate(answer)
    assert decision.validate_content() == []


@pytest.mark.parametrize("schema_enforced", [True, False], ids=["enforced", "not-enforced"])
@pytest.mark.parametrize("name", NAMES)
def test_parse_response_reads_a_seed_shaped_answer(name: str, schema_enforced: bool) -> None:
    decision = get_schema(name)
    text = orjson.dumps(SEED_ANSWERS[name]).decode()
    parsed = parse_response(decision, text, schema_enforced=schema_enforced)
    assert parsed.value == decision.model_validate(SEED_ANSWERS[name])
    assert parsed.repairs == ()


def _provider(mode: Mode, decision: type[StructuredOutput], answer: dict[str, Any]) -> Any:
    text = orjson.dumps(answer).decode()
    if mode is Mode.TOOL_USE:
        capabilities = Capabilities(tool_use=True)
        return ScriptedProvider(
            [tool_answer(f"respond_{decision.schema_name}", answer)], capabilities=capabilities
        )
    if mode is Mode.PROMPT_GUIDED:
        return ScriptedProvider([f"My answer:\n```json\n{text}\n```"], capabilities=Capabilities())
    return ScriptedProvider([text])


@pytest.mark.parametrize("mode", list(Mode), ids=str)
@pytest.mark.parametrize("name", NAMES)
async def test_a_seed_shaped_answer_runs_in_every_mode(name: str, mode: Mode) -> None:
    decision = get_schema(name)
    config = StructuredOutputConfig(enabled=mode is not Mode.NONE)
    provider = _provider(mode, decision, SEED_ANSWERS[name])
    response = await run_structured(provider, REQUEST, decision, config)
    assert response.mode is mode
    assert response.attempts == 1
    assert response.parsed == decision.model_validate(SEED_ANSWERS[name])


def test_the_heartbeats_forecast_is_optional_and_bounded() -> None:
    """`expected_move`, the one field golem adds to the seed's heartbeat_decision: a
    seed-shaped answer has no view (None); a stated one is a fraction in -1..1."""
    seed = SEED_ANSWERS["heartbeat_decision"]
    assert get_schema("heartbeat_decision") is HeartbeatDecision
    assert HeartbeatDecision.model_validate(seed).expected_move is None
    stated = HeartbeatDecision.model_validate({**seed, "expected_move": -0.02})
    assert stated.expected_move == -0.02
    with pytest.raises(ValueError, match="expected_move"):
        HeartbeatDecision.model_validate({**seed, "expected_move": 1.5})
