"""The prediction engine's sections of a golem's TOML config (Bardo
17-prediction-engine.md): `[prediction]` (the residual corrector, novelty and the action
gate) and `[calibration]` (the confidence calibrator), each compiling to the Oracle's
parameters. Structure and ranges only, as the other sections (golem.runtime.config.sections)."""

from __future__ import annotations

from pydantic import Field

from golem.oracle import CalibrationParams, CorrectorParams
from golem.runtime.config.providers import Section

__all__ = ["CalibrationSection", "PredictionGateSection", "PredictionSection"]


class PredictionGateSection(Section):
    """Bardo's [prediction.gate] (17-prediction-engine.md): a trade goes ahead only when the
    golem's measured accuracy in each category it depends on clears `category_threshold`
    (raised by cost against expected value) and, with `inaction_comparison`, is not beaten
    by inaction's accuracy by more than `inaction_margin`. `enabled = false` lets every trade
    risk approved go ahead (Bardo's disabled mode, for the gate alone: the claims are still
    made and scored)."""

    enabled: bool = True
    category_threshold: float = Field(default=0.60, ge=0, le=1)
    inaction_comparison: bool = True
    inaction_margin: float = Field(default=0.05, ge=0, le=1)


class PredictionSection(Section):
    """The prediction engine ([prediction], Bardo 17-prediction-engine.md): the residual
    corrector's ring of `residual_buffer_size` residuals per (category, regime), the
    coverage it aims at (`target_coverage`), the residuals it needs before it corrects a
    claim (`min_correction_samples`), its adaptive weight's `forgetting_rate`; a missed
    claim whose residual lies `novelty_threshold` standard deviations or more from its
    (category, regime)'s mean is novel (what a senescent golem's dream replays); and its
    action gate."""

    residual_buffer_size: int = Field(default=256, ge=1)
    target_coverage: float = Field(default=0.85, gt=0, le=1)
    min_correction_samples: int = Field(default=10, ge=1)
    novelty_threshold: float = Field(default=2.0, ge=0)
    forgetting_rate: float = Field(default=0.005, ge=0, le=1)
    gate: PredictionGateSection = PredictionGateSection()

    def corrector(self) -> CorrectorParams:
        return CorrectorParams(
            buffer_size=self.residual_buffer_size,
            target_coverage=self.target_coverage,
            min_samples=self.min_correction_samples,
            forgetting_rate=self.forgetting_rate,
        )


class CalibrationSection(Section):
    """The confidence calibrator ([calibration], Bardo 17-prediction-engine.md): an
    isotonic curve per (category, regime) over the last `max_history` (stated confidence,
    correct) pairs, refitted every `refit_interval` samples and used from `min_samples`;
    its expected calibration error over `num_bins` bins, above `ece_alarm_threshold` an
    alarm the daimon hears. `enabled = false`: confidences go unchanged (the error is
    still measured)."""

    enabled: bool = True
    min_samples: int = Field(default=30, ge=1)
    refit_interval: int = Field(default=50, ge=1)
    max_history: int = Field(default=2048, ge=1)
    ece_alarm_threshold: float = Field(default=0.25, ge=0, le=1)
    num_bins: int = Field(default=20, ge=1)

    def params(self) -> CalibrationParams:
        return CalibrationParams(
            enabled=self.enabled,
            min_samples=self.min_samples,
            refit_interval=self.refit_interval,
            max_history=self.max_history,
            ece_alarm_threshold=self.ece_alarm_threshold,
            num_bins=self.num_bins,
        )
