"""Provider codecs: pure translation between provider-neutral values and wire formats.

`FAMILIES` is the one list of codec families (a profile's `family` names one);
`PROFILES_IN_CODE` the profiles a codec module defines beside itself, with their prices.
"""

from collections.abc import Mapping

from golem.inference.codecs import (
    anthropic,
    gemini,
    openai_chat,
    openai_compat,
    openai_responses,
)
from golem.inference.codecs.base import Codec, ProviderProfile
from golem.inference.pricing import Price

__all__ = ["FAMILIES", "PROFILES_IN_CODE"]

FAMILIES: Mapping[str, type[Codec]] = {
    openai_chat.FAMILY: openai_chat.OpenAIChatCodec,
    openai_compat.FAMILY: openai_compat.OpenAICompatCodec,
    openai_responses.FAMILY: openai_responses.OpenAIResponsesCodec,
    anthropic.FAMILY: anthropic.AnthropicCodec,
    gemini.FAMILY: gemini.GeminiCodec,
}

PROFILES_IN_CODE: tuple[tuple[ProviderProfile, Mapping[str, Price]], ...] = (
    (anthropic.PROFILE, anthropic.PRICES),
    (gemini.PROFILE, gemini.PRICES),
    (openai_responses.PROFILE, openai_responses.PRICES),
)
