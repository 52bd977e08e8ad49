"""The confidence calibrator (Bardo 17-prediction-engine.md): per (category, regime) the
history of (stated confidence, correct), an isotonic fit of accuracy on stated confidence by
pool-adjacent-violators (refit every `refit_interval` samples, used from `min_samples`), and
the expected calibration error the daimon hears of.

Cost: a refit sorts the history, O(n log n) with n <= `max_history`; calibrating one
confidence is a binary search of the fitted steps, O(log n).
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["CalibrationParams", "ConfidenceCalibrator", "expected_calibration_error", "pav"]


@dataclass(frozen=True, slots=True)
class CalibrationParams:
    """Bardo's [calibration] section (`enabled` False: confidences pass unchanged)."""

    enabled: bool = True
    min_samples: int = 30
    refit_interval: int = 50
    max_history: int = 2048
    ece_alarm_threshold: float = 0.25
    num_bins: int = 20


def pav(values: Sequence[float], weights: Sequence[float] | None = None) -> list[float]:
    """The non-decreasing sequence closest to `values` in weighted least squares
    (pool-adjacent-violators: merge each block that breaks the order with its
    predecessor into their weighted mean). O(n)."""
    weights = [1.0] * len(values) if weights is None else list(weights)
    if len(weights) != len(values) or any(w <= 0 for w in weights):
        raise ValueError("pav needs one positive weight per value")
    means: list[float] = []
    mass: list[float] = []
    sizes: list[int] = []
    for value, weight in zip(values, weights, strict=True):
        means.append(value)
        mass.append(weight)
        sizes.append(1)
        while len(means) > 1 and means[-2] > means[-1]:
            w = mass[-2] + mass[-1]
            merged = (means[-2] * mass[-2] + means[-1] * mass[-1]) / w
            size = sizes[-2] + sizes[-1]
            del means[-1], mass[-1], sizes[-1]
            means[-1], mass[-1], sizes[-1] = merged, w, size
    fitted: list[float] = []
    for mean, size in zip(means, sizes, strict=True):
        fitted.extend([mean] * size)
    return fitted


def expected_calibration_error(samples: Sequence[tuple[float, bool]], num_bins: int = 20) -> float:
    """ECE = Σ over equal-width bins of stated confidence (weight of the bin) ·
    |observed accuracy − the bin's midpoint|, as Bardo writes it. 0 with no samples."""
    pooled: dict[float, list[int]] = {}
    for stated, correct in samples:
        counts = pooled.setdefault(stated, [0, 0])
        counts[0] += 1
        counts[1] += correct
    return _pooled_ece(pooled, num_bins)


def _pooled_ece(pooled: dict[float, list[int]], num_bins: int) -> float:
    """The ECE of samples pooled by stated confidence ({stated: [count, correct]}): the
    same integer bin counts, so the same figure, in one step per distinct confidence."""
    counts = [0] * num_bins
    hits = [0] * num_bins
    for stated, (n, right) in pooled.items():
        i = min(num_bins - 1, max(0, int(stated * num_bins)))
        counts[i] += n
        hits[i] += right
    total = sum(counts)
    if not total:
        return 0.0
    return sum(
        counts[i] / total * abs(hits[i] / counts[i] - (i + 0.5) / num_bins)
        for i in range(num_bins)
        if counts[i]
    )


def _pooled(curve: _Curve) -> dict[float, tuple[float, float]]:
    pooled = {x: (float(n), float(c)) for x, (n, c) in curve.pooled.items() if n}
    for x, (w, c) in curve.prior.items():
        n, hits = pooled.get(x, (0.0, 0.0))
        pooled[x] = (n + w, hits + c)
    return pooled


@dataclass(slots=True)
class _Curve:
    history: deque[tuple[float, bool]]
    # The history pooled by stated confidence: [count, correct], kept as it changes.
    pooled: dict[float, list[int]] = field(default_factory=dict)
    # An inherited curve (genome.py): per stated confidence [weight, correct weight], the
    # predecessor's counts scaled by the inheritance weight; pooled with the own at a fit.
    prior: dict[float, tuple[float, float]] = field(default_factory=dict)
    prior_mass: float = 0.0  # Σ of the prior's weights
    since_fit: int = 0
    xs: list[float] = field(default_factory=list)  # stated confidences, ascending
    ys: list[float] = field(default_factory=list)  # fitted accuracy at each


class ConfidenceCalibrator:
    """Calibration curves per (category, regime)."""

    def __init__(self, params: CalibrationParams | None = None) -> None:
        self.params = params or CalibrationParams()
        self._curves: dict[tuple[str, str], _Curve] = {}

    def record(self, category: str, regime: str, stated: float, correct: bool) -> None:
        if not 0.0 <= stated <= 1.0:
            raise ValueError("a stated confidence must be in [0, 1]")
        key = (category, regime)
        curve = self._curves.get(key)
        if curve is None:
            curve = self._curves[key] = _Curve(deque(maxlen=self.params.max_history))
        history, pooled = curve.history, curve.pooled
        if len(history) == history.maxlen:  # the oldest leaves the pool with the ring
            old, right = history[0]
            counts = pooled[old]
            counts[0] -= 1
            counts[1] -= right
            if not counts[0]:
                del pooled[old]
        history.append((stated, correct))
        counts = pooled.setdefault(stated, [0, 0])
        counts[0] += 1
        counts[1] += correct
        curve.since_fit += 1
        n = len(curve.history) + curve.prior_mass
        first = n - 1 < self.params.min_samples <= n
        if n >= self.params.min_samples and (
            first or curve.since_fit >= self.params.refit_interval
        ):
            self._fit(curve)

    def inherit(self, category: str, regime: str, prior: dict[float, tuple[float, float]]) -> None:
        """Start the (category, regime) curve from an inherited one: per stated confidence
        its [weight, correct weight] (genome.py scales a predecessor's counts). The weights
        count toward `min_samples`; the curve is fitted at once when they reach it. Replaces
        an earlier prior (a restart inherits again)."""
        if any(w <= 0 or not 0 <= c <= w or not 0 <= x <= 1 for x, (w, c) in prior.items()):
            raise ValueError("an inherited curve needs weights > 0, hits within them, x in [0, 1]")
        key = (category, regime)
        curve = self._curves.get(key)
        if curve is None:
            curve = self._curves[key] = _Curve(deque(maxlen=self.params.max_history))
        curve.prior = dict(prior)
        curve.prior_mass = sum(w for w, _ in prior.values())
        if len(curve.history) + curve.prior_mass >= self.params.min_samples:
            self._fit(curve)
        else:
            curve.xs, curve.ys = [], []

    def curves(self) -> dict[tuple[str, str], dict[float, tuple[float, float]]]:
        """Every curve's evidence, own and inherited, pooled per stated confidence:
        [weight, correct weight] (what an heir inherits, scaled)."""
        return {key: _pooled(curve) for key, curve in self._curves.items()}

    def _fit(self, curve: _Curve) -> None:
        """Ties pooled first (one point per stated confidence, weighted by its count and
        the inherited weight), so the order of equal statements cannot shape the curve."""
        pooled = _pooled(curve)
        curve.xs = sorted(pooled)
        weights = [pooled[x][0] for x in curve.xs]
        curve.ys = pav([pooled[x][1] / pooled[x][0] for x in curve.xs], weights)
        curve.since_fit = 0

    def calibrate(self, category: str, regime: str, stated: float) -> float:
        """The fitted accuracy at `stated` (the highest fitted step at or below it); the
        stated confidence itself while the curve has too few samples, or calibration is
        off."""
        if not self.params.enabled:
            return stated
        curve = self._curves.get((category, regime))
        if curve is None or not curve.xs:
            return stated
        i = bisect.bisect_right(curve.xs, stated) - 1
        return curve.ys[max(0, i)]

    def ece(self, category: str, regime: str) -> float | None:
        """The curve's expected calibration error of the stated confidences; None before
        `min_samples` samples."""
        curve = self._curves.get((category, regime))
        if curve is None or len(curve.history) < self.params.min_samples:
            return None
        return _pooled_ece(curve.pooled, self.params.num_bins)  # the history, pooled

    def alarming(self, category: str, regime: str) -> bool:
        """Whether the calibration gap is one the daimon should hear of."""
        ece = self.ece(category, regime)
        return ece is not None and ece > self.params.ece_alarm_threshold
