"""Falsifiable claims (Bardo prd/01-golem/17-prediction-engine.md): each reduces to correct or
wrong against one observed number, arithmetically, with a signed residual. No model grades
itself. Each claim also names the class it forecast and the class the world took, so a
category's claims form a contingency table that a skill score reads (skill.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "Above",
    "Band",
    "Below",
    "Boolean",
    "Claim",
    "Direction",
    "InRange",
    "Move",
    "WithinBps",
]

_TRUE, _FALSE = "true", "false"


class Direction(StrEnum):
    """Bardo's Direction is Up or Down; golem adds Flat (a move within the claim's
    tolerance), since most moves over a short horizon are too small to call either way, and
    a two-way claim would count every flat move against the forecaster."""

    UP = "up"
    FLAT = "flat"
    DOWN = "down"


def _finite(*values: float) -> None:
    if not all(math.isfinite(v) for v in values):
        raise ValueError(f"a claim's numbers must be finite, got {values}")


@dataclass(frozen=True, slots=True)
class WithinBps:
    """|observed − centre| <= centre·tolerance_bps/10,000."""

    centre: float
    tolerance_bps: float

    def __post_init__(self) -> None:
        _finite(self.centre, self.tolerance_bps)
        if self.tolerance_bps < 0:
            raise ValueError("tolerance_bps must be non-negative")

    @property
    def predicted(self) -> str:
        return _TRUE

    def label(self, observed: float) -> str:
        band = abs(self.centre) * self.tolerance_bps / 10_000
        return _TRUE if abs(observed - self.centre) <= band else _FALSE

    def residual(self, observed: float) -> float:
        return observed - self.centre


@dataclass(frozen=True, slots=True)
class InRange:
    """lower <= observed <= upper."""

    lower: float
    upper: float

    def __post_init__(self) -> None:
        _finite(self.lower, self.upper)
        if self.lower > self.upper:
            raise ValueError(f"InRange needs lower <= upper, got {self.lower} > {self.upper}")

    @property
    def predicted(self) -> str:
        return _TRUE

    def label(self, observed: float) -> str:
        return _TRUE if self.lower <= observed <= self.upper else _FALSE

    def residual(self, observed: float) -> float:
        return observed - (self.lower + self.upper) / 2


@dataclass(frozen=True, slots=True)
class Above:
    """observed > level."""

    level: float

    @property
    def predicted(self) -> str:
        return _TRUE

    def label(self, observed: float) -> str:
        return _TRUE if observed > self.level else _FALSE

    def residual(self, observed: float) -> float:
        return observed - self.level


@dataclass(frozen=True, slots=True)
class Below:
    """observed < level."""

    level: float

    @property
    def predicted(self) -> str:
        return _TRUE

    def label(self, observed: float) -> str:
        return _TRUE if observed < self.level else _FALSE

    def residual(self, observed: float) -> float:
        return observed - self.level


@dataclass(frozen=True, slots=True)
class Boolean:
    """The observed truth value (a reading of 1.0 or 0.0; any non-zero reading is true)
    equals `expected`."""

    expected: bool

    @property
    def predicted(self) -> str:
        return _TRUE if self.expected else _FALSE

    def label(self, observed: float) -> str:
        return _TRUE if observed != 0.0 else _FALSE

    def residual(self, observed: float) -> float:
        return (1.0 if observed != 0.0 else 0.0) - (1.0 if self.expected else 0.0)


@dataclass(frozen=True, slots=True)
class Move:
    """Bardo's Direction claim: the sign of (observed − baseline), a move within
    `flat_bps` of the baseline being Flat. The residual is the observed return."""

    direction: Direction
    baseline: float
    flat_bps: float = 0.0

    def __post_init__(self) -> None:
        _finite(self.baseline, self.flat_bps)
        if self.baseline <= 0 or self.flat_bps < 0:
            raise ValueError("a Move needs a positive baseline and a non-negative flat_bps")

    @property
    def predicted(self) -> str:
        return str(self.direction)

    def label(self, observed: float) -> str:
        change = observed / self.baseline - 1
        if abs(change) * 10_000 <= self.flat_bps:
            return str(Direction.FLAT)
        return str(Direction.UP if change > 0 else Direction.DOWN)

    def residual(self, observed: float) -> float:
        return observed / self.baseline - 1


@dataclass(frozen=True, slots=True)
class Band:
    """The observed value falls in the band named `predicted`: `edges` (ascending) cut the
    line into len(edges) + 1 bands named by `names` (a value on an edge belongs above it).
    The residual is the observed value minus the predicted band's nearest edge, 0 inside."""

    edges: tuple[float, ...]
    names: tuple[str, ...]
    band: str

    def __post_init__(self) -> None:
        _finite(*self.edges)
        if len(self.names) != len(self.edges) + 1 or len(set(self.names)) != len(self.names):
            raise ValueError("a Band needs one distinct name more than it has edges")
        if list(self.edges) != sorted(set(self.edges)):
            raise ValueError("a Band's edges must be strictly ascending")
        if self.band not in self.names:
            raise ValueError(f"unknown band {self.band!r}; bands are {self.names}")

    @property
    def predicted(self) -> str:
        return self.band

    def label(self, observed: float) -> str:
        return self.names[sum(1 for edge in self.edges if observed >= edge)]

    def residual(self, observed: float) -> float:
        i = self.names.index(self.band)
        low = self.edges[i - 1] if i > 0 else -math.inf
        high = self.edges[i] if i < len(self.edges) else math.inf
        if observed < low:
            return observed - low
        if observed >= high:
            return observed - high
        return 0.0


Claim = WithinBps | InRange | Above | Below | Boolean | Move | Band
