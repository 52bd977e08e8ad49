"""golem's transport and OpenAI-compatible codec against a real llama.cpp server
(llama-cpp-python's, started on 127.0.0.1 with the same model): a schema-constrained
typed decision, non-streamed and streamed."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import Field

from golem.inference import (
    HTTPProvider,
    Message,
    Mode,
    Request,
    StructuredOutput,
    TransportConfig,
    run_structured,
)
from golem.inference.providers import default_registry

pytestmark = pytest.mark.local_model

# llama.cpp's grammar runs at a few tokens/s on a busy machine: wait, never resend.
PATIENT = TransportConfig(read_timeout_s=240, total_timeout_s=300, max_stream_s=300, max_retries=0)


class Alert(StructuredOutput):
    """Unregistered, and free of number ranges, which llama.cpp's grammar would ignore."""

    level: Literal["calm", "watch", "alarm"]
    act: bool
    why: str = Field(max_length=60)


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
async def test_typed_decision_from_a_real_server(llama_server: str, stream: bool) -> None:
    profile = default_registry().profile("llama-cpp")
    assert profile.api_key_env is None  # keyless: no key is read or sent
    request = Request(
        messages=(Message.user("ETH fell 4% in 15 minutes. How alarmed should we be?"),),
        max_tokens=60,
        stream=stream,
    )
    async with HTTPProvider.named(
        "llama-cpp", "gemma-3-270m", base_url=llama_server, config=PATIENT
    ) as server:
        response = await run_structured(server, request, Alert)
    assert response.mode is Mode.SCHEMA_ENFORCED and not response.downgrades
    assert isinstance(response.parsed, Alert)
    assert Alert.response_schema().validate(response.parsed.model_dump(mode="json")) == []
    # This server ignores stream_options.include_usage: a streamed answer carries no usage.
    assert response.usage.output_tokens > 0 or stream
    assert response.provider == "llama-cpp" and response.cost_usd == 0.0
