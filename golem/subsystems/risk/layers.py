"""The five layers of a risk assessment (hard shields, position sizing, adaptive
guardrails, observation, DeFi threats): each one's result, and the scores a pass may reach
and a fail must.
"""

from __future__ import annotations

from pydantic import Field

from golem.subsystems.parts import Fraction, Part

__all__ = ["FAIL_AT_LEAST", "LAYERS", "PASS_AT_MOST", "LayerResult", "RiskLayers"]


class LayerResult(Part):
    passed: bool
    score: Fraction = Field(description="risk in this layer: 0 none .. 1 severe")
    detail: str = Field(default="", max_length=160)


class RiskLayers(Part):
    hard_shields: LayerResult = Field(description="limits no answer may cross")
    position_sizing: LayerResult
    adaptive_guardrails: LayerResult = Field(description="what the phase and vitality allow")
    observation: LayerResult = Field(description="the market as observed: volatility, trend")
    defi_threats: LayerResult = Field(description="protocol risk: health factor, liquidation")


LAYERS = tuple(RiskLayers.model_fields)
PASS_AT_MOST = 0.7  # a layer's score, passed
FAIL_AT_LEAST = 0.3  # and failed
