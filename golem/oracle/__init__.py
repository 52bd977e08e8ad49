"""The prediction engine (Bardo's Oracle, prd/01-golem/17-prediction-engine.md): falsifiable
claims resolved arithmetically against the world, the prediction book and its accuracy
reports, the residual corrector, the confidence calibrator, the action gate, and epistemic
fitness on a chance-corrected scale. Pure, zero inference cost; imports nothing else of golem.
"""

from golem.oracle.book import (
    AccuracyReport,
    Category,
    Prediction,
    PredictionBook,
    PredictionLedger,
    Resolution,
    Source,
)
from golem.oracle.calibrator import (
    CalibrationParams,
    ConfidenceCalibrator,
    expected_calibration_error,
    pav,
)
from golem.oracle.categories import (
    EQUITY,
    HEALTH,
    PRICE,
    VOLATILITY,
    Draft,
    VolatilityBands,
    holding_is_optimal,
    position_health,
    price_direction,
    volatility_regime,
)
from golem.oracle.claims import (
    Above,
    Band,
    Below,
    Boolean,
    Claim,
    Direction,
    InRange,
    Move,
    WithinBps,
)
from golem.oracle.corrector import (
    CorrectorParams,
    ResidualCorrector,
    ResidualPrior,
    ResidualStats,
)
from golem.oracle.fitness import DOMAIN_ALPHAS, DOMAIN_WEIGHTS, EpistemicFitness, FitnessParams
from golem.oracle.gate import GatedTrade, GateParams, GateVerdict, permits, required_accuracy
from golem.oracle.genome import INHERITANCE_WEIGHT, GenomeError, OracleGenome
from golem.oracle.oracle import Oracle
from golem.oracle.skill import peirce

__all__ = [
    "DOMAIN_ALPHAS",
    "DOMAIN_WEIGHTS",
    "EQUITY",
    "HEALTH",
    "INHERITANCE_WEIGHT",
    "PRICE",
    "VOLATILITY",
    "Above",
    "AccuracyReport",
    "Band",
    "Below",
    "Boolean",
    "CalibrationParams",
    "Category",
    "Claim",
    "ConfidenceCalibrator",
    "CorrectorParams",
    "Direction",
    "Draft",
    "EpistemicFitness",
    "FitnessParams",
    "GateParams",
    "GateVerdict",
    "GatedTrade",
    "GenomeError",
    "InRange",
    "Move",
    "Oracle",
    "OracleGenome",
    "Prediction",
    "PredictionBook",
    "PredictionLedger",
    "ResidualCorrector",
    "ResidualPrior",
    "ResidualStats",
    "Resolution",
    "Source",
    "VolatilityBands",
    "WithinBps",
    "expected_calibration_error",
    "holding_is_optimal",
    "pav",
    "peirce",
    "permits",
    "position_health",
    "price_direction",
    "required_accuracy",
    "volatility_regime",
]
