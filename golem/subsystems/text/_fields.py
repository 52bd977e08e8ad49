"""Normalizing a model's text (reasoning blocks, markdown emphasis, headings, tables and
run-together pairs into `Label: value` lines) and reading labelled fields out of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_THINK = re.compile(r"<think(?:ing)?>.*?(?:</think(?:ing)?>|$)", re.S | re.I)
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)
# A short line with no punctuation right above a list heads it ("Lessons" then "1. …").
_BARE_HEADING = re.compile(
    r"^[ \t]*([A-Z][\w'-]*(?:[ \t]+[\w'-]+){0,3})[ \t]*$(?=\n[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t])",
    re.M,
)
_BOLD_LINE = re.compile(r"^[ \t]*(?:\*\*|__)([^*_\n]+?)[ \t:]*(?:\*\*|__)[ \t]*:?[ \t]*$", re.M)
_EMPHASIS = re.compile(r"\*\*|__|`|~~|(?<=\S)\*|\*(?=\S)")
_CHARS = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "\u00a0": " ", "\r": ""})


def clean(text: str) -> str:
    """The text without reasoning blocks or markdown emphasis; headings (`# X`, a line
    that is only `**X**`) become `X:` lines, the form `sections` reads; a markdown table
    becomes labelled lines (see `_untable`)."""
    text = _THINK.sub("", text.translate(_CHARS))
    text = _TABLE.sub(_untable, text)
    text = _KEY_VALUES.sub("\n", text)
    text = _SPACED_PAIRS.sub(lambda m: _SPACED_PAIR.sub("\n", m[0]), text)
    text = _INLINE_FIELD.sub(lambda m: f"\n{m['field']}\n", text)
    text = _HEADING.sub(lambda m: m[1].rstrip(":") + ":", text)
    text = _BARE_HEADING.sub(lambda m: m[1] + ":", text)
    text = _BOLD_LINE.sub(lambda m: m[1].rstrip(":") + ":", text)
    return _EMPHASIS.sub("", text)


_TABLE = re.compile(
    r"^[ \t]*\|(?P<head>.*)\|[ \t]*\n[ \t]*\|[ \t:|-]*-[ \t:|-]*\|?[ \t]*\n"
    r"(?P<rows>(?:[ \t]*\|.*\|?[ \t]*(?:\n|$))+)",
    re.M,
)


# Pairs run together on one line ("killed_by=fees; learned=patience", "promoted=1 staged=2"):
# one pair a line.
_KEY_VALUES = re.compile(r"[ \t]*[;,][ \t]*(?=[A-Za-z_]{2,30}[ \t]*=)")
_SPACED_PAIRS = re.compile(r"^[ \t]*[A-Za-z_]{2,30}=\S.*$", re.M)
_SPACED_PAIR = re.compile(r"[ \t]+(?=[A-Za-z_]{2,30}=[^\s=])")
# A label that opens a sentence mid-line ("Nothing promoted. Staged: 3 (h-1, h-2). Discarded:
# 0.", "... as the playbook said. One lesson: gas was cheap.") puts that sentence on a line of
# its own, the form `sections` reads: its value runs to the end of its sentence.
_INLINE_FIELD = re.compile(
    r"(?<=[.!?])[ \t]+(?P<field>[A-Z][\w'-]*(?:[ \t]+[\w'-]+){0,2}[ \t]*:(?=\s|$)"
    r".*?(?:[.!?](?=[ \t]+[A-Z(\"']|[ \t]*$)|$))[ \t]*",
    re.M,
)


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _untable(match: re.Match[str]) -> str:
    """A one-row table as `Header: cell` lines; a longer one as a line per row, its first
    cell the label (`| Observation | pass | 0.2 |` is `Observation: pass, 0.2`)."""
    head = _cells(match["head"])
    rows = [_cells(row) for row in match["rows"].splitlines() if row.strip()]
    if len(rows) == 1:
        pairs = zip(head, rows[0], strict=False)
        return "\n".join(f"{h}: {cell}" for h, cell in pairs if h and cell) + "\n"
    return "".join(f"{row[0]}: {', '.join(c for c in row[1:] if c)}\n" for row in rows if row)


def clip(text: str, limit: int) -> str:
    """Whitespace collapsed, surrounding quotes dropped, cut to `limit` characters."""
    text = " ".join(text.split()).strip("\"' ")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# -- labelled fields -------------------------------------------------------------------

_SEPARATOR = (
    r"""["']?(?:[ \t]*\([^)\n]{0,40}\))?[ \t]*"""
    r"(?::|=|\||\s[-–—]|[–—]|->|→|\.{2,}|…|\b(?:is|was|are|were)\b)"
)
_CLAUSE_END = re.compile(r"[.!?;](?=\s|$)")


def labelled(text: str, label: str, *, whole_line: bool = False) -> Iterator[str]:
    """Values written after `label` (a regex): `Severity: HIGH`, `severity=high`,
    `severity - critical`, `"severity": "high"`, `| Severity | high |`, or the label
    alone on a line with the value on the next. Only the first clause of the value
    unless `whole_line`."""
    pattern = re.compile(
        rf"(?<![\w-])(?:{label})(?:\s+(?:level|score|rating|class|verdict))?"
        rf"{_SEPARATOR}[ \t]*(?P<value>[^\n]*)",
        re.I,
    )
    for match in pattern.finditer(text):
        value = match["value"].strip(" \t\"',|")
        if not value:
            rest = text[match.end() :].lstrip("\n ")
            value = rest.split("\n", 1)[0].strip() if rest else ""
        if not whole_line:
            end = _CLAUSE_END.search(value)
            value = value[: end.start()] if end else value
        if value:
            yield value
