"""The OracleGenome (Bardo 17-prediction-engine.md): an heir's residual corrector and
confidence calibrator start from its predecessor's at 0.7 of its evidence; a fresh
golem's start from nothing; the heir's own resolutions then outweigh the inheritance."""

from __future__ import annotations

import random

import pytest

from golem.oracle import (
    INHERITANCE_WEIGHT,
    CalibrationParams,
    ConfidenceCalibrator,
    CorrectorParams,
    GenomeError,
    Oracle,
    OracleGenome,
    ResidualCorrector,
    WithinBps,
)

CAT, REGIME = "price_direction", "within"


def predecessor(residuals: int = 40, calibrations: int = 200) -> Oracle:
    """An Oracle that has learnt: residuals around +2 (70% covered), and claims stated at
    0.9 that are right half the time, at 0.3 right a tenth of the time."""
    rng = random.Random(7)
    oracle = Oracle()
    for i in range(residuals):
        oracle.corrector.record(CAT, REGIME, 2.0 + rng.uniform(-0.5, 0.5), i % 10 < 7)
    for i in range(calibrations):
        oracle.calibrator.record(CAT, REGIME, 0.9, i % 2 == 0)
        oracle.calibrator.record(CAT, REGIME, 0.3, i % 10 == 0)
    return oracle


def test_an_heir_starts_from_its_predecessors_learners_at_0_7() -> None:
    old = predecessor()
    heir, fresh = Oracle(), Oracle()
    OracleGenome.of(old).bequeath(heir)
    assert INHERITANCE_WEIGHT == 0.7
    # The corrector: the predecessor's mean residual and coverage, counted as 0.7 of its
    # samples.
    mine = heir.corrector.stats(CAT, REGIME)
    theirs = old.corrector.stats(CAT, REGIME)
    assert mine is not None and theirs is not None and mine.count == 0
    pooled, source = mine.pooled(), theirs.pooled()
    assert pooled is not None and source is not None
    assert pooled.weight == pytest.approx(0.7 * 40)
    assert pooled.mean == pytest.approx(theirs.mean)
    assert pooled.variance == pytest.approx(theirs.variance, rel=0.05)
    assert pooled.covered / pooled.weight == pytest.approx(theirs.coverage)
    draft = WithinBps(100.0, 50.0)
    assert heir.corrector.correct(CAT, REGIME, draft) == old.corrector.correct(CAT, REGIME, draft)
    assert fresh.corrector.correct(CAT, REGIME, draft) is None
    # The calibrator: the predecessor's curve (0.9 stated is right half the time).
    for stated in (0.3, 0.9):
        assert heir.calibrator.calibrate(CAT, REGIME, stated) == pytest.approx(
            old.calibrator.calibrate(CAT, REGIME, stated)
        )
    assert heir.calibrator.calibrate(CAT, REGIME, 0.9) == pytest.approx(0.5)
    assert fresh.calibrator.calibrate(CAT, REGIME, 0.9) == 0.9
    assert heir.calibrator.curves()[(CAT, REGIME)][0.9] == pytest.approx((140.0, 70.0))


def test_the_weight_scales_the_evidence_so_a_thin_inheritance_is_not_used() -> None:
    """12 residuals at 0.7 are 8.4 samples, under the corrector's 10: no correction; 20 are
    14, over it. 40 calibrations at 0.7 are 28, under the calibrator's 30."""
    draft = WithinBps(100.0, 50.0)
    thin, thick = Oracle(), Oracle()
    OracleGenome.of(predecessor(residuals=12, calibrations=20)).bequeath(thin)
    OracleGenome.of(predecessor(residuals=20, calibrations=22)).bequeath(thick)
    assert thin.corrector.correct(CAT, REGIME, draft) is None
    assert thick.corrector.correct(CAT, REGIME, draft) is not None
    assert thin.calibrator.calibrate(CAT, REGIME, 0.9) == 0.9  # 28 < 30: not fitted
    assert thick.calibrator.calibrate(CAT, REGIME, 0.9) == pytest.approx(0.5)  # 30.8


def test_the_heirs_own_resolutions_outweigh_the_inheritance() -> None:
    heir = Oracle(
        corrector=ResidualCorrector(CorrectorParams()),
        calibrator=ConfidenceCalibrator(CalibrationParams(refit_interval=1)),
    )
    old = predecessor()
    inherited = old.corrector.stats(CAT, REGIME).mean  # type: ignore[union-attr]
    OracleGenome.of(old).bequeath(heir)
    for _ in range(252):  # its own residuals at -1: the inherited +2 fades
        heir.corrector.record(CAT, REGIME, -1.0, True)
    pooled = heir.corrector.stats(CAT, REGIME).pooled()  # type: ignore[union-attr]
    assert pooled is not None
    assert pooled.mean == pytest.approx((28 * inherited - 252) / 280)
    assert pooled.mean < 0 < inherited
    for _ in range(1000):  # its own 0.9s are right
        heir.calibrator.record(CAT, REGIME, 0.9, True)
    assert heir.calibrator.calibrate(CAT, REGIME, 0.9) == pytest.approx(1070 / 1140)


def test_a_regime_change_keeps_the_inheritance() -> None:
    heir = Oracle()
    OracleGenome.of(predecessor()).bequeath(heir)
    heir.corrector.observe_regime(REGIME)
    heir.corrector.record(CAT, REGIME, 50.0, False)
    assert heir.corrector.observe_regime("above")  # the own buffers reset
    stats = heir.corrector.stats(CAT, REGIME)
    assert stats is not None and stats.count == 0
    pooled = stats.pooled()
    assert pooled is not None and pooled.weight == pytest.approx(28.0)


def test_a_genome_survives_json_and_a_damaged_one_is_named() -> None:
    genome = OracleGenome.of(predecessor()).scaled()
    again = OracleGenome.from_dict(genome.to_dict())
    assert again == genome
    assert OracleGenome.of(Oracle()).to_dict() == {"residuals": [], "curves": []}
    assert not OracleGenome.of(Oracle())
    with pytest.raises(GenomeError, match="oracle genome"):
        OracleGenome.from_dict({"residuals": [{"category": CAT}], "curves": []})
    with pytest.raises(GenomeError, match="must be a table"):
        OracleGenome.from_dict([1, 2])
    with pytest.raises(ValueError, match="inheritance weight"):
        genome.scaled(0.0)
