"""Stream framings other than plain SSE: a JSON array streamed element by element (what
Gemini's streamGenerateContent sends without `alt=sse`), and a framer that tells the two
apart by the stream's first byte. Sans-IO like the SSE decoder: `feed(bytes)` returns the
events the chunk completed, `finish()` the rest; every element becomes one SSEEvent."""

from __future__ import annotations

import re
from typing import Protocol

from golem.inference.sse import SSEDecoder, SSEEvent

__all__ = ["Framer", "JSONArrayFramer", "SSEOrJSONArrayFramer"]

# The bytes that can change the scanner's state: all ASCII, so a cut inside a multi-byte
# UTF-8 character never hides one.
_STRUCTURAL = re.compile(rb'["\\\[\]{},]')
_IN_STRING = re.compile(rb'["\\]')
_WHITESPACE = b" \t\r\n"


class Framer(Protocol):
    def feed(self, chunk: bytes) -> list[SSEEvent]: ...

    def finish(self) -> list[SSEEvent]: ...


class JSONArrayFramer:
    """`[elem, elem, ...]` streamed: each element's text as one event, as soon as it closes.

    The scan is linear in the bytes fed: it resumes where the previous chunk stopped and
    jumps between structural bytes. Anything that is not a well-formed array (a missing
    `[`, bytes after the `]`) comes out as an event of its own, for the codec to reject
    as not JSON, as it rejects a malformed SSE event."""

    __slots__ = ("_buffer", "_closed", "_depth", "_escaped", "_in_string", "_opened", "_pos")

    def __init__(self) -> None:
        self._buffer = bytearray()  # from the start of the current element (or gap)
        self._pos = 0  # how far into _buffer the scan has gone
        self._depth = 0  # 1 inside the array, more inside an element's brackets
        self._in_string = False
        self._escaped = False
        self._opened = False
        self._closed = False

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        self._buffer += chunk
        events: list[SSEEvent] = []
        if self._closed:
            return events
        self._scan(events)
        return events

    def finish(self) -> list[SSEEvent]:
        """What is left: a cut element, or bytes that were never an array."""
        rest = bytes(self._buffer).strip(_WHITESPACE)
        self._buffer.clear()
        self._pos = 0
        return [_event(rest)] if rest else []

    def _scan(self, events: list[SSEEvent]) -> None:
        buffer = self._buffer
        if not self._opened:
            start = _first_content(buffer, 0)
            if start < 0:
                return
            if buffer[start] != ord("["):
                self._closed = True  # not an array: finish() hands it over whole
                return
            self._opened, self._depth = True, 1
            del buffer[: start + 1]
            self._pos = 0
        while not self._closed:
            if self._in_string:
                if self._escaped:  # the byte after a backslash is never structural
                    if self._pos >= len(buffer):
                        return
                    self._pos += 1
                    self._escaped = False
                    continue
                match = _IN_STRING.search(buffer, self._pos)
                if match is None:
                    self._pos = len(buffer)
                    return
                self._pos = match.end()
                if match.group() == b"\\":
                    self._escaped = True
                else:
                    self._in_string = False
                continue
            match = _STRUCTURAL.search(buffer, self._pos)
            if match is None:
                self._pos = len(buffer)
                return
            byte = match.group()
            self._pos = match.end()
            if byte == b'"':
                self._in_string = True
            elif byte in (b"[", b"{"):
                self._depth += 1
            elif byte in (b"]", b"}"):
                self._depth -= 1
                if self._depth == 1:  # an element closed
                    self._emit(events, self._pos)
                elif self._depth == 0:  # the array closed, maybe after a scalar element
                    self._emit(events, match.start())
                    del buffer[:1]  # the "]" itself
                    self._pos = 0
                    self._closed = True
            elif byte == b"," and self._depth == 1:
                self._emit(events, match.start())
                del buffer[:1]  # the separator
                self._pos = 0

    def _emit(self, events: list[SSEEvent], end: int) -> None:
        element = bytes(self._buffer[:end]).strip(_WHITESPACE)
        del self._buffer[:end]
        self._pos = 0
        if element:
            events.append(_event(element))


class SSEOrJSONArrayFramer:
    """SSE, unless the stream's first byte other than whitespace (or a BOM) is `[`."""

    __slots__ = ("_framer", "_head")

    def __init__(self) -> None:
        self._framer: Framer | None = None
        self._head = bytearray()

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        if self._framer is None:
            self._head += chunk
            start = _first_content(self._head, 3 if self._head.startswith(b"\xef\xbb\xbf") else 0)
            if start < 0:
                return []
            if self._head[start] == ord("["):
                self._framer, chunk = JSONArrayFramer(), bytes(self._head[start:])
            else:
                self._framer, chunk = SSEDecoder(), bytes(self._head)
            self._head.clear()
        return self._framer.feed(chunk)

    def finish(self) -> list[SSEEvent]:
        if self._framer is None:  # nothing but whitespace: as SSE, no event
            self._framer = SSEDecoder()
            self._framer.feed(bytes(self._head))
        return self._framer.finish()


def _first_content(buffer: bytes | bytearray, start: int) -> int:
    for i in range(start, len(buffer)):
        if buffer[i] not in _WHITESPACE:
            return i
    return -1


def _event(data: bytes) -> SSEEvent:
    return SSEEvent(data=data.decode("utf-8", "replace"))
