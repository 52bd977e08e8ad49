"""Risk: every rebalance, hedge or exit passes a five-layer assessment before it happens.
A rejection blocks the action; an adjusted size caps it. Never degraded."""

from golem.subsystems.risk.decision import LayerResult, LayerVerdict, RiskAssessment, RiskLayers

__all__ = ["LayerResult", "LayerVerdict", "RiskAssessment", "RiskLayers"]
