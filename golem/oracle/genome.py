"""The OracleGenome (Bardo 17-prediction-engine.md, inheritance): what a dead golem's Oracle
passes to its heir — its residual statistics and its calibration curves per (category,
regime) — at Bardo's weight 0.7. The weight scales the evidence, not the values: an heir's
corrector starts from the predecessor's mean residual and coverage counted as 0.7 of its
samples, and its calibrator from the predecessor's curve with each stated confidence's
count and hits × 0.7; its own resolutions then pool with them and, being counted at full
weight, outweigh the inheritance as they accumulate. Fitness is not inherited (Bardo's
genome names no fitness prior): an heir is judged on its own claims.

What the predecessor itself inherited is part of what it passes on (pooled), so an
ancestor's evidence reaches a grandchild at 0.7², as lessons do at 0.85 per generation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from golem.oracle.corrector import ResidualPrior
from golem.oracle.oracle import Oracle

__all__ = ["INHERITANCE_WEIGHT", "GenomeError", "OracleGenome"]

INHERITANCE_WEIGHT = 0.7  # Bardo: the OracleGenome crosses to the heir at 0.7x

Key = tuple[str, str]  # (category, regime)


class GenomeError(ValueError):
    """A stored genome that cannot be read (one line naming what is wrong)."""


@dataclass(frozen=True, slots=True)
class OracleGenome:
    """Residual statistics and calibration curves per (category, regime), as evidence
    (weights in samples), before the inheritance weight is applied."""

    residuals: dict[Key, ResidualPrior]
    curves: dict[Key, dict[float, tuple[float, float]]]

    @classmethod
    def of(cls, oracle: Oracle) -> OracleGenome:
        return cls(oracle.corrector.pooled(), oracle.calibrator.curves())

    def __bool__(self) -> bool:
        return bool(self.residuals or self.curves)

    def scaled(self, weight: float = INHERITANCE_WEIGHT) -> OracleGenome:
        """The genome with every sample count (and hit count) × `weight`."""
        if not 0 < weight <= 1:
            raise ValueError("an inheritance weight is in (0, 1]")
        residuals = {
            key: ResidualPrior(
                p.weight * weight, p.mean, p.variance, p.covered * weight, p.adaptive * weight
            )
            for key, p in self.residuals.items()
        }
        curves = {
            key: {x: (n * weight, c * weight) for x, (n, c) in curve.items()}
            for key, curve in self.curves.items()
        }
        return OracleGenome(residuals, curves)

    def bequeath(self, oracle: Oracle, weight: float = INHERITANCE_WEIGHT) -> None:
        """Start `oracle`'s corrector and calibrator from this genome at `weight`."""
        scaled = self.scaled(weight)
        for (category, regime), prior in scaled.residuals.items():
            oracle.corrector.inherit(category, regime, prior)
        for (category, regime), curve in scaled.curves.items():
            oracle.calibrator.inherit(category, regime, curve)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the heir's state keeps it)."""
        return {
            "residuals": [
                {
                    "category": c,
                    "regime": r,
                    "weight": p.weight,
                    "mean": p.mean,
                    "variance": p.variance,
                    "covered": p.covered,
                    "adaptive": p.adaptive,
                }
                for (c, r), p in sorted(self.residuals.items())
            ],
            "curves": [
                {
                    "category": c,
                    "regime": r,
                    "points": [[x, n, h] for x, (n, h) in sorted(pts.items())],
                }
                for (c, r), pts in sorted(self.curves.items())
            ],
        }

    @classmethod
    def from_dict(cls, data: object) -> OracleGenome:
        if not isinstance(data, dict):
            raise GenomeError("an oracle genome must be a table")
        try:
            residuals = {
                (str(e["category"]), str(e["regime"])): ResidualPrior(
                    float(e["weight"]),
                    float(e["mean"]),
                    float(e["variance"]),
                    float(e["covered"]),
                    float(e["adaptive"]),
                )
                for e in data["residuals"]
            }
            curves = {
                (str(e["category"]), str(e["regime"])): {
                    float(x): (float(n), float(h)) for x, n, h in e["points"]
                }
                for e in data["curves"]
            }
        except (KeyError, TypeError, ValueError) as exc:
            raise GenomeError(f"an oracle genome that cannot be read: {exc!r}") from None
        return cls(residuals, curves)
