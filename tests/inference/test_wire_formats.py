"""Every recorded body and stream through every codec family: its own family decodes it,
every other raises FormatMismatch (never an empty "successful" Response). Every recorded
stream cut before its final event raises IncompleteStream, carrying what it held."""

from __future__ import annotations

from pathlib import Path

import pytest

from golem.inference import (
    ConnectionFailed,
    FormatMismatch,
    IncompleteStream,
    ProviderError,
    Refusal,
    Response,
    decode,
)
from golem.inference.providers import default_registry
from tests.fixtures import PROVIDERS

from .stream_splits import decode_chunks, frames

# One provider per codec family. The OpenAI chat codec and the OpenAI-compatible one read
# one wire format (the compatible vendors differ only in extra fields, such as where the
# reasoning goes), so a body of either decodes with both: they are one family here.
SPEAKERS = ("openai", "openai-compatible", "openai-responses", "anthropic", "gemini")
WIRE = {
    "openai-chat": "chat",
    "openai-compatible": "chat",
    "openai-responses": "responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
}
RECORDED = [
    p
    for p in PROVIDERS.files("*/*")
    if p.suffix in (".json", ".sse") and not p.name.endswith(".request.json")
]
ANSWERS = [p for p in RECORDED if not p.name.startswith("error-")]
ERRORS = [p for p in RECORDED if p.name.startswith("error-")]
STREAMS = [p for p in RECORDED if p.suffix == ".sse"]


def provider_of(path: Path) -> str:
    """The provider a recording was made from: its folder, but OpenAI's folder holds both
    of its APIs."""
    if path.parent.name == "openai" and path.name.startswith("responses-"):
        return "openai-responses"
    return path.parent.name


def wire_of(provider: str) -> str:
    return WIRE[default_registry().profile(provider).family]


def label(path: Path) -> str:
    return str(path.relative_to(PROVIDERS.path))


def test_the_recordings_cover_every_family() -> None:
    PROVIDERS.require()
    assert {wire_of(provider_of(p)) for p in ANSWERS} == set(WIRE.values())
    assert len(STREAMS) >= 9 and len(ERRORS) >= 7


@pytest.mark.parametrize("speaker", SPEAKERS)
@pytest.mark.parametrize("path", PROVIDERS.cases(ANSWERS), ids=label)
def test_a_recorded_answer_decodes_only_in_its_own_format(path: Path, speaker: str) -> None:
    body, stream = path.read_bytes(), path.suffix == ".sse"
    if wire_of(speaker) != wire_of(provider_of(path)):
        with pytest.raises(FormatMismatch, match=r"is not an? "):
            decode(speaker, body, stream=stream)
        return
    try:
        response = decode(speaker, body, stream=stream)
    except Refusal:
        assert "refusal" in path.name
        return
    assert response.content or response.tool_calls
    assert response.usage.input_tokens > 0


@pytest.mark.parametrize("speaker", SPEAKERS)
@pytest.mark.parametrize("path", PROVIDERS.cases(ERRORS), ids=label)
def test_a_recorded_error_body_is_a_typed_error_in_any_format(path: Path, speaker: str) -> None:
    with pytest.raises(ProviderError):
        decode(speaker, path.read_bytes())


def test_an_anthropic_message_is_not_an_openai_chat_completion() -> None:
    body = PROVIDERS.read("anthropic/messages-thinking-signature.json")
    with pytest.raises(FormatMismatch) as raised:
        decode("openai", body)
    message = str(raised.value)
    assert "not an OpenAI chat completion: it has no 'choices'" in message
    assert "'type'" in message  # the keys it does have
    assert not raised.value.transient


def test_an_openai_stream_is_not_an_anthropic_stream() -> None:
    body = PROVIDERS.read("openai/chat-json-schema-strict-stream.sse")
    with pytest.raises(FormatMismatch, match="stream is not an Anthropic message"):
        decode("anthropic", body, stream=True)


def test_a_json_object_of_no_format_is_a_mismatch_everywhere() -> None:
    for speaker in SPEAKERS:
        with pytest.raises(FormatMismatch):
            decode(speaker, b'{"hello": "world"}')
        with pytest.raises(FormatMismatch):
            decode(speaker, b'data: {"hello": "world"}\n\n', stream=True)


# -- streams cut short -------------------------------------------------------------------


def end_frame(parts: list[bytes]) -> int:
    """The index of the frame that completes the answer: the last one, but an OpenAI chat
    stream is complete once its finish reason and usage are in, before `data: [DONE]`."""
    return max(i for i, p in enumerate(parts) if p.strip() and p.strip() != b"data: [DONE]")


def cuts_before_the_end(body: bytes) -> list[int]:
    """Byte offsets that leave out the final event: at frame bounds, and inside the final
    event (in its first line, half way, just before its JSON closes)."""
    parts = frames(body)
    end = end_frame(parts)
    bounds = [sum(len(p) for p in parts[:k]) for k in range(len(parts) + 1)]
    start, frame = bounds[end], parts[end]
    at_frames = {bounds[k] for k in (0, 1, 2, end // 2, end - 1, end) if 0 <= k <= end}
    inside = {start + 1, start + len(frame) // 2, start + frame.rindex(b"}")}
    return sorted(at_frames | inside)


@pytest.mark.parametrize("path", PROVIDERS.cases(STREAMS), ids=label)
def test_a_stream_cut_before_its_final_event_is_incomplete(path: Path) -> None:
    provider, body = provider_of(path), path.read_bytes()
    codec = default_registry().codec(provider)
    parts = frames(body)
    through_end = b"".join(parts[: end_frame(parts) + 1])
    try:
        whole: Response | None = decode_chunks(codec, [through_end])  # complete as it is
    except Refusal:
        whole = None
    for cut in cuts_before_the_end(body):
        with pytest.raises(IncompleteStream) as raised:
            decode_chunks(codec, [body[:cut]])
        error = raised.value
        assert isinstance(error, ConnectionFailed) and error.transient, cut
        assert codec.stream_end in str(error), cut
        partial = error.partial
        if whole is None or partial is None:
            assert whole is None, cut  # only a refusal cannot be built
            continue
        assert (whole.content or "").startswith(partial.content or ""), cut
        assert len(partial.tool_calls) <= len(whole.tool_calls), cut


def test_an_openai_stream_cut_between_its_finish_and_its_usage_is_incomplete() -> None:
    """The answer's text is whole, but without the usage chunk it would be charged 0."""
    body = PROVIDERS.read("openai/chat-json-schema-strict-stream.sse")
    parts = frames(body)
    assert b'"usage":{' in parts[-2] and b'"finish_reason":"stop"' in parts[-3]
    with pytest.raises(IncompleteStream) as raised:
        decode("openai", b"".join(parts[:-2]), stream=True)
    assert raised.value.partial is not None
    assert raised.value.partial.usage.input_tokens == 0
    assert decode("openai", b"".join(parts[:-1]), stream=True).usage.input_tokens == 172


def test_an_empty_stream_is_incomplete() -> None:
    with pytest.raises(IncompleteStream, match="before any event"):
        decode("anthropic", b": keep-alive\n\n", stream=True)
