"""Prompt caching (issue 34, item 8): Anthropic breakpoints on the stable prefix, OpenAI's
prompt_cache_key, cached and written tokens read and priced, and the allocator's worst case
priced at the cached rate only when a hit is likely."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from golem.inference.caching import PromptCache
from golem.inference.codecs.anthropic import PRICES, PROFILE, AnthropicCodec
from golem.inference.codecs.openai_responses import PROFILE as RESPONSES
from golem.inference.codecs.openai_responses import OpenAIResponsesCodec
from golem.inference.providers import default_registry
from golem.inference.reasoning import ReasoningConfig
from golem.inference.types import Message, Request, Tool, Usage
from golem.inference.wire import decode
from golem.mortality import CallEstimate

SYSTEM = "You are the heartbeat of a trading golem. " * 20
TOOL = Tool("respond_pulse", "Answer.", {"type": "object", "properties": {}})


def _request(user: str, *, system: str = SYSTEM, tools: tuple[Tool, ...] = (TOOL,)) -> Request:
    return Request(messages=(Message.system(system), Message.user(user)), tools=tools)


def _anthropic(cache: bool) -> AnthropicCodec:
    return AnthropicCodec(replace(PROFILE, quirks={**PROFILE.quirks, "prompt_cache": cache}))


def test_anthropic_breakpoint_ends_the_stable_prefix() -> None:
    body = _anthropic(True).encode(_request("tick 1"), "claude-sonnet-4").body
    assert body["system"] == [
        {"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}
    ]
    assert "cache_control" not in body["tools"][0]  # before the breakpoint: cached with it
    assert "cache_control" not in orjson.dumps(body["messages"]).decode()


def test_anthropic_without_system_marks_the_last_tool() -> None:
    request = Request(messages=(Message.user("tick"),), tools=(TOOL,))
    body = _anthropic(True).encode(request, "claude-sonnet-4").body
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}


def test_prompt_cache_quirk_off_sends_no_breakpoint() -> None:
    body = _anthropic(False).encode(_request("tick 1"), "claude-sonnet-4").body
    assert body["system"] == SYSTEM
    assert "cache_control" not in orjson.dumps(body).decode()


def test_prompt_cache_key_names_the_prefix_not_the_turn() -> None:
    codec = OpenAIResponsesCodec(RESPONSES)
    key = codec.encode(_request("tick 1"), "gpt-5").body["prompt_cache_key"]
    assert codec.encode(_request("tick 2"), "gpt-5").body["prompt_cache_key"] == key
    assert codec.encode(_request("tick 1", system="other"), "gpt-5").body["prompt_cache_key"] != key
    assert codec.encode(_request("tick 1", tools=()), "gpt-5").body["prompt_cache_key"] != key


@pytest.mark.parametrize("quirk", [True, False])
def test_prompt_cache_key_quirk(quirk: bool) -> None:
    codec = OpenAIResponsesCodec(
        replace(RESPONSES, quirks={**RESPONSES.quirks, "prompt_cache_key": quirk})
    )
    assert ("prompt_cache_key" in codec.encode(_request("t"), "gpt-5").body) is quirk


def test_openai_chat_sends_the_key_the_generic_compatible_server_does_not() -> None:
    registry = default_registry()
    assert "prompt_cache_key" in registry.codec("openai").encode(_request("t"), "gpt-4o").body
    generic = registry.codec("openai-compatible").encode(_request("t"), "m").body
    assert "prompt_cache_key" not in generic


def test_anthropic_cache_reads_and_writes_are_read_and_priced() -> None:
    body = {
        "type": "message",
        "model": "claude-sonnet-4",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "usage": {
            "input_tokens": 100,
            "cache_creation_input_tokens": 2000,
            "cache_read_input_tokens": 3000,
            "output_tokens": 50,
        },
    }
    usage = decode("anthropic", orjson.dumps(body)).usage
    assert usage == Usage(5100, 3000, 50, 0, 2000)
    price = PRICES["claude-sonnet-4"]
    # 100 at $3, 3000 read at $0.30, 2000 written at $3.75, 50 out at $15 (per million).
    assert price.cost(usage) == pytest.approx((300 + 900 + 7500 + 750) * 1e-6)
    uncached = Usage(5100, 0, 50)
    assert price.cost(usage) < price.cost(uncached) + 2000 * 0.75e-6 + 1e-12


def test_worst_case_covers_a_cache_write_and_prices_a_likely_hit_cheaper() -> None:
    price = PRICES["claude-sonnet-4"]
    miss = price.worst_case(5000, 100)
    assert miss == pytest.approx((5000 * 3.75 + 100 * 15) * 1e-6)  # a miss may write it all
    hit = price.worst_case(5000, 100, cached_tokens=4000)
    assert hit == pytest.approx((1000 * 3.75 + 4000 * 0.30 + 100 * 15) * 1e-6)
    estimate = CallEstimate(price, 5000, 100)
    cached = replace(estimate, cached_tokens=4000)
    assert cached.attempt_cost(1, ReasoningConfig()) < estimate.attempt_cost(1, ReasoningConfig())


def test_a_hit_is_likely_only_within_the_ttl_after_a_call_that_cached() -> None:
    cache = PromptCache()
    cache.sent("anthropic", "m", "k", 1000.0, Usage(5000, 0, 10, cache_write_tokens=4000))
    assert cache.likely_cached("anthropic", "m", "k", 1000.0 + 299) == 4000
    assert cache.likely_cached("anthropic", "m", "k", 1000.0 + 300) == 0  # expired
    assert cache.likely_cached("anthropic", "m", "other", 1010.0) == 0
    assert cache.likely_cached("anthropic", "other", "k", 1010.0) == 0
    cache.sent("anthropic", "m", "k", 2000.0, Usage(500, 0, 10))  # below the minimum
    assert cache.likely_cached("anthropic", "m", "k", 2001.0) == 0
