"""The table of `golem inspect`: one line of fixed-width text per event, its columns chosen
for the output's width (the most useful first; the summary takes what is left); that width
(--width or the terminal's) and a console of it for the panels.

Speed: the layout is compiled once, into a format template; each event then costs its
cells, one format of the template and one write to buffered stdout, O(columns), so a log
of any length streams in constant memory. A line whose cells are plain text that fits (as
nearly all are) is checked whole, by its length; only the others are fitted cell by cell.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC

import orjson
from rich.cells import cell_len, set_cell_size
from rich.console import Console

from golem.runtime.logs import Event, event_time, quarantined

__all__ = ["Layout", "console_for", "details", "layout_for", "output_width"]

Cell = Callable[[Event], str]

_GAP = " "
_SUMMARY_MIN = 20  # the summary column never gets less (on a wide output, a fifth)
# Keys no column shows and the summary never repeats: the line's own bookkeeping and the
# decision's full record and its reasoning chain (in --json and --decision).
_NEVER_SHOWN = frozenset({"timestamp", "level", "golem", "time", "event", "decision", "reasoning"})
# Log text is data: a control character in it (an escape sequence from a hostile feed, a
# newline) must not reach the terminal. Each becomes one visible character.
_CONTROLS = dict.fromkeys((*range(32), *range(127, 160)), "�") | {9: " ", 10: " ", 13: " "}


def _text(key: str) -> Cell:
    def cell(event: Event) -> str:
        value = event.get(key)
        return "" if value is None else str(value)

    return cell


def _number(key: str, spec: str) -> Cell:
    def cell(event: Event) -> str:
        value = event.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return "" if value is None else str(value)
        return "0" if value == 0 else format(value, spec)

    return cell


def _provider(event: Event) -> str:
    provider, model = event.get("provider"), event.get("model")
    return f"{provider}:{model}" if provider and model else str(provider or "")


def _tokens(event: Event) -> str:
    tokens = event.get("tokens")
    if not isinstance(tokens, dict) or not any(tokens.values()):
        return ""
    reasoning = tokens.get("reasoning")
    spent = f"{tokens.get('input', 0)}/{tokens.get('output', 0)}"
    return f"{spent}+{reasoning}" if reasoning else spent


@dataclass(frozen=True, slots=True)
class Column:
    header: str
    width: int
    cell: Cell
    keys: frozenset[str]  # the event's keys the column shows (the summary leaves them out)
    rank: int  # which columns a narrow output keeps: lowest first
    right: bool = False


def _clock(with_year: bool) -> Cell:
    start = 0 if with_year else len("2026-")

    def cell(event: Event) -> str:
        moment = event_time(event)
        return "" if moment is None else f"{moment.astimezone(UTC):%Y-%m-%d %H:%M:%S}"[start:]

    return cell


_TIME = Column("time", 14, _clock(False), frozenset(), 0)
_TIME_WITH_YEAR = Column("time", 19, _clock(True), frozenset(), 0)  # when everything fits
_EVENT = Column("event", 14, _text("event"), frozenset(), 7)
# In display order; `rank` says which survive a narrow output. At 80 columns: time, tick,
# subsystem, tier, source, cost and a 20-character summary.
_COLUMNS: tuple[Column, ...] = (
    _TIME,
    Column("tick", 6, _number("tick", ""), frozenset({"tick"}), 5, right=True),
    _EVENT,
    Column("subsystem", 9, _text("subsystem"), frozenset({"subsystem"}), 1),
    Column("tier", 4, _text("tier"), frozenset({"tier"}), 6),
    Column("source", 13, _text("source"), frozenset({"source"}), 4),
    Column("provider:model", 26, _provider, frozenset({"provider", "model"}), 10),
    Column("mode", 15, _text("mode"), frozenset({"mode"}), 13),
    Column("tries", 5, _number("attempts", ""), frozenset({"attempts"}), 12, right=True),
    Column("tokens", 13, _tokens, frozenset({"tokens"}), 11, right=True),
    Column("cost $", 8, _number("cost_usd", ".6f"), frozenset({"cost_usd"}), 3, right=True),
    Column("vital", 5, _number("vitality", ".3f"), frozenset({"vitality"}), 8, right=True),
    Column("phase", 12, _text("phase"), frozenset({"phase"}), 9),
)


def _clean(text: str) -> str:
    return text if text.isprintable() else text.translate(_CONTROLS)


def _fit(text: str, width: int, right: bool) -> str:
    """`text` in exactly `width` terminal cells: cut with an ellipsis, padded."""
    text = _clean(text)
    if text.isascii():
        if len(text) > width:
            return text[: width - 1] + "…"
        return text.rjust(width) if right else text.ljust(width)
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + "…"
    padding = " " * (width - cell_len(text))
    return padding + text if right else text + padding


@dataclass(frozen=True, slots=True)
class Layout:
    """The columns shown and the summary's width (None: the whole of it). The summary
    leaves out what the columns show, and names the event when no column does."""

    columns: tuple[Column, ...]
    summary_width: int | None
    hidden: frozenset[str]
    event_in_summary: bool
    template: str  # the cells padded to their widths, each followed by the gap
    cells_width: int  # the template's length when no cell overflows

    @classmethod
    def of(cls, columns: tuple[Column, ...], summary_width: int | None) -> Layout:
        hidden = _NEVER_SHOWN.union(*(c.keys for c in columns))
        template = "".join(f"{{:{'>' if c.right else '<'}{c.width}}}{_GAP}" for c in columns)
        width = sum(c.width + len(_GAP) for c in columns)
        return cls(columns, summary_width, hidden, _EVENT not in columns, template, width)

    def header(self) -> str:
        return self._cells([c.header for c in self.columns]) + "summary"

    def line(self, event: Event) -> str:
        summary = details(event, self.hidden)
        name = event.get("event")
        # An event is named in the summary when no column names it, unless a decision or
        # named by its first key (a vitality event's reading).
        named = isinstance(name, str) and (name == "decision" or name in event)
        if self.event_in_summary and not named:
            summary = f"{name}: {summary}" if summary else str(name)
        width = self.summary_width
        if not (summary.isascii() and summary.isprintable()) or (
            width is not None and len(summary) > width
        ):
            summary = _clean(summary) if width is None else _fit(summary, width, False).rstrip()
        return self._cells([c.cell(event) for c in self.columns]) + summary

    def _cells(self, texts: list[str]) -> str:
        """The cells padded to their columns: one format of the template when they all
        fit as they are (plain printable ASCII within their widths), else cell by cell."""
        row = self.template.format(*texts)
        if len(row) == self.cells_width and row.isascii() and row.isprintable():
            return row
        cells = (_fit(t, c.width, c.right) for t, c in zip(texts, self.columns, strict=True))
        return "".join(cell + _GAP for cell in cells)


def layout_for(width: int | None) -> Layout:
    """The columns for an output `width` characters wide, None for no limit (a file or a
    pipe: every column, the time with its year, the summary whole). Columns are taken by
    rank while they leave the summary its room (20 characters, or a fifth of a wide
    output); the time's year comes last."""
    if width is None:
        return Layout.of(tuple(_TIME_WITH_YEAR if c is _TIME else c for c in _COLUMNS), None)
    room = max(_SUMMARY_MIN, width // 5)
    chosen: set[Column] = set()
    used = 0
    for column in sorted(_COLUMNS, key=lambda c: c.rank):
        if used + column.width + len(_GAP) + room > width:
            break
        chosen.add(column)
        used += column.width + len(_GAP)
    year = _TIME_WITH_YEAR.width - _TIME.width
    with_year = len(chosen) == len(_COLUMNS) and used + year + room <= width
    shown = tuple(
        _TIME_WITH_YEAR if with_year and c is _TIME else c for c in _COLUMNS if c in chosen
    )
    return Layout.of(shown, max(1, width - used - with_year * year))


def output_width(asked: int | None) -> int | None:
    """--width (0: no limit), else the terminal's (COLUMNS counts); no limit in a file."""
    if asked is not None:
        return asked or None
    if os.environ.get("COLUMNS") or sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def console_for(asked: int | None) -> Console:
    """--width, else the terminal's (COLUMNS counts); 180 columns in a file or a pipe, or
    for --width 0 (a panel has no unlimited width)."""
    width = output_width(asked)
    return Console(highlight=False, width=width or (None if sys.stdout.isatty() else 180))


def details(event: Event, hidden: frozenset[str] = _NEVER_SHOWN) -> str:
    """The event's own summary, else its fields that are not `hidden` as key=value."""
    if isinstance(event.get("summary"), str):
        flagged = quarantined(event)
        refs = ", ".join(str(q.get("ref", "?")) for q in flagged if isinstance(q, dict))
        return (f"[quarantined {refs}] " if flagged else "") + str(event["summary"])
    return " ".join(f"{k}={_value(v)}" for k, v in event.items() if k not in hidden)


def _value(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return f"{value:.6g}"
    return orjson.dumps(value).decode()
