"""The daimon hears the calibration gap (Bardo 17-prediction-engine.md: a large ECE
lowers dominance): a `calibration_gap` event once when a category's expected calibration
error in the current regime rises above `[calibration] ece_alarm_threshold`, not again
while it stays there, again after it has fallen back and risen; read at most hourly."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from structlog.testing import capture_logs

from golem.oracle import CalibrationParams, Category, GateParams
from golem.runtime.predictions import Predictor
from golem.runtime.store.state import StateStore
from golem.subsystems.contract import Event
from golem.subsystems.daimon.rules import appraise
from golem.world.costs import CostModel
from tests.policy import APPRAISAL
from tests.subsystems.support import NOW

HOUR = timedelta(hours=1)


def test_a_large_calibration_error_is_heard_once_and_lowers_dominance(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as store:
        predictor = Predictor(
            store.predictions,
            golem_id="g",
            horizon=timedelta(minutes=5),
            costs=CostModel(),
            gate=GateParams(),
            calibration=CalibrationParams(max_history=40),
        )
        calibrator, regime = predictor.oracle.calibrator, predictor.regime
        for _ in range(29):  # stated 0.9, always wrong: a gap of 0.925, but too few samples
            calibrator.record(Category.PRICE_DIRECTION, regime, 0.9, False)
        assert predictor.calibration_alarms(NOW) == []
        calibrator.record(Category.PRICE_DIRECTION, regime, 0.9, False)
        assert predictor.calibration_alarms(NOW + timedelta(minutes=1)) == []  # within the hour
        with capture_logs() as logs:
            [event] = predictor.calibration_alarms(NOW + HOUR)
        assert str(event) == "calibration_gap:0.9250"
        [line] = [x for x in logs if x["event"] == "calibration_gap"]
        assert (line["category"], line["ece"], line["threshold"]) == (
            "price_direction",
            0.925,
            0.25,
        )
        assert predictor.calibration_alarms(NOW + 2 * HOUR) == []  # still there: heard once
        for _ in range(40):  # now stated 0.9 and right: the gap closes
            calibrator.record(Category.PRICE_DIRECTION, regime, 0.9, True)
        assert predictor.calibration_alarms(NOW + 3 * HOUR) == []
        for _ in range(40):
            calibrator.record(Category.PRICE_DIRECTION, regime, 0.9, False)
        assert [str(e) for e in predictor.calibration_alarms(NOW + 4 * HOUR)] == [
            "calibration_gap:0.9250"
        ]
    felt = appraise([event], APPRAISAL)
    assert (
        felt.dominance < 0
        and felt.dominance < appraise([Event("prediction_hit")], APPRAISAL).dominance
    )
    assert "calibration error 92.5%" in felt.trigger
