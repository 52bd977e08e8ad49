"""The console's view of the log: one short line an event, for a person watching a golem
live. The log file keeps every event whole, as JSON; the console shows what a reader
follows at a glance and fits a terminal's width.

A decision reads as its subsystem, the tier it ran at, where its answer came from (the
rules, or which provider and model), what it decided, what it cost and the
golem's vitality:

    12:00:15 decision  heartbeat  tier 0  deterministic  low: observe  $0  vitality 0.69 stable
    12:00:15 decision  risk       tier 1  openai:gpt-4.1-nano  approved $120  $0.0000751  …

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
        head = f"{clock} {name:<9}" if level == "info" else f"{clock} {level.upper()} {name}"
        body = self._decision(event) if name == "decision" else self._fields(event)
        return _cut(f"{head} {body}".rstrip(), width)

    @staticmethod
    def _decision(event: Mapping[str, Any]) -> str:
        subsystem = str(event.get("subsystem", "?"))
        tier = str(event.get("tier", "?"))
        source = str(event.get("source", "?"))
        if source == "model":  # which provider and model answered is what matters
            source = f"{event.get('provider', '?')}:{event.get('model', '?')}"
        summary = str(event.get("summary") or event.get("error") or "")
        vitality = event.get("vitality")
        alive = (
            f"vitality {vitality:.2f} {event.get('phase', '')}".rstrip()
            if isinstance(vitality, int | float)
            else ""
        )
        parts = [
            f"{subsystem:<{_SUBSYSTEM_WIDTH}}",
            f"tier {tier}",
            f"{_cut(source, _SOURCE_WIDTH):<{_SOURCE_WIDTH}}",
            summary,
            _usd(event.get("cost_usd")),
            alive,
        ]
        return "  ".join(part for part in parts if part)

    @staticmethod
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
