"""Risk: every rebalance, hedge or exit passes a provenance check (external text may not
move the money by itself) and a five-layer assessment before it happens. A rejection
blocks the action; an adjusted size caps it. Never degraded."""

from golem.subsystems.risk.decision import RiskAssessment
from golem.subsystems.risk.layers import LAYERS, LayerResult, RiskLayers
from golem.subsystems.risk.limits import RiskLimits, Sizing, adds_exposure, assess, trade_notional
from golem.subsystems.risk.opinions import Reconciled, allowed_usd, stricter
from golem.subsystems.risk.provenance import (
    Provenance,
    ProvenanceCheck,
    ProvenancePolicy,
    in_place_of_nothing,
    provenance_in,
    untraded_needs_check,
)
from golem.subsystems.risk.stake import Stake, StakeBands, stake_of
from golem.subsystems.risk.subsystem import Risk, RiskConfig

__all__ = [
    "LAYERS",
    "LayerResult",
    "Provenance",
    "ProvenanceCheck",
    "ProvenancePolicy",
    "Reconciled",
    "Risk",
    "RiskAssessment",
    "RiskConfig",
    "RiskLayers",
    "RiskLimits",
    "Sizing",
    "Stake",
    "StakeBands",
    "adds_exposure",
    "allowed_usd",
    "assess",
    "in_place_of_nothing",
    "provenance_in",
    "stake_of",
    "stricter",
    "trade_notional",
    "untraded_needs_check",
]
