"""Checks that a codec decodes an SSE transcript to the same Response however it is cut:
whole, at every byte offset, one byte at a time and in seeded random chunkings."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable

from golem.inference.codecs.base import Codec
from golem.inference.errors import IncompleteStream
from golem.inference.types import Response

# Above this size a full decode per offset is quadratic (minutes for a 100 KB stream), so
# each offset is decoded within its frame and the next (see check_every_offset).
WHOLE_BODY_OFFSETS_UP_TO = 20_000


def decode_chunks(codec: Codec, chunks: Iterable[bytes]) -> Response:
    stream = codec.stream()
    for chunk in chunks:
        stream.feed(chunk)
    return stream.finish()


def decode_window(codec: Codec, chunks: Iterable[bytes]) -> Response | None:
    """A stretch cut out of a stream: the Response as far as it goes (its final event may
    lie beyond it)."""
    try:
        return decode_chunks(codec, chunks)
    except IncompleteStream as exc:
        return exc.partial


def frames(body: bytes) -> list[bytes]:
    """The body cut just after each blank line, where no event is half read."""
    cuts = [m.end() for m in re.finditer(rb"(?:\r\n|\r|\n)(?:\r\n|\r|\n)", body)]
    bounds = [0, *cuts, len(body)]
    return [body[a:b] for a, b in itertools.pairwise(bounds) if b > a]


def check_every_offset(codec: Codec, body: bytes) -> None:
    expected = decode_chunks(codec, [body])
    if len(body) <= WHOLE_BODY_OFFSETS_UP_TO:
        for k in range(len(body) + 1):
            assert decode_chunks(codec, [body[:k], body[k:]]) == expected, k
        return
    # A cut only disturbs the frame it falls in: decode each offset within that frame and
    # the next one, against the same window fed whole, and the whole body at evenly
    # spaced offsets besides.
    parts = frames(body)
    assert decode_chunks(codec, parts) == expected
    for i, part in enumerate(parts):
        window = part + (parts[i + 1] if i + 1 < len(parts) else b"")
        window_expected = decode_window(codec, [window])
        for k in range(len(part) + 1):
            assert decode_window(codec, [window[:k], window[k:]]) == window_expected, (i, k)
    for k in range(0, len(body) + 1, max(1, len(body) // 500)):
        assert decode_chunks(codec, [body[:k], body[k:]]) == expected, k


def check_one_byte_at_a_time(codec: Codec, body: bytes) -> None:
    expected = decode_chunks(codec, [body])
    assert decode_chunks(codec, (body[i : i + 1] for i in range(len(body)))) == expected


def check_random_chunkings(codec: Codec, body: bytes, seed: str, rounds: int = 200) -> None:
    expected = decode_chunks(codec, [body])
    rng = random.Random(seed)
    for _ in range(rounds):
        cuts = sorted(rng.sample(range(1, len(body)), rng.randint(1, min(64, len(body) - 1))))
        bounds = [0, *cuts, len(body)]
        chunks = [body[a:b] for a, b in itertools.pairwise(bounds)]
        assert decode_chunks(codec, chunks) == expected
