"""parse_response: the enforced fast path, tolerant extraction, then from_text."""

from __future__ import annotations

import orjson
import pytest

from golem.inference import StructuredOutputInvalid, parse_response

from .decisions import VALID, Pulse

TEXT = orjson.dumps(VALID).decode()


def test_enforced_fast_path() -> None:
    value, repairs = parse_response(Pulse, TEXT, schema_enforced=True)
    assert value == Pulse.model_validate(VALID)
    assert repairs == ()


def test_enforced_but_fenced_output_still_parses() -> None:
    value, repairs = parse_response(Pulse, f"```json\n{TEXT}\n```", schema_enforced=True)
    assert value.severity == "high"
    assert "fenced_block" in repairs


def test_enforced_schema_violation_is_reported_not_repaired() -> None:
    bad = orjson.dumps({**VALID, "confidence": 2}).decode()
    with pytest.raises(StructuredOutputInvalid) as caught:
        parse_response(Pulse, bad, schema_enforced=True)
    assert caught.value.errors[0].startswith("/confidence:")
    assert caught.value.raw == bad


def test_lax_coercion_where_the_schema_allows() -> None:
    text = orjson.dumps({**VALID, "confidence": "0.72", "escalate": "true"}).decode()
    value, _ = parse_response(Pulse, f"Answer: {text}")
    assert value.confidence == 0.72 and value.escalate is True


def test_free_text_goes_to_from_text() -> None:
    value, repairs = parse_response(Pulse, "Severity - critical; action: exit; confidence 95%")
    assert (value.severity, value.action, value.confidence) == ("critical", "exit", 0.95)
    assert repairs == ("from_text",)


def test_invalid_json_and_no_free_text_decision_names_the_json_errors() -> None:
    text = orjson.dumps({**VALID, "action": "panic"}).decode()
    with pytest.raises(StructuredOutputInvalid) as caught:
        parse_response(Pulse, f"Here: {text}")
    assert any(e.startswith("/action:") for e in caught.value.errors)
    assert caught.value.last_value == {**VALID, "action": "panic"}
