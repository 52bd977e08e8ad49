"""golem.inference.decode and StreamDecoder: every SSE fixture of the OpenAI Chat family and
the compatible vendors decodes the same however the stream is cut."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from golem.inference import Refusal, Response, StreamDecoder, decode
from golem.inference.providers import default_registry
from tests.fixtures import PROVIDERS

from .stream_splits import check_every_offset, check_one_byte_at_a_time, check_random_chunkings

# The provider each fixture folder was recorded from.
FOLDERS = {
    "openai": "openai",
    "deepseek": "deepseek",
    "openrouter": "openrouter",
    "together": "together",
    "groq": "groq",
    "ollama": "ollama",
    "gpustack": "gpustack",
}
STREAMS = [
    p
    for folder in FOLDERS
    for p in PROVIDERS.files(f"{folder}/*.sse")
    if not p.name.startswith("responses-")  # the Responses API has its own codec
]
BODIES = [
    p
    for folder in FOLDERS
    for p in PROVIDERS.files(f"{folder}/*.json")
    if not p.name.endswith(".request.json") and not p.name.startswith(("responses-", "error-"))
]


def provider_of(path: Path) -> str:
    return FOLDERS[path.parent.name]


def name_of(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_every_family_fixture_is_covered() -> None:
    PROVIDERS.require()
    assert len(STREAMS) == 5
    assert len(BODIES) >= 12


@pytest.mark.parametrize("path", PROVIDERS.cases(BODIES), ids=name_of)
def test_every_body_decodes_or_refuses(path: Path) -> None:
    if "refusal" in path.name:
        return  # a Refusal error, checked in test_codec_openai_chat
    response = decode(provider_of(path), path.read_bytes())
    assert response.provider == provider_of(path)
    assert response.model
    assert response.content or response.tool_calls
    assert response.usage.input_tokens > 0


@pytest.mark.parametrize("path", PROVIDERS.cases(STREAMS), ids=name_of)
def test_stream_decoder_equals_decode_for_any_chunking(path: Path) -> None:
    provider, body = provider_of(path), path.read_bytes()
    if "refusal" in path.name:
        return  # finish() raises; covered below
    whole = decode(provider, body, stream=True)
    assert whole.content or whole.tool_calls
    rng = random.Random(path.name)
    for size in (1, 7, 64, 4096, rng.randint(2, 300)):
        decoder = StreamDecoder(provider)
        for start in range(0, len(body), size):
            decoder.feed(body[start : start + size])
        assert decoder.finish() == whole, size


def test_refusal_stream_raises_for_any_chunking() -> None:
    PROVIDERS.require()
    (path,) = [p for p in STREAMS if "refusal" in p.name]
    body = path.read_bytes()
    for size in (1, 13, len(body)):
        decoder = StreamDecoder("openai")
        for start in range(0, len(body), size):
            decoder.feed(body[start : start + size])
        with pytest.raises(Refusal):
            decoder.finish()


def splittable() -> list[Path]:
    return PROVIDERS.cases([p for p in STREAMS if "refusal" not in p.name])


@pytest.mark.parametrize("path", splittable(), ids=name_of)
def test_stream_every_offset(path: Path) -> None:
    check_every_offset(default_registry().codec(provider_of(path)), path.read_bytes())


@pytest.mark.parametrize("path", splittable(), ids=name_of)
def test_stream_one_byte_at_a_time(path: Path) -> None:
    check_one_byte_at_a_time(default_registry().codec(provider_of(path)), path.read_bytes())


@pytest.mark.parametrize("path", splittable(), ids=name_of)
def test_stream_random_chunkings(path: Path) -> None:
    codec = default_registry().codec(provider_of(path))
    check_random_chunkings(codec, path.read_bytes(), seed=path.name)


def test_refusal_stream_every_offset_raises() -> None:
    PROVIDERS.require()
    (path,) = [p for p in STREAMS if "refusal" in p.name]
    body = path.read_bytes()
    for k in range(len(body) + 1):
        decoder = StreamDecoder("openai")
        decoder.feed(body[:k])
        decoder.feed(body[k:])
        with pytest.raises(Refusal):
            decoder.finish()


def test_decode_prices_with_the_model_asked_for_when_the_body_names_none() -> None:
    body = (
        b'{"choices":[{"message":{"content":"ok"}}],'
        b'"usage":{"prompt_tokens":10,"completion_tokens":2}}'
    )
    response = decode("openai", body, model="gpt-4o-mini")
    assert response.model == "gpt-4o-mini"
    assert response.cost_usd == pytest.approx((10 * 0.15 + 2 * 0.60) / 1e6)
    assert decode("openai", body).cost_usd == 0.0


def test_unknown_provider_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="openrouter"):
        decode("nope", b"{}")


def test_response_is_a_plain_value() -> None:
    path = PROVIDERS / "openai/chat-json-schema-strict.json"
    assert decode("openai", path.read_bytes()) == decode("openai", path.read_bytes())
    assert isinstance(decode("openai", path.read_bytes()), Response)
