"""The last events of one kind in a golem's JSON-lines log, read backwards from its end a
block at a time: a page opened on a golem that has lived for months reads the tail of its
log, not all of it."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import orjson

from golem.runtime.logs.quiet import QUIET_STRETCH, expanded
from golem.runtime.logs.read import Event

__all__ = ["BLOCK", "Skipped", "last_events"]

BLOCK = 1 << 16  # bytes read at a time, from the end back
_QUIET = orjson.dumps({"event": QUIET_STRETCH})[1:-1]

Skipped = Callable[[int, str], None]  # (the line's byte offset in the file, why)


def last_events(path: Path, name: str, limit: int, skipped: Skipped) -> list[Event]:
    """The last `limit` events named `name` in the log at `path`, oldest first. Only the
    lines that hold the name are parsed: one that is not a JSON object is told to
    `skipped` (its byte offset and why) and left out, unless it is torn (the unterminated
    last line, or an object cut short: what a killed writer leaves), left out silently.
    Raises OSError when the file cannot be read."""
    needle = orjson.dumps({"event": name})[1:-1]  # b'"event":"decision"', as orjson writes
    # A quiet stretch's line stands for decisions (logs/quiet.py).
    stretch = _QUIET if name == "decision" else needle
    found: list[Event] = []
    with path.open("rb") as file:
        position = end = file.seek(0, os.SEEK_END)
        carry = b""  # a line begun in the block before this one, read so far
        while position > 0 and len(found) < limit:
            start = max(0, position - BLOCK)
            file.seek(start)
            lines = (file.read(position - start) + carry).split(b"\n")
            offsets, at = [], start
            for line in lines:
                offsets.append(at)
                at += len(line) + 1
            first = 1 if start > 0 else 0  # a partial line: carried back into the next block
            carry = lines[0] if start > 0 else b""
            for line, offset in zip(
                reversed(lines[first:]), reversed(offsets[first:]), strict=True
            ):
                if needle not in line and stretch not in line:
                    continue
                event = _parsed(line, offset, last=offset + len(line) == end, skipped=skipped)
                events = [] if event is None else _events(event, offset, skipped)
                for event in reversed(events):
                    if event.get("event") == name and len(found) < limit:
                        found.append(event)
                if len(found) == limit:
                    break
            position = start
    found.reverse()
    return found


def _events(event: Event, offset: int, skipped: Skipped) -> list[Event]:
    """A line's events: a quiet stretch's are the decisions it stands for."""
    if event.get("event") != QUIET_STRETCH:
        return [event]
    try:
        return expanded(event)
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        skipped(offset, f"a quiet_stretch that cannot be expanded ({type(exc).__name__})")
        return []


def _parsed(line: bytes, offset: int, *, last: bool, skipped: Skipped) -> Event | None:
    try:
        event = orjson.loads(line)
    except orjson.JSONDecodeError:
        text = line.strip()
        if not (last or (text.startswith(b"{") and not text.endswith(b"}"))):
            skipped(offset, "not valid JSON")
        return None
    if not isinstance(event, dict):
        skipped(offset, "not a JSON object")
        return None
    return event
