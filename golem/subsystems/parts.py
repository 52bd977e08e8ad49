"""Building blocks shared by the decision schemas: the base of their nested parts, the
bounded number types (a local model's grammar needs bounds; pydantic enforces them) and
the content check for repeated entries."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from golem.inference import SchemaIssue

__all__ = ["Fraction", "ListItem", "Part", "Signed", "repeats"]

Fraction = Annotated[float, Field(ge=0, le=1)]
Signed = Annotated[float, Field(ge=-1, le=1)]
ListItem = Annotated[str, StringConstraints(min_length=1, max_length=120)]


class Part(BaseModel):
    """A nested object of a decision: closed and immutable like the decision itself."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def repeats(
    pointer: str, keys: Iterable[str], suffix: str = "", message: str | None = None
) -> list[SchemaIssue]:
    """An issue at `pointer/i suffix` for each key equal to an earlier one: `message`, or
    the key quoted and "is repeated"."""
    seen: set[str] = set()
    issues = []
    for i, key in enumerate(keys):
        if key in seen:
            issues.append(SchemaIssue(f"{pointer}/{i}{suffix}", message or f"{key!r} is repeated"))
        seen.add(key)
    return issues
