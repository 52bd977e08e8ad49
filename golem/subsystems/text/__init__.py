"""Reading a decision out of free text: labelled fields, enum words with negation scope,
numbers in 0..1, counts, dollar amounts, bullet lists and sections. Every decision's
`from_text` is a short declarative use of these; they are pure and use only `re`.

_fields: normalizing the text and reading `Label: value` fields; _choices: enum words
(`Choices`, `read_choice`) and degrees (`Degree`); _numbers: fractions, counts, dollars;
_lists: lists and sections. This module: a JSON answer first, else the text reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from golem.inference import UnparseableOutput, extract_json
from golem.subsystems.text._choices import YES_NO, Choices, Degree, Mention, read_choice
from golem.subsystems.text._fields import clean, clip, labelled
from golem.subsystems.text._lists import (
    ENTRY_ID,
    assign_sections,
    items,
    listed,
    outside_brackets,
    section,
    sections,
    strip_meta,
)
from golem.subsystems.text._numbers import (
    as_fraction,
    as_value,
    bracketed_fraction,
    first_number,
    numbers,
    read_count,
    read_fraction,
    read_signed,
    read_usd,
    usd_amounts,
)

__all__ = [
    "ENTRY_ID",
    "YES_NO",
    "Choices",
    "Degree",
    "Mention",
    "as_fraction",
    "as_value",
    "assign_sections",
    "bracketed_fraction",
    "clean",
    "clip",
    "decision_from_text",
    "first_number",
    "items",
    "labelled",
    "listed",
    "numbers",
    "outside_brackets",
    "read_choice",
    "read_count",
    "read_fraction",
    "read_signed",
    "read_usd",
    "section",
    "sections",
    "strip_meta",
    "usd_amounts",
]

D = TypeVar("D", bound=BaseModel)


def decision_from_text(decision: type[D], text: str, read: Callable[[str], Mapping[str, Any]]) -> D:
    """A JSON object in the text is the decision, validated as such: its errors surface
    (and get re-asked) rather than being papered over by text defaults. Otherwise
    `read` takes the cleaned text and returns the decision's fields."""
    fields = decision.model_fields.keys()
    try:
        found = extract_json(text, keys=fields).value
    except UnparseableOutput:
        found = None
    if isinstance(found, dict) and fields & found.keys():
        try:
            return decision.model_validate(found)
        except ValidationError as exc:
            return _completed(decision, found, exc, lambda: read(clean(text)))
    return decision.model_validate(read(clean(text)))


def _completed(
    decision: type[D],
    found: dict[str, Any],
    error: ValidationError,
    read: Callable[[], Mapping[str, Any]],
) -> D:
    """A JSON answer whose only fault is leaving out required fields (a risk answer without
    `layers`) is completed by the text reader: what the JSON gives stands as given, what it
    leaves out is read from the text (so the layers it never assessed come with the warnings
    that say so). Any other error, or a text the reader cannot read, is the JSON's own."""
    if any(e["type"] != "missing" or len(e["loc"]) != 1 for e in error.errors()):
        raise error
    try:
        filled = read()
    except UnparseableOutput:
        raise error from None
    return decision.model_validate({**filled, **found})
