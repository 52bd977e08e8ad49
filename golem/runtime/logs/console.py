"""The console's view of the log: one short line an event, for a person watching a golem
live. The log file keeps every event whole, as JSON; the console shows what a reader
follows at a glance and fits a terminal's width.

A decision reads as its subsystem, the tier it ran at, where its answer came from (the
rules, or which provider and model), what it decided, what it cost and the
golem's vitality:

    12:00:15 decision  heartbeat  tier 0  deterministic  low: observe  $0  vitality 0.69 stable
    12:00:15 decision  risk       tier 1  openai:gpt-4.1-nano  approved $120  $0.0000751  …

On a narrower terminal the cost and the vitality stay; the rest shrinks (80 columns):

    12:00:15 daimon     T1  anticipation (P 0.40,…  $0.0000751  vitality 0.69 stable

Any other event is its name and its scalar fields as key=value, each value cut short.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from typing import Any

__all__ = ["ConsoleLine"]

_SUBSYSTEM_WIDTH = 9  # "heartbeat", the longest name
_SOURCE_WIDTH = 28
_VALUE_WIDTH = 40  # a key=value field's value, at most
# Fields the line's head already says, or too bulky for a glance; the file keeps them.
_NOT_FIELDS = frozenset({"timestamp", "level", "event", "golem"})
_ELLIPSIS = "…"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + _ELLIPSIS


def _usd(value: object) -> str:
    if not isinstance(value, int | float) or not value:
        return "$0"
    return f"${value:.8f}".rstrip("0")


class ConsoleLine:
    """Renders a finished event (the dict the log file gets as JSON) as one line of at
    most `width` characters (default: the terminal's width when the line is made)."""

    def __init__(self, width: int | None = None) -> None:
        self._width = width

    def __call__(self, event: Mapping[str, Any]) -> str:
        width = self._width or shutil.get_terminal_size((120, 24)).columns
        stamp = str(event.get("timestamp", ""))
        clock = stamp[11:19] if len(stamp) >= 19 else stamp
        name = str(event.get("event", ""))
        level = str(event.get("level", "info"))
        if name == "decision" and level == "info":
            return _decision(event, clock, width)
        head = f"{clock} {name:<9}" if level == "info" else f"{clock} {level.upper()} {name}"
        return _cut(f"{head} {_fields(event)}".rstrip(), width)


def _decision(event: Mapping[str, Any], clock: str, width: int) -> str:
    """A decision's line, chosen by width: what it cost and the vitality after it are
    always shown; the source and the summary get what room is left. Whole and aligned when
    it fits; narrower, the words around shrink ("tier 1" to "T1", the provider dropped
    from "provider:model"), then the summary is cut before the source is."""
    subsystem = f"{event.get('subsystem', '?')!s:<{_SUBSYSTEM_WIDTH}}"
    tier = str(event.get("tier", "?"))
    source = str(event.get("source", "?"))
    model = source == "model"
    if model:  # which provider and model answered is what matters
        source = f"{event.get('provider', '?')}:{event.get('model', '?')}"
    summary = str(event.get("summary") or event.get("error") or "")
    vitality = event.get("vitality")
    alive = (
        f"vitality {vitality:.2f} {event.get('phase', '')}".rstrip()
        if isinstance(vitality, int | float)
        else ""
    )
    cost = _usd(event.get("cost_usd"))
    wide = _Parts(f"{clock} decision  ", subsystem, f"tier {tier}", cost, alive)
    room = width - len(wide.line(""))
    if room >= 2 + _SOURCE_WIDTH + 2 + len(summary) and len(source) <= _SOURCE_WIDTH:
        return wide.line(f"{source:<{_SOURCE_WIDTH}}", summary)
    if room >= 2 + len(source) + 2 + len(summary):
        return wide.line(source, summary)
    # Narrow: a rules decision's tier says where it came from; a model's, its model.
    narrow = _Parts(f"{clock} ", subsystem, f"T{tier}", cost, alive)
    room = width - len(narrow.line(""))
    source = _cut(str(event.get("model", "?")), _SOURCE_WIDTH) if model else ""
    if room < 2 + len(source) + 2 + min(len(summary), _SUMMARY_LEAST):
        source = ""  # what was decided matters more than who decided it
    left = room - (2 + len(source) if source else 0) - 2
    summary = _cut(summary, left) if left >= min(len(summary), _SUMMARY_LEAST) else ""
    return _cut(narrow.line(source, summary), width)


_SUMMARY_LEAST = 12  # a summary cut shorter than this says little


class _Parts:
    """A decision line's fixed parts, with the flexible ones (source, summary) put between."""

    def __init__(self, head: str, subsystem: str, tier: str, cost: str, alive: str) -> None:
        self._head, self._before, self._after = head, [subsystem, tier], [cost, alive]

    def line(self, *flexible: str) -> str:
        parts = [*self._before, *flexible, *self._after]
        return (self._head + "  ".join(part for part in parts if part)).rstrip()


def _fields(event: Mapping[str, Any]) -> str:
    fields = []
    for key, value in event.items():
        if key in _NOT_FIELDS or isinstance(value, Mapping | list | tuple):
            continue
        text = str(value)
        if key == "exception":  # a traceback: its last line says what happened
            text = text.strip().rsplit("\n", 1)[-1]
        fields.append(f"{key}={_cut(text, _VALUE_WIDTH)}")
    return " ".join(fields)
