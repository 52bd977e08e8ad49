"""What the local grammar says beyond the decision's schema, per call: free texts must be
words (a name, a phrase or a sentence by how long the schema lets them run: no lone
punctuation, no single letters), and the fields a request's `choices` name take only
the values given (ids the prompt lists). Every answer the result accepts, the schema
accepts: keywords are only added. `added` says what was added, for the call's log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Specialised", "specialise", "with_choices", "without", "worded"]


@dataclass(frozen=True, slots=True)
class Specialised:
    """A schema narrowed for one call, and what was narrowed (`/pointer: how`)."""

    schema: dict[str, Any]
    added: tuple[str, ...]


# A text is prose: tokens split by single spaces, each a word (two letters or more, one
# hyphen or colon at most: "ETH", "stop-loss,", "dream:replay"), a one-letter word ("a",
# "I"), a number ("30%", "$1,200", "2x") or a sign ("&", "-"); no "a_b_1_1" runs, no
# "true|false|...". A name
# is a word first; a phrase opens with two tokens of which one is a word and neither a
# sign ("Hedge 50%", "60% BTC", "I sold"; not "A B"), and a sentence has a third token.
# The token kinds are disjoint and only fixed positions are asked: a pattern that counts
# words anywhere is ambiguous, and llguidance gives up intersecting it with the length
# bounds.
_END = r"[,.;:!?)]?"
_WORD = rf"\(?[A-Za-z][A-Za-z']{{1,15}}(?:[-:][A-Za-z]{{2,12}})?{_END}"
_LETTER = rf"[A-Za-z]{_END}"
_NUMBER = rf"[+-]?[$]?[0-9][0-9.,]{{0,8}}[%x]?{_END}"
_ANY = rf"(?:{_WORD}|{_LETTER}|{_NUMBER}|[&+/-])"
_REST = rf"(?: {_ANY})*"
_TWO = rf"(?:(?:{_WORD}|{_LETTER}) (?:{_WORD}|{_NUMBER})|{_NUMBER} {_WORD})"
_PATTERNS = {
    1: rf"^{_WORD}{_REST}$",
    2: rf"^{_TWO}{_REST}$",
    3: rf"^{_TWO} {_ANY}{_REST}$",
}
# The longest a text may be (in the schema) -> the words it needs and its shortest length.
_KINDS: tuple[tuple[int, str, int, int], ...] = (
    (80, "name", 1, 2),  # "price", "volatile": one word of two letters or more
    (120, "phrase", 2, 8),  # "cap leverage at 2x"
    (1 << 30, "sentence", 3, 12),  # "Funding flips precede reversals."
)
_FREE = ("enum", "const", "pattern", "format")


def worded(schema: Mapping[str, Any]) -> Specialised:
    """`schema` with every free text (a string with no enum, const, pattern or format) held
    to words: a name, a phrase or a sentence as its maxLength allows."""
    added: list[str] = []
    return Specialised(_worded(schema, "", added), tuple(added))


def with_choices(specialised: Specialised, choices: Mapping[str, Sequence[Any]]) -> Specialised:
    """`specialised` with each field `choices` names held to the values given; a pointer
    the schema does not have is left out of `added` (and of the grammar)."""
    schema, added = specialised.schema, list(specialised.added)
    for pointer, values in sorted(choices.items()):
        parts = [p for p in pointer.split("/") if p]
        narrowed = _choose(schema, parts, list(values))
        if narrowed is None or narrowed is schema:
            continue
        schema = narrowed
        added.append(f"{pointer}: one of {len(values)}")
    return Specialised(schema, tuple(added))


def without(specialised: Specialised, derived: Sequence[str]) -> Specialised:
    """`specialised` without the top-level fields the decision derives after decoding (a
    count the answer's lists fix is not asked of the model, so it cannot disagree)."""
    properties = specialised.schema.get("properties")
    gone = [name for name in derived if isinstance(properties, Mapping) and name in properties]
    if not gone or not isinstance(properties, Mapping):
        return specialised
    required = [name for name in specialised.schema.get("required", ()) if name not in gone]
    schema = {
        **specialised.schema,
        "properties": {k: v for k, v in properties.items() if k not in gone},
        "required": required,
    }
    return Specialised(schema, (*specialised.added, *(f"/{name}: derived" for name in gone)))


def specialise(schema: Mapping[str, Any], choices: Mapping[str, Sequence[Any]]) -> Specialised:
    """worded() then with_choices()."""
    return with_choices(worded(schema), choices)


def _worded(node: Any, at: str, added: list[str]) -> Any:
    if not isinstance(node, Mapping):
        return node
    out = dict(node)
    if isinstance(node.get("properties"), Mapping):
        out["properties"] = {
            name: sub if _identifier(name) else _worded(sub, f"{at}/{name}", added)
            for name, sub in node["properties"].items()
        }
    if isinstance(node.get("items"), Mapping):
        out["items"] = _worded(node["items"], f"{at}/*", added)
    if isinstance(node.get("anyOf"), list):
        out["anyOf"] = [_worded(option, at, added) for option in node["anyOf"]]
    if node.get("type") == "string" and not any(key in node for key in _FREE):
        longest = node.get("maxLength")
        limit = longest if isinstance(longest, int) else 1 << 30
        name, words, shortest = next(kind[1:] for kind in _KINDS if limit <= kind[0])
        least = max(shortest, node.get("minLength", 0))
        if isinstance(longest, int) and least > longest:
            return out  # too short a field to ask words of
        out["pattern"] = _PATTERNS[words]
        out["minLength"] = least
        added.append(f"{at or '/'}: {name}")
    return out


def _identifier(name: str) -> bool:
    """A field named `..._id` or `..._ids` holds identifiers, not prose: a request's
    `choices` say which (the ids its prompt lists)."""
    return name.endswith(("_id", "_ids"))


def _choose(node: Any, parts: list[str], values: list[Any]) -> Any:
    """`node` with the field at `parts` held to `values`; None: no value can be given
    (an empty choice on a required field); `node` itself: the pointer is not there."""
    if not isinstance(node, Mapping):
        return node
    options = node.get("anyOf")
    if isinstance(options, list):
        chosen = [_choose(option, parts, values) for option in options]
        kept = [c for c in chosen if c is not None]
        if not kept:
            return None
        return node if chosen == options else {**node, "anyOf": kept}
    if not parts:
        if not values:
            return None
        keep = {k: v for k, v in node.items() if k in ("description", "title", "type")}
        return {**keep, "enum": values}
    head, rest = parts[0], parts[1:]
    if head == "*":
        items = node.get("items")
        if not isinstance(items, Mapping):
            return node
        chosen = _choose(items, rest, values)
        if chosen is None:  # no item can be given: the list stays empty
            return {**node, "maxItems": 0}
        return node if chosen is items else {**node, "items": chosen}
    properties = node.get("properties")
    if not isinstance(properties, Mapping) or head not in properties:
        return node
    chosen = _choose(properties[head], rest, values)
    if chosen is None:
        return None
    if chosen is properties[head]:
        return node
    return {**node, "properties": {**properties, head: chosen}}
