"""run_structured: the seed's conformance cases (proposal 0016) and agent_sdk's cases."""

from __future__ import annotations

import orjson
import pytest

from golem.inference import (
    Capabilities,
    FinishReason,
    Message,
    MissingResponseFormat,
    Mode,
    NoStructuredOutput,
    ReasoningConfig,
    Request,
    Response,
    ResponseFormatRejected,
    Role,
    StructuredOutputConfig,
    StructuredOutputInvalid,
    Tool,
    Usage,
    complete,
    is_transient,
    run_structured,
)
from golem.inference.scripted import ScriptedProvider, tool_answer

from .decisions import VALID, Pulse

REQUEST = Request(messages=(Message.system("You watch ETH."), Message.user("ETH fell 4%.")))
PROMPT_ONLY = Capabilities()
TOOLS_ONLY = Capabilities(tool_use=True)
ANTHROPIC_LIKE = Capabilities(tool_use=True, forced_tool_with_thinking=False, reasoning=True)


def answer(value: object) -> str:
    return orjson.dumps(value).decode()


# -- seed conformance ----------------------------------------------------------------


async def test_018_success_parsed_content_verbatim_finish_stop() -> None:
    text = answer(VALID)
    provider = ScriptedProvider([text])
    response = await run_structured(provider, REQUEST, Pulse)
    assert response.parsed == Pulse.model_validate(VALID)
    assert response.parsed.model_dump(mode="json") == VALID
    assert response.content == text
    assert response.finish_reason is FinishReason.STOP
    assert response.mode is Mode.SCHEMA_ENFORCED
    assert response.attempts == 1


async def test_019_unparseable_content_raises_with_schema_raw_and_description() -> None:
    provider = ScriptedProvider(["I am not sure what to say."])
    config = StructuredOutputConfig(max_retries=0)
    with pytest.raises(StructuredOutputInvalid) as caught:
        await run_structured(provider, REQUEST, Pulse, config)
    err = caught.value
    assert err.code == "structured_output_invalid"
    assert err.schema == Pulse.response_schema().schema
    assert err.raw == "I am not sure what to say."
    assert any("no JSON object found" in e for e in err.errors)


async def test_020_schema_failure_names_the_failing_field() -> None:
    bad = {**VALID, "confidence": 1.7}
    provider = ScriptedProvider([answer(bad)])
    with pytest.raises(StructuredOutputInvalid) as caught:
        await run_structured(provider, REQUEST, Pulse, StructuredOutputConfig(max_retries=0))
    assert any(e.startswith("/confidence:") for e in caught.value.errors)


async def test_021_structured_output_invalid_is_not_transient() -> None:
    provider = ScriptedProvider(["nope"])
    with pytest.raises(StructuredOutputInvalid) as caught:
        await run_structured(provider, REQUEST, Pulse, StructuredOutputConfig(max_retries=0))
    assert not is_transient(caught.value)
    assert not StructuredOutputInvalid.transient


async def test_022_tools_and_schema_with_tool_call_answer_leaves_parsed_absent() -> None:
    lookup = Tool("get_price", "Current price of a token.", {"type": "object", "properties": {}})
    request = REQUEST.evolve(tools=(lookup,))
    provider = ScriptedProvider([tool_answer("get_price", {"token": "ETH"})])
    response = await run_structured(provider, request, Pulse)
    assert response.parsed is None
    assert response.tool_calls[0].name == "get_price"
    assert response.tool_calls[0].arguments == {"token": "ETH"}


async def test_024_rejected_response_format_falls_back_to_prompt_guidance() -> None:
    rejected = ResponseFormatRejected("response_format json_schema is not supported", status=400)
    provider = ScriptedProvider([rejected, f"Here you go:\n```json\n{answer(VALID)}\n```"])
    response = await run_structured(provider, REQUEST, Pulse)
    assert response.parsed == Pulse.model_validate(VALID)
    assert response.mode is Mode.PROMPT_GUIDED
    assert any("rejected response_format" in d for d in response.downgrades)
    assert [r.mode for r in provider.requests] == [Mode.SCHEMA_ENFORCED, Mode.PROMPT_GUIDED]
    assert "JSON Schema" in (provider.requests[1].messages[0].content or "")


async def test_025_no_schema_means_no_response_format_and_no_parsed() -> None:
    provider = ScriptedProvider([answer(VALID)])
    response = await complete(provider, REQUEST)
    assert response.parsed is None
    assert response.content == answer(VALID)
    sent = provider.requests[0]
    assert sent.response_schema is None
    assert sent.mode is Mode.NONE
    assert sent.tools == ()


async def test_disabled_structured_outputs_send_nothing_structured() -> None:
    provider = ScriptedProvider(["Severity: high, action: hedge"])
    config = StructuredOutputConfig(enabled=False)
    await complete(provider, REQUEST, Pulse, config)
    sent = provider.requests[0]
    assert (sent.response_schema, sent.mode, sent.tools) == (None, Mode.NONE, ())
    assert sent.messages == REQUEST.messages


async def test_none_mode_reads_the_decision_with_from_text() -> None:
    provider = ScriptedProvider(["Severity: HIGH. Action: hedge. Confidence 72%."])
    config = StructuredOutputConfig(enabled=False)
    response = await run_structured(provider, REQUEST, Pulse, config)
    assert response.parsed.severity == "high"
    assert response.parsed.confidence == pytest.approx(0.72)
    assert response.repairs == ("from_text",)
    assert response.mode is Mode.NONE


# -- agent_sdk's cases ---------------------------------------------------------------


async def test_retry_then_success_sums_usage_and_keeps_caller_request() -> None:
    bad = {**VALID, "action": "panic"}
    provider = ScriptedProvider([answer(bad), answer(VALID)])
    before = REQUEST.messages
    response = await run_structured(provider, REQUEST, Pulse)
    assert response.attempts == 2
    assert response.usage == Usage(input_tokens=200, output_tokens=100)
    assert REQUEST.messages is before and len(REQUEST.messages) == 2
    reask = provider.requests[1].messages
    assert reask[:2] == REQUEST.messages
    assert reask[2] == Message.assistant(answer(bad))
    assert reask[3].role is Role.USER
    assert "/action" in (reask[3].content or "")


async def test_content_failure_reasks_with_every_error_listed() -> None:
    wrong = {**VALID, "severity": "low", "action": "exit", "confidence": 0.2}
    provider = ScriptedProvider([answer(wrong), answer(VALID)])
    response = await run_structured(provider, REQUEST, Pulse)
    assert response.attempts == 2
    correction = provider.requests[1].messages[-1].content or ""
    assert "/escalate" in correction and "/confidence" in correction


async def test_retries_exhausted_carry_last_value_errors_and_usage() -> None:
    wrong = {**VALID, "severity": "low"}  # escalate with low severity: a content error
    provider = ScriptedProvider([answer(wrong)] * 3)
    with pytest.raises(StructuredOutputInvalid) as caught:
        await run_structured(provider, REQUEST, Pulse, StructuredOutputConfig(max_retries=2))
    err = caught.value
    assert err.attempts == 3
    assert err.raw == answer(wrong)
    assert err.last_value == Pulse.model_validate(wrong)
    assert err.errors == ["/escalate: escalation needs severity high or critical"]
    assert err.usage == Usage(input_tokens=300, output_tokens=150)
    assert len(provider.requests) == 3


async def test_content_validation_can_be_switched_off() -> None:
    wrong = {**VALID, "severity": "low"}
    provider = ScriptedProvider([answer(wrong)])
    config = StructuredOutputConfig(validation=False)
    response = await run_structured(provider, REQUEST, Pulse, config)
    assert response.parsed.severity == "low"


async def test_no_retry_when_retry_on_validation_failure_is_off() -> None:
    provider = ScriptedProvider(["garbage"])
    config = StructuredOutputConfig(retry_on_validation_failure=False, max_retries=5)
    with pytest.raises(StructuredOutputInvalid):
        await run_structured(provider, REQUEST, Pulse, config)
    assert len(provider.requests) == 1


async def test_max_attempts_from_the_allocation_caps_the_config() -> None:
    provider = ScriptedProvider(["garbage"] * 5)
    with pytest.raises(StructuredOutputInvalid):
        await run_structured(provider, REQUEST, Pulse, max_attempts=2)
    assert len(provider.requests) == 2


async def test_missing_response_format() -> None:
    with pytest.raises(MissingResponseFormat):
        await run_structured(ScriptedProvider([]), REQUEST, None)  # type: ignore[arg-type]


async def test_no_structured_output_on_the_final_attempt() -> None:
    empty = Response(content=None, finish_reason=FinishReason.LENGTH)
    provider = ScriptedProvider([empty, Response(content="   ")])
    with pytest.raises(NoStructuredOutput) as caught:
        await run_structured(provider, REQUEST, Pulse, StructuredOutputConfig(max_retries=1))
    assert caught.value.raw is None
    assert caught.value.attempts == 2


async def test_tool_forcing_injects_one_respond_tool_and_replaces_a_same_named_one() -> None:
    stale = Tool("respond_test_pulse", "an old respond tool", {"type": "object"})
    other = Tool("get_price", "Current price.", {"type": "object", "properties": {}})
    request = REQUEST.evolve(tools=(stale, other))
    provider = ScriptedProvider([tool_answer("respond_test_pulse", VALID)], capabilities=TOOLS_ONLY)
    response = await run_structured(provider, request, Pulse)
    sent = provider.requests[0]
    respond = [t for t in sent.tools if t.name == "respond_test_pulse"]
    assert len(respond) == 1
    assert respond[0].parameters == Pulse.response_schema().schema
    assert [t.name for t in sent.tools] == ["get_price", "respond_test_pulse"]
    assert sent.tool_choice == "respond_test_pulse" and sent.force_tool
    assert response.mode is Mode.TOOL_USE
    assert response.parsed == Pulse.model_validate(VALID)
    assert request.tools == (stale, other)


async def test_tool_mode_reask_answers_the_tool_call_with_the_errors() -> None:
    bad = {**VALID, "confidence": "very"}
    provider = ScriptedProvider(
        [
            tool_answer("respond_test_pulse", bad, call_id="t1"),
            tool_answer("respond_test_pulse", VALID),
        ],
        capabilities=TOOLS_ONLY,
    )
    response = await run_structured(provider, REQUEST, Pulse)
    assert response.attempts == 2
    history = provider.requests[1].messages
    assert history[-2].tool_calls[0].id == "t1"
    assert history[-1].role is Role.TOOL and history[-1].tool_call_id == "t1"
    assert "/confidence" in (history[-1].content or "")


async def test_thinking_on_a_provider_that_cannot_force_tools_gets_an_unforced_tool() -> None:
    request = REQUEST.evolve(reasoning=ReasoningConfig.high())
    provider = ScriptedProvider(
        [tool_answer("respond_test_pulse", VALID)], capabilities=ANTHROPIC_LIKE
    )
    response = await run_structured(provider, request, Pulse)
    sent = provider.requests[0]
    assert sent.tool_choice == "auto" and not sent.force_tool
    assert "respond_test_pulse" in (sent.messages[0].content or "")
    assert any("thinking" in d for d in response.downgrades)


async def test_prompt_guided_parses_json_wrapped_in_prose() -> None:
    text = f"Sure. My assessment:\n{answer(VALID)}\nLet me know if you need more."
    provider = ScriptedProvider([text], capabilities=PROMPT_ONLY)
    response = await run_structured(provider, REQUEST, Pulse)
    assert response.mode is Mode.PROMPT_GUIDED
    assert response.parsed == Pulse.model_validate(VALID)
    assert "prose_trimmed" in response.repairs
    assert response.content == text
    guidance = provider.requests[0].messages[0].content or ""
    assert guidance.startswith("You watch ETH.") and "test_pulse" in guidance


async def test_prompt_guided_falls_back_to_from_text() -> None:
    provider = ScriptedProvider(
        ["**Severity:** critical\n**Action:** exit\nconfidence 0.9"], capabilities=PROMPT_ONLY
    )
    response = await run_structured(provider, REQUEST, Pulse)
    assert response.parsed.action == "exit"
    assert response.repairs == ("from_text",)


async def test_provider_errors_propagate_untouched() -> None:
    from golem.inference import RateLimited

    provider = ScriptedProvider([RateLimited("slow down", retry_after=3.0, status=429)])
    with pytest.raises(RateLimited) as caught:
        await run_structured(provider, REQUEST, Pulse)
    assert is_transient(caught.value) and caught.value.retry_after == 3.0
