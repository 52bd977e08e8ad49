"""Epistemic fitness from resolved claims: per domain an exponentially weighted contingency
table of (forecast, observed) classes, updated as Bardo's EMA is (each resolved claim weighs
α, the past 1 − α), its Peirce skill (skill.py) clipped to [0, 1], shrunk toward the prior by
a pseudo-count; the composite is Bardo's weighted sum renormalised over the domains in which
the golem made a claim.

Why this cannot be a countdown: the table's weight saturates at 1/α whatever the rate of
claims, so the shrinkage toward the prior is the same for a golem that claims ten times as
often; only the claims' quality moves the level. A newborn (no claim) sits at the prior,
chosen to place it in Thriving (vitality at full money ≈ 0.83 with the sigmoid of DESIGN.md).

Cost: O(c) per resolved claim for c cells of the domain's table (at most 9 here).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from golem.oracle.book import Category, Resolution
from golem.oracle.skill import peirce

__all__ = ["DOMAIN_ALPHAS", "DOMAIN_WEIGHTS", "EpistemicFitness", "FitnessParams"]

# Bardo's per-domain alphas and composite weights (02-epistemic-decay.md), for the domains
# golem's world has: price direction, volatility regime, and the lending position's health,
# read as Bardo's "protocol" domain (the state of a position on a protocol).
DOMAIN_ALPHAS: Mapping[Category, float] = {
    Category.PRICE_DIRECTION: 0.02,
    Category.VOLATILITY_REGIME: 0.005,
    Category.POSITION_HEALTH: 0.001,
}
DOMAIN_WEIGHTS: Mapping[Category, float] = {
    Category.PRICE_DIRECTION: 0.35,
    Category.VOLATILITY_REGIME: 0.25,
    Category.POSITION_HEALTH: 0.10,
}


@dataclass(frozen=True, slots=True)
class FitnessParams:
    """`prior`: a newborn's fitness (and where a domain with little evidence sits);
    `pseudo_count`: how many claims' weight the prior carries against the table's."""

    prior: float = 0.6
    pseudo_count: float = 5.0
    alphas: Mapping[Category, float] = field(default_factory=lambda: dict(DOMAIN_ALPHAS))
    weights: Mapping[Category, float] = field(default_factory=lambda: dict(DOMAIN_WEIGHTS))

    def __post_init__(self) -> None:
        if not 0.0 <= self.prior <= 1.0 or self.pseudo_count < 0:
            raise ValueError("the prior is in [0, 1] and the pseudo-count non-negative")
        if set(self.alphas) != set(self.weights):
            raise ValueError("every domain needs an alpha and a weight")
        if any(not 0 < a <= 1 for a in self.alphas.values()):
            raise ValueError("an alpha is in (0, 1]")


@dataclass(slots=True)
class _Domain:
    alpha: float
    table: dict[tuple[str, str], float] = field(default_factory=dict)
    weight: float = 0.0  # Σ of the table: 1 − (1 − α)ⁿ over α, at most 1/α

    def add(self, forecast: str, observed: str) -> None:
        keep = 1.0 - self.alpha
        for key in self.table:
            self.table[key] *= keep
        key = (forecast, observed)
        self.table[key] = self.table.get(key, 0.0) + 1.0
        self.weight = self.weight * keep + 1.0


class EpistemicFitness:
    """The fitness of one golem's claims; `record` each resolution, read `level`."""

    def __init__(self, params: FitnessParams | None = None) -> None:
        self.params = params or FitnessParams()
        self._domains: dict[Category, _Domain] = {}
        self._regime_samples: dict[str, int] = {}
        self._level: float | None = None  # kept until a scored claim is recorded

    def record(self, resolution: Resolution) -> None:
        """Count a resolved claim in its domain (claims outside the scored domains, such as
        inaction's, only count toward their regime's samples)."""
        self._regime_samples[resolution.regime] = self._regime_samples.get(resolution.regime, 0) + 1
        alpha = self.params.alphas.get(resolution.category)
        if alpha is None:
            return
        domain = self._domains.get(resolution.category)
        if domain is None:
            domain = self._domains[resolution.category] = _Domain(alpha)
        domain.add(resolution.forecast, resolution.observed)
        self._level = None

    def regime_samples(self, regime: str) -> int:
        """Resolved claims made in `regime` (senescence's learning grace reads it)."""
        return self._regime_samples.get(regime, 0)

    def skill(self, category: Category) -> float | None:
        """The domain's Peirce skill, unclipped and unshrunk; None with no information."""
        domain = self._domains.get(category)
        return None if domain is None else peirce(domain.table)

    def domain_level(self, category: Category) -> float:
        """The domain's fitness: clipped skill shrunk toward the prior by the pseudo-count."""
        domain = self._domains.get(category)
        skill = None if domain is None else peirce(domain.table)
        prior, k = self.params.prior, self.params.pseudo_count
        if domain is None or skill is None:
            return prior
        clipped = min(1.0, max(0.0, skill))
        return (domain.weight * clipped + k * prior) / (domain.weight + k)

    @property
    def level(self) -> float:
        """The composite: Bardo's weights renormalised over the domains with a claim; the
        prior before any. Kept between the claims that change it (a golem reads it every
        tick)."""
        if self._level is None:
            self._level = self._composite()
        return self._level

    def _composite(self) -> float:
        weights = self.params.weights
        claimed = [c for c in self._domains if c in weights]
        total = sum(weights[c] for c in claimed)
        if not claimed or total <= 0:
            return self.params.prior
        return sum(weights[c] * self.domain_level(c) for c in claimed) / total
