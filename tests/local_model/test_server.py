"""golem's transport and OpenAI-compatible codec against a real llama.cpp server
(llama-cpp-python's, started on 127.0.0.1 with the same model): a schema-constrained
typed decision, non-streamed and streamed."""

from __future__ import annotations

import pytest

from golem.inference import HTTPProvider, Mode, run_structured
from golem.inference.providers import default_registry
from golem.subsystems import DaimonAppraisal
from tests.local_model.prompts import request_for

pytestmark = pytest.mark.local_model


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
async def test_typed_decision_from_a_real_server(llama_server: str, stream: bool) -> None:
    profile = default_registry().profile("llama-cpp")
    assert profile.api_key_env is None  # keyless: no key is read or sent
    request = request_for("daimon_appraisal", max_tokens=200).evolve(stream=stream)
    async with HTTPProvider.named("llama-cpp", "gemma-3-270m", base_url=llama_server) as server:
        response = await run_structured(server, request, DaimonAppraisal)
    assert response.mode is Mode.SCHEMA_ENFORCED and not response.downgrades
    assert isinstance(response.parsed, DaimonAppraisal)
    assert DaimonAppraisal.response_schema().validate(response.parsed.model_dump(mode="json")) == []
    assert response.usage.output_tokens > 0
    assert response.provider == "llama-cpp" and response.cost_usd == 0.0
