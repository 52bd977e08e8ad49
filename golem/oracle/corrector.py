"""The residual corrector (Bardo 17-prediction-engine.md; conformal, after Gibbs & Candès's
adaptive conformal inference): per (category, regime) a ring buffer of residuals with
Welford's mean and variance, the coverage of the claims against a target, and an adaptive
weight. It shifts a numeric claim's centre by the mean residual and widens or narrows its
interval by coverage. Its buffers reset when the regime tag changes.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from golem.oracle.claims import InRange, WithinBps

__all__ = ["CorrectorParams", "ResidualCorrector", "ResidualPrior", "ResidualStats"]


@dataclass(frozen=True, slots=True)
class CorrectorParams:
    """Bardo's [prediction] section: residual_buffer_size, target_coverage,
    min_correction_samples, forgetting_rate."""

    buffer_size: int = 256
    target_coverage: float = 0.85
    min_samples: int = 10
    forgetting_rate: float = 0.005


@dataclass(frozen=True, slots=True)
class ResidualPrior:
    """Inherited residual statistics (genome.py): a weight in samples (a predecessor's
    count scaled by the inheritance weight), their mean, variance, the weight of those
    covered, and the adaptive weight."""

    weight: float
    mean: float
    variance: float
    covered: float
    adaptive: float = 0.0

    def __post_init__(self) -> None:
        values = (self.weight, self.mean, self.variance, self.covered, self.adaptive)
        if not all(math.isfinite(v) for v in values):
            raise ValueError("inherited residual statistics must be finite")
        if self.weight <= 0 or self.variance < 0 or not 0 <= self.covered <= self.weight:
            raise ValueError("an inherited weight is > 0, its covered weight within it")


@dataclass(slots=True)
class ResidualStats:
    """One (category, regime)'s residuals: the last `size` kept; the mean and variance by
    Welford's update over them (a residual leaving the ring is removed the same way)."""

    size: int
    residuals: deque[float] = field(default_factory=deque)
    covered: deque[bool] = field(default_factory=deque)
    mean: float = 0.0
    _m2: float = 0.0
    weight: float = 0.0  # the adaptive weight (Gibbs & Candès)
    prior: ResidualPrior | None = None  # inherited: pooled with the own residuals

    @property
    def count(self) -> int:
        return len(self.residuals)

    def pooled(self) -> ResidualPrior | None:
        """The own residuals pooled with the inherited ones (Chan's parallel update of
        Welford's statistics, the prior counted at its weight); None with neither."""
        own = self.count
        prior = self.prior
        if prior is None:
            if not own:
                return None
            return ResidualPrior(
                float(own), self.mean, self.variance, float(sum(self.covered)), self.weight
            )
        n = prior.weight + own
        delta = self.mean - prior.mean
        mean = prior.mean + delta * own / n
        m2 = prior.variance * max(prior.weight - 1.0, 0.0) + self._m2
        m2 += delta * delta * prior.weight * own / n
        variance = m2 / (n - 1) if n > 1 else 0.0
        covered = prior.covered + sum(self.covered)
        return ResidualPrior(n, mean, variance, covered, prior.adaptive + self.weight)

    @property
    def variance(self) -> float:
        return self._m2 / (self.count - 1) if self.count > 1 else 0.0

    @property
    def coverage(self) -> float:
        return sum(self.covered) / len(self.covered) if self.covered else 0.0

    def add(self, residual: float, correct: bool, params: CorrectorParams) -> None:
        if not math.isfinite(residual):
            raise ValueError("a residual must be finite")
        if self.count == self.size:
            self._remove(self.residuals[0])
            self.residuals.popleft()
            self.covered.popleft()
        self.residuals.append(residual)
        self.covered.append(correct)
        delta = residual - self.mean
        self.mean += delta / self.count
        self._m2 += delta * (residual - self.mean)
        self.weight += params.forgetting_rate * ((1.0 if correct else 0.0) - params.target_coverage)

    def _remove(self, residual: float) -> None:
        """Welford's update run backwards: the statistics without `residual` (still kept)."""
        n = self.count
        if n == 1:
            self.mean, self._m2 = 0.0, 0.0
            return
        old_mean = self.mean
        self.mean = (n * old_mean - residual) / (n - 1)
        self._m2 = max(0.0, self._m2 - (residual - old_mean) * (residual - self.mean))


class ResidualCorrector:
    """Residual statistics per (category, regime), and the correction of a draft claim."""

    def __init__(self, params: CorrectorParams | None = None) -> None:
        self.params = params or CorrectorParams()
        self._stats: dict[tuple[str, str], ResidualStats] = {}
        self._inherited: dict[tuple[str, str], ResidualPrior] = {}
        self._regime: str | None = None

    def stats(self, category: str, regime: str) -> ResidualStats | None:
        return self._stats.get((category, regime))

    def observe_regime(self, regime: str) -> bool:
        """Tell the corrector the current regime tag; on a change its buffers reset (the
        residuals of the old regime say little of the new). True when it reset."""
        changed = self._regime is not None and regime != self._regime
        if changed:  # the inherited statistics stay: they were learnt in their own regime
            self._stats.clear()
            for key, prior in self._inherited.items():
                self._stats[key] = ResidualStats(self.params.buffer_size, prior=prior)
        self._regime = regime
        return changed

    def inherit(self, category: str, regime: str, prior: ResidualPrior) -> None:
        """Start (category, regime) from inherited statistics (genome.py), pooled with the
        residuals to come; they count toward `min_samples`. Replaces an earlier prior."""
        key = (category, regime)
        self._inherited[key] = prior
        stats = self._stats.setdefault(key, ResidualStats(self.params.buffer_size))
        stats.prior = prior

    def pooled(self) -> dict[tuple[str, str], ResidualPrior]:
        """Every (category, regime)'s statistics, own and inherited, pooled (what an heir
        inherits, scaled)."""
        pooled = {key: stats.pooled() for key, stats in self._stats.items()}
        return {key: p for key, p in pooled.items() if p is not None}

    def record(self, category: str, regime: str, residual: float, correct: bool) -> None:
        key = (category, regime)
        stats = self._stats.get(key)
        if stats is None:
            prior = self._inherited.get(key)
            stats = self._stats[key] = ResidualStats(self.params.buffer_size, prior=prior)
        stats.add(residual, correct, self.params)

    def width_factor(self, stats: ResidualStats) -> float:
        """Widen when coverage falls short of the target, narrow when it overshoots (the
        coverage of the own residuals pooled with the inherited)."""
        pooled = stats.pooled()
        coverage = 0.0 if pooled is None else pooled.covered / pooled.weight
        ratio = coverage / self.params.target_coverage
        if ratio < 0.95:
            return 1.0 + (1.0 - ratio) * 0.5
        if ratio > 1.05:
            return max(0.0, 1.0 - (ratio - 1.0) * 0.3)
        return 1.0

    def novel(self, category: str, regime: str, residual: float, threshold: float) -> bool:
        """Whether `residual` lies `threshold` standard deviations or more from its
        (category, regime)'s mean (Bardo's novelty: what the dream replays); a residual
        with nothing to measure it against, or no spread, is novel."""
        stats = self._stats.get((category, regime))
        pooled = None if stats is None else stats.pooled()
        if pooled is None or pooled.variance <= 0:
            return True
        return abs(residual - pooled.mean) >= threshold * math.sqrt(pooled.variance)

    def correct(
        self, category: str, regime: str, draft: WithinBps | InRange
    ) -> tuple[WithinBps | InRange, float] | None:
        """The draft with its centre moved by the mean residual and its width scaled by
        coverage, and the shift applied; None below `min_samples` residuals."""
        stats = self._stats.get((category, regime))
        pooled = None if stats is None else stats.pooled()
        if stats is None or pooled is None or pooled.weight < self.params.min_samples:
            return None
        shift, factor = pooled.mean, self.width_factor(stats)
        if isinstance(draft, WithinBps):
            return WithinBps(draft.centre + shift, draft.tolerance_bps * factor), shift
        centre = (draft.lower + draft.upper) / 2 + shift
        half = (draft.upper - draft.lower) / 2 * factor
        return InRange(centre - half, centre + half), shift
