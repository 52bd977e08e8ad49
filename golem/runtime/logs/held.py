"""Log lines held for a commit (a fast-forwarded stretch's, issue [speed]): inside
`held_lines`, a line is handed to the hold (a store's `at_commit`) instead of written at
once, so that it goes out when the stretch commits, in the order written, among the
golem's records (which wait for the commit too: runtime/stream.py). Step by step, a
tick's lines are written at once and its records when it commits; a stretch keeps that
order with `before` (the quiet decisions of the ticks before a line told ahead of it) and
`lines_ahead` (its last tick's lines ahead of that tick's records).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

__all__ = ["Hold", "held_lines", "hold_line", "lines_ahead"]

Told = Callable[[], None]
Hold = Callable[[Told], None]
Before = Callable[[datetime], None]


class _Place:
    """A place taken in the hold: the lines held after it is taken are told there."""

    __slots__ = ("_lines", "_told")

    def __init__(self) -> None:
        self._lines: list[Told] = []
        self._told = False

    def add(self, line: Told) -> None:
        if self._told:  # its place is past (the hold told it): at once
            line()
        else:
            self._lines.append(line)

    def tell(self) -> None:
        self._told = True
        lines, self._lines = self._lines, []
        for line in lines:
            line()


@dataclass(slots=True)
class _Held:
    hold: Hold
    before: Before | None
    place: list[_Place | None] = field(default_factory=lambda: [None])  # shared inward


_HELD: ContextVar[_Held | None] = ContextVar("golem_held_lines", default=None)


@contextmanager
def held_lines(hold: Hold, before: Before | None = None) -> Iterator[None]:
    """Hold the lines written meanwhile (in this context) with `hold`. `before`, when
    given, hears each line's time before the line is held."""
    outer = _HELD.get()
    held = _Held(hold, before) if outer is None else _Held(hold, before, outer.place)
    token = _HELD.set(held)
    try:
        yield
    finally:
        _HELD.reset(token)


def lines_ahead() -> None:
    """Inside `held_lines`, the lines held from now on are told at a place taken in the
    hold now: ahead of whatever is held after this (a stretch's last tick's records: step
    by step, that tick's lines, written at once, come before them). Outside, nothing."""
    held = _HELD.get()
    if held is not None:
        place = held.place[0] = _Place()
        held.hold(place.tell)


def hold_line(write: Callable[[dict[str, Any]], None], event: dict[str, Any]) -> bool:
    """Whether the line of `event` (written by `write`) was held: inside `held_lines`,
    after `before` heard its timestamp. Outside, nothing is made: most lines are not."""
    held = _HELD.get()
    if held is None:
        return False
    stamp = event.get("timestamp")
    if held.before is not None and isinstance(stamp, datetime):
        held.before(stamp)
    line = partial(write, event)
    place = held.place[0]
    if place is not None:
        place.add(line)
    else:
        held.hold(line)
    return True
