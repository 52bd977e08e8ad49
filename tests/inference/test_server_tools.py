"""Tools the provider runs itself (web search, code execution, MCP, tool search) come back
as `Response.server_tool_calls`, never as calls for the caller to execute, in every codec,
streamed or not; recorded bodies from ../shared/fixtures/conformance (see its SOURCES.md)."""

from __future__ import annotations

import pytest

from golem.inference.codecs import FAMILIES, PROFILES_IN_CODE
from golem.inference.codecs.anthropic import PROFILE, AnthropicCodec
from golem.inference.codecs.base import Codec
from golem.inference.codecs.builder import ResponseBuilder
from golem.inference.errors import InvalidResponse
from golem.inference.serialize import response_to_dict
from golem.inference.types import Response
from tests.fixtures import CONFORMANCE
from tests.inference.stream_splits import check_random_chunkings, decode_chunks

_PROFILES = {profile.name: profile for profile, _ in PROFILES_IN_CODE}


def codec_for(relative: str) -> Codec:
    profile = _PROFILES[relative.split("/", maxsplit=1)[0]]
    return FAMILIES[profile.family](profile)


def decode(relative: str) -> Response:
    body = CONFORMANCE.read(relative)
    codec = codec_for(relative)
    if relative.endswith(".sse"):
        return decode_chunks(codec, [body])
    return codec.decode(200, {}, body)


# (recording, the server calls as (name, provider_type), the client calls' names)
CASES = [
    (
        "anthropic/pai-test_anthropic_mcp_servers-0.json",
        [("ask_question", "mcp_tool_use")],
        [],
    ),
    (
        "anthropic/pai-test_anthropic_mcp_servers_stream-0.sse",
        [("ask_question", "mcp_tool_use")],
        [],
    ),
    (
        "anthropic/mira-test_web_search_tool-anthropic_claude_sonnet_4_0-0.json",
        [("web_search", "server_tool_use")] * 3,
        [],
    ),
    (
        "anthropic/mira-test_web_search_tool_stream-anthropic_claude_sonnet_4_0-0.sse",
        [("web_search", "server_tool_use")] * 3,
        [],
    ),
    (
        "anthropic/pai-test_anthropic_native_tool_search_streaming-0.sse",
        [("tool_search_tool_bm25", "server_tool_use")],
        ["get_exchange_rate"],
    ),
    (
        "openai-responses/pai-test_openai_responses_model_mcp_server_tool-0.json",
        [("mcp_list_tools", "mcp_list_tools"), ("ask_question", "mcp_call")],
        [],
    ),
    (
        "openai-responses/pai-test_openai_responses_model_mcp_server_tool_stream-0.sse",
        [("mcp_list_tools", "mcp_list_tools"), ("ask_question", "mcp_call")],
        [],
    ),
    (
        "openai-responses/pai-test_openai_responses_thinking_with_code_execution_tool_stream-0.sse",
        [("code_interpreter_call", "code_interpreter_call")] * 3,
        [],
    ),
    (
        "openai-responses/pai-test_openai_native_tool_search_round_trip-0.json",
        [("tool_search_call", "tool_search_call")],
        ["get_exchange_rate"],
    ),
    (
        "gemini/pai-test_code_execution-1.json",
        [("code_execution", "executableCode")] * 2,
        [],
    ),
    (
        "gemini/pai-test_native_output_with_builtin_tools-0.json",
        [("GOOGLE_SEARCH_WEB", "toolCall")],
        [],
    ),
    (
        "gemini/pai-test_native_output_with_builtin_tools_stream-0.sse",
        [("GOOGLE_SEARCH_WEB", "toolCall")],
        [],
    ),
    (
        "gemini/pai-test_tool_output_with_builtin_tools-0.json",
        [("GOOGLE_SEARCH_WEB", "toolCall")],
        ["final_result"],
    ),
]


@pytest.mark.parametrize(("relative", "server", "client"), CASES, ids=[c[0] for c in CASES])
def test_server_tools_are_kept_apart_from_calls_to_execute(
    relative: str, server: list[tuple[str, str]], client: list[str]
) -> None:
    response = decode(relative)
    assert [(c.name, c.provider_type) for c in response.server_tool_calls] == server
    assert [c.name for c in response.tool_calls] == client
    for call in response.server_tool_calls:
        assert call.id
    shown = response_to_dict(response)["server_tool_calls"]
    assert [(c["name"], c["provider_type"]) for c in shown] == server


def test_results_join_their_calls() -> None:
    anthropic = decode("anthropic/pai-test_anthropic_mcp_servers-0.json").server_tool_calls[0]
    assert anthropic.arguments == {
        "question": "What is pydantic-ai and what does this repository do?",
        "repoName": "pydantic/pydantic-ai",
    }
    assert anthropic.result[0]["text"].startswith("Pydantic AI is a Python agent framework")
    gemini = decode("gemini/pai-test_code_execution-1.json").server_tool_calls
    assert [c.id for c in gemini] == ["l5m4dm9r", "tu0hnkbw"]
    assert gemini[0].arguments["code"].startswith("import datetime")
    assert gemini[0].result == {"outcome": "OUTCOME_OK", "output": "2026-05-05 20:40:38.762896\n"}
    responses = decode(
        "openai-responses/pai-test_openai_responses_model_mcp_server_tool-0.json"
    ).server_tool_calls
    assert responses[1].arguments["repoName"] == "pydantic/pydantic-ai"
    assert str(responses[1].result).startswith("Pydantic AI is a Python agent framework")


def test_an_anthropic_mcp_stream_decodes_as_its_body_does() -> None:
    """Bug 3: the stream's input_json_delta of an mcp_tool_use block made a nameless
    client call, while the body gave none."""
    stream = decode("anthropic/pai-test_anthropic_mcp_servers_stream-0.sse")
    assert stream.tool_calls == ()
    (call,) = stream.server_tool_calls
    assert call.name == "ask_question"
    assert call.arguments == {
        "repoName": "pydantic/pydantic-ai",
        "question": "What is this repository about? What are its main features and purpose?",
    }
    assert call.result


def test_server_tool_streams_decode_the_same_however_cut() -> None:
    for relative in (
        "anthropic/pai-test_anthropic_mcp_servers_stream-0.sse",
        "openai-responses/pai-test_openai_responses_model_mcp_server_tool_stream-0.sse",
        "gemini/pai-test_native_output_with_builtin_tools_stream-0.sse",
    ):
        body = CONFORMANCE.read(relative)
        check_random_chunkings(codec_for(relative), body, seed=relative, rounds=30)


def test_arguments_for_a_call_never_opened_are_an_invalid_response() -> None:
    builder = ResponseBuilder("test")
    with pytest.raises(InvalidResponse, match="no event opened"):
        builder.tool_call_arguments(3, '{"a": 1}')
    with pytest.raises(InvalidResponse, match="no event opened"):
        builder.tool_call_input(3, {"a": 1})


def test_an_anthropic_delta_for_a_block_never_started_is_an_invalid_response() -> None:
    stream = AnthropicCodec(PROFILE).stream()
    with pytest.raises(InvalidResponse, match="no content_block_start opened"):
        stream.feed(
            b'data: {"type":"message_start","message":{"model":"m"}}\n\n'
            b'data: {"type":"content_block_delta","index":0,'
            b'"delta":{"type":"input_json_delta","partial_json":"{}"}}\n\n'
        )


def test_a_delta_for_a_block_type_golem_does_not_read_is_left_alone() -> None:
    stream = AnthropicCodec(PROFILE).stream()
    stream.feed(
        b'data: {"type":"message_start","message":{"model":"m"}}\n\n'
        b'data: {"type":"content_block_start","index":0,"content_block":{"type":"new_kind"}}\n\n'
        b'data: {"type":"content_block_delta","index":0,'
        b'"delta":{"type":"input_json_delta","partial_json":"{\\"q\\": 1}"}}\n\n'
        b'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\n'
        b'data: {"type":"message_stop"}\n\n'
    )
    response = stream.finish()
    assert response.tool_calls == () and response.server_tool_calls == ()
