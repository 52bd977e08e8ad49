"""Each of the nine decision schemas, answered by the real local model: valid at once, valid
after a re-ask, or a content failure whose every attempt was schema-valid (the decoder held
the shape; the small model's judgement broke a rule the schema cannot express)."""

from __future__ import annotations

import pytest

import golem.subsystems
from golem.inference import (
    FinishReason,
    StructuredOutputConfig,
    StructuredOutputInvalid,
    run_structured,
)
from golem.inference.local import Generation, LocalProvider
from golem.inference.structured import get_schema
from tests.local_model.prompts import request_for

pytestmark = pytest.mark.local_model

NAMES = sorted(d.response_schema().name for d in golem.subsystems.DECISIONS)
ONE_REASK = StructuredOutputConfig(max_retries=1)  # as configs/golem.toml runs it


def test_the_nine_schemas_are_covered() -> None:
    assert len(NAMES) == 9


@pytest.mark.parametrize("name", NAMES)
async def test_decision_from_the_local_model(local_provider: LocalProvider, name: str) -> None:
    decision = get_schema(name)
    schema = decision.response_schema()
    runs: list[Generation] = []
    local_provider.on_generation = runs.append
    try:
        response = await run_structured(local_provider, request_for(name), decision, ONE_REASK)
    except StructuredOutputInvalid as exc:
        # Legitimate only as a content failure: the last answer is complete, schema-valid
        # JSON, and what failed are the decision's own content checks.
        # The answer as the decision reads it: counts derived after decoding
        # (`StructuredOutput.derived`, left out of the grammar) are filled in.
        assert exc.raw is not None, f"{name}: no answer at all ({exc.errors})"
        answer = decision.from_json(exc.raw)
        assert schema.validate(answer.model_dump(mode="json")) == [], (
            f"{name}: decoder let through {exc.raw}"
        )
        issues = [str(i) for i in answer.validate_content()]
        assert issues == exc.errors, f"{name}: failed for other reasons than content: {exc.errors}"
        print(f"{name}: content checks failed after {exc.attempts} attempts (legitimate): {issues}")
    else:
        assert response.parsed is not None
        assert schema.validate(response.parsed.model_dump(mode="json")) == []
        assert response.parsed.validate_content() == []
        assert response.provider == "local"
        assert response.cost_usd == 0.0
        assert response.usage.input_tokens > 0 and response.usage.output_tokens > 0
        assert response.latency_s > 0
    finally:
        local_provider.on_generation = None
    assert runs, f"{name}: the model was never asked"
    for run in runs:
        assert run.finish_reason is FinishReason.STOP, f"{name}: ran to max_tokens: {run.text!r}"
        assert run.schema == name and run.backend == "llguidance"
