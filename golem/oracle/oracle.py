"""The Oracle: one golem's prediction book with what learns from its resolutions (the
residual corrector, the confidence calibrator, epistemic fitness), fed in one place so
that they cannot disagree about what was resolved. Pure: time and readings are arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from msgspec.structs import replace

from golem.oracle.book import Prediction, PredictionBook, Resolution
from golem.oracle.calibrator import ConfidenceCalibrator
from golem.oracle.corrector import ResidualCorrector
from golem.oracle.fitness import EpistemicFitness

__all__ = ["Oracle"]


class Oracle:
    def __init__(
        self,
        book: PredictionBook | None = None,
        *,
        corrector: ResidualCorrector | None = None,
        calibrator: ConfidenceCalibrator | None = None,
        fitness: EpistemicFitness | None = None,
    ) -> None:
        self.book = book or PredictionBook()
        self.corrector = corrector or ResidualCorrector()
        self.calibrator = calibrator or ConfidenceCalibrator()
        self.fitness = fitness or EpistemicFitness()

    def register(self, prediction: Prediction) -> Prediction:
        """Register `prediction` with its confidence calibrated for its (category, regime)."""
        calibrated = self.calibrator.calibrate(
            prediction.category, prediction.regime, prediction.confidence_raw
        )
        if calibrated != prediction.confidence:
            prediction = replace(prediction, confidence=calibrated)
        return self.book.register(prediction)

    def restore(self, predictions: Iterable[Prediction], resolutions: Iterable[Resolution]) -> None:
        """Rebuild from the ledger's rows (a restart): the book's pending checkpoints, and
        every learner taught each resolution again, in order, so that fitness and the
        calibrator are what they were."""
        for r in self.book.restore(predictions, resolutions):
            self._teach(r)

    def _teach(self, r: Resolution) -> None:
        self.corrector.record(r.category, r.regime, r.residual, r.correct)
        self.calibrator.record(r.category, r.regime, r.confidence, r.correct)
        self.fitness.record(r)

    def tick(self, now: datetime, regime: str, readings: Mapping[str, float]) -> list[Resolution]:
        """Resolve what is due at `now` (the corrector first hears the regime tag: a change
        resets its buffers) and teach every learner each resolution."""
        self.corrector.observe_regime(regime)
        resolved = self.book.resolve(now, readings)
        for r in resolved:
            self._teach(r)
        return resolved
