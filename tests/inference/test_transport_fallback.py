"""FallbackProvider: which failures move a call down the chain, what the Response says about
it, and the capabilities a chain offers run_structured."""

from __future__ import annotations

import httpx
import pytest
import structlog
from trio.testing import MockClock

from golem.inference import (
    AuthError,
    Capabilities,
    InvalidResponse,
    Message,
    Mode,
    ProviderError,
    RateLimited,
    Refusal,
    Request,
    ResponseFormatRejected,
    ServerError,
    StructuredOutputInvalid,
    Timeout,
    run_structured,
)
from golem.inference.fallback import FallbackProvider, common_capabilities
from golem.inference.run import respond_tool_name
from golem.inference.scripted import ScriptedProvider, tool_answer
from tests.inference.decisions import VALID, Pulse
from tests.inference.transport_support import Script, answer, make_provider

REQUEST = Request(messages=(Message.user("how are things?"),))
SCHEMA = Capabilities(response_schema=True, tool_use=True)
TOOLS_ONLY = Capabilities(tool_use=True, forced_tool_with_thinking=False)


def scripted(name: str, *steps: object, capabilities: Capabilities = SCHEMA) -> ScriptedProvider:
    return ScriptedProvider(list(steps), name=name, capabilities=capabilities)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "failure",
    [
        RateLimited("still limited after retries", status=429),
        ServerError("still down after retries", status=503),
        Timeout("read timed out"),
        AuthError("no API key"),
        InvalidResponse("not JSON"),
    ],
    ids=lambda e: e.code,
)
async def test_a_provider_failure_moves_to_the_next(failure: ProviderError) -> None:
    first, second = scripted("openai", failure), scripted("anthropic", "the answer")
    with structlog.testing.capture_logs() as logs:
        response = await FallbackProvider([first, second]).complete(REQUEST)
    assert (response.content, response.provider) == ("the answer", "anthropic")
    assert response.downgrades == (f"fallback: openai → anthropic after {failure.code}",)
    assert logs[0]["event"] == "provider failed; falling back"
    assert second.requests == [REQUEST]


async def test_each_hop_is_recorded_in_order() -> None:
    chain = FallbackProvider(
        [
            scripted("a", ServerError("down")),
            scripted("b", AuthError("revoked")),
            scripted("c", "ok"),
        ]
    )
    response = await chain.complete(REQUEST)
    assert response.downgrades == (
        "fallback: a → b after server_error",
        "fallback: b → c after auth_error",
    )


async def test_an_answer_from_the_first_has_no_downgrade() -> None:
    second = scripted("b")
    response = await FallbackProvider([scripted("a", "ok"), second]).complete(REQUEST)
    assert response.downgrades == ()
    assert second.requests == []


@pytest.mark.parametrize(
    "failure", [Refusal("no", refusal="I can't help"), ResponseFormatRejected("no schema")]
)
async def test_refusals_and_format_rejections_do_not_move_on(failure: Exception) -> None:
    second = scripted("b", "would comply")
    with pytest.raises(type(failure)):
        await FallbackProvider([scripted("a", failure), second]).complete(REQUEST)
    assert second.requests == []


async def test_when_all_fail_the_last_error_is_raised_with_notes() -> None:
    chain = FallbackProvider([scripted("a", ServerError("down")), scripted("b", Timeout("slow"))])
    with pytest.raises(Timeout) as caught:
        await chain.complete(REQUEST)
    assert caught.value.__notes__ == ["a failed first: down"]


async def test_every_call_starts_at_the_first_provider() -> None:
    first = scripted("a", ServerError("down"), "recovered")
    second = scripted("b", "from b")
    chain = FallbackProvider([first, second])
    assert (await chain.complete(REQUEST)).provider == "b"
    assert (await chain.complete(REQUEST)).provider == "a"


async def test_a_content_failure_re_asks_the_chain_without_moving_on() -> None:
    invalid = {**VALID, "escalate": True, "severity": "low"}
    first = scripted("a", tool_answer(respond_tool_name(Pulse.response_schema()), invalid))
    first.script *= 3
    second = scripted("b")
    with pytest.raises(StructuredOutputInvalid):
        await run_structured(FallbackProvider([first, second]), REQUEST, Pulse)
    assert len(first.requests) == 3
    assert second.requests == []


def test_chain_capabilities_are_common_to_every_member() -> None:
    strict = Capabilities(response_schema=True, tool_use=True, strict_required=True)
    assert common_capabilities([SCHEMA, TOOLS_ONLY, strict]) == Capabilities(
        response_schema=False,
        tool_use=True,
        forced_tool=True,
        forced_tool_with_thinking=False,
        strict_required=True,
        reasoning=False,
    )
    chain = FallbackProvider([scripted("a"), scripted("b", capabilities=TOOLS_ONLY)])
    assert chain.capabilities == common_capabilities([SCHEMA, TOOLS_ONLY])
    assert chain.name == "a > b"


async def test_run_structured_over_a_chain_uses_a_mode_every_member_serves() -> None:
    tool = respond_tool_name(Pulse.response_schema())
    first = scripted("openai", RateLimited("limited"))
    second = scripted("anthropic", tool_answer(tool, VALID), capabilities=TOOLS_ONLY)
    response = await run_structured(FallbackProvider([first, second]), REQUEST, Pulse)
    assert response.mode is Mode.TOOL_USE
    assert first.requests[0].mode is Mode.TOOL_USE  # not the schema it could do alone
    assert response.parsed == Pulse.model_validate(VALID)
    assert response.downgrades == ("fallback: openai → anthropic after rate_limited",)


def test_an_empty_chain_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one"):
        FallbackProvider([])


async def test_http_providers_fall_back_after_exhausted_retries(
    autojump_clock: MockClock,
) -> None:
    failing = Script([httpx.Response(503)])
    working = Script([answer("from the second")])
    chain = FallbackProvider([make_provider(failing), make_provider(working)])
    response = await chain.complete(REQUEST)
    assert response.content == "from the second"
    assert len(failing.requests) == 4  # the first attempt and three retries, then on
    assert response.downgrades == ("fallback: echo → echo after server_error",)
