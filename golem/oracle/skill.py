"""The skill of categorical forecasts on a chance-corrected scale: the Peirce skill score
(Hanssen–Kuipers discriminant), multi-category form, over a (possibly weighted) contingency
table of (forecast class, observed class):

    PSS = (Σᵢ p(fᵢ, oᵢ) − Σᵢ p(fᵢ)·p(oᵢ)) / (1 − Σᵢ p(oᵢ)²)

0 for any forecast independent of the outcome (always "flat", a coin, a constant), 1 for a
perfect one, negative for one worse than chance. Why Peirce rather than Heidke: Peirce's
denominator depends on the observed classes only, so a forecaster who knows the outcome a
share p of the time and otherwise guesses, by any rule independent of the outcome, scores
exactly p; Heidke's denominator also holds the forecaster's own marginal, so the same
knowledge scores more or less depending on how it guesses when it does not know (a constant
guess of the common class is paid for it). With 97% of short moves flat, a score that can be
raised by guessing the common class is the wrong clock.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["peirce"]


def peirce(table: Mapping[tuple[str, str], float]) -> float | None:
    """The Peirce skill score of `table` ((forecast, observed) -> count or weight); None
    when it is undefined (no weight, or every outcome in one class: nothing to tell apart)."""
    total = sum(table.values())
    if total <= 0:
        return None
    forecast: dict[str, float] = {}
    observed: dict[str, float] = {}
    hits = 0.0
    for (f, o), weight in table.items():
        if weight < 0:
            raise ValueError("a contingency table holds no negative weight")
        forecast[f] = forecast.get(f, 0.0) + weight
        observed[o] = observed.get(o, 0.0) + weight
        if f == o:
            hits += weight
    chance = sum(forecast.get(c, 0.0) * w for c, w in observed.items()) / (total * total)
    spread = 1.0 - sum(w * w for w in observed.values()) / (total * total)
    if spread <= 1e-12:
        return None
    return (hits / total - chance) / spread
