import itertools
import json
import random
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from golem.inference.sse import SSEDecoder, SSEEvent, iter_sse
from tests.fixtures import PROVIDERS
from tests.inference.stream_splits import frames

SSE_FIXTURES = PROVIDERS.params("**/*.sse")


def fixture_id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def decode_chunks(chunks: Iterable[bytes]) -> list[SSEEvent]:
    decoder = SSEDecoder()
    events: list[SSEEvent] = []
    for chunk in chunks:
        events += decoder.feed(chunk)
    return events + decoder.finish()


def reference_parse(body: bytes) -> list[SSEEvent]:
    """The spec read literally over the whole text at once: an independent oracle."""
    text = body.decode("utf-8-sig", errors="replace")
    events: list[SSEEvent] = []
    data: list[str] = []
    event = ""
    last_id: str | None = None
    for line in [*re.split("\r\n|\r|\n", text), ""]:
        if line == "":
            if data:
                events.append(SSEEvent(data="\n".join(data), event=event or "message", id=last_id))
            data, event = [], ""
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                data.append(value)
            elif name == "event":
                event = value
            elif name == "id":
                last_id = value
    return events


def test_fixtures_found() -> None:
    PROVIDERS.require()
    assert len(SSE_FIXTURES) >= 9


@pytest.mark.parametrize("path", SSE_FIXTURES, ids=fixture_id)
def test_fixture_whole_matches_reference(path: Path) -> None:
    body = path.read_bytes()
    events = iter_sse(body)
    assert events == reference_parse(body)
    assert events
    for event in events:
        if event.data != "[DONE]":
            json.loads(event.data)


@pytest.mark.parametrize("path", SSE_FIXTURES, ids=fixture_id)
def test_fixture_split_at_every_offset(path: Path) -> None:
    # Splitting the whole body at each of its n offsets would decode n whole bodies
    # (quadratic: minutes for the 285 KB Together stream). A split only disturbs the frame
    # it falls in, so each offset is tested in its frame followed by the next one, and the
    # whole body is checked to decode as the concatenation of its frames.
    body = path.read_bytes()
    parts = frames(body)
    assert [e for part in parts for e in iter_sse(part)] == iter_sse(body)
    for i, part in enumerate(parts):
        window = part + (parts[i + 1] if i + 1 < len(parts) else b"")
        expected = iter_sse(window)
        for k in range(len(part) + 1):
            assert decode_chunks([window[:k], window[k:]]) == expected, (i, k)


@pytest.mark.parametrize("path", SSE_FIXTURES, ids=fixture_id)
def test_fixture_one_byte_at_a_time(path: Path) -> None:
    body = path.read_bytes()
    assert decode_chunks(body[i : i + 1] for i in range(len(body))) == iter_sse(body)


@pytest.mark.parametrize("path", SSE_FIXTURES, ids=fixture_id)
def test_fixture_random_chunkings(path: Path) -> None:
    body = path.read_bytes()
    expected = iter_sse(body)
    rng = random.Random(path.name)
    for _ in range(200):
        cuts = sorted(rng.sample(range(1, len(body)), rng.randint(1, min(64, len(body) - 1))))
        bounds = [0, *cuts, len(body)]
        chunks = [body[a:b] for a, b in itertools.pairwise(bounds)]
        assert decode_chunks(chunks) == expected


def test_gemini_fixture_is_crlf_framed() -> None:
    (path,) = PROVIDERS.require().glob("gemini/*.sse")
    body = path.read_bytes()
    assert b"\r\n\r\n" in body
    events = iter_sse(body)
    assert all("\r" not in e.data for e in events)
    assert len(events) == body.count(b"\r\n\r\n")


def test_openrouter_comments_and_leading_blank_lines_ignored() -> None:
    (path,) = PROVIDERS.require().glob("openrouter/*.sse")
    events = iter_sse(b"\n\n" + path.read_bytes())
    assert not any("OPENROUTER" in e.data for e in events)
    assert json.loads(events[0].data)["object"] == "chat.completion.chunk"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(b"data: a\n\n", [SSEEvent(data="a")], id="lf"),
        pytest.param(b"data: a\r\n\r\n", [SSEEvent(data="a")], id="crlf"),
        pytest.param(b"data: a\r\rdata: b\r\r", [SSEEvent(data="a"), SSEEvent(data="b")], id="cr"),
        pytest.param(b"data: a\r\ndata: b\rdata: c\n\n", [SSEEvent(data="a\nb\nc")], id="mixed"),
        pytest.param(b"data:a\n\n", [SSEEvent(data="a")], id="no-space"),
        pytest.param(b"data:  a \n\n", [SSEEvent(data=" a ")], id="one-space-stripped"),
        pytest.param(b"data\n\n", [SSEEvent(data="")], id="field-without-colon"),
        pytest.param(b"data: a\ndata: b\n\n", [SSEEvent(data="a\nb")], id="multi-line"),
        pytest.param(b"data: \ndata:\n\n", [SSEEvent(data="\n")], id="empty-data-lines"),
        pytest.param(b": ping\n\ndata: a\n: inside\n\n", [SSEEvent(data="a")], id="comments"),
        pytest.param(b"\n\n\r\n\ndata: a\n\n", [SSEEvent(data="a")], id="keep-alive-blanks"),
        pytest.param(b"event: x\n\ndata: a\n\n", [SSEEvent(data="a")], id="no-data-no-event"),
        pytest.param(
            b"event: delta\ndata: a\n\n", [SSEEvent(event="delta", data="a")], id="event-type"
        ),
        pytest.param(b"event:\ndata: a\n\n", [SSEEvent(data="a")], id="empty-event-type"),
        pytest.param(
            b"id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
            [SSEEvent(data="a", id="7"), SSEEvent(data="b", id="7"), SSEEvent(data="c", id="")],
            id="last-event-id-persists",
        ),
        pytest.param(b"id: a\0b\ndata: a\n\n", [SSEEvent(data="a")], id="id-with-nul-ignored"),
        pytest.param(
            b"retry: 1500\ndata: a\n\nretry: 1.5\ndata: b\n\n",
            [SSEEvent(data="a", retry=1500), SSEEvent(data="b")],
            id="retry",
        ),
        pytest.param(b"foo: bar\ndata: a\n\n", [SSEEvent(data="a")], id="unknown-field"),
        pytest.param(b"data: a", [SSEEvent(data="a")], id="cut-mid-line"),
        pytest.param(b"data: a\n", [SSEEvent(data="a")], id="cut-before-blank-line"),
        pytest.param(b"data: a\r", [SSEEvent(data="a")], id="cut-after-cr"),
        pytest.param(b"event: x\n", [], id="cut-without-data"),
        pytest.param(b"\xef\xbb\xbfdata: a\n\n", [SSEEvent(data="a")], id="bom"),
        pytest.param(
            b"data: a\n\n\xef\xbb\xbfdata: b\n\n",
            [SSEEvent(data="a")],
            id="bom-only-stripped-at-start",
        ),
        pytest.param(
            'data: {"t":"a\u2028b\u0085c\u2029d\x0ce\x1cf"}\n\n'.encode(),
            [SSEEvent(data='{"t":"a\u2028b\u0085c\u2029d\x0ce\x1cf"}')],
            id="unicode-line-separators-are-data",
        ),
        pytest.param(
            "data: é€😀\n\n".encode(), [SSEEvent(data="é€😀")], id="multi-byte-characters"
        ),
        pytest.param(b"data: \xff\n\n", [SSEEvent(data="\ufffd")], id="invalid-utf8-replaced"),
    ],
)
def test_framing(body: bytes, expected: list[SSEEvent]) -> None:
    assert iter_sse(body) == expected
    for k in range(len(body) + 1):
        assert decode_chunks([body[:k], body[k:]]) == expected, k
    assert decode_chunks(body[i : i + 1] for i in range(len(body))) == expected


def test_crlf_split_across_chunks_is_one_line_end() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\r") == []
    # This "\n" completes the "\r\n" above; were it read as a blank line it would dispatch.
    assert decoder.feed(b"\ndata: b\r") == []
    assert decoder.feed(b"\n\r") == [SSEEvent(data="a\nb")]
    assert decoder.feed(b"\n") == []
    assert decoder.finish() == []


def test_cr_then_empty_chunk_then_lf() -> None:
    assert decode_chunks([b"data: a\r", b"", b"\ndata: b\r\n\r\n"]) == [SSEEvent(data="a\nb")]


def test_multi_byte_character_split_across_chunks() -> None:
    body = "data: 😀\n\n".encode()
    cut = body.index(b"\xf0") + 2
    assert decode_chunks([body[:cut], body[cut:]]) == [SSEEvent(data="😀")]


def test_feed_returns_events_as_soon_as_they_complete() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\n") == []
    assert decoder.feed(b"\ndata: b") == [SSEEvent(data="a")]
    assert decoder.finish() == [SSEEvent(data="b")]
