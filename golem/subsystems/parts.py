"""Building blocks shared by the decision schemas: the base of their nested parts and the
bounded number types (a local model's grammar needs bounds; pydantic enforces them)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

__all__ = ["Fraction", "ListItem", "Part", "Signed"]

Fraction = Annotated[float, Field(ge=0, le=1)]
Signed = Annotated[float, Field(ge=-1, le=1)]
ListItem = Annotated[str, StringConstraints(min_length=1, max_length=120)]


class Part(BaseModel):
    """A nested object of a decision: closed and immutable like the decision itself."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
