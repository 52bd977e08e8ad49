"""Whether a schema-valid answer says something: the checks each decision's `meaningful()`
is made of (texts with words in them, lists without placeholders, ids the call's prompt
holds, quantities not all zero). Each returns the problems it found, as plain sentences;
no problem means the answer is meaningful. Used by bench_local and the tests, never to
reject a decision at run time (the content checks do that)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

__all__ = ["Meaningful", "has_words", "items_have_words", "known_ids", "nonzero", "words"]

# A decision and the prompt text it answered -> its problems (none: meaningful).
Meaningful = Callable[[Any, str], list[str]]

_WORD = re.compile(r"[^\W\d_]{2,}")  # two letters or more: "ETH", "hedge"; not "A" or ","
# Items that stand for an item rather than being one: "A", "item 1", "n/a", "...".
_PLACEHOLDER = re.compile(
    r"^\W*(?:[a-z]|\d+|item|option|step|action|signal|mitigation|lesson|entry|text|string|"
    r"value|example|none|null|n/?a|tbd|todo|placeholder|foo|bar|xxx+|\.+)\W*(?:\d+|[a-z])?\W*$",
    re.I,
)


def words(value: str) -> int:
    """How many words of two letters or more `value` holds."""
    return len(_WORD.findall(value))


def has_words(value: str | None, where: str, least: int = 2) -> list[str]:
    """A text with at least `least` words (a sentence: 3; a phrase: 2; a name: 1)."""
    if value is None or words(value) < least:
        return [f"{where}: {value!r} has fewer than {least} words"]
    if _PLACEHOLDER.match(value):
        return [f"{where}: {value!r} is a placeholder"]
    return []


def items_have_words(
    values: Sequence[str], where: str, least: int = 2, *, some: bool = False
) -> list[str]:
    """Every item a text of `least` words, none repeated; `some`: at least one item."""
    if some and not values:
        return [f"{where}: empty"]
    problems = [p for i, v in enumerate(values) for p in has_words(v, f"{where}/{i}", least)]
    folded = [v.strip().lower() for v in values]
    if len(set(folded)) < len(folded):
        problems.append(f"{where}: repeated items")
    return problems


def known_ids(ids: Iterable[str], prompt: str, where: str, *, empty_ok: bool = False) -> list[str]:
    """Every id one the prompt names (as a whole token); `empty_ok`: "" stands for a new one."""
    problems = []
    for value in ids:
        if empty_ok and value == "":
            continue
        if not value or not re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", prompt):
            problems.append(f"{where}: {value!r} is not an id the prompt names")
    return problems


def nonzero(values: Sequence[float], where: str) -> list[str]:
    """Quantities that are not all zero."""
    return [f"{where}: all zero"] if values and all(v == 0 for v in values) else []
