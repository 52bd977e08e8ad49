"""The residual corrector moves a claim's centre by the mean residual and its width by
coverage, and forgets a regime; the calibrator fits accuracy on stated confidence by PAV and
measures ECE; the Oracle feeds all of them from one resolution."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from golem.oracle import (
    PRICE,
    CalibrationParams,
    Category,
    ConfidenceCalibrator,
    CorrectorParams,
    Direction,
    Draft,
    InRange,
    Oracle,
    ResidualCorrector,
    WithinBps,
    expected_calibration_error,
    pav,
    price_direction,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_the_corrector_waits_for_its_minimum_then_shifts_by_the_mean_residual() -> None:
    corrector = ResidualCorrector(CorrectorParams(min_samples=10, target_coverage=0.85))
    for _ in range(9):
        corrector.record("price_range", "calm", 2.0, True)
    assert corrector.correct("price_range", "calm", WithinBps(100.0, 50)) is None
    corrector.record("price_range", "calm", 2.0, False)
    corrected = corrector.correct("price_range", "calm", WithinBps(100.0, 50))
    assert corrected is not None
    claim, shift = corrected
    assert shift == pytest.approx(2.0)
    assert isinstance(claim, WithinBps) and claim.centre == pytest.approx(102.0)
    # coverage 0.9 against 0.85: ratio 1.06, narrowed by (0.06)·0.3
    assert claim.tolerance_bps == pytest.approx(50 * (1 - (0.9 / 0.85 - 1) * 0.3))


def test_low_coverage_widens_an_interval() -> None:
    corrector = ResidualCorrector()
    for i in range(20):
        corrector.record("price_range", "calm", 0.0, i % 2 == 0)  # coverage 0.5
    corrected = corrector.correct("price_range", "calm", InRange(90.0, 110.0))
    assert corrected is not None
    claim = corrected[0]
    assert isinstance(claim, InRange)
    assert claim.upper - claim.lower == pytest.approx(20 * (1 + (1 - 0.5 / 0.85) * 0.5))


def test_a_regime_change_resets_the_buffers() -> None:
    corrector = ResidualCorrector()
    corrector.observe_regime("calm")
    corrector.record("price_range", "calm", 1.0, True)
    assert not corrector.observe_regime("calm")
    assert corrector.observe_regime("volatile")
    assert corrector.stats("price_range", "calm") is None


@given(st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=80), st.integers(2, 20))
def test_the_ring_keeps_the_mean_and_variance_of_its_last_residuals(
    residuals: list[float], size: int
) -> None:
    corrector = ResidualCorrector(CorrectorParams(buffer_size=size))
    for r in residuals:
        corrector.record("c", "r", r, True)
    stats = corrector.stats("c", "r")
    assert stats is not None
    kept = residuals[-size:]
    mean = sum(kept) / len(kept)
    assert stats.mean == pytest.approx(mean, abs=1e-9 * (1 + max(abs(x) for x in kept)))
    if len(kept) > 1:
        variance = sum((x - mean) ** 2 for x in kept) / (len(kept) - 1)
        assert stats.variance == pytest.approx(variance, rel=1e-6, abs=1e-6)


def test_the_adaptive_weight_moves_toward_the_target() -> None:
    corrector = ResidualCorrector(CorrectorParams(forgetting_rate=0.005, target_coverage=0.85))
    corrector.record("c", "r", 0.0, False)
    stats = corrector.stats("c", "r")
    assert stats is not None and stats.weight == pytest.approx(-0.005 * 0.85)


@given(st.lists(st.floats(-100, 100), max_size=60))
def test_pav_is_monotone_and_keeps_the_mean(values: list[float]) -> None:
    fitted = pav(values)
    assert all(a <= b + 1e-9 for a, b in itertools.pairwise(fitted))
    assert sum(fitted) == pytest.approx(sum(values), abs=1e-6)
    if values == sorted(values):
        assert fitted == pytest.approx(values)


def test_pav_pools_violators() -> None:
    assert pav([1.0, 3.0, 2.0, 4.0]) == [1.0, 2.5, 2.5, 4.0]


def test_a_calibrator_maps_overconfidence_down_and_its_ece_shows_the_gap() -> None:
    rng = random.Random(3)
    calibrator = ConfidenceCalibrator(CalibrationParams(min_samples=30, refit_interval=50))
    assert calibrator.calibrate("c", "r", 0.9) == 0.9  # no curve yet
    # it says 0.9 and is right 50% of the time; says 0.6 and is right 50% too
    for i in range(400):
        calibrator.record("c", "r", 0.9 if i % 2 else 0.6, rng.random() < 0.5)
    assert calibrator.calibrate("c", "r", 0.9) == pytest.approx(0.5, abs=0.08)
    ece = calibrator.ece("c", "r")
    assert ece is not None and ece == pytest.approx(0.5 * 0.375 + 0.5 * 0.125, abs=0.06)
    assert calibrator.alarming("c", "r")
    assert calibrator.ece("c", "other") is None


def test_ece_is_zero_for_a_calibrated_forecaster() -> None:
    # a bin's midpoint is 0.725 for [0.70, 0.75): right 29 of 40 = 0.725
    samples = [(0.72, i < 29) for i in range(40)]
    assert expected_calibration_error(samples, 20) == pytest.approx(0.0)
    assert expected_calibration_error([], 20) == 0.0


def test_the_calibrators_ece_is_its_kept_historys_exactly() -> None:
    """The calibrator's ECE, from its history pooled by stated confidence, is the ECE of
    the samples it keeps (the last `max_history`), to the last bit."""
    rng = random.Random(5)
    calibrator = ConfidenceCalibrator(CalibrationParams(max_history=64))
    samples = [
        (rng.choice((0.1, 0.5, 0.55, 0.72, 0.9, 1.0)), rng.random() < 0.6) for _ in range(200)
    ]
    for stated, correct in samples:
        calibrator.record("c", "r", stated, correct)
    assert calibrator.ece("c", "r") == expected_calibration_error(samples[-64:], 20)
    assert calibrator.ece("c", "r") != expected_calibration_error(samples, 20)


def test_the_oracle_teaches_each_learner_from_the_same_resolutions() -> None:
    oracle = Oracle()
    for i in range(40):
        at = T0 + timedelta(minutes=i)
        draft = Draft(at, "calm", (timedelta(seconds=30),), confidence=0.8)
        oracle.register(
            price_direction(i + 1, draft, price=100.0, direction=Direction.UP, flat_bps=0)
        )
        oracle.tick(at + timedelta(seconds=30), "calm", {PRICE: 101.0 if i % 4 else 99.0})
    stats = oracle.corrector.stats(Category.PRICE_DIRECTION, "calm")
    assert stats is not None and stats.count == 40
    # fitted at its 30th sample (the next refit is 50 later): 22 of the first 30 were right
    fitted = oracle.calibrator.calibrate(Category.PRICE_DIRECTION, "calm", 0.8)
    assert fitted == pytest.approx(22 / 30)
    assert oracle.fitness.regime_samples("calm") == 40
    # the next registration carries the calibrated confidence beside the stated one
    late = Draft(T0 + timedelta(hours=1), "calm", (timedelta(seconds=30),), confidence=0.8)
    registered = oracle.register(
        price_direction(41, late, price=1.0, direction=Direction.UP, flat_bps=0)
    )
    assert (registered.confidence_raw, registered.confidence) == (0.8, pytest.approx(22 / 30))
