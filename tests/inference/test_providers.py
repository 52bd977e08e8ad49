"""The provider registry: the shipped table, prices and cost, gateway delegation, and
config overrides of the same shape."""

from __future__ import annotations

import pytest

from golem.inference import Capabilities, Usage
from golem.inference.codecs import FAMILIES
from golem.inference.codecs.openai_chat import OpenAIChatCodec
from golem.inference.codecs.openai_compat import OpenAICompatCodec
from golem.inference.pricing import Price
from golem.inference.providers import (
    DelegatingProfile,
    Registry,
    codec_for,
    cost_of,
    default_registry,
    price_for,
    profile,
)

REQUIRED = (
    "openai",
    "openai-responses",
    "anthropic",
    "gemini",
    "deepseek",
    "qwen",
    "openrouter",
    "venice",
    "openai-compatible",
    "bankr",
)
KEYS = {
    "openai": "OPENAI_API_KEY",
    "openai-responses": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "qwen": "DASHSCOPE_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "venice": "VENICE_API_KEY",
    "bankr": "BANKR_API_KEY",
}


def test_every_required_provider_has_a_profile_and_a_codec() -> None:
    registry = default_registry()
    for name in REQUIRED:
        assert profile(name).name == name
        assert profile(name).family in FAMILIES
        assert registry.codec(name).profile is profile(name)
    for name in registry.names():
        assert profile(name).base_url.startswith("http"), name


def test_api_key_variables() -> None:
    for name, variable in KEYS.items():
        assert profile(name).api_key_env == variable
    assert profile("ollama").api_key_env is None  # a local server needs no key


def test_families_are_data_not_names() -> None:
    assert isinstance(default_registry().codec("openai"), OpenAIChatCodec)
    for name in ("deepseek", "qwen", "openrouter", "venice", "bankr", "together", "groq"):
        assert isinstance(default_registry().codec(name), OpenAICompatCodec), name


@pytest.mark.parametrize(
    ("provider", "model", "price"),
    [
        ("openai", "gpt-4o-2024-08-06", Price(2.5, 10.0, cached_input=1.25)),
        ("openai", "gpt-4o-mini-2024-07-18", Price(0.15, 0.60, cached_input=0.075)),
        ("openai", "gpt-4.1-nano-2025-04-14", Price(0.10, 0.40, cached_input=0.025)),
        ("openai", "o4-mini", Price(1.10, 4.40, cached_input=0.275)),
        ("deepseek", "deepseek-reasoner", Price(0.28, 0.42, cached_input=0.028)),
    ],
)
def test_prices_by_longest_prefix(provider: str, model: str, price: Price) -> None:
    assert price_for(provider, model) == price


def test_every_common_model_is_priced() -> None:
    models = {
        "openai": [
            *("gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano"),
            *("gpt-5", "gpt-5-mini", "gpt-5-nano", "o3", "o4-mini"),
        ],
        "anthropic": ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"],
        "gemini": ["gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite"],
        "deepseek": ["deepseek-chat", "deepseek-reasoner"],
        "qwen": ["qwen3-235b-a22b", "qwen-plus"],
    }
    for provider, names in models.items():
        for model in names:
            assert price_for(provider, model) is not None, (provider, model)


def test_unknown_model_is_unpriced_and_costs_nothing() -> None:
    usage = Usage(input_tokens=1000, output_tokens=1000)
    assert price_for("openai", "davinci-002") is None
    assert cost_of("openai", "davinci-002", usage) == 0.0
    assert cost_of("ollama", "qwen3", usage) == 0.0
    assert cost_of("openai", "gpt-4o", usage) == pytest.approx((1000 * 2.5 + 1000 * 10) / 1e6)


def test_capabilities_are_per_model() -> None:
    openai = profile("openai")
    assert not openai.capabilities_for("gpt-4o").reasoning
    assert openai.capabilities_for("gpt-5-mini").reasoning
    assert openai.capabilities_for("gpt-5-mini").response_schema  # merged over the defaults
    deepseek = profile("deepseek")
    assert deepseek.capabilities_for("deepseek-chat").tool_use
    assert not deepseek.capabilities_for("deepseek-reasoner").response_schema


def test_gateways_delegate_to_the_makers_table() -> None:
    bankr = profile("bankr")
    assert isinstance(bankr, DelegatingProfile)
    assert bankr.capabilities_for("claude-opus-4.5") == profile("anthropic").capabilities_for(
        "claude-opus-4-5"
    )
    assert bankr.capabilities_for("some-other-model") == bankr.capabilities
    assert price_for("bankr", "gpt-4.1-mini") == price_for("openai", "gpt-4.1-mini")
    assert price_for("openrouter", "openai/gpt-4o") == price_for("openai", "gpt-4o")
    assert price_for("openrouter", "google/gemini-2.5-pro") == price_for("gemini", "gemini-2.5-pro")
    assert price_for("openrouter", "meta-llama/llama-3.3-70b") is None


def test_overrides_merge_into_the_table() -> None:
    registry = Registry.load(
        {
            "openai": {
                "base_url": "https://proxy.example/v1",
                "models": {
                    "gpt-4o": {"price": {"input": 2.0}},
                    "ft:gpt-4o-mini:acme": {"price": {"input": 0.3, "output": 1.2}},
                },
            },
            "deepseek": {"models": {"deepseek-reasoner": {"capabilities": {"tool_use": True}}}},
            "my-vllm": {
                "family": "openai-compatible",
                "base_url": "http://gpu:8000/v1",
                "capabilities": {"response_schema": True},
                "quirks": {"reasoning_fields": ["reasoning_content"]},
            },
        }
    )
    assert registry.profile("openai").base_url == "https://proxy.example/v1"
    assert registry.price_for("openai", "gpt-4o") == Price(2.0, 10.0, cached_input=1.25)
    assert registry.price_for("openai", "ft:gpt-4o-mini:acme") == Price(0.3, 1.2)
    reasoner = registry.profile("deepseek").capabilities_for("deepseek-reasoner")
    assert reasoner.tool_use and reasoner.reasoning
    assert registry.profile("my-vllm").capabilities == Capabilities(response_schema=True)
    assert isinstance(registry.codec("my-vllm"), OpenAICompatCodec)
    # The default registry is untouched.
    assert profile("openai").base_url == "https://api.openai.com/v1"
    assert registry.with_overrides({"openai": {"api_key_env": "KEY2"}}).profile(
        "openai"
    ).base_url == ("https://proxy.example/v1")


def test_overrides_reach_code_defined_profiles() -> None:
    registry = Registry.load(
        {"anthropic": {"models": {"claude-haiku-4-5": {"price": {"input": 0.5}}}}}
    )
    price = registry.price_for("anthropic", "claude-haiku-4-5")
    assert price is not None
    assert (price.input, price.output) == (0.5, 5.0)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"openai": {"base_ur": "x"}}, "unknown keys"),
        ({"openai": {"capabilities": {"schema": True}}}, "openai.capabilities"),
        ({"openai": {"models": {"gpt-4o": {"price": {"inptu": 1}}}}}, "gpt-4o.price"),
        ({"new": {"base_url": "http://x"}}, "no codec family"),
        ({"bankr": {"delegate": [{"prefix": "x-", "provider": "nobody"}]}}, "unknown 'nobody'"),
    ],
)
def test_bad_overrides_say_where(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Registry.load(overrides)  # type: ignore[arg-type]


def test_unknown_family_and_provider() -> None:
    registry = Registry.load({"odd": {"family": "carrier-pigeon"}})
    with pytest.raises(KeyError, match="carrier-pigeon"):
        codec_for(registry.profile("odd"))
    with pytest.raises(KeyError, match="unknown provider"):
        profile("nope")
