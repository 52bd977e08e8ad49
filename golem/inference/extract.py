"""Tolerant JSON extraction from a model's free-form answer.

Choosing the span is ours (fences, prose, reasoning blocks, several objects, truncation,
double encoding); repairing the syntax inside it (trailing commas, comments, single and
smart quotes, unquoted keys, Python literals, raw newlines) is json-repair's.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any, NamedTuple

import json_repair
import orjson

from golem.inference.errors import UnparseableOutput

__all__ = ["Extracted", "extract_json"]

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n`]*\n?(.*?)(?:```|\Z)", re.DOTALL)
# A tag with a quote on either side is text inside a JSON string, not a reasoning block.
_THINK = re.compile(r"(?<![\"'])<(think|thinking|reasoning)>(?![\"'])(.*?)(?:</\1>|\Z)", re.DOTALL)
_LONE_THINK_CLOSE = re.compile(r"(?<![\"'])</(?:think|thinking|reasoning)>(?![\"'])")
_OPENER = re.compile(r"\{|\[\s*\{")
# Characters that change the scanner's state outside a string.
_STRUCTURAL = re.compile(r"[\"'\u201c{}\[\],]")
_QUOTE_CLOSERS = {'"': '"', "'": "'", "\u201c": "\u201d"}
_CLOSERS = {"{": "}", "[": "]"}
_SINGLE_QUOTE_CONTEXT = frozenset("{[,:")
_MAX_DECODE_DEPTH = 3


class Extracted(NamedTuple):
    value: Any
    repairs: tuple[str, ...]


def extract_json(text: str, *, keys: Collection[str] = ()) -> Extracted:
    """Recover the JSON object a model meant to write, and say which repairs it took.

    `keys` are the property names the caller expects; when several candidate objects
    appear, the one holding most of them wins. Raises UnparseableOutput when nothing
    can be recovered.
    """
    repairs: list[str] = []
    body = text
    if body.startswith("\ufeff"):
        body = body[1:]
        repairs.append("bom_removed")
    stripped = body.strip()
    found = _strict(stripped)
    if found is not _FAIL:
        value, more = _unwrap(found)
        if isinstance(value, dict):
            return Extracted(value, (*repairs, *more))

    outside, inside = _split_reasoning(body)
    if outside is not body:
        repairs.append("reasoning_skipped")
    best = _best(outside, keys)
    if best is None and inside:
        best = _best(inside, keys)
        if best is not None:
            repairs.append("taken_from_reasoning")
    if best is None and outside is not body:
        best = _best(body, keys)  # the "tags" were text after all
    if best is None:
        raise UnparseableOutput("no JSON object found in the answer", text=text)
    value, more = best
    return Extracted(value, (*repairs, *more))


class _Fail:
    pass


_FAIL: Any = _Fail()


def _strict(text: str) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return _FAIL


def _unwrap(value: Any) -> tuple[Any, tuple[str, ...]]:
    """Undo the wrappings models put around an object: a JSON document inside a JSON
    string, and a one-element array around the object."""
    repairs: list[str] = []
    for _ in range(_MAX_DECODE_DEPTH):
        if isinstance(value, str):
            inner = _strict(value.strip())
            if inner is _FAIL:
                break
            value = inner
            repairs.append("decoded_json_string")
        elif isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            value = value[0]
            repairs.append("unwrapped_array")
        else:
            break
    return value, tuple(repairs)


def _split_reasoning(text: str) -> tuple[str, str]:
    """(the text outside reasoning blocks, the text inside them)."""
    if "<" not in text:
        return text, ""
    inside = [m.group(2) for m in _THINK.finditer(text)]
    outside = _THINK.sub(" ", text) if inside else text
    close = _LONE_THINK_CLOSE.search(outside)
    if close is not None:
        # The opening tag was in the prompt: everything before a lone close is reasoning.
        inside.append(outside[: close.start()])
        outside = outside[close.end() :]
    return outside, "\n".join(inside)


def _best(text: str, keys: Collection[str]) -> tuple[Any, tuple[str, ...]] | None:
    """The best candidate object in `text`: the first one when no keys are expected, else
    the one holding most expected keys (ties go to the earlier, unrepaired one)."""
    wanted = set(keys)
    best: tuple[Any, tuple[str, ...]] | None = None
    best_score = -1
    for value, repairs in _candidates(text):
        if not wanted:
            return value, repairs
        score = len(wanted.intersection(value)) * 2 + (0 if _repaired(repairs) else 1)
        if score > best_score:
            best, best_score = (value, repairs), score
            if len(wanted.intersection(value)) == len(wanted):
                break
    return best


def _repaired(repairs: tuple[str, ...]) -> bool:
    return "syntax_repaired" in repairs or any(r.startswith("truncated") for r in repairs)


def _candidates(text: str) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """Every object the text could be meant to hold, in order of preference: fenced blocks
    (json-tagged first), then balanced spans in the rest of the text."""
    fences = list(_FENCE.finditer(text))
    if fences:
        tagged = [f for f in fences if f.group(1).lower() in ("json", "jsonc", "json5")]
        others = [f for f in fences if f not in tagged]
        for fence in (*tagged, *others):
            for value, repairs in _spans(fence.group(2).strip()):
                yield value, ("fenced_block", *repairs)
        text = _FENCE.sub(" ", text)
    stripped = text.strip()
    for value, repairs in _spans(stripped):
        yield value, repairs


def _spans(text: str) -> Iterator[tuple[Any, tuple[str, ...]]]:
    if text[:1] in ("{", "["):
        # A fence's body is usually exactly the object: one strict parse, no scan.
        whole, unwrapped = _unwrap(_strict(text))
        if isinstance(whole, dict) and whole:
            yield whole, unwrapped
            return
    pos = 0
    while (opener := _OPENER.search(text, pos)) is not None:
        start = opener.start()
        scan = _scan(text, start)
        span = text[start : scan.end]
        trimmed = ("prose_trimmed",) if span != text else ()
        if scan.closed:
            parsed = _parse(span)
            if parsed is not None:
                value, repairs = parsed
                yield value, (*trimmed, *repairs)
                pos = scan.end
                continue
            pos = start + 1
            continue
        for value, repairs in _close_truncated(text, start, scan):
            yield value, (*trimmed, *repairs)
        return


def _parse(span: str) -> tuple[Any, tuple[str, ...]] | None:
    value = _strict(span)
    repairs: tuple[str, ...] = ()
    if value is _FAIL:
        value = json_repair.loads(span, skip_json_loads=True)
        repairs = ("syntax_repaired",)
    value, unwrapped = _unwrap(value)
    if not isinstance(value, dict) or (not value and repairs):
        return None
    return value, (*repairs, *unwrapped)


class _Scan(NamedTuple):
    end: int  # one past the closing bracket, or len(text) when truncated
    closed: bool
    in_string: bool  # truncated inside a string
    closers: str  # what would close every open bracket, innermost first
    cut: int  # the last point where the text may be cut and closed (truncation)
    cut_closers: str


def _scan(text: str, start: int) -> _Scan:
    """Match the bracket at `start`, aware of strings (double, single and smart quotes)
    and escapes; on truncation, say how to close what is open."""
    stack: list[str] = []
    cut, cut_stack = start, ""
    pos = start
    n = len(text)
    while pos < n:
        match = _STRUCTURAL.search(text, pos)
        if match is None:
            break
        pos = match.start()
        char = text[pos]
        if char in _QUOTE_CLOSERS:
            if char == "'" and _previous_non_space(text, pos) not in _SINGLE_QUOTE_CONTEXT:
                pos += 1
                continue
            end = _string_end(text, pos + 1, _QUOTE_CLOSERS[char])
            if end < 0:
                closers = "".join(_CLOSERS[b] for b in reversed(stack))
                return _Scan(n, False, True, closers, cut, cut_stack)
            pos = end + 1
            continue
        if char in "{[":
            stack.append(char)
            cut, cut_stack = pos + 1, "".join(_CLOSERS[b] for b in reversed(stack))
        elif char in "}]":
            if stack:
                stack.pop()
            if not stack:
                return _Scan(pos + 1, True, False, "", cut, cut_stack)
        else:  # a comma: the member before it is complete
            cut, cut_stack = pos, "".join(_CLOSERS[b] for b in reversed(stack))
        pos += 1
    closers = "".join(_CLOSERS[b] for b in reversed(stack))
    return _Scan(n, False, False, closers, cut, cut_stack)


def _string_end(text: str, pos: int, quote: str) -> int:
    """Index of the closing quote of a string whose body starts at pos, or -1."""
    while True:
        end = text.find(quote, pos)
        if end < 0:
            return -1
        backslashes = 0
        back = end - 1
        while back >= pos and text[back] == "\\":
            backslashes += 1
            back -= 1
        if backslashes % 2 == 0:
            return end
        pos = end + 1


def _previous_non_space(text: str, pos: int) -> str:
    pos -= 1
    while pos >= 0 and text[pos].isspace():
        pos -= 1
    return text[pos] if pos >= 0 else ""


def _close_truncated(text: str, start: int, scan: _Scan) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """A cut-off object: close what is there; if the last member was cut mid-value,
    drop that member instead."""
    if not scan.in_string:
        # Only a strict parse proves the last member complete: a repairer would happily
        # read a cut-off `tr` as the string "tr".
        value = _strict(text[start:].rstrip().rstrip(",") + scan.closers)
        if isinstance(value, dict):
            yield value, ("truncated_closed",)
            return
    head = text[start : scan.cut].rstrip().rstrip(",")
    parsed = _parse(head + scan.cut_closers)
    if parsed is not None:
        yield parsed[0], ("truncated_member_dropped", *parsed[1])
