"""Server-sent events framing: bytes in, `SSEEvent`s out, for any chunking of the stream.

Sans-IO (feed/finish), following the WHATWG event-stream rules. Lines end at `\\r\\n`, `\\n`
or `\\r` only: `str.splitlines()` would also split on U+2028 and U+0085 inside raw JSON.
"""

import codecs
from dataclasses import dataclass

__all__ = ["SSEDecoder", "SSEEvent", "iter_sse"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SSEEvent:
    """One dispatched event; `id` is the stream's last event id at dispatch, as the spec says."""

    data: str
    event: str = "message"
    id: str | None = None
    retry: int | None = None


class SSEDecoder:
    """Incremental event-stream parser: `feed(chunk)` returns the events the chunk completed."""

    __slots__ = (
        "_data",
        "_event",
        "_last_id",
        "_partial",
        "_retry",
        "_skip_lf",
        "_text_decoder",
    )

    def __init__(self) -> None:
        # utf-8-sig drops a leading BOM even when it is split across chunks; "replace"
        # because the spec decodes invalid bytes to U+FFFD rather than failing the stream.
        self._text_decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="replace")
        # Pieces of the current unterminated line, joined only once a line end arrives, so a
        # long line fed one byte at a time costs linear time.
        self._partial: list[str] = []
        # The previous text ended with "\r": a "\n" opening the next text belongs to it.
        self._skip_lf = False
        self._data: list[str] = []
        self._event = ""
        self._retry: int | None = None
        self._last_id: str | None = None

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        return self._feed_text(self._text_decoder.decode(chunk))

    def finish(self) -> list[SSEEvent]:
        """End of stream: dispatch a last event that had data but no closing blank line."""
        events = self._feed_text(self._text_decoder.decode(b"", True))
        if self._partial:
            line = "".join(self._partial)
            self._partial = []
            self._process_line(line, events)
        self._skip_lf = False
        self._dispatch(events)
        return events

    def _feed_text(self, text: str) -> list[SSEEvent]:
        events: list[SSEEvent] = []
        if not text:
            return events
        if self._skip_lf:
            self._skip_lf = False
            if text[0] == "\n":
                text = text[1:]
                if not text:
                    return events
        if "\n" not in text and "\r" not in text:
            self._partial.append(text)
            return events
        if self._partial:
            self._partial.append(text)
            text = "".join(self._partial)
            self._partial = []
        if "\r" in text:
            self._skip_lf = text[-1] == "\r"
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        tail = lines.pop()
        if tail:
            self._partial.append(tail)
        for line in lines:
            self._process_line(line, events)
        return events

    def _process_line(self, line: str, events: list[SSEEvent]) -> None:
        if not line:
            self._dispatch(events)
            return
        colon = line.find(":")
        if colon == 0:
            return  # a comment, such as OpenRouter's ": OPENROUTER PROCESSING"
        if colon < 0:
            name, value = line, ""
        else:
            name = line[:colon]
            value = line[colon + 2 :] if line.startswith(" ", colon + 1) else line[colon + 1 :]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            if "\0" not in value:
                self._last_id = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self._retry = int(value)

    def _dispatch(self, events: list[SSEEvent]) -> None:
        if self._data:
            events.append(
                SSEEvent(
                    data="\n".join(self._data),
                    event=self._event or "message",
                    id=self._last_id,
                    retry=self._retry,
                )
            )
            self._data = []
        # A blank line ends the event even when it carried no data: its fields do not leak
        # into the next one.
        self._event = ""
        self._retry = None


def iter_sse(body: bytes) -> list[SSEEvent]:
    """Every event of a whole recorded transcript."""
    decoder = SSEDecoder()
    return decoder.feed(body) + decoder.finish()
