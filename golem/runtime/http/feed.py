"""The decisions the status endpoint serves, as they are made: the last `RECENT` kept in a
ring (for /decisions, and the last of each subsystem for /status), and each handed to every
/events listener. A record becomes its log line's JSON once, when it is published, masked
as the log masks it; nothing here ever blocks or fails the golem that publishes."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import trio

from golem.runtime.logs import Redaction, parse_time, render_json
from golem.runtime.record import DecisionRecord
from golem.runtime.stream import Record

__all__ = ["LISTENER_BUFFER", "RECENT", "DecisionEntry", "DecisionFeed"]

RECENT = 1000  # decisions kept (1 to 2 KB each): hours of a golem on a 15 s heartbeat
LISTENER_BUFFER = 256  # decisions an /events listener may lag behind before it is dropped


@dataclass(frozen=True, slots=True)
class DecisionEntry:
    """One published decision: what /decisions filters on, and its JSON (no newline)."""

    time: datetime
    subsystem: str
    decision_id: str
    reasoning_tokens: int
    line: bytes


class DecisionFeed:
    """A subscriber of the golem's record stream (`publish`). Listeners that fall
    `LISTENER_BUFFER` decisions behind (a stalled client) are dropped, their stream ended,
    so a slow or vanished client costs the golem nothing."""

    def __init__(self, secrets: Iterable[str] = (), keep: int = RECENT) -> None:
        self._recent: deque[DecisionEntry] = deque(maxlen=keep)
        self._last: dict[str, DecisionEntry] = {}
        self._listeners: set[trio.MemorySendChannel[DecisionEntry]] = set()
        values = [s for s in secrets if s]
        self._redaction = Redaction(values) if values else None

    def publish(self, record: Record) -> None:
        if not isinstance(record, DecisionRecord):
            return
        self.add(self._entry(record))

    def add(self, entry: DecisionEntry) -> None:
        """Keep `entry` and hand it to every listener (a finished life's feed is filled
        with its logged decisions this way)."""
        self._recent.append(entry)
        self._last[entry.subsystem] = entry
        for channel in tuple(self._listeners):
            try:
                channel.send_nowait(entry)
            except trio.WouldBlock:
                self._listeners.discard(channel)
                channel.close()  # its stream ends: the client reconnects if it is alive
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self._listeners.discard(channel)

    def recall(self, event: Mapping[str, Any]) -> None:
        """Keep a decision read from the log (its line's JSON object), as `add` does a
        published one, masked as one is. Raises ValueError or TypeError for a line whose
        time or fields are not a decision's."""
        line = render_json(event)
        if self._redaction is not None and self._redaction.suspect(line):
            line = render_json(self._redaction.clean(dict(event)))
        stamp = event.get("time") or event.get("timestamp")
        if not isinstance(stamp, str):
            raise ValueError("a decision without its time")
        subsystem = str(event.get("subsystem"))
        tokens = event.get("tokens")
        self.add(
            DecisionEntry(
                time=parse_time(stamp),
                subsystem=subsystem,
                decision_id=str(event.get("id") or f"{subsystem}@{event.get('tick')}"),
                reasoning_tokens=int(tokens.get("reasoning", 0) if isinstance(tokens, dict) else 0),
                line=line.rstrip(b"\n"),
            )
        )

    def _entry(self, record: DecisionRecord) -> DecisionEntry:
        event = {"event": record.event, **record.fields()}
        line = render_json(event)
        if self._redaction is not None and self._redaction.suspect(line):
            line = render_json(self._redaction.clean(event))
        return DecisionEntry(
            time=record.time,
            subsystem=str(record.subsystem),
            decision_id=record.decision_id,
            reasoning_tokens=record.usage.reasoning_tokens,
            line=line.rstrip(b"\n"),
        )

    def recent(
        self,
        *,
        subsystem: str | None = None,
        since: datetime | None = None,
        decision_id: str | None = None,
        limit: int = RECENT,
    ) -> list[DecisionEntry]:
        """The newest `limit` kept decisions that match, oldest first. The ring is in
        publishing order, which is time order, so a `since` ends the walk back early."""
        found: list[DecisionEntry] = []
        for entry in reversed(self._recent):
            if len(found) >= limit or (since is not None and entry.time < since):
                break
            if subsystem is not None and entry.subsystem != subsystem:
                continue
            if decision_id is not None and entry.decision_id != decision_id:
                continue
            found.append(entry)
        found.reverse()
        return found

    @property
    def listeners(self) -> int:
        """How many /events clients are listening now."""
        return len(self._listeners)

    def last(self) -> dict[str, DecisionEntry]:
        """The last decision of each subsystem since the feed started."""
        return dict(self._last)

    @contextmanager
    def listen(self) -> Iterator[trio.MemoryReceiveChannel[DecisionEntry]]:
        """Every decision published while the block runs; the channel ends if the
        listener falls `LISTENER_BUFFER` behind."""
        send, receive = trio.open_memory_channel[DecisionEntry](LISTENER_BUFFER)
        self._listeners.add(send)
        try:
            with receive:
                yield receive
        finally:
            self._listeners.discard(send)
            send.close()
