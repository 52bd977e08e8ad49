"""Helpers for the from_text tests: read a decision and compare the fields a case names."""

from __future__ import annotations

from typing import Any

import pytest

from golem.inference import StructuredOutput, UnparseableOutput


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


def assert_reads(decision: type[StructuredOutput], text: str, expected: dict[str, Any]) -> None:
    """`text` reads as a valid `decision` whose named fields are exactly `expected`."""
    got = _rounded(decision.from_text(text).model_dump(mode="json"))
    assert {key: got[key] for key in expected} == _rounded(expected)


def assert_unparseable(decision: type[StructuredOutput], text: str) -> None:
    with pytest.raises(UnparseableOutput):
        decision.from_text(text)
