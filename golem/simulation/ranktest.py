"""The Mann–Whitney U test (Wilcoxon rank-sum), two-sided, for two independent samples:
whether values of one tend to be larger than the other's, with no assumption about their
distribution (a lifespan or a Sharpe ratio is no normal variable).

Tied values take the mean of their ranks (midranks). With N = n1 + n2 ≤ `EXACT_UP_TO` the
p-value is exact: the permutation distribution of the rank sum given the ranks observed
(ties included), counted by a dynamic programme over (values taken, rank sum) in O(N² ·
Σranks) array steps. Above it, the normal approximation with the tie-corrected variance
and a continuity correction, as `scipy.stats.mannwhitneyu(method="asymptotic")`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

__all__ = ["EXACT_UP_TO", "RankTest", "mann_whitney_u"]

EXACT_UP_TO = 100  # samples this large together (N) get the exact p-value

Method = Literal["auto", "exact", "asymptotic"]


@dataclass(frozen=True, slots=True)
class RankTest:
    """`u`: the U statistic of the first sample (how many of the n1·n2 pairs it wins, a
    tie counting half); `p_value`: two-sided; `method`: exact or asymptotic."""

    u: float
    p_value: float
    method: str
    n1: int
    n2: int

    @property
    def first_larger(self) -> bool | None:
        """Whether the first sample tends to be the larger (None: neither)."""
        middle = self.n1 * self.n2 / 2
        return None if self.u == middle else self.u > middle


def mann_whitney_u(x: Sequence[float], y: Sequence[float], method: Method = "auto") -> RankTest:
    """Test `x` against `y`. Raises ValueError if either is empty."""
    n1, n2 = len(x), len(y)
    if not n1 or not n2:
        raise ValueError("each sample needs at least one value")
    doubled = _doubled_midranks([*x, *y])  # 2 × rank: integers even with ties
    rank_sum2 = sum(doubled[:n1])
    u = rank_sum2 / 2 - n1 * (n1 + 1) / 2
    if method == "exact" or (method == "auto" and n1 + n2 <= EXACT_UP_TO):
        return RankTest(u, _exact_p(doubled, n1, rank_sum2), "exact", n1, n2)
    return RankTest(u, _normal_p(u, n1, n2, [*x, *y]), "asymptotic", n1, n2)


def _doubled_midranks(values: Sequence[float]) -> list[int]:
    """Twice each value's midrank (ranks from 1): tied values share the mean of theirs."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    doubled = [0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            doubled[order[k]] = (start + 1) + (end + 1)  # 2 × mean of ranks start+1..end+1
        start = end + 1
    return doubled


def _exact_p(doubled: Sequence[int], n1: int, observed: int) -> float:
    """2 · min(P(S ≤ s), P(S ≥ s)), capped at 1, where S is the (doubled) rank sum of n1
    values drawn without replacement from `doubled`, all draws equally likely."""
    top = sum(sorted(doubled)[-n1:])
    # ways[k, s]: the number of ways to draw k of the values seen so far summing to s.
    ways = np.zeros((n1 + 1, top + 1))
    ways[0, 0] = 1.0
    for rank in doubled:
        for k in range(n1, 0, -1):
            ways[k, rank:] += ways[k - 1, : top + 1 - rank]
    counts = ways[n1]
    total = counts.sum()
    lower = counts[: observed + 1].sum() / total
    upper = counts[observed:].sum() / total
    return float(min(1.0, 2.0 * min(lower, upper)))


def _normal_p(u: float, n1: int, n2: int, values: Sequence[float]) -> float:
    n = n1 + n2
    ties = sum(t**3 - t for t in Counter(values).values())
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0  # every value the same: nothing tells the samples apart
    distance = max(0.0, abs(u - n1 * n2 / 2) - 0.5)
    return min(1.0, math.erfc(distance / math.sqrt(variance) / math.sqrt(2.0)))
