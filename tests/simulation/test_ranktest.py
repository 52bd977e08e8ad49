"""The Mann–Whitney U test of `--compare`: against values scipy.stats.mannwhitneyu gives
(its documentation's example and a fully separated pair), and the exact p-value with ties
against brute-force enumeration of every assignment of the values to the two samples."""

from __future__ import annotations

import itertools
import random

import pytest

from golem.simulation.ranktest import EXACT_UP_TO, mann_whitney_u

# scipy.stats.mannwhitneyu's documented example (Conover): U1 = 17, exact p = 0.1111
# (scipy's method="exact"), p = 0.11134688653314041 (method="asymptotic", continuity).
MALES = [19, 22, 16, 29, 24]
FEMALES = [20, 11, 17, 12]


def test_the_documented_example_exact() -> None:
    test = mann_whitney_u(MALES, FEMALES)
    assert test.u == 17.0 and test.method == "exact"
    assert test.p_value == pytest.approx(0.1111111111111111, abs=1e-12)
    assert test.first_larger is True


def test_the_documented_example_asymptotic() -> None:
    test = mann_whitney_u(MALES, FEMALES, method="asymptotic")
    assert test.p_value == pytest.approx(0.11134688653314041, abs=1e-12)


def test_complete_separation_of_five_and_five() -> None:
    # Exact: 2 of the C(10, 5) = 252 rank assignments are as extreme: p = 2/252.
    test = mann_whitney_u([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert test.u == 0.0 and test.first_larger is False
    assert test.p_value == pytest.approx(2 / 252, abs=1e-15)


def test_four_seeds_against_four_can_be_significant_only_when_separated() -> None:
    assert mann_whitney_u([5, 6, 7, 8], [1, 2, 3, 4]).p_value == pytest.approx(2 / 70)
    assert mann_whitney_u([5, 6, 7, 1], [8, 2, 3, 4]).p_value > 0.05


def test_identical_samples_are_no_difference() -> None:
    for method in ("exact", "asymptotic"):
        test = mann_whitney_u([0.0, 0.0, 0.0], [0.0, 0.0], method=method)  # type: ignore[arg-type]
        assert test.p_value == 1.0 and test.first_larger is None


def _brute_force_p(x: list[float], y: list[float]) -> float:
    """2·min(P(U ≤ u), P(U ≥ u)) over every way to pick len(x) of the pooled values."""
    pooled = [*x, *y]

    def u_of(chosen: tuple[int, ...]) -> float:
        first = [pooled[i] for i in chosen]
        second = [pooled[i] for i in range(len(pooled)) if i not in chosen]
        return sum((a > b) + 0.5 * (a == b) for a in first for b in second)

    observed = u_of(tuple(range(len(x))))
    all_u = [u_of(c) for c in itertools.combinations(range(len(pooled)), len(x))]
    lower = sum(u <= observed for u in all_u) / len(all_u)
    upper = sum(u >= observed for u in all_u) / len(all_u)
    return min(1.0, 2 * min(lower, upper))


@pytest.mark.parametrize("seed", range(8))
def test_the_exact_p_value_with_ties_is_the_permutation_distribution(seed: int) -> None:
    rng = random.Random(seed)
    x = [float(rng.randint(0, 4)) for _ in range(rng.randint(1, 6))]
    y = [float(rng.randint(0, 4)) for _ in range(rng.randint(1, 6))]
    test = mann_whitney_u(x, y, method="exact")
    assert test.u == sum((a > b) + 0.5 * (a == b) for a in x for b in y)
    assert test.p_value == pytest.approx(_brute_force_p(x, y), abs=1e-12)


def test_large_samples_use_the_normal_approximation() -> None:
    rng = random.Random(3)
    half = EXACT_UP_TO // 2 + 1
    x = [rng.random() for _ in range(half)]
    y = [rng.random() + 0.1 for _ in range(half)]
    test = mann_whitney_u(x, y)
    assert test.method == "asymptotic" and 0.001 < test.p_value < 0.2
    # Away from the far tail, the approximation is close to the exact distribution.
    assert test.p_value == pytest.approx(mann_whitney_u(x, y, "exact").p_value, rel=0.05)


def test_an_empty_sample_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one value"):
        mann_whitney_u([], [1.0])
